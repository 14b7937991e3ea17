// The boundary every YAML input file (suite, included file, profile) crosses
// before yaml-cpp builds a node tree from it: bounded reading, a text check
// (NUL bytes, UTF-8) and an event-only pre-parse that stops what yaml-cpp 0.7
// itself would not (a hang on a stray ',', alias bombs, cyclic aliases, deep
// nesting). Each problem is a Diagnostic at file:line:col with a hint.
//
// Why a pre-parse with yaml-cpp's own event parser and not another library:
// the yaml-cpp 0.7 hang is not in its scanner but in `YAML::LoadAll`, which
// loops for ever (one null document per turn, memory growing) when a
// document starts with a token the parser cannot take and does not consume;
// the only such token at document level is a ',' outside brackets (FLOW_ENTRY
// at flow level 0; inside a block collection the same token is an error
// yaml-cpp reports). Driving `YAML::Parser` document by document, this pre-pass
// sees the same stuck document twice at one mark and reports it, so the
// remedy covers every input that trips the loop whatever surrounds the comma,
// with yaml-cpp's own grammar (a second parser would disagree with yaml-cpp
// on valid files and give two sets of messages). docs/architecture.md says more.
#pragma once

#include "core/diagnostic.hpp"
#include "core/input_file.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace idconform::suite::detail {

class Reader;

// The limits, shown in the messages that enforce them.
struct InputLimits {
    // Any input file read (vector sets in the simple shape are read without a
    // node tree, at about a tenth of yaml-cpp's cost).
    static constexpr std::size_t max_file_bytes = input::Limits::document_bytes;
    // Text that yaml-cpp turns into a node tree: the tree and the loader's
    // model cost 60-150 bytes of memory per byte of YAML by its shape (a
    // 4 MiB suite peaks at 480-700 MB, 7.9 MiB of one-step cases at 1.2 GB;
    // docs/suite-format.md).
    static constexpr std::size_t max_tree_bytes = std::size_t{8} << 20;  // parse_document's default
    // Nesting of lists and mappings.
    static constexpr int max_depth = 128;
    // Nodes that aliases (`*name`) may repeat in one document, all aliases
    // together: legitimate reuse stays far below; a "billion laughs" does not.
    static constexpr std::size_t max_alias_nodes = 100000;
};

// The guard of every input file (core/input_file.hpp): its result, the
// text check and the sizes in messages.
using input::InputFile;
using input::check_text;
using input::size_text;

// Reads `path` (`what` names it: "suite file", "profile") through the guard:
// regular files (and pipes the user names) up to max_file_bytes, no
// devices, nothing under /proc or /sys (nor /dev, nor a pipe, for a file
// named inside another file: `named_by` says which), then the text check.
[[nodiscard]] InputFile read_input_file(const std::string& path, std::string_view what,
                                        input::NamedBy named_by = input::NamedBy::user);

// What the event pre-parse found: the number of documents (at most 2 are
// looked at) and whether the first is empty; or the first problem.
struct PreParse {
    int documents = 0;
    bool first_is_null = false;
    int second_line = -1;  // 0-based mark of the second document's root
    int second_column = -1;
};

// Runs the pre-parse; problems go to `r` (syntax errors with yaml-cpp's
// message and a hint). nullopt when `text` must not be given to yaml-cpp.
[[nodiscard]] std::optional<PreParse> pre_parse(Reader& r, const std::string& text);

}  // namespace idconform::suite::detail
