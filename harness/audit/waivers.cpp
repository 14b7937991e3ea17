// Waiver file loading (with the shared YAML reader's diagnostics) and the
// matching of a waiver against a case.
#include "audit/waivers.hpp"

#include "suite/input_guard.hpp"

#include "core/glob.hpp"
#include "suite/yaml_reader.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

namespace idconform::audit {

namespace detail = suite::detail;

namespace {

const std::vector<std::string> top_keys = {"waivers"};
const std::vector<std::string> waiver_keys = {"rule", "suite", "resource", "case", "reason", "owner", "expires"};
constexpr std::string_view waiver_example =
    "- rule: DATA-ID-002\n    case: \"*upper-case*\"\n    reason: legacy clients, fix in TICKET-12\n"
    "    owner: alice@example.com\n    expires: 2027-03-31";

// A string that says something (not only blanks).
bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

// Days from civil date (Howard Hinnant's algorithm): exact for the proleptic
// Gregorian calendar, no time zone involved.
long days_from_civil(long y, unsigned m, unsigned d) {
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long>(doe) - 719468;
}

class Loader {
public:
    Loader(const detail::SourceText& src, std::vector<Diagnostic>& out) : r_(src, out), out_(&out) {}

    std::optional<WaiverFile> load(const std::string& text) {
        auto root = detail::parse_document(r_, text, "waivers",
                                           "a mapping with a 'waivers' list, e.g.\nwaivers:\n  " +
                                               std::string(waiver_example));
        if (!root) return std::nullopt;
        auto top = r_.mapping({*root, root->Mark()}, "waivers file", top_keys, "waivers: [...]");
        if (!top) return std::nullopt;
        WaiverFile f;
        f.path = r_.source().path;
        const auto* list = top->find("waivers");
        if (list == nullptr) {
            r_.error(top->self, "the waivers file has no 'waivers' list", "write waivers:\n  " + std::string(waiver_example));
            return std::nullopt;
        }
        auto items = r_.sequence(list->val(), "waivers", waiver_example);
        if (!items) return std::nullopt;
        for (const auto& item : *items)
            if (auto w = waiver(item)) f.waivers.push_back(std::move(*w));
        if (!out_->empty()) return std::nullopt;
        return f;
    }

private:
    std::optional<Waiver> waiver(const detail::Val& v) {
        auto m = r_.mapping(v, "waiver", waiver_keys, waiver_example);
        if (!m) return std::nullopt;
        Waiver w;
        w.pos = r_.pos(v);
        bool ok = true;
        const auto required = [&](std::string_view key, std::string& into, std::string_view hint) {
            const auto* e = m->find(key);
            if (e == nullptr) {
                r_.error(m->self, "waiver without '" + std::string(key) + "'", std::string(hint));
                ok = false;
                return;
            }
            auto s = r_.string(e->val(), key, hint);
            if (!s) { ok = false; return; }
            if (blank(*s)) {
                r_.error(e->val(), "empty '" + std::string(key) + "'", std::string(hint));
                ok = false;
                return;
            }
            into = std::move(*s);
        };
        const auto optional_glob = [&](std::string_view key, std::string& into) {
            if (const auto* e = m->find(key)) {
                auto s = r_.string(e->val(), key, std::string(key) + ": \"*users*\"");
                if (!s) { ok = false; return; }
                if (s->empty()) {
                    r_.error(e->val(), "empty '" + std::string(key) + "' glob", "leave the key out to cover every " + std::string(key));
                    ok = false;
                    return;
                }
                into = std::move(*s);
            }
        };
        required("rule", w.rule, "the rule id the waiver accepts failures of, e.g. rule: DATA-ID-002");
        optional_glob("suite", w.suite);
        optional_glob("resource", w.resource);
        optional_glob("case", w.case_name);
        required("reason", w.reason, "why the failure is accepted, e.g. reason: legacy clients, fixed by TICKET-12");
        required("owner", w.owner, "who answers for it, e.g. owner: alice@example.com");
        required("expires", w.expires, "the last day the waiver holds, e.g. expires: 2027-03-31");
        if (ok) {
            const auto* e = m->find("expires");
            if (auto day = parse_day(w.expires)) w.expires_day = *day;
            else {
                r_.error(e->val(), "'" + w.expires + "' is not a date",
                         "write the last day the waiver holds as YYYY-MM-DD, e.g. expires: 2027-03-31");
                ok = false;
            }
        }
        if (!ok) return std::nullopt;
        return w;
    }

    detail::Reader r_;
    std::vector<Diagnostic>* out_;
};

}  // namespace

std::optional<long> parse_day(std::string_view s) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
    long v[3] = {};
    const std::size_t at[3] = {0, 5, 8}, len[3] = {4, 2, 2};
    for (int i = 0; i < 3; ++i) {
        for (std::size_t k = 0; k < len[i]; ++k) {
            const char ch = s[at[i] + k];
            if (ch < '0' || ch > '9') return std::nullopt;
            v[i] = v[i] * 10 + (ch - '0');
        }
    }
    const long y = v[0], m = v[1], d = v[2];
    if (m < 1 || m > 12 || d < 1) return std::nullopt;
    static constexpr int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (d > days[m - 1] + (m == 2 && leap ? 1 : 0)) return std::nullopt;
    return days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
}

long today_utc() {
    const auto now = std::chrono::system_clock::now();
    return static_cast<long>(std::chrono::floor<std::chrono::days>(now).time_since_epoch().count());
}

bool covers(const Waiver& w, const CaseResult& c) {
    // A failure is covered only under the rules it broke, every one of them
    // (a DATA-ID-006 waiver does not waive the DATA-ID-002 finding of a
    // DATA-ID-006 case).
    const std::vector<std::string> rules = reported_rules(c);
    const bool rule_ok = !rules.empty() && std::all_of(rules.begin(), rules.end(),
                                                       [&](const std::string& r) { return glob_match(w.rule, r); });
    if (!rule_ok || !glob_match(w.suite, c.suite) || !glob_match(w.case_name, c.name)) return false;
    if (w.resource == "*") return true;
    // a word of the suite name: pack suites are "<pack> <resource>[ over grpc]"
    std::size_t i = 0;
    while (i < c.suite.size()) {
        const std::size_t j = std::min(c.suite.find(' ', i), c.suite.size());
        if (j > i && glob_match(w.resource, std::string_view(c.suite).substr(i, j - i))) return true;
        i = j + 1;
    }
    return false;
}

std::string scope_text(const Waiver& w) {
    std::string out;
    const auto add = [&](const char* key, const std::string& g) {
        if (g == "*") return;
        out += (out.empty() ? "" : ", ") + std::string(key) + "=" + g;
    };
    add("suite", w.suite);
    add("resource", w.resource);
    add("case", w.case_name);
    return out.empty() ? "every case" : out;
}

WaiverLoad load_waivers_text(const std::string& text, const std::string& path) {
    WaiverLoad out;
    const auto src = detail::SourceText::from(path, text);
    try {
        Loader loader(src, out.diagnostics);
        auto f = loader.load(text);
        if (out.diagnostics.empty() && f) out.file = std::move(*f);
    } catch (const std::exception& e) {  // yaml-cpp or the allocator: never across the boundary
        out.file.reset();
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0},
                                             std::string("internal error while loading waivers: ") + e.what(),
                                             "please report this with the waivers file", {}});
    }
    return out;
}

WaiverLoad load_waivers(const std::string& path) {
    // The guard gives the reason (a pipe with nothing, a device, NUL or
    // invalid UTF-8 at line:col), never just "cannot read".
    auto text = detail::read_input_file(path, "waivers file");
    if (!text.text) {
        WaiverLoad out;
        out.diagnostics.push_back(std::move(text.error));
        return out;
    }
    return load_waivers_text(*text.text, path);
}

}  // namespace idconform::audit
