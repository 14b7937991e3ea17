// The file step kind: a scan of an exported file as checks of one step.
#include "runner/steps/file.hpp"

#include "scan/results.hpp"
#include "scan/scan.hpp"

#include <algorithm>
#include <iterator>

namespace idconform::runner::steps {

StepOutcome run_file_step(const suite::FileScan& f, const std::string& step_name, const Scope& scope, const std::string& rule) {
    StepOutcome out;
    out.record.name = step_name;
    Exchange& x = out.record.exchange;
    x.request.transport = "file";
    x.request.method = "SCAN";
    auto path = interpolate(f.path, scope);
    if (!path) {
        out.suite_error = f.pos.str() + ": path: " + path.error();
        out.cause = ErrorCause::suite;
        x.error = TransportError{TransportErrorKind::other, out.suite_error};
        return out;
    }
    x.request.url = *path;
    scan::Options o;
    const auto fmt = f.format.empty() ? scan::format_from_path(*path) : scan::format_from_name(f.format);
    if (!fmt) {
        out.suite_error = f.pos.str() + ": cannot tell the format of '" + *path + "' from its extension; add format:";
        out.cause = ErrorCause::suite;
        x.error = TransportError{TransportErrorKind::other, out.suite_error};
        return out;
    }
    o.format = *fmt;
    o.shape = f.shape;
    for (const auto& [name, kind] : f.fields) {
        scan::FieldSpec spec;
        std::string err;
        spec.name = name;
        (void)scan::parse_kind_spec(kind, spec, err);  // checked by the loader
        o.fields.push_back(std::move(spec));
    }
    x.sent = Clock::now();
    std::vector<CheckResult> violations;
    const scan::Stats stats = scan::scan_path(*path, o, [&](const scan::Violation& v) {
        violations.push_back(scan::to_check(*path, v));
        return violations.size() < f.max_violations;
    });
    x.received = Clock::now();
    // request, answer (how far the scan got) and the malformed-file check as
    // `idconform scan` records them (scan/results.hpp), before the violations
    const auto sent = x.sent, received = x.received;
    out.record = scan::file_record(step_name, *path, *fmt, stats, rule);
    out.record.exchange.sent = sent;
    out.record.exchange.received = received;
    auto& checks = out.record.checks;
    checks.insert(checks.end(), std::make_move_iterator(violations.begin()), std::make_move_iterator(violations.end()));
    if (out.record.exchange.error) {  // could not be opened
        out.transport_error = true;
        out.cause = ErrorCause::input;
        return out;
    }
    CheckResult summary;
    summary.rule = rule;
    summary.what = "ids in " + *path;
    summary.expected = "no violation";
    summary.actual = std::to_string(stats.violations) + " violation" + (stats.violations == 1 ? "" : "s") +
                     (stats.stopped ? " (scan stopped at max_violations " + std::to_string(f.max_violations) + ")" : "");
    summary.ok = stats.violations == 0;
    summary.pos = f.pos;
    checks.push_back(std::move(summary));
    out.failed = std::any_of(checks.begin(), checks.end(), [](const CheckResult& c) { return !c.ok && !c.warning; });
    return out;
}

std::string describe(const suite::FileScan& f) { return "scan " + f.path; }

void add_properties(const suite::FileScan& f, std::vector<Property>& out) {
    out.push_back({"transport", "file"});
    out.push_back({"endpoint", "SCAN " + f.path});
}

}  // namespace idconform::runner::steps
