// Reading an entity out of an answer (see answers.hpp).
#include "binding/answers.hpp"

#include <cstdint>

namespace idconform::binding {

namespace json = boost::json;

bool says_not_found(const suite::StatusExpect::NotFound& nf, int status, const json::value* body, bool no_body) {
    if (status != nf.status) return false;
    if (nf.empty) return no_body;
    if (!body) return false;
    if (nf.at.empty()) return json_equal(*body, nf.body);
    boost::system::error_code ec;
    const json::value* v = body->find_pointer(nf.at, ec);
    return v && json_equal(*v, nf.equals);
}

bool json_equal(const json::value& a, const json::value& b) {
    if (a.is_number() && b.is_number()) {
        if (a.is_double() || b.is_double()) return a.to_number<double>() == b.to_number<double>();
        if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
        if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
        const auto& i = a.is_int64() ? a : b;
        const auto& u = a.is_int64() ? b : a;
        return i.get_int64() >= 0 && static_cast<std::uint64_t>(i.get_int64()) == u.get_uint64();
    }
    if (a.kind() != b.kind()) return false;
    if (a.is_array()) {
        const auto &x = a.as_array(), &y = b.as_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!json_equal(x[i], y[i])) return false;
        return true;
    }
    if (a.is_object()) {
        const auto &x = a.as_object(), &y = b.as_object();
        if (x.size() != y.size()) return false;
        for (const auto& kv : x) {
            const auto* o = y.if_contains(kv.key());
            if (!o || !json_equal(kv.value(), *o)) return false;
        }
        return true;
    }
    return a == b;
}

std::string last_path_segment(std::string_view url) {
    if (auto q = url.find_first_of("?#"); q != std::string_view::npos) url = url.substr(0, q);
    while (!url.empty() && url.back() == '/') url.remove_suffix(1);
    const auto slash = url.rfind('/');
    return std::string(slash == std::string_view::npos ? url : url.substr(slash + 1));
}

}  // namespace idconform::binding
