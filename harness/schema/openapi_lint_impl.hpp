// The OpenAPI linter's internals, shared by its three files: openapi_lint.cpp
// (the Linter's entry, the public functions lint_openapi/lint_path/
// format_finding/finding_kinds), openapi_walk.cpp (the traversal: paths,
// operations, parameters, headers, schemas, properties, the optional-on-create
// reference check) and openapi_checks.cpp (the effective schema of a field
// through $ref/allOf and the checks of its constraints, values and place).
// Not installed; only harness/schema/ includes it.
#pragma once

#include "schema/lint.hpp"

#include "ids/ids.hpp"
#include "schema/pattern_judge.hpp"
#include "schema/spec.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

namespace idconform::schema::openapi {

// Visiting more schema objects than this means aliases are multiplying one
// subtree: stop rather than run for ever.
inline constexpr std::size_t max_visits = 2'000'000;

inline const char* const http_methods[] = {"get", "put", "post", "delete", "patch", "options", "head", "trace"};

inline std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline bool contains_word(const std::string& hay, const std::string& needle) {
    std::size_t pos = 0;
    while ((pos = hay.find(needle, pos)) != std::string::npos) {
        const bool left = pos == 0 || !std::isalnum(static_cast<unsigned char>(hay[pos - 1]));
        const std::size_t end = pos + needle.size();
        const bool right = end >= hay.size() || !std::isalnum(static_cast<unsigned char>(hay[end]));
        if (left && right) return true;
        pos = end;
    }
    return false;
}

// A field named like an id that its description says is a name: a user,
// role, namespace, machine or backup name (`role_id`: "the name of the
// role"). Names are chosen by people, not assigned as ids: out of scope
// unless the schema itself says UUID.
inline bool described_as_name(const std::string& description) {
    const std::string d = lower(description);
    if (d.find("'s name") != std::string::npos) return true;  // "the namespace's name"
    for (const char* w : {"name of", "the name", "username", "user name", "login name", "role name", "display name",
                          "hostname", "host name", "human-readable", "human readable", "slug", "handle"})
        if (contains_word(d, w)) return true;
    return false;
}

// An integer named like an id that its description says is a position or
// a count (`worker_id`: "the worker number", an index in a list, a
// per-customer sequence number, a column number): an ordinal, not an id.
inline bool described_as_ordinal(const std::string& description) {
    const std::string d = lower(description);
    for (const char* w : {"index", "position", "ordinal", "sequence number", "serial number", "line number", "column number",
                          "worker number", "number of the", "counter", "rank", "offset", "zero-based", "0-based", "1-based",
                          "one-based"})
        if (contains_word(d, w)) return true;
    return false;
}

// A field whose description says its id comes from another system: an
// external or third-party id, one a payment or identity provider or another
// platform issued, an OAuth client id. DATA-ID is about the ids a service
// assigns to its own entities (RULES.md, scope): out of scope, whatever the
// schema says of its form. Not asked of an entity's own `id` ("Unique
// identifier for the OAuth client" is the id of this service's entity).
inline bool described_as_foreign(const std::string& d) {  // d: the description, lower-cased
    for (const char* w : {"external", "externally", "third-party", "third party", "identity provider", "payment provider",
                          "oauth", "the provider", "upstream", "another system", "other system",
                          "another platform", "issued by the", "assigned by the", "reported by", "stripe", "paypal", "braintree", "adyen",
                          "seller system", "merchant system", "client system", "partner system", "your system",
                          "merchant defined", "merchant-defined", "defined by the merchant", "seller defined",
                          "defined by the seller", "own system", "own systems", "in the seller", "in the marketplace",
                          "provided by the buyer", "provided by the partner", "provided by the merchant",
                          "provided by the seller", "provided by the client", "provided by the caller",
                          "for your own purposes", "your own database",
                          "must be unique",  // the caller picks it: no id the service assigns
                          "github", "gitlab", "google", "okta", "auth0", "keycloak"})
        if (contains_word(d, w)) return true;
    return false;
}

// A name cut into lower-case words at separators and camel humps
// (`walmart_client_secret`, `apiKey`, `HTTPRequestId` -> http, request, id).
inline std::vector<std::string> name_words(const std::string& n) {
    std::vector<std::string> out;
    std::string w;
    auto up = [](char c) { return c >= 'A' && c <= 'Z'; };
    auto low = [](char c) { return c >= 'a' && c <= 'z'; };
    for (std::size_t i = 0; i < n.size(); ++i) {
        const char c = n[i];
        const bool alnum = up(c) || low(c) || (c >= '0' && c <= '9');
        const bool hump = i > 0 && up(c) && (low(n[i - 1]) || (up(n[i - 1]) && i + 1 < n.size() && low(n[i + 1])));
        if ((!alnum || hump) && !w.empty()) out.push_back(std::move(w)), w.clear();
        if (alnum) w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (!w.empty()) out.push_back(std::move(w));
    return out;
}

// A name whose last word says it holds a secret or a token (`token`,
// `api_key`, `client_secret`, `password`): RULES.md's scope leaves secrets
// and tokens out, whatever their format (a `token` with format: uuid is
// still a token). `token_id` ends in "id": the id of a token, judged.
inline bool credential_name(const std::string& name) {
    // the last word, found from the end without cutting the whole name (every property name is asked)
    std::size_t end = name.size();
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    auto up = [](char c) { return c >= 'A' && c <= 'Z'; };
    while (end > 0 && !alnum(name[end - 1])) --end;
    if (end == 0) return false;
    std::size_t begin = end - 1;
    while (begin > 0 && alnum(name[begin - 1])) {
        const char c = name[begin], before = name[begin - 1];
        // a hump: 'apiKey' (lower before upper), 'APIKey' (the last capital of a run before a lower-case letter)
        if (up(c) && (!up(before) || (begin + 1 < end && !up(name[begin + 1])))) break;
        --begin;
    }
    if (end - begin > 10) return false;  // longer than any word below
    std::string w = name.substr(begin, end - begin);
    for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const std::set<std::string> words = {"token", "tokens", "secret", "secrets", "password", "passwd",
                                                "passphrase", "apikey", "key", "keys", "nonce", "otp", "signature"};
    return words.count(w) != 0;
}

// The public half of a credential: an id-named field whose stem ends in
// client, app, consumer or key (`walmart_client_id`, `wix_app_id`,
// `amazon_access_key_id`) after a word that says whose it is, beside a
// sibling of that first word that holds the secret half
// (`walmart_client_secret`, `wix_app_secret_key`, `amazon_secret_key`). An
// application registered with another platform identifies itself so; the
// id is that platform's, and a credential. A bare `client_id` is the
// service's own OAuth client as often: beside_login asks the paths.
// (`stem`: the words of the name's stem, name_words(ids::id_name_stem(name)))
inline bool credential_half_shape(const std::vector<std::string>& stem) {  // `X_client_id`, `X_app_id`, ...
    static const std::set<std::string> halves = {"client", "app", "application", "consumer", "key"};
    return stem.size() >= 2 && halves.count(stem.back()) != 0;
}
inline bool credential_half(const std::string& name, const std::vector<std::string>& stem,
                            const std::set<std::string>& siblings) {
    if (!credential_half_shape(stem)) return false;
    for (const std::string& s : siblings) {
        if (s == name) continue;
        const auto w = name_words(s);
        const bool secret = std::find(w.begin(), w.end(), "secret") != w.end();
        if (secret && w.front() == stem.front()) return true;
    }
    return false;
}

// Beside an application's secret (`api_secret`, `client_secret`,
// `mws_auth_token`): the fields that connect to some system. A password
// alone does not count (a user of this service is created with one, beside
// references to its own entities); nor does a page token (`page_token`) or a
// flag about secrets (`allowRotateSecret`).
inline bool beside_login(const std::string& name, const std::set<std::string>& siblings) {
    static const std::set<std::string> secrets = {"secret"};
    static const std::set<std::string> token_kinds = {"auth", "access", "api", "refresh", "bearer", "session", "security"};
    static const std::set<std::string> flags = {"allow", "has",      "is",  "can",   "enable",
                                                "enabled", "require", "requires", "use", "should"};
    for (const std::string& s : siblings) {
        if (s == name) continue;
        const std::string l = lower(s);  // (most names hold neither word: no need to cut them)
        if (l.find("secret") == std::string::npos && l.find("token") == std::string::npos) continue;
        const auto w = name_words(s);
        if (w.empty() || flags.count(w.front())) continue;
        if (secrets.count(w.back())) return true;
        if (w.back() == "token" && w.size() >= 2 && token_kinds.count(w[w.size() - 2])) return true;
    }
    return false;
}

// A reference named by its relation to the entity it sits in rather than
// by the kind it points at (`parent_id`, `owner_id`, `creator_id`): the
// paths cannot say which collection that is.
inline bool relation_name(const std::vector<std::string>& stem) {
    static const std::set<std::string> relations = {
        "parent", "child", "root",     "owner",    "creator",  "author",   "sender",   "recipient", "assignee",
        "requester", "reviewer", "approver", "updater", "modifier", "editor", "member", "actor", "target", "source"};
    return !stem.empty() && relations.count(stem.back()) != 0;
}

// A path variable that names an element of the collection before it
// (`/api-tokens/{api-token}`, `/keys/{key}`, `/policies/{policy}`): the
// element's id, whatever the word (credential_name is not asked of it).
inline bool names_element(const std::string& collection, const std::string& var) {
    auto squash = [](const std::string& t) {
        std::string o;
        for (char c : t)
            if (std::isalnum(static_cast<unsigned char>(c))) o += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return o;
    };
    const std::string c = squash(collection), v = squash(var);
    if (v.empty()) return false;
    // (a segment that repeats the variable, /genes/affyId/{affyId}, names a lookup key, not a collection)
    return c == v + "s" || c == v + "es" || (v.back() == 'y' && c == v.substr(0, v.size() - 1) + "ies");
}

// A name whose stem ends in "sequence" (`sequence_id`, `seqId`): a counter
// of changes or events, an ordinal, not an entity's id.
inline bool ordinal_name(const std::vector<std::string>& stem) {
    return !stem.empty() && (stem.back() == "sequence" || stem.back() == "seq");
}

// A field whose description says it holds a person's or a thing's number
// in an outside register or standard: a national identity or tax number, a
// passport, a licence plate, an ISO country, currency or language code, a
// device's MAC or IP address.
// Natural keys, not ids a service assigns (RULES.md, scope).
inline bool described_as_natural_key(const std::string& d) {  // d: the description, lower-cased
    for (const char* w : {"national id", "national identity", "identity number", "identity document", "passport",
                          "social security", "license plate", "licence plate", "number plate", "tax id",
                          "tax identification", "taxpayer", "vat number", "iso 3166", "iso-3166", "iso 4217", "iso-4217",
                          "iso 639", "iso-639", "country code", "currency code", "language code",
                          "mac address", "hardware address", "ip address"})  // a device's or host's address
        if (contains_word(d, w)) return true;
    return false;
}

// A name whose stem is a well-known outside identifier scheme or issuer
// (`spdx_id`: an SPDX licence id; `gravatar_id`: a Gravatar hash;
// `orcid_id`, `iban_id`, `google_id`, `github_id`, `cve_id`, `commit_id`):
// that scheme's id, not one
// the service assigns. The last word of the stem counts (`license_spdx_id`).
inline bool foreign_scheme_name(const std::string& name) {
    std::string stem = lower(std::string(ids::id_name_stem(name)));
    while (!stem.empty() && !std::isalnum(static_cast<unsigned char>(stem.back()))) stem.pop_back();
    const auto cut = stem.find_last_of("_-. ");
    const std::string last = cut == std::string::npos ? stem : stem.substr(cut + 1);
    static const std::set<std::string> schemes = {
        "spdx", "gravatar", "isbn", "issn", "doi", "orcid", "gtin", "ean", "upc", "iban", "lei", "duns", "imei", "iccid",
        "msisdn", "oauth", "openid", "oidc", "saml", "ldap", "scim", "stripe", "paypal", "google", "github", "gitlab",
        "apple", "facebook", "twitter", "slack", "discord", "azure", "aws", "gcp", "okta", "auth0", "keycloak",
        "cve", "cwe",  // MITRE's vulnerability and weakness ids
        "commit",      // a version-control commit id is the commit's hash
        "national", "passport", "ssn", "vat", "tax"};  // a register's numbers: national id, tax id
    return schemes.count(last) != 0;
}

// An id its description says is computed from content or written in an
// outside standard's encoding: a hash or digest, a key's fingerprint, a
// Bech32 string, an identifier a CIP/BIP/EIP defines ("Transaction hash",
// "Bech32 encoded pool ID", "Governance Action Identifier (CIP-0129)",
// "derived from the public key"). Nobody assigns it; it is worked out from
// the thing it names (a natural key), so DATA-ID does not apply, whatever
// the field is called (an `id` too).
inline bool described_as_derived(const std::string& d) {  // d: the description, lower-cased
    for (const char* w : {"hash", "digest of", "content digest", "fingerprint", "checksum", "bech32", "derived from",
                          "public key", "content-addressable", "content addressable"})
        if (contains_word(d, w)) return true;
    for (const char* w : {"cip-", "bip-", "eip-"})  // "CIP-0129", "BIP-32", "EIP-55"
        for (std::size_t at = d.find(w); at != std::string::npos; at = d.find(w, at + 1))
            if ((at == 0 || !std::isalnum(static_cast<unsigned char>(d[at - 1]))) && at + 4 < d.size() &&
                std::isdigit(static_cast<unsigned char>(d[at + 4])))
                return true;
    return false;
}

// A string in Bech32 or Bech32m (BIP-173, BIP-350): a readable prefix, '1',
// then data in the Bech32 alphabet ending in a checksum that verifies. Chance
// alone passes the 30-bit checksum about once in a billion, so an example
// that does is a blockchain address or key (`pool1pu5j...`): another
// system's id. The 90-character limit of BIP-173 is not asked (Cardano's
// CIP-5 strings are longer).
inline bool bech32_string(const std::string& text) {
    static constexpr std::string_view alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    const bool upper = std::any_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    const bool lowercase = std::any_of(text.begin(), text.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (upper && lowercase) return false;  // mixed case is never Bech32
    const std::string t = lower(text);
    const auto sep = t.rfind('1');
    if (sep == std::string::npos || sep == 0 || t.size() - sep - 1 < 6) return false;
    auto polymod = [](std::uint32_t chk, std::uint32_t v) {
        static constexpr std::uint32_t gen[] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
        const std::uint32_t top = chk >> 25;
        chk = ((chk & 0x1ffffff) << 5) ^ v;
        for (int i = 0; i < 5; ++i)
            if ((top >> i) & 1) chk ^= gen[i];
        return chk;
    };
    std::uint32_t chk = 1;
    for (std::size_t i = 0; i < sep; ++i) {
        const auto c = static_cast<unsigned char>(t[i]);
        if (c < 33 || c > 126) return false;
        chk = polymod(chk, c >> 5);
    }
    chk = polymod(chk, 0);
    for (std::size_t i = 0; i < sep; ++i) chk = polymod(chk, static_cast<unsigned char>(t[i]) & 31);
    for (std::size_t i = sep + 1; i < t.size(); ++i) {
        const auto v = alphabet.find(t[i]);
        if (v == std::string_view::npos) return false;
        chk = polymod(chk, static_cast<std::uint32_t>(v));
    }
    return chk == 1 || chk == 0x2bc830a3;  // Bech32, Bech32m
}

// An example that shows an id computed from content or named in another
// scheme: a Bech32 string, an algorithm-prefixed digest
// (`sha256:6755...`), a URN of a namespace other than uuid
// (`urn:altinn:person:identifier-no:...`). As with described_as_derived,
// DATA-ID does not apply to it.
inline bool derived_example(const std::string& text) {
    const std::string t = lower(text);
    if (t.rfind("urn:", 0) == 0) return t.rfind("urn:uuid:", 0) != 0 && t.find(':', 4) != std::string::npos;
    const auto colon = t.find(':');
    if (colon != std::string::npos && colon > 0 && t.size() - colon - 1 >= 32) {
        const std::string alg = t.substr(0, colon);
        const bool known = alg.rfind("sha", 0) == 0 || alg == "md5" || alg.rfind("blake", 0) == 0;
        const bool hex = std::all_of(t.begin() + static_cast<std::ptrdiff_t>(colon) + 1, t.end(),
                                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
        if (known && hex) return true;
    }
    return bech32_string(text);
}

// Request/trace/correlation ids, ids of other systems: out of the data-id
// scope (RULES.md); the one list is ids::out_of_scope_id_name. Secrets and
// tokens too (credential_name).
inline bool out_of_scope_name(const std::string& name) { return ids::out_of_scope_id_name(name) || credential_name(name); }

// An example that stands for "some id" rather than showing one: a short
// number ('1', '12345'), a word ('string', 'uuid', 'example'), a template's
// slot ('<integer>', '{family_id}'), a UUID cut short or run together (hex
// digits and dashes only). It is no evidence that the field is not a UUID.
inline bool placeholder_example(const std::string& text) {
    const std::string t = lower(text);
    if (t.empty()) return true;
    // a template's slot: '<integer>', '{family_id}', '{{order_id}}', '${ID}'
    if (t.size() >= 3 && ((t.front() == '<' && t.back() == '>') || (t.front() == '{' && t.back() == '}') ||
                          (t.rfind("${", 0) == 0 && t.back() == '}')))
        return true;
    if (t.size() < 8 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) return true;
    for (const char* w : {"string", "id", "uuid", "guid", "example", "sample", "value", "test", "foo", "bar", "abc", "xyz"})
        if (t == w) return true;
    if (t.find("xxxx") != std::string::npos) return true;
    // (digits alone, 8 or more, are a number id: '1234567890123' is evidence)
    const bool digits = std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    return !digits && t.size() >= 8 && t.size() <= 40 &&
           std::all_of(t.begin(), t.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-'; });
}

// A value that is a plain word: three or more lower-case letters and
// nothing else ('ace', 'premium'). Ids a service generates carry digits or
// other signs; a word was chosen by a person.
inline bool word_value(const std::string& t) {
    return t.size() >= 3 && std::all_of(t.begin(), t.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// A list named like ids: "ids", "user_ids", "memberIds", "uuids".
inline bool plural_id_named(const std::string& n) {
    if (n.size() < 2 || n.back() != 's') return false;
    return ids::id_named_field(n.substr(0, n.size() - 1));
}

// `uuid`, its versioned spellings (`uuid4`, `uuidv7`) and `guid` (what
// .NET generators write for a Guid): a format that says UUID.
inline bool uuid_format(const std::string& f) {
    const std::string l = lower(f);
    return l.rfind("uuid", 0) == 0 || l == "guid";
}

// The version a format or a description claims: 4, 7 or 0 (none).
inline int documented_version(const std::string& format, const std::string& description) {
    const std::string f = lower(format);
    if (f == "uuid4" || f == "uuidv4" || f == "uuid-v4") return 4;
    if (f == "uuid7" || f == "uuidv7" || f == "uuid-v7") return 7;
    const std::string d = lower(description);
    for (const char* w : {"uuidv4", "uuid v4", "uuid4", "v4 uuid", "version 4", "random uuid"})
        if (d.find(w) != std::string::npos) return 4;
    for (const char* w : {"uuidv7", "uuid v7", "uuid7", "v7 uuid", "version 7"})
        if (d.find(w) != std::string::npos) return 7;
    return 0;
}

inline bool says_optional(const std::string& description) {
    const std::string d = lower(description);
    if (d.find("one of") != std::string::npos || d.find("unless") != std::string::npos) return false;
    for (const char* w : {"optional", "if any", "if not set", "if unset", "may be empty", "can be empty",
                          "empty string", "or empty", "null if", "or null", "blank"})
        if (d.find(w) != std::string::npos) return true;
    return false;
}

// DATA-ID-003's reason for a v4 field, stated in its description.
inline bool gives_v4_reason(const std::string& description) {
    const std::string d = lower(description);
    return d.find("data-id-003") != std::string::npos || d.find("creation time") != std::string::npos;
}

// A requirement with a condition ("one of a or b is required", "required
// unless ...") cannot be written in `required`: only plain ones count.
inline bool conditional(const std::string& d) {
    for (const char* w : {"one of", "unless", " or ", " if ", "when", "either", "not required", "only"})
        if (d.find(w) != std::string::npos) return true;
    return false;
}

inline bool says_required(const std::string& description) {
    const std::string d = lower(description);
    return contains_word(d, "required") && !conditional(d) && !says_optional(d);
}

// What the schema of one id field says, gathered through $ref and allOf.
struct Effective {
    Loc site;                        // where the constraints are written
    std::vector<std::string> types;  // without "null"
    bool nullable = false;
    Loc format, pattern;             // scalars
    std::vector<Loc> examples;       // example, x-example, examples (list or map of {value})
    Loc default_value;
    std::string description;
    bool has_enum = false;
    std::optional<long> min_length, max_length;
    std::vector<Loc> alternatives;   // non-null branches of oneOf/anyOf when there are several
    Loc items;
    bool has_properties = false;
    [[nodiscard]] std::string format_text() const { return format.valid() && format.node.IsScalar() ? format.node.Scalar() : ""; }
    [[nodiscard]] std::string pattern_text() const { return pattern.valid() && pattern.node.IsScalar() ? pattern.node.Scalar() : ""; }
    [[nodiscard]] bool typed(std::string_view t) const { return std::find(types.begin(), types.end(), t) != types.end(); }
};

inline bool is_null_schema(const YAML::Node& n) {
    if (!n.IsMap()) return false;
    const auto t = scalar(n, "type");
    if (t && *t == "null") return true;
    const YAML::Node e = get(n, "enum");
    return e.IsSequence() && e.size() == 1 && e[0].IsNull();
}

struct Field {
    std::string name;
    Loc where;       // the property key or the parameter's name
    Loc schema;      // its schema as written (maybe a $ref)
    bool property = false;
    bool required = false;   // listed in the parent's `required`
    bool items = false;      // the elements of a list of ids
    const std::set<std::string>* siblings = nullptr;  // the names of the parameters beside it
    const std::vector<Loc>* sibling_props = nullptr;  // the properties beside it (their names read when asked)
    bool element = false;    // a path variable after the collection it names (/users/{user_id}): that element's id
};


class Linter {
public:
    Linter(SpecSet& set, LintResult& out) : set_(set), out_(out) {}

    void run();  // openapi_lint.cpp

private:
    SpecSet& set_;
    LintResult& out_;
    std::set<std::string> walked_;
    std::set<std::string> sites_;     // constraint sites checked
    std::set<std::string> contexts_;  // field places checked
    std::set<std::string> reported_;  // finding keys
    std::size_t visits_ = 0;
    struct Versioned {
        int version;
        Loc where;
        std::string name;
        bool patterned;
        bool reasoned;  // the description gives DATA-ID-003's reason (creation time must not leak)
    };
    std::vector<Versioned> versioned_;

    std::vector<Loc> members(const Loc& m);  // openapi_lint.cpp
    std::vector<Loc> elements(const Loc& s);  // openapi_lint.cpp

    void add(std::string rule, std::string kind, const Loc& at, std::string what, std::string expected);  // openapi_lint.cpp
    std::string inline_group(const Loc& at) const;  // openapi_lint.cpp
    std::string group_;
    std::string path_;  // the path template walk_paths is in ("" elsewhere)
    std::set<std::string> params_;  // the names of the parameters of the operation walk_paths is in
    std::set<std::string> segments_;  // the words of the document's paths, squashed (`api-tokens` -> apitokens)
    std::set<std::string> schemas_;   // the names of its schemas, squashed and lower-cased (`JobRun` -> jobrun)
    void gather_segments(const Loc& paths);  // openapi_lint.cpp
    bool names_resource(const std::vector<std::string>& stem) const;  // openapi_lint.cpp (stem: as for relation_name)
    std::map<std::string, std::size_t> groups_;

    // ------------------------------------------------------------ traversal

    void walk_paths(const Loc& paths);  // openapi_walk.cpp

    // ------------------------------------------- a reference optional on create

    struct ObjectShape {
        std::map<std::string, Loc> props;
        std::set<std::string> required;
    };
    void shape_of(const Loc& s_in, ObjectShape& o, int depth = 0);  // openapi_walk.cpp
    Loc json_schema_of(const Loc& holder);  // openapi_walk.cpp

    void optional_in_answer(const Loc& op);  // openapi_walk.cpp

    void walk_content(const Loc& holder);  // openapi_walk.cpp

    void walk_response(const Loc& r_ref);  // openapi_walk.cpp

    void walk_header(const Loc& h_ref);  // openapi_walk.cpp

    void walk_param(const Loc& p_ref);  // openapi_walk.cpp

    static void add_param_examples(const Loc& p, Effective& e);  // openapi_walk.cpp

    Effective items_effective(const Effective& list);  // openapi_walk.cpp

    void walk_schema(const Loc& s);  // openapi_walk.cpp

    static std::string site_name(const std::string& pointer);  // openapi_walk.cpp

    static std::string unescape(const std::string& token);  // openapi_walk.cpp
    static std::string collection_before(const std::string& path, const std::string& var);
    static bool after_type_variable(const std::string& path, const std::string& var);  // openapi_walk.cpp

    void consider_property(const std::string& name, const Loc& p, bool required,
                           const std::vector<Loc>& siblings);  // openapi_walk.cpp

    // -------------------------------------------------------- effective schema

    Effective effective(const Loc& s);  // openapi_checks.cpp

    static bool has_own_constraint(const YAML::Node& n);  // openapi_checks.cpp

    void gather(const Loc& s_in, Effective& e, int depth);  // openapi_checks.cpp

    // ------------------------------------------------------------- the checks

    void check_field(const Field& f, const Effective* given = nullptr);  // openapi_checks.cpp

    bool check_constraints(const Field& f, const Effective& e);  // openapi_checks.cpp

    bool claims_uuid(const Effective& e);  // openapi_checks.cpp

    void check_value(const Field& f, const Loc& x, bool is_default, const std::string& pat);  // openapi_checks.cpp

    void check_place(const Field& f, const Effective& e, bool uuid);  // openapi_checks.cpp

    void version_findings();  // openapi_checks.cpp
};


}  // namespace idconform::schema::openapi
