// Pattern verdicts from behaviour. See pattern_judge.hpp.
#include "schema/pattern_judge.hpp"

#include "ids/ids.hpp"
#include "ids/kind.hpp"

#include <re2/re2.h>

#include <map>
#include <memory>

namespace idconform::schema {

namespace {

// RFC 9562 Appendix A.3 and A.6 (the same values as vectors/rfc9562.yaml,
// which tests/schema checks).
const std::vector<std::string> bases = {"919108f7-52d1-4320-9bac-f847db4148a8", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"};

std::string join_versions(const std::set<int>& v) {
    std::string out;
    for (int x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
    return out;
}

PatternVerdict compute(const std::string& pattern) {
    PatternVerdict out;
    RE2::Options opts;
    opts.set_log_errors(false);
    opts.set_max_mem(8 << 20);
    RE2 re(pattern, opts);
    if (!re.ok()) {
        out.compiles = false;
        out.error = re.error();
        return out;
    }
    auto accepts = [&](std::string_view s) { return RE2::PartialMatch(s, re); };
    std::set<std::string> forms;
    for (const auto& base : bases) {
        const auto u = *ids::parse_canonical(base);
        const bool ok = accepts(base);
        if (ok) out.versions.insert(ids::version(u));
        for (const auto& m : ids::mutations(u)) {
            if (!accepts(m.text)) continue;
            if (m.name.rfind("version-", 0) == 0) {
                out.versions.insert(std::stoi(m.name.substr(8)));
            } else if (m.name.rfind("variant-", 0) == 0) {
                out.wrong_variant = true;
            } else {
                forms.insert(m.name);
            }
        }
        if (accepts("x" + base) || accepts(base + "x")) out.unanchored = true;
    }
    out.empty = accepts("");
    out.nil = accepts(ids::format(ids::nil_uuid));
    out.max = accepts(ids::format(ids::max_uuid));
    out.other_forms.assign(forms.begin(), forms.end());
    return out;
}

}  // namespace

bool PatternVerdict::exact_for(int version) const {
    return compiles && versions == std::set<int>{version} && !nil && !max && !wrong_variant && !unanchored &&
           other_forms.empty();
}

std::string PatternVerdict::faults() const {
    if (!compiles) return "does not compile in RE2 (" + error + ")";
    std::vector<std::string> parts;
    if (versions.size() == 16) parts.push_back("admits every version");
    else if (versions.size() > 1) parts.push_back("admits versions " + join_versions(versions));
    if (wrong_variant) parts.push_back("admits a non-RFC variant");
    if (nil) parts.push_back("admits the Nil UUID");
    if (max) parts.push_back("admits the Max UUID");
    if (!other_forms.empty()) {
        std::string f;
        for (std::size_t i = 0; i < other_forms.size() && i < 3; ++i) f += (f.empty() ? "" : ", ") + other_forms[i];
        if (other_forms.size() > 3) f += " and " + std::to_string(other_forms.size() - 3) + " more";
        parts.push_back("admits non-canonical forms (" + f + ")");
    }
    if (unanchored) parts.push_back("is not anchored (admits text around the id)");
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
    return out;
}

const PatternVerdict& judge_pattern(const std::string& pattern) {
    static std::map<std::string, std::unique_ptr<PatternVerdict>> cache;
    auto& slot = cache[pattern];
    if (!slot) slot = std::make_unique<PatternVerdict>(compute(pattern));
    return *slot;
}

std::string other_kind_exact(const std::string& pattern, const std::string& example) {
    RE2::Options opts;
    opts.set_log_errors(false);
    RE2 re(pattern, opts);
    if (!re.ok() || !RE2::PartialMatch(example, re)) return "";
    auto rejects_all = [&](const std::vector<ids::Mutation>& ms) {
        for (const auto& m : ms)
            if (RE2::PartialMatch(m.text, re)) return false;
        return !RE2::PartialMatch("x" + example, re) && !RE2::PartialMatch(example + "x", re);
    };
    if (const auto u = ids::parse_ulid(example, ids::CasePolicy::lower_only).value)
        return rejects_all(ids::ulid_mutations(*u)) ? std::string(ids::kind_name(ids::IdKind::ulid)) : "";
    if (const auto f = ids::infer_viewable_format(example))
        return rejects_all(ids::viewable_mutations(example, *f)) ? std::string(ids::kind_name(ids::IdKind::viewable)) : "";
    return "";
}

std::string canonical_pattern(int version) {
    return ids::kind_pattern(version == 4 ? ids::IdKind::uuidv4 : ids::IdKind::uuidv7);  // the one definition
}

const std::vector<std::string>& probe_bases() { return bases; }

}  // namespace idconform::schema
