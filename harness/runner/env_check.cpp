// The environment a run needs, checked before it starts (see env_check.hpp).
#include "runner/env_check.hpp"

#include "core/input_file.hpp"

#include "runner/auth.hpp"
#include "runner/expansion.hpp"
#include "runner/scope.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <map>
#include <set>
#include <string>

namespace idconform::runner {

namespace {

namespace json = boost::json;

// Where a variable is first used, and by what ("principal 'alice', header
// Authorization"), and how many suites use it.
struct Use {
    SourcePos pos;
    std::string what;
    std::size_t suites = 0;
};

// The position of `${env:NAME` itself, looked for from `pos` on (a few lines:
// a principal's headers follow its name); `pos` when it is not found.
SourcePos exact(const SourcePos& pos, const std::string& name) {
    if (pos.line <= 0) return pos;
    input::Policy policy;
    policy.what = "profile";
    policy.pipes = false;  // read again: a pipe has nothing left to give
    const input::InputFile file = input::read_input(pos.file, policy);
    if (!file.text) return pos;
    std::istringstream in(*file.text);
    const std::string needle = "${env:" + name;
    std::string line;
    for (int n = 1; std::getline(in, line) && n < pos.line + 16; ++n) {
        if (n < pos.line) continue;
        const auto from = n == pos.line && pos.column > 0 ? static_cast<std::size_t>(pos.column - 1) : 0;
        if (const auto at = line.find(needle, std::min(from, line.size())); at != std::string::npos)
            return SourcePos{pos.file, n, static_cast<int>(at) + 1};
    }
    return pos;
}

void strings_of(const json::value& v, TemplateRefs& refs) {
    if (v.is_string()) template_refs(v.get_string(), refs);
    else if (v.is_array())
        for (const auto& e : v.get_array()) strings_of(e, refs);
    else if (v.is_object())
        for (const auto& kv : v.get_object()) strings_of(kv.value(), refs);
}

class Collector {
public:
    explicit Collector(const RunOptions& o) : o_(o) {}

    void suite(const suite::Suite& s) {
        seen_in_suite_.clear();
        for (const auto& v : s.vars) {
            if (v.deferred) continue;  // filled in when used, by a case that may not run
            if (std::any_of(o_.vars.begin(), o_.vars.end(), [&](const auto& kv) { return kv.first == v.name; }))
                continue;  // --var replaces it
            TemplateRefs refs;
            strings_of(v.value, refs);
            add(refs, v.pos, "variable '" + v.name + "'");
        }
        if (!o_.base_url) one(s.target.base_url, s.target.pos, "the target's base_url");
        if (s.target.grpc) one(s.target.grpc->address, s.target.grpc->pos, "the gRPC address");
        for (const auto& [k, v] : s.target.headers) one(v, s.target.pos, "the target's header " + k);
        for (const auto& [k, v] : s.target.kafka.properties) one(v, s.target.kafka.pos, "the Kafka property " + k);
        for (const auto& key : principals_used(s)) {
            const auto it = s.principals.find(key);
            if (it == s.principals.end()) continue;
            const suite::Principal& p = it->second;
            const std::string who = p.name.empty() ? key : p.name;
            for (const auto& [k, v] : p.headers) one(v, p.pos, "principal '" + who + "', header " + k);
        }
    }

    [[nodiscard]] std::vector<Diagnostic> diagnostics() const {
        std::vector<Diagnostic> out;
        for (const auto& name : order_) {
            const Use& u = uses_.at(name);
            Diagnostic d;
            d.pos = u.pos;
            d.title = "environment variable " + name + " is not set, and " + u.what + " needs it" +
                      (u.suites > 1 ? " (as do " + std::to_string(u.suites - 1) + " more suites)" : "") +
                      ": nothing was sent";
            d.hint = "export " + name + "=..., or write ${env:" + name + ":-default} to give it a default";
            out.push_back(std::move(d));
        }
        return out;
    }

private:
    // The principals the steps of a suite that may run send as.
    std::vector<std::string> principals_used(const suite::Suite& s) const {
        std::vector<std::string> out;
        auto note = [&](const suite::Step& st) {
            const std::string& p = step_principal(st);
            if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
        };
        for (const auto& st : s.setup) note(st);
        for (const auto& st : s.teardown) note(st);
        for (const auto& c : s.cases) {
            if (!c.skip.empty()) continue;  // sends nothing
            if (selects(o_) && !may_select(o_, s, c)) continue;
            for (const auto& st : c.steps) note(st);
        }
        return out;
    }

    void one(const std::string& tmpl, const SourcePos& pos, const std::string& what) {
        TemplateRefs refs;
        template_refs(tmpl, refs);
        add(refs, pos, what);
    }

    void add(const TemplateRefs& refs, const SourcePos& pos, const std::string& what) {
        for (const auto& [name, has_default] : refs.env) {
            if (has_default || std::getenv(name.c_str())) continue;
            auto [it, fresh] = uses_.try_emplace(name);
            if (fresh) {
                it->second.pos = exact(pos, name);
                it->second.what = what;
                order_.push_back(name);
            }
            if (seen_in_suite_.insert(name).second) ++it->second.suites;
        }
    }

    const RunOptions& o_;
    std::map<std::string, Use> uses_;
    std::vector<std::string> order_;
    std::set<std::string> seen_in_suite_;
};

}  // namespace

std::vector<Diagnostic> missing_environment(const std::vector<suite::Suite>& suites, const RunOptions& options) {
    const std::vector<bool> selected = suites_selected(suites, options);
    Collector c(options);
    for (std::size_t i = 0; i < suites.size(); ++i)
        if (selected[i]) c.suite(suites[i]);
    return c.diagnostics();
}

}  // namespace idconform::runner
