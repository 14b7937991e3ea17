// The OpenAPI linter's checks (openapi_lint_impl.hpp): the effective schema
// of an id field (through $ref, allOf, oneOf/anyOf, nullable forms), then its
// constraints (format, pattern judged by what it accepts, length, enum), its
// examples and default, its place (required, nullable) and the one-version-
// per-field findings.
#include "schema/openapi_lint_impl.hpp"

namespace idconform::schema::openapi {

Effective Linter::effective(const Loc& s) {
    Effective e;
    gather(s, e, 0);
    if (!e.site.valid()) e.site = set_.deref(s);
    return e;
}

bool Linter::has_own_constraint(const YAML::Node& n) {
    for (const char* k : {"type", "format", "pattern", "allOf", "oneOf", "anyOf", "enum", "default", "example", "nullable"})
        if (get(n, k).IsDefined()) return true;
    return false;
}

void Linter::gather(const Loc& s_in, Effective& e, int depth) {
    if (depth > 32 || !s_in.valid() || !s_in.node.IsMap()) return;
    const Loc s = s_in;
    if (!e.site.valid() && has_own_constraint(s.node)) e.site = s;
    // the use's own words first: a description beside a $ref (3.1) wins over the target's
    if (const auto d = scalar(s.node, "description"); d && e.description.empty()) e.description = *d;
    if (get(s.node, "$ref").IsDefined()) {
        const Loc t = set_.deref(s);
        if (t.valid() && !t.node.is(s.node)) gather(t, e, depth + 1);
    }
    const YAML::Node type = get(s.node, "type");
    if (type.IsScalar()) {
        if (type.Scalar() == "null") e.nullable = true;
        else e.types.push_back(type.Scalar());
    } else if (type.IsSequence()) {
        for (const auto& t : type)
            if (t.IsScalar()) {
                if (t.Scalar() == "null") e.nullable = true;
                else e.types.push_back(t.Scalar());
            }
    }
    if (is_true(s.node, "nullable") || is_true(s.node, "x-nullable")) e.nullable = true;
    if (s.child("format").valid()) e.format = s.child("format");
    if (s.child("pattern").valid()) e.pattern = s.child("pattern");
    for (const char* k : {"example", "x-example"})
        if (s.child(k).valid()) e.examples.push_back(s.child(k));
    const Loc exs = s.child("examples");
    if (exs.valid() && exs.node.IsSequence())
        for (const Loc& x : elements(exs)) e.examples.push_back(x);
    if (s.child("default").valid()) e.default_value = s.child("default");
    if (const auto d = scalar(s.node, "description"); d && e.description.empty()) e.description = *d;
    if (get(s.node, "enum").IsDefined() || get(s.node, "const").IsDefined()) {
        const YAML::Node en = get(s.node, "enum");
        // `enum: [null]` says only "nullable"
        if (!(en.IsSequence() && en.size() == 1 && en[0].IsNull())) e.has_enum = true;
    }
    for (const char* k : {"minLength", "maxLength"}) {
        if (const auto v = scalar(s.node, k)) {
            try {
                (k[1] == 'i' ? e.min_length : e.max_length) = std::stol(*v);
            } catch (...) {
            }
        }
    }
    if (s.child("items").valid()) e.items = s.child("items");
    if (get(s.node, "properties").IsDefined()) e.has_properties = true;
    for (const Loc& part : elements(s.child("allOf"))) gather(part, e, depth + 1);
    for (const char* k : {"oneOf", "anyOf"}) {
        std::vector<Loc> others;
        for (const Loc& b : elements(s.child(k))) {
            const Loc d = set_.deref(b);
            if (d.valid() && is_null_schema(d.node)) e.nullable = true;
            else others.push_back(b);
        }
        if (others.size() == 1) gather(others[0], e, depth + 1);
        else if (others.size() > 1) e.alternatives.insert(e.alternatives.end(), others.begin(), others.end());
    }
}

void Linter::check_field(const Field& f, const Effective* given) {
    const Effective e = given ? *given : effective(f.schema);
    const std::string d = lower(e.description);
    if (f.name != "id" && described_as_foreign(d)) return;  // another system's id: not this service's to form
    if (described_as_derived(d)) return;                     // a hash, a key, a standard's encoding: nobody assigns it
    if (foreign_scheme_name(f.name) && !uuid_format(e.format_text())) return;  // spdx_id, gravatar_id: that scheme's id
    if (described_as_natural_key(d)) return;  // a national id, a licence plate, an ISO code
    const std::vector<std::string> stem = name_words(std::string(ids::id_name_stem(f.name)));
    if (ordinal_name(stem) && !uuid_format(e.format_text())) return;  // sequence_id: a counter
    // the evidence the last two rules ask for, worked out once (the siblings' names only when they can matter)
    const bool kind_named = names_resource(stem);
    const bool may_connect = credential_half_shape(stem) || (f.name != "id" && !kind_named);
    std::set<std::string> props;
    if (may_connect && !f.siblings && f.sibling_props)
        for (const Loc& p : *f.sibling_props) props.insert(unescape(p.pointer.substr(p.pointer.rfind('/') + 1)));
    const std::set<std::string>* siblings = !may_connect ? nullptr : f.siblings ? f.siblings : f.sibling_props ? &props : nullptr;
    if (siblings && credential_half(f.name, stem, *siblings)) return;  // walmart_client_id beside its secret
    // a connection to another system: site_id beside an api_secret, no /sites here
    if (f.name != "id" && siblings && !kind_named && beside_login(f.name, *siblings)) return;
    // a reference to a kind of entity the document's paths never name, with
    // nothing in its schema saying UUID: whose id it is the document does not
    // say (an accession of another register, a company's number, a carrier's
    // service point); judging it would be a guess
    if (!segments_.empty() && !f.element && !stem.empty() && !kind_named && !relation_name(stem) && !claims_uuid(e))
        return;
    ++out_.id_fields;
    bool uuid = true;
    if (!e.alternatives.empty()) {
        for (const Loc& alt : e.alternatives) {
            const Effective a = effective(alt);
            check_constraints(f, a);
        }
    } else {
        uuid = check_constraints(f, e);
    }
    if (f.property) check_place(f, e, uuid);
}

// Whether the schema says the field holds UUIDs: a uuid format, a UUID
// example, a pattern that admits one, a description naming a UUID version.
bool Linter::claims_uuid(const Effective& e) {
    if (uuid_format(e.format_text()) || documented_version(e.format_text(), e.description) != 0) return true;
    const std::string d = lower(e.description);
    if (contains_word(d, "uuid") || contains_word(d, "guid")) return true;
    for (const Loc& x : e.examples)
        if (x.node.IsScalar() && ids::recognize_uuid(x.node.Scalar()).value) return true;
    const std::string pat = e.pattern_text();
    if (!pat.empty()) {
        const PatternVerdict& v = judge_pattern(pat);
        if (v.compiles && v.admits_uuid()) return true;
    }
    for (const Loc& alt : e.alternatives)
        if (claims_uuid(effective(alt))) return true;
    return false;
}

// DATA-ID-002 on the constraints, examples and defaults of one schema;
// false when the field is not a UUID at all (then nothing more is said).
bool Linter::check_constraints(const Field& f, const Effective& e) {
    const Loc site = e.site.valid() ? e.site : f.where;
    const std::string site_key = site.key();
    const bool first = sites_.insert(site_key).second;
    const std::string fmt = e.format_text();
    const std::string pat = e.pattern_text();
    const int doc_version = documented_version(fmt, e.description);
    // A field documented as v4 is advised the v4 pattern by every rule at
    // its spot (DATA-ID-003's v4-not-fixed says the same), others the v7 one.
    const bool v4_field = doc_version == 4;
    const std::string canonical = canonical_pattern(v4_field ? 4 : 7);
    const std::string fix = "type: string with pattern: '" + canonical + "'" + (v4_field ? "" : " (or the -4- pattern for a v4 field)");
    auto report = [&](std::string rule, std::string kind, std::string what, std::string expected) {
        if (first) add(std::move(rule), std::move(kind), site, std::move(what), std::move(expected));
    };
    const std::string who = "id '" + f.name + "'";
    const bool integer = e.typed("integer") || e.typed("number");
    if (e.has_enum) return false;  // a closed set of names or codes (`enum: [1, 2]`: a type's number), not ids
    if (integer && !e.typed("string") && described_as_ordinal(e.description)) return false;  // a position, not an id
    if (integer && !e.typed("string")) {
        report("DATA-ID-002", "integer-id", who + " is typed " + (e.typed("integer") ? "integer" : "number") +
                                                 (fmt.empty() ? "" : " (format " + fmt + ")"),
               fix);
        return false;
    }
    if (!e.types.empty() && !e.typed("string")) return false;  // an object, a list, a boolean: not an id value
    if (e.has_properties && e.types.empty()) return false;
    // examples that are no UUID at all, on a field nothing else calls a
    // UUID: a prefixed or opaque id, said once
    // (a placeholder example - '12345', 'string', a cut UUID - says nothing
    // of the field: it is judged as written, the example said to be wrong)
    std::string alien;
    bool any_uuid = false;
    for (const Loc& x : e.examples) {
        if (!x.node.IsScalar()) continue;
        if (ids::recognize_uuid(x.node.Scalar()).value) any_uuid = true;
        else if (alien.empty() && !placeholder_example(x.node.Scalar())) alien = x.node.Scalar();
    }
    const PatternVerdict* pv = pat.empty() ? nullptr : &judge_pattern(pat);
    const bool says_uuid = any_uuid || uuid_format(fmt) || (pv && pv->compiles && pv->admits_uuid());
    // an example computed from content or named in another scheme (a Bech32
    // key, a sha256: digest, a URN): not an id the service assigns
    if (!says_uuid && std::any_of(e.examples.begin(), e.examples.end(),
                                  [](const Loc& x) { return x.node.IsScalar() && derived_example(x.node.Scalar()); }))
        return false;
    // examples and default that are plain lower-case words ('ace', 'change',
    // 'premium'): values a person chose, a natural key or a name
    if (!says_uuid) {
        std::vector<std::string> values;
        for (const Loc& x : e.examples)
            if (x.node.IsScalar()) values.push_back(x.node.Scalar());
        if (e.default_value.valid() && e.default_value.node.IsScalar()) values.push_back(e.default_value.node.Scalar());
        std::erase_if(values, [](const std::string& v) { return placeholder_example(v); });
        if (!values.empty() && std::all_of(values.begin(), values.end(), word_value)) return false;
    }
    // a ULID (db-identifiers) or viewable id (viewable-id) field fixed to
    // its own canonical form is another pack's business
    if (pv && pv->compiles && !alien.empty() && !other_kind_exact(pat, alien).empty()) return false;
    // a name called id (described as one, nothing in the schema says UUID): not an id the service assigns
    if (!says_uuid && described_as_name(e.description)) return false;
    if (!alien.empty() && !any_uuid && !uuid_format(fmt) && !(pv && pv->compiles && (pv->exact_for(4) || pv->exact_for(7)))) {
        report("DATA-ID-002", "not-uuid", who + " is not a UUID: its example '" + alien + "' is no UUID in any spelling" +
                                               (pat.empty() ? std::string() : ", and its pattern '" + pat + "' admits such text"),
               "a UUID string: " + fix);
        return false;
    }
    // "" let through as an id: the dummy DATA-ID-007 forbids, whatever else the pattern says
    if (pv && pv->compiles && pv->empty && !(e.min_length && *e.min_length >= 1))
        report("DATA-ID-007", "empty-admitted", who + ": pattern '" + pat + "' admits \"\" (the empty string as a dummy id)",
               "a pattern that refuses \"\" (absence is an omitted field or null): '" + canonical + "'");
    bool uuid = true;
    if (!pat.empty()) {
        const PatternVerdict& v = *pv;
        if (!v.compiles) {
            report("DATA-ID-002", "pattern-unjudgeable", who + ": pattern '" + pat + "' " + v.faults() +
                                                              ": what it accepts cannot be checked",
                   "a pattern RE2 compiles: '" + canonical + "'");
        } else if (!v.admits_uuid()) {
            uuid = false;
            report("DATA-ID-002", "not-uuid", who + " is not a UUID: its pattern '" + pat +
                                                   "' admits no canonical UUID (a prefixed or opaque id)",
                   "a UUID string: " + fix);
        } else if (v.exact_for(7) || v.exact_for(4)) {
            versioned_.push_back({v.exact_for(7) ? 7 : 4, site, f.name, true, gives_v4_reason(e.description)});
            if (doc_version != 0 && !v.exact_for(doc_version) && first)
                add("DATA-ID-003", "version-contradiction", site,
                    who + " is documented as UUIDv" + std::to_string(doc_version) + " but its pattern fixes v" +
                        std::to_string(v.exact_for(7) ? 7 : 4),
                    "one version per field: make the pattern and the description agree");
        } else {
            report("DATA-ID-002", "pattern", who + ": pattern '" + pat + "' " + v.faults(), "pattern: '" + canonical + "'");
        }
    } else if (uuid_format(fmt) && lower(fmt) == "uuid") {
        report("DATA-ID-002", "format-only", who + ": format: uuid alone admits every version, upper case and (in many validators) other spellings",
               "add pattern: '" + canonical + "'" + (v4_field ? "" : " (or the -4- pattern for a v4 field)"));
    } else if (uuid_format(fmt)) {
        report("DATA-ID-002", "format-nonstandard", who + ": format '" + fmt +
                                                          "' is not a standard format (validators ignore it) and no pattern fixes the form or the version",
               "format: uuid with pattern: '" + canonical_pattern(doc_version == 4 ? 4 : 7) + "'");
    } else {
        std::string what = who + " is a string with no constraint" + (fmt.empty() ? "" : " (format '" + fmt + "' says nothing of its form)");
        if (e.min_length && e.max_length && *e.min_length == 36 && *e.max_length == 36)
            what = who + ": minLength/maxLength 36 alone admit any 36 characters";
        report("DATA-ID-002", "unconstrained", what, fix);
    }
    if (doc_version == 4 && pat.empty() && first) {
        add("DATA-ID-003", "v4-not-fixed", site,
            who + " is documented as UUIDv4 (" + (lower(fmt) == "uuid4" ? "format " + fmt : std::string("its description")) +
                ") but the schema does not fix version 4",
            "pattern: '" + canonical_pattern(4) + "'");
    }
    if (doc_version != 0 && pat.empty()) versioned_.push_back({doc_version, site, f.name, false, gives_v4_reason(e.description)});
    if (!uuid) return false;
    // examples and defaults, where they are written
    for (const Loc& x : e.examples) check_value(f, x, false, pat);
    if (e.default_value.valid()) check_value(f, e.default_value, true, pat);
    return true;
}

void Linter::check_value(const Field& f, const Loc& x, bool is_default, const std::string& pat) {
    if (!x.node.IsScalar()) return;
    const std::string v = x.node.Scalar();
    const std::string who = "id '" + f.name + "'";
    const std::string what = is_default ? "default" : "example";
    const auto rec = ids::recognize_uuid(v);
    if (is_default && (v.empty() || v == "0" || (rec.value && rec.special == ids::Special::nil))) {
        add("DATA-ID-007", "absence-default", x,
            who + ": default '" + v + "' stands for \"no id\"",
            "no default: absence is an omitted field or null (nullable)");
        return;
    }
    if (rec.value && rec.canonical && rec.special != ids::Special::none) {
        add("DATA-ID-007", "special-example", x,
            who + ": " + what + " is the " + std::string(rec.special == ids::Special::nil ? "Nil" : "Max") +
                " UUID, not a real id",
            "an example of a real id (a canonical UUIDv7)");
        return;
    }
    if (!ids::is_canonical(v)) {
        add("DATA-ID-002", "non-canonical-" + what, x,
            who + ": " + what + " '" + v + "' is not canonical (" + rec.describe() + ")",
            "a lower-case 8-4-4-4-12 UUID of the field's version");
        return;
    }
    if (!pat.empty()) {
        const PatternVerdict& verdict = judge_pattern(pat);
        if (verdict.compiles && verdict.admits_uuid()) {
            const auto u = ids::parse_canonical(v);
            const int ver = u ? ids::version(*u) : -1;
            if (!verdict.versions.count(ver))
                add("DATA-ID-002", "example-breaks-pattern", x,
                    who + ": " + what + " '" + v + "' is a version " + std::to_string(ver) + " UUID, which the field's pattern rejects",
                    "an example the pattern accepts");
        }
    }
}

// DATA-ID-007 on a property's place in its object.
void Linter::check_place(const Field& f, const Effective& e, bool uuid) {
    if (!contexts_.insert(f.where.key()).second || !uuid) return;
    const bool reference = f.name != "id" && f.name != "ID" && f.name != "uuid";
    if (!reference) return;
    if (f.required && !e.nullable && says_optional(e.description))
        add("DATA-ID-007", "optional-not-nullable", f.where,
            "reference '" + f.name + "' is described as optional but is required and not nullable: absence has no spelling but a dummy",
            "nullable (3.0: nullable: true; 3.1: type: [string, 'null']), or leave it out of required");
    if (!f.required && says_required(e.description))
        add("DATA-ID-007", "required-not-listed", f.where,
            "reference '" + f.name + "' is described as required but is missing from the object's required list",
            "add '" + f.name + "' to required");
}

// DATA-ID-003: v4 fields beside fields of another version.
void Linter::version_findings() {
    const Versioned* other = nullptr;
    for (const auto& v : versioned_)
        if (v.version != 4) {
            other = &v;
            break;
        }
    if (!other) return;
    for (const auto& v : versioned_) {
        if (v.version != 4 || v.reasoned) continue;
        add("DATA-ID-003", "v4-beside-other", v.where,
            "id '" + v.name + "' is " + (v.patterned ? "patterned" : "documented") + " as UUIDv4 beside version-" +
                std::to_string(other->version) + " ids (e.g. '" + other->name + "' at " + other->where.pos().str() + ")",
            "v4 only where creation time must not leak (DATA-ID-003: say so in the field's description); otherwise the v7 pattern");
    }
}

}  // namespace idconform::schema::openapi
