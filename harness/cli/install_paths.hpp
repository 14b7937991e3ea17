// Where an idconform finds what it ships with (the built-in packs), without
// --packs-dir or the source tree: relative to its own executable first (an
// installed or extracted tree: bin/../share/idconform), then the install
// prefix it was configured with; a binary still in its build tree uses the
// source tree it was built from. Also the version text with the git commit.
#pragma once

#include <string>
#include <vector>

namespace idconform::cli {

// The directory holding suites/packs/<pack>/ to use: $IDCONFORM_PACKS_DIR
// when set, else the first of the candidates above that exists. Empty when
// none does; `tried` then lists every place looked at, in order.
[[nodiscard]] std::string default_packs_dir(std::vector<std::string>& tried);

// The absolute URI of one of the docs idconform ships (`lint.md`), for
// the links of its reports: `base` (a URL of the docs/ folder, from the
// command line) plus the name, or the build's -DIDCONFORM_DOCS_URL=BASE plus
// the name when it was given; else a file:// URI of the copy that exists:
// installed beside the executable (bin/../share/doc/idconform/), the source
// tree's docs/ for a binary still in its build tree, the install prefix's.
// Empty when there is none.
[[nodiscard]] std::string doc_uri(const std::string& name, const std::string& base = {});

// "idconform 0.1.0 (commit 0123456789ab)".
[[nodiscard]] std::string version_text();
// The git commit this binary was built from ("unknown" outside a git tree):
// the reports' metadata carries it beside the version.
[[nodiscard]] std::string git_commit();

}  // namespace idconform::cli
