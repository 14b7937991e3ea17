// The suites of a command (see load_suites.hpp).
#include "cli/load_suites.hpp"

#include "audit/metadata.hpp"
#include "cli/exit_codes.hpp"
#include "cli/install_paths.hpp"
#include "core/diagnostic.hpp"
#include "core/input_file.hpp"
#include "core/redact.hpp"
#include "profile/profile.hpp"
#include "runner/scope.hpp"
#include "suite/loader.hpp"

#include <iostream>

namespace idconform::cli {

std::string expanded_url(const std::string& tmpl) {
    const runner::Scope env_only;  // a profile's base_url may read the environment only
    auto url = runner::interpolate(tmpl, env_only);
    if (!url) return redact::redact_url(tmpl) + " (" + url.error() + ")";
    return redact::redact_url(*url);
}

int load_suites(const SuiteSources& o, std::vector<suite::Suite>& suites, LoadedTarget& loaded) {
    std::vector<Diagnostic> diags;
    std::size_t profile_diags = 0;  // of diags, those in the target profile
    if (!o.paths.empty()) {
        const auto files = suite::expand_suite_paths(o.paths, diags);
        for (const auto& f : files) {
            auto r = suite::load_file(f);
            if (r.ok()) suites.push_back(std::move(*r.suite));
            for (auto& d : r.diagnostics) diags.push_back(std::move(d));
        }
    }
    if (!o.target.empty()) {
        input::Policy policy;
        policy.what = "profile";
        profile::LoadResult p;
        if (o.target == "-") {
            auto in = input::read_stdin(policy);
            if (in.text) {
                loaded.profile_text = std::move(*in.text);
                p = profile::load_profile_text(loaded.profile_text, std::string(input::stdin_name));
            } else {
                p.diagnostics.push_back(std::move(in.error));
            }
            loaded.profile_name = input::stdin_name;
        } else {
            p = profile::load_profile(o.target);
            loaded.profile_name = o.target;
            if (p.profile) {  // for the plan digest and the sha256 (the loader read it through the same guard)
                auto in = input::read_input(o.target, policy);
                if (in.text) loaded.profile_text = std::move(*in.text);
                else p.diagnostics.push_back(std::move(in.error));
            }
        }
        profile_diags += p.diagnostics.size();
        for (auto& d : p.diagnostics) diags.push_back(std::move(d));
        if (p.profile) {
            std::string packs = o.packs_dir;
            if (packs.empty()) {
                std::vector<std::string> tried;
                packs = default_packs_dir(tried);
                if (packs.empty()) {
                    std::cerr << "idconform " << o.command << ": the built-in packs are not installed; looked in:\n";
                    for (const auto& t : tried) std::cerr << "  " << t << '\n';
                    std::cerr << "give --packs-dir DIR (the suites/packs folder of idconform's source) or reinstall\n";
                    return exit_usage;
                }
            }
            auto x = profile::expand(*p.profile, packs);
            for (auto& d : x.diagnostics) {
                // A pack the profile names is the profile's error; a broken pack file is a suite's.
                if (d.pos.file == p.profile->pos.file) ++profile_diags;
                diags.push_back(std::move(d));
            }
            for (auto& s : x.suites) suites.push_back(std::move(s));
            loaded.clock_skew_ms = p.profile->clock_skew_ms;
            loaded.metadata.emplace_back("target", p.profile->name + " " + expanded_url(p.profile->base_url));
            loaded.metadata.emplace_back("profile",
                                         loaded.profile_name + " (sha256 " + audit::text_sha256(loaded.profile_text) + ")");
            loaded.metadata.emplace_back("packs", packs);
        }
    }
    if (!diags.empty()) {
        for (const auto& d : diags) std::cerr << render(d) << '\n';
        // Name where the errors are: a profile mistake is not "in the suites".
        const char* where = profile_diags == 0             ? "in the suites"
                            : profile_diags == diags.size() ? "in the profile"
                                                            : "in the suites and the profile";
        std::cerr << "idconform: " << diags.size() << " error" << (diags.size() == 1 ? "" : "s") << " " << where
                  << (o.command == "run" ? "; nothing was run\n" : "\n");
        return exit_usage;
    }
    if (suites.empty()) {
        std::cerr << "idconform: no suites found in the given paths\n";
        return exit_usage;
    }
    return exit_ok;
}

}  // namespace idconform::cli
