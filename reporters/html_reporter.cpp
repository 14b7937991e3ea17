// HTML reporter: cases rendered into a spool as they finish, the page
// assembled at run_finished (head with totals, matrix, then the cases).
// Every string from a result goes through html_text (text.hpp) and every
// header, URL and free text through the redaction of evidence.hpp/redact.hpp.
#include "reporters/html_reporter.hpp"

#include "core/rules.hpp"
#include "reporters/atomic_file.hpp"
#include "reporters/evidence.hpp"
#include "reporters/redact.hpp"
#include "reporters/text.hpp"

#include <algorithm>
#include <cctype>
#include <exception>

namespace idconform::reporters {

namespace {

// Inline style and script: the file must open from disk or a CI artefact
// link with no network, and the Content-Security-Policy below forbids
// loading anything at all.
constexpr std::string_view style = R"css(
:root{--ok:#1a7f37;--fail:#cf222e;--err:#8250df;--skip:#9a6700;--waive:#0969da;--line:#d0d7de;--soft:#f6f8fa}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
header,main{padding:0 24px}
header{border-bottom:1px solid var(--line);padding-top:12px;padding-bottom:12px}
h1{margin:0 0 8px;font-size:24px}
h1 .verdict{padding:2px 10px;border-radius:6px;color:#fff}
.v-ok{background:var(--ok)}.v-failed{background:var(--fail)}.v-error{background:var(--err)}
h2{font-size:18px;margin:20px 0 8px}
table{border-collapse:collapse;margin:4px 0 12px}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--soft)}
td.n{text-align:right;font-variant-numeric:tabular-nums}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}
dl.meta dt{font-weight:600}dl.meta dd{margin:0;word-break:break-all}
.matrix{overflow-x:auto}
.matrix td a{text-decoration:none;white-space:nowrap}
.c-passed{color:var(--ok)}.c-failed{color:var(--fail);font-weight:600}.c-error{color:var(--err);font-weight:600}
.c-skipped{color:var(--skip)}.c-waived{color:var(--waive);font-weight:600}
.case{border:1px solid var(--line);border-left:6px solid var(--line);margin:4px 0;padding:3px 8px;border-radius:4px}
.case.o-passed{border-left-color:var(--ok)}.case.o-failed{border-left-color:var(--fail)}
.case.o-error{border-left-color:var(--err)}.case.o-skipped{border-left-color:var(--skip)}.case.o-waived{border-left-color:var(--waive)}
.oc{display:inline-block;min-width:5.5em;font-weight:600;text-transform:uppercase;font-size:12px}
.cause{color:var(--skip);font-size:12px;margin-right:.6em}.skips{margin:.3em 0}
.rules,.time,.pos{color:#656d76;font-size:12px;margin-left:8px}
summary{cursor:pointer}
pre{background:var(--soft);border:1px solid var(--line);padding:6px 8px;white-space:pre-wrap;word-break:break-all;margin:4px 0;font-size:12px}
ul.checks{margin:4px 0;padding-left:20px;font-family:ui-monospace,monospace;font-size:12px}
.statement{font-style:italic}
#filter{position:sticky;top:0;background:#fff;border-bottom:1px solid var(--line);padding:6px 24px;z-index:1}
#filter label{margin-right:12px}
.hidden{display:none}
)css";

constexpr std::string_view script = R"js(
(function () {
  var bar = document.getElementById('filter');
  if (!bar) return;
  bar.hidden = false;
  var boxes = bar.querySelectorAll('input[type=checkbox]');
  var text = document.getElementById('filter-text');
  function apply() {
    var shown = {};
    for (var i = 0; i < boxes.length; i++) shown[boxes[i].value] = boxes[i].checked;
    var q = text.value.toLowerCase();
    var cases = document.querySelectorAll('.case');
    for (var k = 0; k < cases.length; k++) {
      var c = cases[k];
      var ok = shown[c.getAttribute('data-outcome')] &&
               (q === '' || c.getAttribute('data-search').indexOf(q) !== -1);
      c.classList.toggle('hidden', !ok);
    }
  }
  for (var i = 0; i < boxes.length; i++) boxes[i].addEventListener('change', apply);
  text.addEventListener('input', apply);
})();
)js";

constexpr const char* outcome_names[outcome_count] = {"passed", "failed", "error", "skipped", "waived"};
constexpr const char* outcome_marks[outcome_count] = {"\xE2\x9C\x93", "\xE2\x9C\x97", "!", "\xE2\x80\x93", "W"};

void esc(std::string& out, std::string_view s) { append_html(out, s); }

void redacted(std::string& out, std::string_view s, const ReportOptions& opts) {
    append_html(out, redact_text(s, opts.redact_headers));
}

std::string lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

void counts_cells(std::string& out, const std::array<std::size_t, outcome_count>& n) {
    std::size_t total = 0;
    for (const std::size_t k : n) total += k;
    out += "<td class=\"n\">" + std::to_string(total) + "</td>";
    for (std::size_t o = 0; o < outcome_count; ++o) {
        out += "<td class=\"n";
        if (n[o] > 0) out += std::string(" c-") + outcome_names[o];
        out += "\">" + std::to_string(n[o]) + "</td>";
    }
}

void case_html(std::string& out, const CaseResult& c, const std::string& anchor, const ReportOptions& opts) {
    const char* oname = to_string(c.outcome);
    const bool evidence = c.outcome != Outcome::passed;
    const std::string tag = evidence ? "details" : "div";
    out += "<" + tag + " class=\"case o-" + oname + "\" data-outcome=\"" + oname + "\"";
    if (!anchor.empty()) out += " id=\"" + anchor + "\"";
    out += " data-search=\"";
    const std::vector<std::string> rules = reported_rules(c);  // a failure under the rules it broke
    esc(out, lower(c.name + " " + join_rules(rules) + " " + c.suite));
    out += "\"";
    out += evidence ? " open>" : ">";
    out += evidence ? "<summary>" : "";
    out += std::string("<span class=\"oc c-") + oname + "\">" + oname + "</span>";
    if (c.outcome == Outcome::skipped)  // why it was not checked
        out += std::string("<span class=\"cause\">") + skip_cause_words(counted_skip_cause(c)) + "</span>";
    esc(out, c.name.empty() ? "unnamed case" : c.name);
    if (!rules.empty()) {
        out += "<span class=\"rules\">";
        esc(out, join_rules(rules));
        out += "</span>";
    }
    out += "<span class=\"time\">" + format_seconds(c.seconds) + " s</span>";
    if (!evidence) {
        out += "</div>\n";
        return;
    }
    out += "</summary>\n";
    if (!c.message.empty()) {
        out += "<p class=\"msg\">";
        redacted(out, c.message, opts);
        out += "</p>\n";
    }
    bool any_statement = false;
    for (const auto& r : rules) any_statement = any_statement || !rule_statement(r).empty();
    if (any_statement) {
        out += "<ul class=\"statements\">";
        for (const auto& r : rules) {
            const auto st = rule_statement(r);
            if (st.empty()) continue;
            out += "<li><b>";
            esc(out, r);
            out += "</b> <span class=\"statement\">";
            esc(out, st);
            out += "</span></li>";
        }
        out += "</ul>\n";
    }
    if (!c.properties.empty()) {
        out += "<dl class=\"meta\">";
        for (const auto& p : c.properties) {
            if (p.name.empty()) continue;
            out += "<dt>";
            // the mutation a case sent and why it must be rejected, said in words
            esc(out, p.name == "mutation" ? "mutation sent" : p.name == "mutation_breaks" ? "why it must be rejected" : p.name);
            out += "</dt><dd>";
            redacted(out, p.value, opts);
            out += "</dd>";
        }
        out += "</dl>\n";
    }
    if (!c.detail.empty()) {
        out += "<pre class=\"detail\">";
        redacted(out, c.detail, opts);
        out += "</pre>\n";
    }
    if (!c.pos.file.empty()) {
        out += "<p class=\"pos\">case at ";
        esc(out, c.pos.str());
        out += "</p>\n";
    }
    for (const StepRecord* s : evidence_steps(c)) {
        out += "<h4>step &#39;";
        esc(out, s->name);
        out += "&#39;</h4>\n";
        bool any_failed = false;
        for (const auto& chk : s->checks) any_failed = any_failed || (!chk.ok && !chk.warning);
        if (any_failed) {
            out += "<ul class=\"checks\">";
            for (const auto& chk : s->checks) {
                if (chk.ok || chk.warning) continue;
                out += "<li>";
                redacted(out, check_line(chk), opts);
                out += "</li>";
            }
            out += "</ul>\n";
        }
        // what was sent, what came back, the reproduce command: the same
        // text (and redaction) as the JUnit evidence
        out += "<pre class=\"exchange\">";
        esc(out, exchange_evidence(*s, opts, ""));
        out += "</pre>\n";
    }
    out += "</details>\n";
}

std::string verdict_of(const std::array<std::size_t, outcome_count>& n, const std::optional<AuditSummary>& audit,
                       const char** css) {
    const std::size_t failed = n[static_cast<std::size_t>(Outcome::failed)];
    const std::size_t errors = n[static_cast<std::size_t>(Outcome::error)];
    if (failed > 0 && !(audit && audit->fail_on_new && audit->added == 0)) { *css = "v-failed"; return "FAILED"; }
    if (errors > 0) { *css = "v-error"; return "ERRORS"; }
    *css = "v-ok";
    return failed > 0 ? "OK (no new failures)" : "OK";
}

void audit_html(std::string& out, const AuditSummary& a, const ReportOptions& opts) {
    if (!a.waivers_file.empty()) {
        out += "<section id=\"waivers\"><h2>Waivers</h2><p>from ";
        esc(out, a.waivers_file);
        out += "</p>\n";
        if (a.waivers.empty()) out += "<p>The file holds no waiver.</p>\n";
        else {
            out += "<table><tr><th>state</th><th>rule</th><th>covers</th><th>owner</th><th>expires</th><th>reason</th>"
                   "<th>waived</th><th>where</th></tr>\n";
            for (const auto& w : a.waivers) {
                const char* css = w.state == "active" ? "c-waived" : w.state == "expired" ? "c-failed" : "c-skipped";
                out += std::string("<tr><td class=\"") + css + "\">";
                esc(out, w.state);
                if (w.state == "expired" && w.matched_expired > 0)
                    out += " (covers " + std::to_string(w.matched_expired) + " failure" + (w.matched_expired == 1 ? "" : "s") + ")";
                out += "</td><td>";
                esc(out, w.rule);
                out += "</td><td>";
                esc(out, w.covers);
                out += "</td><td>";
                esc(out, w.owner);
                out += "</td><td>";
                esc(out, w.expires);
                out += "</td><td>";
                redacted(out, w.reason, opts);
                out += "</td><td class=\"n\">" + std::to_string(w.waived) + "</td><td>";
                esc(out, w.position);
                out += "</td></tr>\n";
            }
            out += "</table>\n";
        }
        out += "</section>\n";
    }
    if (!a.baseline_file.empty()) {
        out += "<section id=\"baseline\"><h2>Compared with the baseline</h2><p>";
        esc(out, a.baseline_file);
        out += ": <b class=\"c-failed\">" + std::to_string(a.added) + " new</b>, <b class=\"c-passed\">" +
               std::to_string(a.fixed) + " fixed</b>, " + std::to_string(a.still) + " still failing";
        if (a.gone > 0) out += ", " + std::to_string(a.gone) + " not run this time";
        if (a.fail_on_new) out += " (--fail-on new: only new failures fail the run)";
        out += "</p>\n";
        if (!a.baseline.empty()) {
            out += "<table><tr><th>rule</th><th>new</th><th>fixed</th><th>still failing</th></tr>\n";
            for (const auto& r : a.baseline) {
                out += "<tr><td>";
                esc(out, r.rule);
                out += "</td><td class=\"n" + std::string(r.added ? " c-failed" : "") + "\">" + std::to_string(r.added) +
                       "</td><td class=\"n" + std::string(r.fixed ? " c-passed" : "") + "\">" + std::to_string(r.fixed) +
                       "</td><td class=\"n\">" + std::to_string(r.still) + "</td></tr>\n";
            }
            out += "</table>\n";
        }
        if (!a.gone_cases.empty()) {
            out += "<details><summary>Failing in the baseline, not run this time (" + std::to_string(a.gone) +
                   ")</summary><ul>";
            for (const auto& g : a.gone_cases) {
                out += "<li>";
                esc(out, g);
                out += "</li>";
            }
            out += "</ul></details>\n";
        }
        out += "</section>\n";
    }
}

}  // namespace

HtmlReporter::HtmlReporter(std::string path, ReportOptions opts)
    : CumulativeReporter(std::move(path), std::move(opts), "HTML") {}

HtmlReporter::~HtmlReporter() = default;

void HtmlReporter::render_case(std::string& out, const CaseResult& c, std::size_t si) {
    const auto o = static_cast<std::size_t>(c.outcome);
    std::string anchor;
    for (const auto& [r, n] : rule_counts(c)) {
        const auto it = rule_index_.emplace(r, rule_index_.size()).first;
        Cell& cell = cells_[{si, it->second}];
        cell.counts[o] += n;
        if (cell.anchor.empty() && anchor.empty()) {
            // the cell links to its first case; a case carries one id
            anchor = "m" + std::to_string(si) + "-" + std::to_string(it->second);
            cell.anchor = anchor;
        } else if (cell.anchor.empty()) {
            cell.anchor = anchor;
        }
    }
    case_html(out, c, anchor, opts());
}

void HtmlReporter::write_report(AtomicFileWriter& out, const RunSummary& run) {
    const Counts total = totals();
    std::size_t cases = 0;
    for (const std::size_t n : total) cases += n;
    std::array<std::size_t, skip_cause_count> skipped_by{};  // skipped cases per SkipCause
    for (const auto& e : suites())
        for (std::size_t k = 0; k < skip_cause_count; ++k) skipped_by[k] += e.suite.skipped_streamed[k];
    const char* vcss = "";
    std::string verdict = verdict_of(total, audit(), &vcss);
    if (cases == 0 && run.filtered_out > 0) {
        verdict = "NOTHING SELECTED";  // a selection that picked nothing ran nothing
        vcss = "v-error";
    }
    if (!run.interrupted.empty()) {
        // Whatever it found so far: the run did not finish (the notes say what was left out).
        verdict = "INTERRUPTED (" + run.interrupted + ")";
        vcss = "v-error";
    }
    std::string h;
    h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<link rel=\"icon\" href=\"data:,\">\n<title>idconform: ";
    esc(h, verdict);
    h += "</title>\n<style>";
    h += style;
    h += "</style>\n</head>\n<body>\n<header>\n<h1><span class=\"verdict " + std::string(vcss) + "\">";
    esc(h, verdict);
    h += "</span> idconform report</h1>\n";
    h += "<table class=\"totals\"><tr><th>tests</th>";
    for (const char* n : outcome_names) h += std::string("<th>") + n + "</th>";
    h += "<th>time</th></tr>\n<tr>";
    counts_cells(h, total);
    h += "<td class=\"n\">" + format_seconds(run.seconds) + " s</td></tr></table>\n";
    // Skipped cases by cause (adding up to the skipped count), and the
    // cases the selection left out (not tests: not counted above).
    std::string skips;
    for (const SkipCause k : skip_causes)
        if (const std::size_t n = skipped_by[static_cast<std::size_t>(k)]; n > 0)
            skips += (skips.empty() ? "" : ", ") + std::to_string(n) + " " + skip_cause_words(k);
    if (!skips.empty() || run.filtered_out > 0) {
        h += "<p class=\"skips\">";
        if (!skips.empty()) h += "skipped: " + skips;
        if (run.filtered_out > 0)
            h += std::string(skips.empty() ? "" : "; ") + std::to_string(run.filtered_out) +
                 " filtered out (not selected by --filter or --tags)";
        h += "</p>\n";
    }
    h += "<dl class=\"meta\">";
    const auto meta = [&](std::string_view name, std::string_view value) {
        h += "<dt>";
        esc(h, name);
        h += "</dt><dd>";
        redacted(h, value, opts());
        h += "</dd>";
    };
    meta("idconform", info().tool_version);
    bool has_started = false, has_finished = false;
    for (const auto& p : info().metadata) {
        has_started = has_started || p.name == "started";
        has_finished = has_finished || p.name == "finished";
    }
    if (!has_started) meta("started", started_at());
    for (const auto& p : info().metadata) meta(p.name, p.value);
    if (!has_finished) meta("finished", iso8601_utc(Clock::now()));
    if (info().metadata.empty() && !info().suite_files.empty()) {
        std::string files;
        for (const auto& f : info().suite_files) files += (files.empty() ? "" : ", ") + f;
        meta("suite files", files);
    }
    h += "</dl>\n</header>\n<main>\n";
    if (!run.notes.empty()) {
        // The run's notes (what it left on the target and why): neither
        // failures nor errors, said once.
        h += "<section id=\"notes\"><h2>Notes</h2>\n<ul>";
        for (const auto& n : run.notes) {
            h += "<li>";
            redacted(h, n, opts());
            h += "</li>";
        }
        h += "</ul></section>\n";
    }
    if (audit()) audit_html(h, *audit(), opts());

    // the matrix: one row per suite (resource, endpoint or file), one
    // column per rule; each cell's counts link to its first case
    std::vector<std::pair<std::string, std::size_t>> rules(rule_index_.begin(), rule_index_.end());
    h += "<section id=\"matrix\"><h2>Rules by suite</h2>\n<p>";
    for (std::size_t o = 0; o < outcome_count; ++o)
        h += std::string(o ? " &middot; " : "") + "<span class=\"c-" + outcome_names[o] + "\">" + outcome_marks[o] +
             "</span> " + outcome_names[o];
    h += "</p>\n<div class=\"matrix\"><table>\n<tr><th>suite</th>";
    for (const auto& [rule, col] : rules) {
        h += "<th>";
        esc(h, rule);
        h += "</th>";
    }
    h += "</tr>\n";
    out.write(h);
    h.clear();
    for (std::size_t si = 0; si < suites().size(); ++si) {
        h += "<tr><th><a href=\"#s" + std::to_string(si) + "\">";
        esc(h, suites()[si].suite.name.empty() ? "unnamed suite" : suites()[si].suite.name);
        h += "</a></th>";
        for (const auto& [rule, col] : rules) {
            const auto it = cells_.find({si, col});
            if (it == cells_.end()) { h += "<td></td>"; continue; }
            const Cell& cell = it->second;
            std::string title, text;
            for (std::size_t o = 0; o < outcome_count; ++o) {
                if (cell.counts[o] == 0) continue;
                title += (title.empty() ? "" : ", ") + std::to_string(cell.counts[o]) + " " + outcome_names[o];
                text += std::string(text.empty() ? "" : " ") + "<span class=\"c-" + outcome_names[o] + "\">" +
                        std::to_string(cell.counts[o]) + outcome_marks[o] + "</span>";
            }
            h += "<td><a href=\"#" + cell.anchor + "\" title=\"" + title + "\">" + text + "</a></td>";
        }
        h += "</tr>\n";
        if (h.size() > (1u << 16)) { out.write(h); h.clear(); }
    }
    h += "</table></div></section>\n";
    h += "<div id=\"filter\" hidden>show ";
    for (const char* n : outcome_names)
        h += std::string("<label><input type=\"checkbox\" value=\"") + n + "\" checked> " + n + "</label>";
    h += "<label>find <input type=\"search\" id=\"filter-text\" placeholder=\"case, rule or suite\"></label></div>\n";
    out.write(h);
    h.clear();
    for (std::size_t si = 0; si < suites().size(); ++si) {
        const SuiteResult& s = suites()[si].suite;
        h = "<section class=\"suite\" id=\"s" + std::to_string(si) + "\"><h2>";
        esc(h, s.name.empty() ? "unnamed suite" : s.name);
        h += "</h2>\n<p class=\"pos\">";
        if (!s.file.empty()) {
            esc(h, s.file);
            h += " &middot; ";
        }
        std::string parts;
        for (std::size_t o = 0; o < outcome_count; ++o)
            if (s.streamed[o] > 0) parts += (parts.empty() ? "" : ", ") + std::to_string(s.streamed[o]) + " " + outcome_names[o];
        h += (parts.empty() ? std::string("no cases") : parts) + " &middot; " + format_seconds(s.seconds) + " s</p>\n";
        out.write(h);
        copy_cases(si, out);
        out.write("</section>\n");
    }
    h = "</main>\n<script>";
    h += script;
    h += "</script>\n</body>\n</html>\n";
    out.write(h);
}

}  // namespace idconform::reporters
