// Documentation made from the CLI11 app tree that --help prints: the man page
// and the bash, zsh and fish completions. The build runs the built binary
// (`idconform help --man docs/idconform.1.in`, `idconform help --completion
// SHELL`, cmake/Install.cmake) and installs what it prints, so neither can
// name an option the binary lacks or miss one it has.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace idconform::cli {

// The man page: `prose` is the hand-written roff template (DESCRIPTION,
// ENVIRONMENT, FILES, EXAMPLES, ...) in which the lines
//   .\" generated: name | synopsis | commands | exit-status
// are replaced by what the app tree says, the blocks
//   .\" about: COMMAND  ...  .\" end
// are moved into that command's entry (after its summary, before its
// options), and @VERSION@ becomes `version`. nullopt with `error` set when a
// marker is unknown or missing, or an about block names no command.
[[nodiscard]] std::optional<std::string> man_page(const CLI::App& app, std::string_view prose, std::string_view version,
                                                  std::string& error);

// The completion script for `shell` ("bash", "zsh" or "fish"); nullopt for
// another shell.
[[nodiscard]] std::optional<std::string> completion_script(const CLI::App& app, std::string_view shell);

// The shells completion_script() knows, for messages.
[[nodiscard]] std::string_view completion_shells();

// `idconform help --man TEMPLATE` / `idconform help --completion SHELL`
// (argv[2] is --man or --completion; hidden: the build's, not the user's):
// prints the page or script on stdout; usage errors exit 2.
[[nodiscard]] int help_docs_main(const CLI::App& app, int argc, char** argv);

}  // namespace idconform::cli
