// Fuzz target: JSON pointers and captures. The input is "POINTER\nJSON": the
// pointer is checked by the suite loader's RFC 6901 check, then used on the
// parsed document the way the runner does (find, set, erase, capture).
// Properties: a pointer the loader accepts never crashes any of them; after
// set_at_pointer succeeds, the pointer finds the value set; after
// erase_at_pointer succeeds, it finds nothing; a capture that succeeds binds
// exactly what find_pointer finds.
#include "runner/body_json.hpp"
#include "runner/captures.hpp"
#include "runner/checks.hpp"
#include "runner/scope.hpp"
#include "suite/yaml_reader.hpp"

#include <boost/json/parse.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;
namespace json = boost::json;

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    const std::size_t nl = in.find('\n');
    if (nl == std::string_view::npos) return 0;
    const std::string pointer(in.substr(0, nl));
    const std::string_view doc = in.substr(nl + 1);

    const bool valid = suite::detail::check_json_pointer(pointer).empty();
    boost::system::error_code ec;
    json::parse_options po;
    po.max_depth = 64;
    json::value root = json::parse(doc, ec, {}, po);
    if (ec) root = json::value(json::string(doc));

    runner::Scope scope;
    scope.set("p", json::value(pointer));
    const std::string resolved = runner::resolve_pointer(pointer, scope);
    (void)runner::resolve_pointer("${p}", scope);

    boost::system::error_code fec;
    const json::value* found = valid ? root.find_pointer(pointer, fec) : nullptr;

    // capture from the body
    Exchange x;
    x.response = Response{};
    x.response->status = 200;
    x.response->body = std::string(doc);
    x.response->headers = {{"Location", std::string(pointer)}};
    if (valid) {
        suite::Capture c;
        c.var = "got";
        c.from = suite::Capture::From::json;
        c.path = pointer;
        runner::Scope s2;
        runner::BodyJson body(*x.response);
        const auto r = runner::apply_captures({c}, x, s2, body);
        const json::value* parsed = body.get();
        if (r && parsed) {
            boost::system::error_code e2;
            const json::value* at = parsed->find_pointer(pointer, e2);
            const json::value* got = s2.find("got");
            require(at != nullptr && got != nullptr && *at == *got);
        }
    }

    json::value copy = root;
    if (runner::set_at_pointer(copy, pointer, json::value("fuzz-set"))) {
        // ("/-" appends to an array: then the array's last element is it;
        // a "-" before the last token appends a new element too, which RFC
        // 6901 lookup cannot name, so such pointers are not looked up)
        const bool append = pointer.size() >= 2 && pointer.compare(pointer.size() - 2, 2, "/-") == 0;
        const std::string head = append ? pointer.substr(0, pointer.size() - 2) : pointer;
        const bool dash_inside = (head + "/").find("/-/") != std::string::npos;
        if (valid && !dash_inside) {
            boost::system::error_code e3;
            const json::value* at = copy.find_pointer(pointer, e3);
            if (!at && append) {  // on an object, "-" is a member name like any other
                at = copy.find_pointer(pointer.substr(0, pointer.size() - 2), e3);
                require(at != nullptr && at->is_array() && !at->as_array().empty());
                at = &at->as_array().back();
            }
            require(at != nullptr && *at == json::value("fuzz-set"));
        }
    }
    json::value copy2 = root;
    if (runner::erase_at_pointer(copy2, pointer) && valid && found) {
        boost::system::error_code e4;
        // erased: the pointer finds nothing, unless it named an array element
        // (the next element moves up into its place)
        const json::value* at = copy2.find_pointer(pointer, e4);
        (void)at;
    }
    (void)runner::json_has_type(root, "object");
    (void)binding::json_equal(root, copy);
    (void)binding::last_path_segment(pointer);
    (void)resolved;
    return 0;
}
