// Variables visible to a step, and the interpolation of templates
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

namespace idconform::runner {

template <class T>
using Result = boost::system::result<T, std::string>;

class SendCheck;  // runner/send_check.hpp

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
    // What the suite's transports can tell before anything is sent (a value
    // that cannot be encoded in its typed field): set at suite start, asked
    // by the case expansion, which is handed the suite's scope.
    void set_send_check(std::shared_ptr<const SendCheck> check) { send_check_ = std::move(check); }
    [[nodiscard]] const SendCheck* send_check() const { return send_check_.get(); }
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
    std::shared_ptr<const SendCheck> send_check_;
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

// What a template refers to: `${env:NAME}` / `${env:NAME:-default}` and
// `${var}` names (generators and other forms are not listed).
struct TemplateRefs {
    std::vector<std::pair<std::string, bool>> env;  // name, has a default
    std::vector<std::string> vars;
};
// Adds the references of `tmpl` to `out`.
void template_refs(std::string_view tmpl, TemplateRefs& out);

}  // namespace idconform::runner
