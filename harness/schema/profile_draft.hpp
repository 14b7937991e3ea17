// `idconform init --from-openapi`: a draft target profile (docs/target-profile.md)
// read off an OpenAPI/Swagger document. Resources come from the paths (a
// collection path with POST/GET, an item path `<collection>/{var}` with
// GET/PATCH/PUT/DELETE), the id and its kind from the entity schema's `id`
// (its pattern judged by behaviour), references from id-named properties
// naming another resource, `required` from the create schema, principals
// from the security scheme (tokens as ${env:...}), the base URL from
// `servers`. Every value carries a comment saying what it was based on, a
// guess the user should check is marked `guess:`; what cannot be decided is
// a commented placeholder, never an invented value.
#pragma once

#include "core/diagnostic.hpp"

#include <string>
#include <vector>

namespace idconform::schema {

struct ProfileDraft {
    std::string yaml;                 // the draft, empty when `errors` is not
    std::vector<Diagnostic> errors;   // the document could not be read
    std::vector<Diagnostic> warnings; // unresolved references met on the way
    std::size_t resources = 0;
    // No drafted resource has a create (a POST on a collection, a creating
    // PUT): the harness makes its own test data, so the draft cannot run until
    // one is added. The draft says so at its top; `init` writes it regardless
    // (it is what the document says). `creates_not_drafted`: the document has
    // POSTs, but each resource with one was left out (the draft says why).
    bool no_create = false;
    bool creates_not_drafted = false;
    // Not even a resource was recognised (then no_create too): the draft says
    // so and lists the document's operations; `init` writes it with a warning.
    bool no_resource = false;
    // Lines of the draft whose comment marks a guess to check (`guess:`), and
    // lines with a placeholder to fill in (`placeholder`): init's summary counts them.
    std::size_t guesses = 0, placeholders = 0;
};

[[nodiscard]] ProfileDraft draft_profile(const std::string& spec_path);
// The same for a document in memory (named `name`); references to other files are not followed.
[[nodiscard]] ProfileDraft draft_profile_text(const std::string& name, const std::string& text);

}  // namespace idconform::schema
