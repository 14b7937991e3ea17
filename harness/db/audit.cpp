// The audit of one database, and its findings as report cases (audit.hpp).
#include "db/audit.hpp"

namespace idconform::db {

namespace {

// DATA-ID-005 over every time column of a v7-keyed table; true when the
// connection is lost (out.fatal set).
bool time_findings(CatalogReader& reader, const JudgedColumn& key, const AuditOptions& options, AuditOutcome& out) {
    for (const auto& t : key.table->columns) {
        if (t.family != TypeFamily::time) continue;
        TimeTally tally;
        const auto err =
            reader.stream_times(*key.table, *key.column, t, options.max_rows, [&](const Value* row, std::size_t) {
                tally.add(row);
                return true;
            });
        if (!err) {
            out.findings.push_back(tally.finding(key, t));
            continue;
        }
        Finding f;
        f.rule = "DATA-ID-005";
        f.object = key.table->qualified() + "." + t.name;
        f.check = "time from id";
        f.verdict = Verdict::error;
        f.error_kind = err->kind;
        f.message = err->message;
        out.findings.push_back(std::move(f));
        if (err->kind == ErrorKind::unreachable) {
            out.fatal = err;
            return true;
        }
    }
    return false;
}

}  // namespace

AuditOutcome audit(CatalogReader& reader, const Config& config, const AuditOptions& options) {
    AuditOutcome out;
    if (auto e = reader.read_catalog(config.schemas, out.catalog)) {
        out.fatal = std::move(e);
        return out;
    }
    const Plan plan = plan_columns(out.catalog, config);
    out.findings = schema_findings(out.catalog, config, plan);
    out.findings.insert(out.findings.end(), plan.findings.begin(), plan.findings.end());
    // an id no unique constraint protects: how many of its values do repeat
    const std::size_t schema_count = out.findings.size();
    for (std::size_t i = 0; i < schema_count; ++i) {
        if (out.findings[i].check != "unique" || out.findings[i].verdict != Verdict::failed) continue;
        const std::string object = out.findings[i].object;
        for (const auto& j : plan.columns) {
            if (j.object() != object) continue;
            Duplicates d;
            const auto err = reader.duplicates(*j.table, *j.column, d);
            Finding f;
            f.rule = j.kind == ids::IdKind::viewable ? "VIEWABLE-DISTINCT" : "DATA-ID-006";
            f.object = object;
            f.check = "duplicates";
            f.basis = j.basis;
            f.pos = j.pos;
            if (err) {
                f.verdict = Verdict::error;
                f.error_kind = err->kind;
                f.message = err->message;
            } else if (d.values > 0) {
                f.verdict = Verdict::failed;
                f.expected = "every value held by one row";
                f.actual =
                    std::to_string(d.values) + (d.values == 1 ? " value" : " values") + " held by more than one row";
                f.examples = d.examples;
                f.message = f.actual;
            } else {
                f.message = "no value held by more than one row (nothing keeps it so)";
            }
            out.findings.push_back(std::move(f));
            if (err && err->kind == ErrorKind::unreachable) {
                out.fatal = err;
                return out;
            }
        }
    }
    for (const auto& j : plan.columns) {
        ValueTally tally(j.column->family, j.kind);
        tally.set_clock(options.now_ms, options.clock_skew_ms);
        tally.set_legacy_salt(options.legacy_salt, config.legacy_layout);
        const auto err = reader.stream_column(*j.table, *j.column, options.max_rows, [&](const Value& v) {
            tally.add(v);
            return true;
        });
        if (err) {
            Finding f;
            f.object = j.object();
            f.check = "values";
            f.verdict = Verdict::error;
            f.error_kind = err->kind;
            f.message = err->message;
            f.basis = j.basis;
            f.pos = j.pos;
            out.findings.push_back(std::move(f));
            if (err->kind == ErrorKind::unreachable) {  // the connection is gone: nothing more can be read
                out.fatal = err;
                return out;
            }
            continue;
        }
        ++out.columns_read;
        out.values_read += tally.rows();
        auto fs = tally.findings(j);
        for (auto& f : fs) out.findings.push_back(std::move(f));
        if (j.key && j.column->family == TypeFamily::uuid && (!j.kind || *j.kind == ids::IdKind::uuidv7))
            if (time_findings(reader, j, options, out)) return out;
    }
    return out;
}

ErrorCause error_cause_of(ErrorKind k) noexcept {
    switch (k) {
        case ErrorKind::unreachable: return ErrorCause::transport;
        case ErrorKind::authentication:
        case ErrorKind::privilege: return ErrorCause::authentication;
        case ErrorKind::vanished:
        case ErrorKind::timeout: return ErrorCause::transport;
        case ErrorKind::other: break;
    }
    return ErrorCause::input;
}

CaseResult case_of(const Finding& f, const std::string& suite) {
    CaseResult c;
    c.suite = suite;
    c.name = f.object + " " + f.check + (f.rule.empty() ? "" : " [" + f.rule + "]");
    c.classname = "db." + f.object + (f.rule.empty() ? "" : "." + f.rule);
    if (!f.rule.empty()) c.rules = {f.rule};
    c.pos = f.pos;
    c.message = f.message;
    c.properties.push_back({"object", f.object});
    c.properties.push_back({"check", f.check});
    if (!f.basis.empty()) c.properties.push_back({"basis", f.basis});
    std::string detail;
    if (!f.basis.empty()) detail += "judged as: " + f.basis + "\n";
    if (!f.examples.empty()) {
        detail += "examples:";
        for (const auto& e : f.examples) detail += " " + e;
        detail += "\n";
    }
    StepRecord rec;
    rec.name = f.check + " " + f.object;
    rec.exchange.request.transport = "db";
    rec.exchange.request.method = f.check == "values" ? "COPY" : "CATALOG";
    rec.exchange.request.url = f.object;
    switch (f.verdict) {
        case Verdict::passed: break;
        case Verdict::failed:
        case Verdict::warning: {
            CheckResult ch;
            ch.rule = f.rule;
            ch.what = f.check + " " + f.object;
            ch.expected = f.expected;
            ch.actual = f.actual;
            if (!f.examples.empty()) {
                ch.actual += " (e.g.";
                for (const auto& e : f.examples) ch.actual += " " + e;
                ch.actual += ")";
            }
            ch.warning = f.verdict == Verdict::warning;
            ch.pos = f.pos;
            rec.checks.push_back(std::move(ch));
            if (f.verdict == Verdict::failed) c.outcome = Outcome::failed;
            else c.message = "warning: " + f.message;
            break;
        }
        case Verdict::skipped: skip(c, SkipCause::not_applicable, f.message); break;
        case Verdict::error: set_error(c, error_cause_of(f.error_kind), f.message); break;
    }
    if (!detail.empty()) {
        detail.pop_back();
        c.detail = detail;
    }
    c.steps.push_back(std::move(rec));
    return c;
}

CaseResult connect_case(const std::string& suite, const std::string& shown_conninfo, const std::string& system,
                        const std::optional<ReadError>& error) {
    CaseResult c;
    c.suite = suite;
    c.name = "connect";
    c.classname = "db.connect";
    c.properties.push_back({"connection", shown_conninfo});
    StepRecord rec;
    rec.name = "connect";
    rec.exchange.request.transport = "db";
    rec.exchange.request.method = "CONNECT";
    rec.exchange.request.url = shown_conninfo;
    if (error) {
        rec.exchange.error = TransportError{TransportErrorKind::other, error->message};
        set_error(c, error_cause_of(error->kind), error->message);
    } else {
        Response r;
        r.reason = system + ", read-only transaction";
        rec.exchange.response = std::move(r);
        c.message = "connected to " + system + " (read-only transaction)";
    }
    c.steps.push_back(std::move(rec));
    return c;
}

std::string finding_line(const Finding& f) {
    std::string s = f.pos.file.empty() ? f.object : f.pos.str() + ": " + f.object;
    s += ": ";
    if (!f.rule.empty()) s += f.rule + ": ";
    switch (f.verdict) {
        case Verdict::warning: s += "warning: "; break;
        case Verdict::skipped: s += "skipped: "; break;
        case Verdict::error: s += "error: "; break;
        default: break;
    }
    s += f.message;
    if (!f.examples.empty()) {
        s += " (e.g.";
        for (const auto& e : f.examples) s += " " + e;
        s += ")";
    }
    if (!f.basis.empty() && f.basis.starts_with("guessed")) s += " [" + f.basis + "]";
    return s;
}

}  // namespace idconform::db
