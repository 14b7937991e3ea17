// SHA-256 of the files a run's verdicts depend on (profile, waivers), so an
// audit report names exactly what was used.
#include "audit/metadata.hpp"

#include "core/input_file.hpp"

#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

namespace idconform::audit {

namespace {

using Digest = std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)>;

Digest new_digest() {
    Digest ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) ctx.reset();
    return ctx;
}

std::optional<std::string> hex_digest(EVP_MD_CTX* ctx) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    if (EVP_DigestFinal_ex(ctx, md, &len) != 1) return std::nullopt;
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
        out += hex[md[i] >> 4];
        out += hex[md[i] & 15];
    }
    return out;
}

}  // namespace

std::string text_sha256(std::string_view bytes) {
    const Digest ctx = new_digest();
    if (!ctx || EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1) return "";
    return hex_digest(ctx.get()).value_or("");
}

std::optional<std::string> file_sha256(const std::string& path) {
    // Through the input guard: a FIFO or device is never opened blocking
    // (nothing to hash that was not already read: nullopt).
    input::Policy p;
    p.what = "file";
    p.pipes = false;
    input::Opened f = input::open_input(path, p);
    if (f.error) return std::nullopt;
    const Digest ctx = new_digest();
    if (!ctx) return std::nullopt;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(f.fd.get(), buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::nullopt;
        if (n == 0) break;
        if (EVP_DigestUpdate(ctx.get(), buf, static_cast<std::size_t>(n)) != 1) return std::nullopt;
    }
    return hex_digest(ctx.get());
}

}  // namespace idconform::audit
