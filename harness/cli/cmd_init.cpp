// `idconform init --from-openapi SPEC [-o FILE]`: writes a draft target
// profile read off an OpenAPI/Swagger document (harness/schema/profile_draft).
// The draft is loaded by the profile loader before it is written, so what
// this command prints loads without edits (or the command says why not).
#include "cli/commands.hpp"

#include "profile/profile.hpp"
#include "reporters/atomic_file.hpp"
#include "schema/profile_draft.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

namespace idconform::cli {

Runner add_init(CLI::App& app) {
    struct Opts {
        std::string spec, out;
        bool force = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = app.add_subcommand("init", "Draft a target profile from an OpenAPI/Swagger document");
    cmd->add_option("--from-openapi", o->spec, "The OpenAPI 3.0/3.1 or Swagger 2.0 document (YAML or JSON)")->required();
    cmd->add_option("-o,--output", o->out, "Write the draft to FILE (default: stdout)");
    cmd->add_flag("--force", o->force, "Overwrite FILE when it exists");
    cmd->footer(
        "Every value read off the document carries a comment saying what it was based on; what the\n"
        "document cannot say is a commented placeholder. Tokens are ${env:IDCONFORM_TOKEN_A} / _B.\n" +
        exit_codes_footer({{exit_ok, "draft written (also for a document without a resource or a create: the draft says so)"},
                           {exit_usage, "the document cannot be read, or FILE exists"},
                           {exit_internal, "internal error"}}));
    return [o]() -> int {
        if (!o->out.empty() && !o->force) {
            std::error_code ec;
            if (std::filesystem::exists(o->out, ec)) {
                std::cerr << "idconform init: " << o->out << " exists (give --force to overwrite it)\n";
                return exit_usage;
            }
        }
        const schema::ProfileDraft d = schema::draft_profile(o->spec);
        for (const auto& w : d.warnings) std::cerr << w.pos.str() << ": warning: " << w.title << '\n';
        if (!d.errors.empty()) {
            for (const auto& e : d.errors) std::cerr << render(e);
            return exit_usage;
        }
        // the promise: the draft loads without edits
        const std::string as = o->out.empty() ? std::string("draft.target.yaml") : o->out;
        const auto loaded = profile::load_profile_text(d.yaml, as);
        // a document without a create gives a draft that says so and cannot load until one is added
        if (!loaded.profile && !d.no_create) {
            std::cerr << "idconform init: internal error: the draft does not load:\n";
            for (const auto& e : loaded.diagnostics) std::cerr << render(e);
            std::cerr << "--- the draft:\n" << d.yaml;
            return exit_internal;
        }
        if (o->out.empty()) {
            std::cout << d.yaml;
        } else {
            std::string error;
            if (!reporters::write_file_atomic(o->out, d.yaml, "profile", error)) {
                std::cerr << "idconform init: " << error << '\n';
                return exit_usage;
            }
        }
        if (d.no_resource)
            std::cerr << "idconform init: warning: no resource recognised in " << o->spec
                      << ": the draft lists the operations it saw; add resources by hand before running it\n";
        else if (d.creates_not_drafted)
            std::cerr << "idconform init: note: no resource of " << o->spec
                      << " with a create could be drafted (the draft says why for each): every pack skips until a "
                         "resource has create: (the draft says so at its top)\n";
        else if (d.no_create)
            std::cerr << "idconform init: note: " << o->spec
                      << " describes no create endpoint (POST on a collection path): every pack skips until a resource "
                         "has create: (the draft says so at its top)\n";
        std::cerr << "drafted " << d.resources << " resource" << (d.resources == 1 ? "" : "s") << " from " << o->spec
                  << (o->out.empty() ? "" : " into " + o->out) << ": " << d.guesses << " guess" << (d.guesses == 1 ? "" : "es")
                  << " to check (comments marked 'guess:') and " << d.placeholders << " placeholder"
                  << (d.placeholders == 1 ? "" : "s") << " to fill in, before running it\n";
        return exit_ok;
    };
}

}  // namespace idconform::cli
