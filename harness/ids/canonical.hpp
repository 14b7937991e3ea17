// The canonical-UUID byte test (8-4-4-4-12 lower-case hex), inline: the
// one definition behind ids::is_canonical and the scan's NDJSON fast path,
// which calls it per string and needs its constants to stay in registers
// across its loop (an out-of-line call cost 7% of a scan).
#pragma once

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace idconform::ids::detail {

#if defined(__SSE2__)
// 0xff in each byte lane that holds what the canonical form wants there: a
// hyphen where `hyphen_lanes` is set, a lower-case hex digit elsewhere.
// Unsigned range tests (c - lo < n) done as signed compares after flipping
// the top bit, since SSE2 has only signed byte compares.
inline __m128i canonical_lanes_ok(__m128i x, __m128i hyphen_lanes) noexcept {
    const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
    const auto in_range = [&](char lo, char n) {
        return _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(x, _mm_set1_epi8(lo)), flip),
                              _mm_set1_epi8(static_cast<char>(n ^ 0x80)));
    };
    const __m128i hex = _mm_or_si128(in_range('0', 10), in_range('a', 6));
    const __m128i hyphen = _mm_cmpeq_epi8(x, _mm_set1_epi8('-'));
    return _mm_or_si128(_mm_andnot_si128(hyphen_lanes, hex), _mm_and_si128(hyphen_lanes, hyphen));
}

// Whether the 36 bytes at p are a canonical UUID. Three overlapping 16-byte
// blocks at 0, 16 and 20 cover them; hyphens sit at 8 and 13, then 18 and 23
// (lanes 2 and 7 of the second block, lane 3 of the third).
inline bool canonical36(const char* p) noexcept {
    const __m128i h0 = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0);
    const __m128i h1 = _mm_setr_epi8(0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i h2 = _mm_setr_epi8(0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i all = _mm_and_si128(
        _mm_and_si128(canonical_lanes_ok(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), h0),
                      canonical_lanes_ok(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)), h1)),
        canonical_lanes_ok(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 20)), h2));
    return _mm_movemask_epi8(all) == 0xffff;
}
#else
inline bool canonical36(const char* p) noexcept {
    for (int i = 0; i < 36; ++i) {
        const char c = p[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') return false;
        } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
    }
    return true;
}
#endif

// canonical36 and the RFC 9562 variant (the byte at 19 is 8, 9, a or b): a
// UUID whose only remaining question is its version (the file scan's shortcut).
inline bool canonical_rfc36(const char* p) noexcept {
    return canonical36(p) && (p[19] == '8' || p[19] == '9' || p[19] == 'a' || p[19] == 'b');
}

}  // namespace idconform::ids::detail
