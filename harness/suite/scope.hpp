// The template language of suites and profiles: the variables visible to a
// step, and the interpolation of templates
// (${name}, ${name.field}, ${env:NAME}, ${env:NAME:-default}, the fresh ids
// ${gen:uuidv7} / ${gen:uuidv4} / ${gen:ulid} / ${gen:KIND} / ${gen:match:VAR},
// and `{name}` in paths) against them. Secret values are remembered so that
// every recorded request can be redacted.
#pragma once

#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::suite {

template <class T>
using Result = boost::system::result<T, std::string>;

class Scope {
public:
    void set(const std::string& name, boost::json::value v, bool secret = false);
    [[nodiscard]] const boost::json::value* find(std::string_view name) const;
    // Resolves a placeholder body: "name", "name.field", "env:NAME", "env:NAME:-default".
    [[nodiscard]] Result<boost::json::value> resolve(std::string_view expr) const;
    [[nodiscard]] const std::set<std::string>& secrets() const { return secrets_; }
    void add_secret(std::string value);
    // A template variable: its placeholders are filled each time it is used.
    // Only for values the suite or profile wrote, never for captured answers
    // (a hostile target must not be able to make the harness expand ${env:...}).
    void set_deferred(const std::string& name, boost::json::value tmpl);
    // How many ${name} lookups found no variable so far: a caller tells an
    // unbound variable from other template errors by this count, not by
    // the error's words.
    [[nodiscard]] std::size_t misses() const noexcept { return misses_; }

private:
    [[nodiscard]] Result<boost::json::value> generate(std::string_view what) const;  // ${gen:...}

    std::map<std::string, boost::json::value, std::less<>> vars_;
    std::set<std::string> secrets_;
    std::set<std::string, std::less<>> deferred_;
    mutable int depth_ = 0;
    mutable std::size_t misses_ = 0;
};

// The generators, for messages: "gen:uuidv7, gen:uuidv4, gen:ulid (any id kind
// with a generator) or gen:match:VAR".
inline constexpr std::string_view generator_forms =
    "use gen:uuidv7, gen:uuidv4, gen:ulid or another id kind with a generator (uuid, uuidv1, uuidv3, uuidv5, "
    "uuidv6, uuidv8), or gen:match:VAR for a text matching the RE2 pattern VAR holds";

enum class Encoding { raw, path_segment, query };

// Text form of a value inside a template: strings as is, everything else as JSON.
[[nodiscard]] std::string to_text(const boost::json::value& v);

// Interpolates ${...} in `tmpl`; with Encoding::path_segment also `{name}`
// (percent-encoded). Errors name the undefined variable.
[[nodiscard]] Result<std::string> interpolate(std::string_view tmpl, const Scope& scope, Encoding enc = Encoding::raw);
// JSON: a string leaf that is exactly "${x}" becomes x's JSON value.
[[nodiscard]] Result<boost::json::value> interpolate_json(const boost::json::value& tmpl, const Scope& scope);

[[nodiscard]] std::string percent_encode(std::string_view s, bool keep_slash);

// A path template: `${...}` first (a path template may come from a
// variable), then `{name}` from `params` or variables, percent-encoded.
[[nodiscard]] Result<std::string> build_path(const std::string& tmpl,
                                             const std::vector<std::pair<std::string, std::string>>& params,
                                             const Scope& scope);

// What a template refers to: `${env:NAME}` / `${env:NAME:-default}` and
// `${var}` names (generators and other forms are not listed).
struct TemplateRefs {
    std::vector<std::pair<std::string, bool>> env;  // name, has a default
    std::vector<std::string> vars;
};
// Adds the references of `tmpl` to `out`.
void template_refs(std::string_view tmpl, TemplateRefs& out);

}  // namespace idconform::suite
