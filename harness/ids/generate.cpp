// Generators: UUIDv4 and UUIDv7 (RFC 9562 §6.2 Method 1, dedicated counter),
// monotonic ULIDs and random viewable ids. Randomness comes only from the
// OpenSSL CSPRNG.
#include "ids/ids.hpp"
#include "ids/detail.hpp"

#include <openssl/rand.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace idconform::ids {

namespace detail {
void secure_random(std::uint8_t* out, std::size_t n) {
    if (RAND_bytes(out, static_cast<int>(n)) != 1) {
        std::fputs("idconform: the OpenSSL CSPRNG failed; refusing to generate ids\n", stderr);
        std::abort();
    }
}
}  // namespace detail

std::int64_t system_unix_ms() noexcept {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {
// A per-thread buffer of CSPRNG bytes: one RAND_bytes call per 4 KiB instead
// of one per id.
struct RandomPool {
    std::array<std::uint8_t, 4096> buf{};
    std::size_t pos = sizeof(buf);
    void take(std::uint8_t* out, std::size_t n) {
        if (pos + n > buf.size()) {
            detail::secure_random(buf.data(), buf.size());
            pos = 0;
        }
        std::memcpy(out, buf.data() + pos, n);
        std::memset(buf.data() + pos, 0, n);  // never hand out the same bytes twice
        pos += n;
    }
};
thread_local RandomPool tls_pool;
}  // namespace

void detail::pooled_random(std::uint8_t* out, std::size_t n) { tls_pool.take(out, n); }

Uuid generate_v4() {
    Uuid u;
    tls_pool.take(u.bytes.data(), 16);
    u.bytes[6] = static_cast<std::uint8_t>((u.bytes[6] & 0x0f) | 0x40);
    u.bytes[8] = static_cast<std::uint8_t>((u.bytes[8] & 0x3f) | 0x80);
    return u;
}

// ------------------------------------------------------------------- v7

V7Generator::V7Generator(ms_clock clock) : clock_(std::move(clock)) {}

void V7Generator::take_random(std::uint8_t* out, std::size_t n) {
    if (pool_pos_ + n > pool_.size()) {
        detail::secure_random(pool_.data(), pool_.size());
        pool_pos_ = 0;
    }
    std::memcpy(out, pool_.data() + pool_pos_, n);
    pool_pos_ += n;
}

Uuid V7Generator::next() {
    constexpr std::uint64_t counter_max = (1ULL << 42) - 1;
    const std::int64_t now = clock_ ? clock_() : system_unix_ms();
    std::uint8_t tail[4];
    std::int64_t ms;
    std::uint64_t counter;
    {
        std::lock_guard lock(mutex_);
        auto reseed = [this] {
            std::uint8_t r[6];
            take_random(r, sizeof r);
            std::uint64_t v = 0;
            for (auto b : r) v = (v << 8) | b;
            counter_ = v & (counter_max >> 1);  // top bit clear: room to count up
        };
        if (now > last_ms_) {
            last_ms_ = now;
            reseed();
        } else if (counter_ < counter_max) {
            ++counter_;  // same millisecond, or the clock went back: keep order
        } else {
            ++last_ms_;  // counter exhausted: borrow the next millisecond
            reseed();
        }
        ms = last_ms_;
        counter = counter_;
        take_random(tail, sizeof tail);
    }
    Uuid u;
    auto& b = u.bytes;
    const auto t = static_cast<std::uint64_t>(ms);
    for (int i = 0; i < 6; ++i) b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(t >> (40 - 8 * i));
    b[6] = static_cast<std::uint8_t>(0x70 | ((counter >> 38) & 0x0f));
    b[7] = static_cast<std::uint8_t>(counter >> 30);
    b[8] = static_cast<std::uint8_t>(0x80 | ((counter >> 24) & 0x3f));
    b[9] = static_cast<std::uint8_t>(counter >> 16);
    b[10] = static_cast<std::uint8_t>(counter >> 8);
    b[11] = static_cast<std::uint8_t>(counter);
    std::memcpy(&b[12], tail, 4);
    return u;
}

// ----------------------------------------------------------------- ULID

UlidGenerator::UlidGenerator(ms_clock clock) : clock_(std::move(clock)) {}

Ulid UlidGenerator::next() {
    const std::int64_t now = clock_ ? clock_() : system_unix_ms();
    std::lock_guard lock(mutex_);
    if (now > last_ms_) {
        last_ms_ = now;
        tls_pool.take(last_rand_.data(), last_rand_.size());
    } else {
        // Same ms (or clock went back): previous random part + 1; on overflow
        // of the 80 bits, move to the next millisecond with fresh randomness.
        int i = static_cast<int>(last_rand_.size()) - 1;
        while (i >= 0 && ++last_rand_[static_cast<std::size_t>(i)] == 0) --i;
        if (i < 0) {
            ++last_ms_;
            tls_pool.take(last_rand_.data(), last_rand_.size());
        }
    }
    Ulid u;
    const auto t = static_cast<std::uint64_t>(last_ms_);
    for (int i = 0; i < 6; ++i) u.bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(t >> (40 - 8 * i));
    std::memcpy(&u.bytes[6], last_rand_.data(), last_rand_.size());
    return u;
}

// ------------------------------------------------------------- viewable

std::string generate_viewable(const ViewableFormat& f) {
    const std::size_t nbytes = (f.length * 5 + 7) / 8;
    std::vector<std::uint8_t> r(nbytes);
    detail::secure_random(r.data(), r.size());
    static constexpr char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    std::string out = f.prefix;
    for (std::size_t i = 0; i < f.length; ++i)
        out += alphabet[detail::get_bits(r.data(), static_cast<int>(i * 5), 5)];
    return out;
}

}  // namespace idconform::ids
