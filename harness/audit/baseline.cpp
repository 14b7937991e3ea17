// Reading the failures out of an earlier JSON report.
#include "audit/baseline.hpp"

#include <boost/json.hpp>

#include <fstream>
#include <sstream>

namespace idconform::audit {

namespace json = boost::json;

std::string case_key(std::string_view suite, std::string_view name) {
    std::string k;
    k.reserve(suite.size() + name.size() + 1);
    k.append(suite);
    k += '\x1f';  // a unit separator: cannot appear in a YAML name by accident
    k.append(name);
    return k;
}

BaselineLoad load_baseline_text(std::string_view text, const std::string& path) {
    BaselineLoad out;
    const auto fail = [&](const std::string& why) {
        out.error = "baseline '" + path + "' " + why;
        return out;
    };
    boost::system::error_code ec;
    json::value doc = json::parse(text, ec);
    if (ec) return fail("is not JSON (" + ec.message() + "): give a report written by idconform run --json");
    const auto* root = doc.if_object();
    const json::value* tool = root ? root->if_contains("tool") : nullptr;
    const json::value* suites = root ? root->if_contains("suites") : nullptr;
    if (!tool || !tool->is_string() || tool->get_string() != "idconform" || !suites || !suites->is_array())
        return fail("is not an idconform JSON report (no \"tool\": \"idconform\" and \"suites\" list)");
    Baseline b;
    b.path = path;
    for (const auto& sv : suites->get_array()) {
        const auto* s = sv.if_object();
        if (!s) return fail("has a suite that is not an object");
        const auto* sname = s->if_contains("name");
        const auto* cases = s->if_contains("cases");
        if (!sname || !sname->is_string() || !cases || !cases->is_array())
            return fail("has a suite without \"name\" or \"cases\"");
        for (const auto& cv : cases->get_array()) {
            const auto* c = cv.if_object();
            const json::value* name = c ? c->if_contains("name") : nullptr;
            const json::value* outcome = c ? c->if_contains("outcome") : nullptr;
            if (!name || !name->is_string() || !outcome || !outcome->is_string())
                return fail("has a case without \"name\" or \"outcome\"");
            const auto o = outcome->get_string();
            if (o != "failed" && o != "waived") continue;
            Baseline::Entry e;
            e.suite = std::string(sname->get_string());
            e.name = std::string(name->get_string());
            if (const auto* rules = c->if_contains("rules"); rules && rules->is_array())
                for (const auto& r : rules->get_array())
                    if (r.is_string()) e.rules.emplace_back(r.get_string());
            const std::string key = case_key(e.suite, e.name);
            b.failing.emplace(key, std::move(e));
        }
    }
    out.baseline = std::move(b);
    return out;
}

BaselineLoad load_baseline(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        BaselineLoad out;
        out.error = "cannot read baseline '" + path + "': no such file or not readable";
        return out;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return load_baseline_text(text.str(), path);
}

}  // namespace idconform::audit
