// The shape scan of one answer, capped and never silent (answer_scan.hpp).
#include "runner/answer_scan.hpp"

#include <algorithm>
#include <cctype>

namespace idconform::runner {

namespace {

// A Content-Type that says the body is something other than JSON (then the
// scan has nothing to look at, and says nothing).
bool declared_not_json(const Response& resp) {
    const std::string* ct = resp.header("Content-Type");
    if (!ct || ct->empty()) return false;
    std::string lower(*ct);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("json") == std::string::npos;
}

}  // namespace

AnswerScan scan_answer(const Response& resp, BodyJson& body, std::map<std::string, std::set<int>>* versions,
                       const std::set<std::string>* sent, std::size_t max_findings) {
    AnswerScan out;
    if (const boost::json::value* parsed = body.view()) {
        std::size_t unlisted = 0;
        out.findings = scan_ids(*parsed, versions, sent, max_findings, &unlisted, &out.fields, &out.unlisted);
        if (unlisted > 0) {
            CheckResult c;
            c.rule = out.findings.empty() ? std::string() : out.findings.back().rule;
            c.what = "shape scan: findings past the first " + std::to_string(out.findings.size());
            c.expected = "no finding";
            c.actual = std::to_string(unlisted) + " more not listed (" + std::to_string(unlisted + out.findings.size()) +
                       " in all)";
            out.findings.push_back(std::move(c));
            out.fields.emplace_back();
        }
        return out;
    }
    if (resp.body.empty() && !resp.body_truncated) return out;  // nothing to scan (204, an empty 201)
    std::string why = body.limit();
    if (why.empty()) {
        if (declared_not_json(resp)) return out;
        why = body.error();
    }
    CheckResult c;
    c.what = "shape scan (not run)";
    c.expected = "a JSON body to scan";
    c.actual = why;
    c.ok = false;
    c.warning = true;
    out.note = std::move(c);
    return out;
}

}  // namespace idconform::runner
