// Expansion of suite arguments: a directory stands for the suite files
// directly in it; vector-set and fragment files are recognised and skipped.
#include "suite/loader.hpp"

#include "suite/input_guard.hpp"
#include "suite/yaml_reader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

namespace idconform::suite {

namespace fs = std::filesystem;

namespace {

bool has_yaml_extension(const fs::path& p) {
    const auto ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml";
}

bool under_fragments_folder(const fs::path& p) {
    for (const auto& part : p.parent_path())
        if (part == "fragments") return true;
    return false;
}

// Vector-set files (`set:`) and fragment/library files (`fragments:` or
// `vectors:` without `name:`) are included by suites, not run. A file that
// does not parse counts as a suite so that loading it reports the error.
bool is_library_file(const fs::path& p) {
    const auto name = p.filename().string();
    if (name.ends_with(".vectors.yaml") || name.ends_with(".vectors.yml")) return true;
    // Through the input boundary: a file it refuses counts as a suite, and
    // loading it reports why.
    const auto in = detail::read_input_file(p.string(), "file");
    if (!in.text || in.text->size() > detail::InputLimits::max_tree_bytes) return false;
    std::vector<Diagnostic> ignored;
    const auto src = detail::SourceText::from(p.string(), *in.text);
    detail::Reader r(src, ignored);
    if (!detail::pre_parse(r, *in.text)) return false;
    try {
        const YAML::Node root = YAML::Load(*in.text);
        if (!root.IsMap()) return false;
        if (root["name"]) return false;
        return root["set"] || root["fragments"] || root["vectors"];
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

std::vector<std::string> expand_suite_paths(const std::vector<std::string>& args,
                                            std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const auto& arg : args) {
        std::error_code ec;
        const fs::file_status st = fs::status(arg, ec);
        if (ec || !fs::exists(st)) {
            diagnostics.push_back(Diagnostic{SourcePos{arg, 0, 0}, "no such file or directory: '" + arg + "'",
                                             "pass a suite file (.yaml) or a directory of suite files", {}});
            continue;
        }
        if (!fs::is_directory(st)) {
            out.push_back(arg);
            continue;
        }
        std::vector<std::string> found;
        try {
            for (const auto& entry : fs::directory_iterator(arg, ec)) {
                std::error_code file_ec;
                if (!entry.is_regular_file(file_ec) || !has_yaml_extension(entry.path())) continue;
                if (under_fragments_folder(entry.path()) || is_library_file(entry.path())) continue;
                found.push_back(entry.path().string());
            }
        } catch (const fs::filesystem_error& e) {
            ec = e.code();
        }
        if (ec) {
            diagnostics.push_back(Diagnostic{SourcePos{arg, 0, 0}, "cannot list directory '" + arg + "': " + ec.message(),
                                             "check the directory's permissions", {}});
            continue;
        }
        if (found.empty()) {
            diagnostics.push_back(Diagnostic{SourcePos{arg, 0, 0}, "no suite files in directory '" + arg + "'",
                                             "suite files are *.yaml or *.yml files with a top-level 'name:' "
                                             "directly in the directory (subdirectories are not searched)",
                                             {}});
            continue;
        }
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

}  // namespace idconform::suite
