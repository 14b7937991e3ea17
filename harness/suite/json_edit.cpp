// JSON pointer edits (RFC 6901, with '-' appending to arrays on set).
#include "suite/json_edit.hpp"

#include <optional>
#include <vector>

namespace idconform::suite {

namespace json = boost::json;

std::string resolve_pointer(const std::string& ptr, const Scope& scope) {
    if (ptr.find("${") == std::string::npos) return ptr;
    auto r = interpolate(ptr, scope);
    return r ? *r : ptr;
}

namespace {
std::vector<std::string> pointer_tokens(std::string_view p) {
    std::vector<std::string> out;
    if (p.empty()) return out;
    std::size_t i = 1;
    while (true) {
        const std::size_t next = p.find('/', i);
        std::string tok(p.substr(i, next == std::string_view::npos ? std::string_view::npos : next - i));
        std::string unesc;
        for (std::size_t k = 0; k < tok.size(); ++k) {
            if (tok[k] == '~' && k + 1 < tok.size()) { unesc += tok[k + 1] == '1' ? '/' : '~'; ++k; }
            else unesc += tok[k];
        }
        out.push_back(std::move(unesc));
        if (next == std::string_view::npos) break;
        i = next + 1;
    }
    return out;
}
}  // namespace

bool set_at_pointer(json::value& root, std::string_view pointer, json::value v) {
    if (pointer.empty()) { root = std::move(v); return true; }
    if (pointer[0] != '/') return false;
    const auto toks = pointer_tokens(pointer);
    json::value* cur = &root;
    for (std::size_t i = 0; i < toks.size(); ++i) {
        const bool last = i + 1 == toks.size();
        if (cur->is_array()) {
            auto& a = cur->as_array();
            std::size_t idx = 0;
            if (toks[i] == "-") idx = a.size();
            else {
                // RFC 6901 array index: digits, no leading zero; "" names no
                // element (it set element 0; found by fuzz_json_pointer)
                const std::string& t = toks[i];
                if (t.empty() || t.size() > 18 || (t.size() > 1 && t[0] == '0')) return false;
                for (char c : t) { if (c < '0' || c > '9') return false; idx = idx * 10 + static_cast<std::size_t>(c - '0'); }
            }
            if (idx > a.size()) return false;
            if (idx == a.size()) a.emplace_back(nullptr);
            if (last) { a[idx] = std::move(v); return true; }
            cur = &a[idx];
        } else {
            if (!cur->is_object()) *cur = json::object();
            auto& o = cur->as_object();
            if (last) { o[toks[i]] = std::move(v); return true; }
            cur = &o[toks[i]];
        }
    }
    return true;
}

bool erase_at_pointer(json::value& root, std::string_view pointer) {
    if (pointer.empty() || pointer[0] != '/') return false;
    const auto toks = pointer_tokens(pointer);
    // An existing array element: digits only, inside the array ('-' names no element).
    auto index = [](const std::string& tok, std::size_t size) -> std::optional<std::size_t> {
        if (tok.empty() || tok.size() > 18) return std::nullopt;
        std::size_t idx = 0;
        for (char c : tok) {
            if (c < '0' || c > '9') return std::nullopt;
            idx = idx * 10 + static_cast<std::size_t>(c - '0');
        }
        return idx < size ? std::optional<std::size_t>(idx) : std::nullopt;
    };
    json::value* cur = &root;
    for (std::size_t i = 0; i + 1 < toks.size(); ++i) {
        if (cur->is_object()) {
            auto* n = cur->as_object().if_contains(toks[i]);
            if (!n) return false;
            cur = n;
        } else if (cur->is_array()) {
            const auto idx = index(toks[i], cur->as_array().size());
            if (!idx) return false;
            cur = &cur->as_array()[*idx];
        } else {
            return false;
        }
    }
    if (cur->is_array()) {
        auto& a = cur->as_array();
        const auto idx = index(toks.back(), a.size());
        if (!idx) return false;
        a.erase(a.begin() + static_cast<std::ptrdiff_t>(*idx));
        return true;
    }
    return cur->is_object() && cur->as_object().erase(toks.back()) > 0;
}

}  // namespace idconform::suite
