// Plain-text evidence of a case for JUnit and console output.
#include "reporters/evidence.hpp"

#include "reporters/redact.hpp"
#include "reporters/text.hpp"

namespace idconform::reporters {

namespace {

// Indents every line after the first, so multi-line bodies stay inside
// their block.
std::string indent_continuation(std::string_view text, std::string_view indent) {
    std::string out;
    for (char ch : text) {
        out += ch;
        if (ch == '\n') out.append(indent);
    }
    return out;
}

std::string status_line(const Response& r) {
    // status 0: a source without status codes (a scanned file): its reason says what happened
    if (r.status == 0 && !r.reason.empty()) return r.reason;
    std::string s = std::to_string(r.status);
    if (!r.reason.empty()) s += " " + r.reason;
    return s;
}

bool has_failed_check(const StepRecord& s) {
    for (const auto& c : s.checks)
        if (!c.ok && !c.warning) return true;
    return false;
}

}  // namespace

std::string join_rules(const std::vector<std::string>& rules) {
    std::string out;
    for (const auto& r : rules) out += (out.empty() ? "" : ", ") + r;
    return out;
}

void append_check_line(std::string& s, const CheckResult& c) {
    s += c.ok ? "ok" : (c.warning ? "warn" : "FAIL");
    if (!c.rule.empty()) {
        s += " [";
        s += c.rule;
        s += ']';
    }
    s += ' ';
    s += c.what;
    if (!c.expected.empty() || !c.actual.empty()) {
        s += ": expected ";
        s += c.expected;
        s += ", actual ";
        s += c.actual;
    }
    if (!c.pos.file.empty() || c.pos.line != 0) {
        s += " (at ";
        c.pos.append_to(s);
        s += ')';
    }
}

std::string check_line(const CheckResult& c) {
    std::string s;
    append_check_line(s, c);
    return s;
}

std::string exchange_evidence(const StepRecord& step, const ReportOptions& opts, std::string_view indent) {
    const std::string in(indent);
    const std::string in2 = in + "  ";
    const Exchange& x = step.exchange;
    std::string out;
    out += in + "request: " + x.request.method + " " + redact_url(x.request.url) + "\n";
    for (const auto& h : redact_headers(x.request.headers, opts.redact_headers))
        out += in2 + h.name + ": " + h.value + "\n";
    if (!x.request.body.empty())
        out += in2 + "body: " +
               indent_continuation(redact_text(body_excerpt(x.request.body, opts.body_excerpt_bytes), opts.redact_headers),
                                   in2 + "  ") +
               "\n";
    if (x.response) {
        const Response& r = *x.response;
        out += in + "response: " + status_line(r) + "\n";
        for (const auto& h : redact_headers(r.headers, opts.redact_headers)) out += in2 + h.name + ": " + h.value + "\n";
        if (!r.body.empty() || r.body_truncated)
            out += in2 + "body: " +
                   indent_continuation(
                       redact_text(body_excerpt(r.body, opts.body_excerpt_bytes, r.body_bytes, r.body_truncated),
                                   opts.redact_headers),
                       in2 + "  ") +
                   "\n";
    }
    if (x.error) out += in + "error: " + to_string(x.error->kind) + ": " + redact_text(x.error->message, opts.redact_headers) + "\n";
    if (x.attempts > 1) out += in + "attempts: " + std::to_string(x.attempts) + "\n";
    if (!step.reproduce.empty())
        out += in + "reproduce: " + indent_continuation(redact_text(step.reproduce, opts.redact_headers), in2) + "\n";
    return out;
}

std::vector<const StepRecord*> evidence_steps(const CaseResult& c) {
    std::vector<const StepRecord*> out;
    // A waived case is a failure someone accepted: its evidence is the failure's.
    const bool failure = c.outcome == Outcome::failed || c.outcome == Outcome::waived;
    if (!failure && c.outcome != Outcome::error) return out;
    for (const auto& s : c.steps) {
        if (failure ? has_failed_check(s) : s.exchange.error.has_value()) out.push_back(&s);
    }
    if (out.empty() && !c.steps.empty()) out.push_back(&c.steps.back());
    return out;
}

std::string failure_detail(const CaseResult& c, const ReportOptions& opts) {
    std::string out;
    if (!c.rules.empty()) out += (c.rules.size() == 1 ? "rule: " : "rules: ") + join_rules(c.rules) + "\n";
    if (!c.message.empty()) out += redact_text(c.message, opts.redact_headers) + "\n";
    if (!c.detail.empty()) {
        out += redact_text(c.detail, opts.redact_headers);
        if (c.detail.back() != '\n') out += "\n";
    }
    if (!c.pos.file.empty()) out += "case at " + c.pos.str() + "\n";
    for (const StepRecord* s : evidence_steps(c)) {
        out += "\nstep '" + s->name + "':\n";
        for (const auto& chk : s->checks)
            if (!chk.ok && !chk.warning) out += "  " + redact_text(check_line(chk), opts.redact_headers) + "\n";
        out += exchange_evidence(*s, opts, "  ");
    }
    return out;
}

std::string transcript(const CaseResult& c, const ReportOptions& opts) {
    std::string out;
    append_transcript(out, c, opts);
    return out;
}

void append_transcript(std::string& out, const CaseResult& c, const ReportOptions& opts) {
    // Every passed case's JUnit testcase holds this: built by appending, with
    // one scratch line for the checks (they are redacted as a whole line).
    std::string line;
    int n = 0;
    for (const auto& s : c.steps) {
        const Exchange& x = s.exchange;
        out += "step ";
        out += std::to_string(++n);
        out += " '";
        out += s.name;
        out += "': ";
        out += x.request.method;
        out += ' ';
        append_redacted_url(out, x.request.url);
        out += " -> ";
        if (x.response) {
            out += status_line(*x.response);
        } else if (x.error) {
            out += "error: ";
            out += to_string(x.error->kind);
            out += ": ";
            append_redacted(out, x.error->message, opts.redact_headers);
        } else {
            out += "not sent";
        }
        if (x.attempts > 1) out += " (" + std::to_string(x.attempts) + " attempts)";
        out += '\n';
        for (const auto& chk : s.checks) {
            line.clear();
            append_check_line(line, chk);
            out += "  ";
            append_redacted(out, line, opts.redact_headers);
            out += '\n';
        }
    }
}

}  // namespace idconform::reporters
