// SHA-256 of the files a run's verdicts depend on (profile, waivers), so an
// audit report names exactly what was used.
#include "audit/metadata.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <memory>

namespace idconform::audit {

std::optional<std::string> file_sha256(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) return std::nullopt;
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return std::nullopt;
    char buf[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0)
        if (EVP_DigestUpdate(ctx.get(), buf, n) != 1) return std::nullopt;
    if (std::ferror(f.get())) return std::nullopt;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    if (EVP_DigestFinal_ex(ctx.get(), md, &len) != 1) return std::nullopt;
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
        out += hex[md[i] >> 4];
        out += hex[md[i] & 15];
    }
    return out;
}

}  // namespace idconform::audit
