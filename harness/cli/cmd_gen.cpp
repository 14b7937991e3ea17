// `idconform gen --kind v7|v4|ulid|viewable|uuidv8-legacy [-n N]`: prints
// freshly generated identifiers, one a line.
#include "cli/commands.hpp"
#include "cli/option_values.hpp"
#include "ids/ids.hpp"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace idconform::cli {

Runner add_gen(CLI::App& app) {
    struct Opts {
        std::string kind = "v7";
        long count = 1;
        bool upper = false;
        std::string prefix = "TR-";
        std::size_t length = 7;
        std::uint64_t legacy_id = 0;
        std::uint32_t entity_type = 500;
        std::string salt_env = "IDCONFORM_LEGACY_SALT";
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = app.add_subcommand("gen", "Generate identifiers, one a line");
    cmd->add_option("--kind,-k", o->kind, "v7, v4, ulid, viewable or uuidv8-legacy")
        ->check(CLI::IsMember({"v7", "v4", "ulid", "viewable", "uuidv8-legacy"}));
    cmd->add_option("-n,--count", o->count, "How many")->check(CLI::Range(1L, 100000000L));
    cmd->add_flag("--upper", o->upper, "ulid: print upper-case (the ULID spec's form) instead of lower-case");
    cmd->add_option("--prefix", o->prefix, "viewable: prefix");
    cmd->add_option("--length", o->length, "viewable: symbols after the prefix")->check(CLI::Range(1, 64));
    cmd->add_option("--legacy-id", o->legacy_id, "uuidv8-legacy: first legacy integer id (then +1 per id; 32 bits)")
        ->check(count_validator(0, 0xFFFFFFFFu));
    cmd->add_option("--entity-type", o->entity_type, "uuidv8-legacy: entity type (15 bits)")->check(CLI::Range(0, 32767));
    cmd->add_option("--salt-env", o->salt_env, "uuidv8-legacy: environment variable holding the salt");
    return [o]() -> int {
        std::string out;
        out.reserve(64 * 1024);
        auto flush = [&out](bool force) {
            if (force || out.size() > 60 * 1024) {
                std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
                out.clear();
            }
        };
        const char* salt = nullptr;
        if (o->kind == "uuidv8-legacy") {
            salt = std::getenv(o->salt_env.c_str());
            if (!salt || !*salt) {
                std::cerr << "idconform gen: uuidv8-legacy needs a salt in $" << o->salt_env
                          << " (never put it in a file in the repo)\n";
                return exit_usage;
            }
        }
        if (o->kind == "uuidv8-legacy" && o->legacy_id + static_cast<std::uint64_t>(o->count) - 1 > 0xFFFFFFFFu) {
            std::cerr << "idconform gen: --legacy-id " << o->legacy_id << " with -n " << o->count
                      << " goes past the largest 32-bit legacy id 4294967295\n";
            return exit_usage;
        }
        ids::V7Generator v7;
        ids::UlidGenerator ulid;
        const ids::ViewableFormat vf{o->prefix, o->length};
        for (long i = 0; i < o->count; ++i) {
            if (o->kind == "v7") out += ids::format(v7.next());
            else if (o->kind == "v4") out += ids::format(ids::generate_v4());
            else if (o->kind == "ulid") out += ids::format_ulid(ulid.next(), !o->upper);
            else if (o->kind == "viewable") out += ids::generate_viewable(vf);
            else out += ids::format(ids::encode_legacy(o->legacy_id + static_cast<std::uint64_t>(i), o->entity_type, salt));
            out += '\n';
            flush(false);
        }
        flush(true);
        std::cout.flush();
        return exit_ok;
    };
}

}  // namespace idconform::cli
