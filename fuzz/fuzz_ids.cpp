// Fuzz target: the identifier parser and recogniser (harness/ids). Besides
// "no crash, no sanitizer report", it checks the properties every caller
// relies on: the strict check and the parser agree, a parsed UUID formats
// back to its text, a canonical recognition has no defects and round-trips,
// a lower-case ULID parse formats back, and looks_like_id() holds for every
// text the recogniser recovers a UUID or ULID from without non-ASCII input.
#include "ids/ids.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace idconform::ids;

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    const bool canonical = is_canonical(text);
    const auto parsed = parse_canonical(text);
    require(canonical == parsed.has_value());
    if (parsed) {
        require(format(*parsed) == text);
        for (int v = 0; v <= 15; ++v)
            require(is_canonical_version(text, v) == (version(*parsed) == v && variant(*parsed) == Variant::rfc9562));
        (void)decode_v7(*parsed);
        (void)decode_v1(*parsed);
        (void)decode_v6(*parsed);
        (void)decode_v8(*parsed);
        (void)to_string(variant(*parsed));
        (void)to_string(special(*parsed));
    }

    const Recognition r = recognize(text);
    (void)r.describe();
    (void)defect_names(r.defects);
    if (r.canonical) require(r.defects == Defect::none);
    if (r.kind == Kind::uuid && r.canonical) {
        require(canonical);
        require(r.value && format(*r.value) == text);
    }
    if (r.kind == Kind::uuid && r.value) require(r.version == version(*r.value));
    const Recognition ru = recognize_uuid(text);
    if (ru.canonical) require(canonical);

    for (auto policy : {CasePolicy::any, CasePolicy::lower_only, CasePolicy::upper_only}) {
        const UlidParse u = parse_ulid(text, policy);
        require(u.value.has_value() == (u.error == UlidError::none));
        if (u.value) {
            require(text.size() == 26);
            (void)u.value->unix_ms();
            const std::string lower = format_ulid(*u.value, true);
            const std::string upper = format_ulid(*u.value, false);
            if (policy == CasePolicy::lower_only) require(parse_ulid(lower, policy).value == u.value);
            if (policy == CasePolicy::upper_only) require(parse_ulid(upper, policy).value == u.value);
        } else {
            require(u.error == UlidError::wrong_length || u.error == UlidError::overflow || u.position < text.size());
        }
    }

    (void)looks_like_id(text);
    (void)id_named_field(text);
    (void)to_string(check_viewable(text));
    if (const auto f = infer_viewable_format(text)) {
        require(check_viewable(text, *f) == ViewableError::none || f->length == 0 ||
                text.size() != f->prefix.size() + f->length);
        (void)viewable_pattern(*f);
    }
    std::uint8_t out[16];
    (void)crockford_decode(text.substr(0, 26), out, sizeof out);
    for (char c : text.substr(0, 64)) (void)crockford_value(c);
    return 0;
}
