// `idconform list [SUITE_OR_DIR...] [--markdown]`: what the suites check,
// one row per case: rule, suite, check, what is sent, what must come back.
// docs/rules.md's rule table is this command's output (a test keeps them equal), and
// so are README's exit-code table and the man page's EXIT STATUS
// (`--exit-codes markdown|man`, from cli/exit_codes.cpp).
#include "cli/commands.hpp"
#include "binding/operations.hpp"
#include "cli/load_suites.hpp"

#include "core/grpc_status.hpp"
#include "runner/steps/step.hpp"
#include "suite/loader.hpp"

#include <boost/json/serialize.hpp>

#include <iostream>
#include <memory>

namespace idconform::cli {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : sep) + e;
    return s;
}

std::string sent(const suite::Case& c) {
    std::string what;
    if (c.for_each) {
        const auto& f = *c.for_each;
        switch (f.source) {
            case suite::ForEach::Source::mutations: what = "each mutation of " + f.set; break;
            case suite::ForEach::Source::vectors: what = "vectors '" + f.set + "'"; break;
            case suite::ForEach::Source::count: what = std::to_string(f.count) + " times"; break;
        }
        if (!f.only.empty()) what += " (" + join(f.only, ", ") + ")";
        if (!f.except.empty()) what += " (all but " + join(f.except, ", ") + ")";
        what += ": ";
    }
    std::vector<std::string> steps;
    for (const auto& st : c.steps) {
        std::string s = runner::steps::describe(st);
        if (st.repeat > 1) s = std::to_string(st.repeat) + " times " + s;
        steps.push_back(std::move(s));
    }
    if (c.steps.empty() && !c.skip.empty()) return "nothing (" + c.skip + ")";
    return what + join(steps, "; then ");
}

std::string expected(const suite::Case& c) {
    std::vector<std::string> out;
    for (const auto& st : c.steps) {
        const auto& e = st.expect;
        const std::size_t before = out.size();
        if (auto waits = suite::awaited(st.request); !waits.empty()) out.push_back(std::move(waits));
        if (e.status) {
            std::vector<std::string> codes;
            for (int x : e.status->exact) codes.push_back(std::to_string(x));
            for (int x : e.status->classes) codes.push_back(std::to_string(x) + "xx");
            for (int x : e.status->grpc_codes) codes.push_back(std::string(grpc_status::name(x)));
            if (e.status->refused) codes.push_back("refused (the profile's refused:, 403/404 by default)");
            out.push_back(std::string(e.status->negate ? "status not " : "status ") + join(codes, "/"));
        }
        for (const auto& id : e.ids) {
            std::string s = "id " + (id.at ? *id.at : "header " + id.header.value_or(""));
            if (id.equals) s += " = " + *id.equals;
            else s += " " + id.kind;
            if (id.minted) s += " minted now";
            if (id.unique) s += " unique";
            if (id.allow_null) s += " or null";
            if (!id.time_field.empty()) s += ", time field not derived from it";
            if (id.legacy) {
                if (!id.legacy->legacy_id.empty()) s += " decoding to legacy id " + id.legacy->legacy_id;
                if (!id.legacy->entity_type.empty()) s += " type " + id.legacy->entity_type;
                if (!id.legacy->salt.empty()) s += " with hash verified";
            }
            if (!id.collect.empty()) s += " (collected as " + id.collect + ")";
            out.push_back(std::move(s));
        }
        if (!e.id_members.empty()) out.push_back("every id member a " + e.id_members);
        if (e.body) {
            for (const auto& n : e.body->contains) out.push_back("body with " + n);
            std::string echo;  // "outside a quoted ${m}": where the answer may name the value it refused
            for (const auto& a : e.body->allow_echo) echo += (echo.empty() ? " outside a quoted " : " or ") + a;
            for (const auto& n : e.body->not_contains) out.push_back("body without " + n + echo);
        }
        if (!e.precondition.empty()) {
            if (out.size() == before) out.emplace_back("its checks");
            out.back() += " (else skipped: a precondition)";
        }
        for (const auto& j : e.json) out.push_back("json " + (j.pointer.empty() ? std::string("(whole body)") : j.pointer) + " checked");
    }
    for (const auto& ce : c.collected) {
        std::vector<std::string> what;
        if (ce.distinct) what.emplace_back("distinct");
        if (ce.same) what.emplace_back("all equal");
        if (ce.time_ordered) what.emplace_back("in time order");
        if (ce.random) what.emplace_back("random-looking");
        out.push_back(ce.list + " " + join(what, ", "));
    }
    return join(out, "; ");
}

std::string cell(std::string s) {
    std::string out;
    for (char ch : s) {
        if (ch == '|') out += "\\|";
        else if (ch == '\n') out += ' ';
        else out += ch;
    }
    return out;
}

}  // namespace

Runner add_list(CLI::App& app) {
    auto paths = std::make_shared<std::vector<std::string>>();
    auto markdown = std::make_shared<bool>(false);
    auto exit_format = std::make_shared<std::string>();
    auto target = std::make_shared<std::string>();
    auto packs_dir = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("list", "List what suites check: rule, check, what is sent, what must come back");
    cmd->add_option("SUITE_OR_DIR", *paths, "Suite files or directories (required unless --target or --exit-codes)");
    cmd->add_option("--target", *target,
                    "Target profile (YAML; - reads standard input): also list what every built-in pack that applies to it checks, as `run` "
                    "would expand them (one suite per pack x resource)");
    cmd->add_option("--packs-dir", *packs_dir, "Where the built-in packs are (as for run)");
    cmd->add_flag("--markdown", *markdown, "Print a Markdown table (docs/rules.md's rule table is made this way)");
    cmd->add_option("--exit-codes", *exit_format,
                    "Print the exit-code table instead, as markdown (README's) or man (the man page's EXIT STATUS)")
        ->check(CLI::IsMember({"markdown", "man"}));
    return [paths, markdown, exit_format, target, packs_dir]() -> int {
        if (!exit_format->empty()) {
            std::cout << (*exit_format == "man" ? exit_codes_man() : exit_codes_markdown());
            return exit_ok;
        }
        if (paths->empty() && target->empty()) {
            std::cerr << "idconform list: give suite files or directories (SUITE_OR_DIR), --target PROFILE.yaml, or "
                         "--exit-codes FORMAT\n";
            return exit_usage;
        }
        std::vector<suite::Suite> suites;
        LoadedTarget loaded;
        if (const int code = load_suites({*paths, *target, *packs_dir, "list"}, suites, loaded); code != exit_ok)
            return code;
        if (*markdown) {
            std::cout << "| rule | suite | check | what is sent | what must come back |\n|---|---|---|---|---|\n";
        }
        for (auto& s : suites) {
            (void)binding::bind_calls(s);  // a call is listed as the request the profile binds it to
            for (const auto& c : s.cases) {
                const std::string rule = c.rules.empty() ? "-" : join(c.rules, ", ");
                if (*markdown)
                    std::cout << "| " << cell(rule) << " | " << cell(s.name) << " | " << cell(c.name) << " | `"
                              << cell(sent(c)) << "` | " << cell(expected(c)) << " |\n";
                else
                    std::cout << rule << "\t" << s.name << "\t" << c.name << "\t" << sent(c) << "\t" << expected(c) << "\n";
            }
        }
        return exit_ok;
    };
}

}  // namespace idconform::cli
