// The file step kind: a scan of an exported file as checks of one step.
#include "runner/steps/file.hpp"

#include "scan/scan.hpp"

#include <algorithm>

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
        x.error = TransportError{TransportErrorKind::other, out.suite_error};
        return out;
    }
    x.request.url = *path;
    scan::Options o;
    const auto fmt = f.format.empty() ? scan::format_from_path(*path) : scan::format_from_name(f.format);
    if (!fmt) {
        out.suite_error = f.pos.str() + ": cannot tell the format of '" + *path + "' from its extension; add format:";
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
    auto& checks = out.record.checks;
    const scan::Stats stats = scan::scan_path(*path, o, [&](const scan::Violation& v) {
        checks.push_back(scan::to_check(*path, v));
        return checks.size() < f.max_violations;
    });
    x.received = Clock::now();
    if (stats.error && stats.error->line == 0) {
        x.error = TransportError{TransportErrorKind::other, scan::format_error(*path, *stats.error)};
        out.transport_error = true;
        return out;
    }
    Response resp;
    resp.reason = std::to_string(stats.records) + " records, " + std::to_string(stats.bytes) + " bytes scanned";
    x.response = std::move(resp);
    CheckResult summary;
    summary.rule = rule;
    summary.what = "ids in " + *path;
    summary.expected = "no violation";
    summary.actual = std::to_string(stats.violations) + " violation" + (stats.violations == 1 ? "" : "s") +
                     (stats.stopped ? " (scan stopped at max_violations " + std::to_string(f.max_violations) + ")" : "");
    summary.ok = stats.violations == 0;
    summary.pos = f.pos;
    if (stats.error) {
        CheckResult c;
        c.rule = rule;
        c.what = "file " + *path;
        c.expected = std::string("a well-formed ") + std::string(scan::to_string(*fmt)) + " file";
        c.actual = stats.error->message + " (nothing after this point was checked)";
        c.pos = SourcePos{*path, static_cast<int>(stats.error->line), static_cast<int>(stats.error->column)};
        checks.insert(checks.begin(), std::move(c));
    }
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
