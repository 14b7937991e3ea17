// The verdicts on one column's stored values (checks.hpp: ValueTally).
// Every value is judged by harness/ids/: parse_canonical and the field
// readers for UUIDs, recognize() for other spellings, parse_ulid for ULIDs.
#include "db/checks.hpp"

#include "ids/ids.hpp"

#include <cstring>

namespace idconform::db {

namespace {

std::string count_text(std::uint64_t n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// A finding on the values of column c under rule.
Finding value_finding(const JudgedColumn& c, std::string rule) {
    Finding f;
    f.rule = std::move(rule);
    f.object = c.object();
    f.check = "values";
    f.basis = c.basis;
    f.pos = c.pos;
    return f;
}

}  // namespace

void ValueTally::Examples::add(std::string_view text) {
    ++count;
    if (kept.size() < max_examples) kept.emplace_back(text);
}

void ValueTally::add_uuid(const ids::Uuid& u, std::string_view text) {
    const ids::Special sp = ids::special(u);
    if (sp == ids::Special::nil) return nil_.add(text.empty() ? ids::format(u) : std::string(text));
    if (sp == ids::Special::max) return max_.add(text.empty() ? ids::format(u) : std::string(text));
    const int v = ids::version(u);
    ++versions_[static_cast<std::size_t>(v)];
    const ids::Variant var = ids::variant(u);
    ++variants_[static_cast<std::size_t>(var)];
    auto& ex = version_examples_[static_cast<std::size_t>(v)];
    if (ex.kept.size() < max_examples) ex.kept.push_back(text.empty() ? ids::format(u) : std::string(text));
    if (var != ids::Variant::rfc9562) non_rfc_variant_.add(text.empty() ? ids::format(u) : std::string(text));
    if (v == 8 && var == ids::Variant::rfc9562 && kind_ == ids::IdKind::uuidv8_legacy) {
        const ids::LegacyFields lf = ids::decode_legacy(u, layout_);
        if (!lf.legacy_flag) {
            legacy_no_flag_.add(text.empty() ? ids::format(u) : std::string(text));
        } else {
            ++entity_types_[lf.entity_type];
            if (salt_ && !ids::verify_legacy_hash(u, *salt_, layout_))
                legacy_bad_hash_.add(text.empty() ? ids::format(u) : std::string(text));
            else ++legacy_ok_;
        }
    }
    if (v == 7 && now_ms_ > 0 && static_cast<std::int64_t>(ids::decode_v7(u).unix_ts_ms) > now_ms_ + skew_ms_)
        future_.add(text.empty() ? ids::format(u) : std::string(text));
}

void ValueTally::add(const Value& v) {
    ++rows_;
    if (v.null) {
        ++nulls_;
        return;
    }
    if (family_ == TypeFamily::uuid) {
        if (v.bytes.size() != 16) return other_.add("(a uuid value of " + std::to_string(v.bytes.size()) + " bytes)");
        ids::Uuid u;
        std::memcpy(u.bytes.data(), v.bytes.data(), 16);
        return add_uuid(u, {});
    }
    const std::string_view text = v.bytes;
    if (text.empty()) return empty_.add(text);
    if (text == "0") return zero_.add(text);
    const bool declared_format = kind_ && ids::has_format(*kind_);
    if (family_ == TypeFamily::integer) {  // an integer id: its dummy value, and whether it is of a declared kind
        if (declared_format && !ids::is_valid(text, *kind_)) bad_kind_.add(text);
        return;
    }
    if (const auto u = ids::parse_canonical(text)) {
        add_uuid(*u, text);
        if (declared_format && !ids::is_uuid_kind(*kind_)) bad_kind_.add(text);
        return;
    }
    const ids::Recognition r = ids::recognize(text);
    if (r.kind == ids::Kind::uuid && r.value) {
        non_canonical_.add(text);
        // its version still counts: one field, one version
        if (r.special == ids::Special::none) {
            ++versions_[static_cast<std::size_t>(r.version)];
            ++variants_[static_cast<std::size_t>(r.variant)];
        } else if (r.special == ids::Special::nil) {
            nil_.add(text);
        } else {
            max_.add(text);
        }
        return;
    }
    if (declared_format && !ids::is_uuid_kind(*kind_)) {
        if (ids::is_valid(text, *kind_)) {
            if (*kind_ == ids::IdKind::ulid) ulid_lower_.add(text);
            return;
        }
        if (*kind_ == ids::IdKind::ulid && ids::parse_ulid(text, ids::CasePolicy::any).value)
            return ulid_upper_.add(text);
        return bad_kind_.add(text);
    }
    if (r.kind == ids::Kind::ulid) {
        if (ids::parse_ulid(text, ids::CasePolicy::lower_only).value) return ulid_lower_.add(text);
        return ulid_upper_.add(text);
    }
    if (declared_format) return bad_kind_.add(text);
    other_.add(text);
}

void ValueTally::legacy_findings(const JudgedColumn& c, const std::string& seen, std::vector<Finding>& out) const {
    auto make = [&](std::string rule) {
        Finding f;
        f.rule = std::move(rule);
        f.object = c.object();
        f.check = "legacy values";
        f.basis = c.basis + " (layout " + ids::format_layout(layout_) + ")";
        f.pos = c.pos;
        return f;
    };
    std::uint64_t legacy = 0;
    std::string types;
    for (const auto& [t, n] : entity_types_) {
        legacy += n;
        types += (types.empty() ? "" : ", ") + std::to_string(t) + " " + std::to_string(n);
    }
    {
        Finding f = make("LEGACY-FLAG");
        if (legacy_no_flag_.count > 0) {
            f.verdict = Verdict::failed;
            f.expected = "the legacy flag set on every v8 id";
            f.actual = count_text(legacy_no_flag_.count, "v8 id", "v8 ids") + " with the flag clear (new entities)";
            f.examples = legacy_no_flag_.kept;
            f.message = f.actual + " in " + seen;
        } else {
            f.message = count_text(legacy, "legacy id", "legacy ids") + " with the flag set in " + seen;
        }
        out.push_back(std::move(f));
    }
    if (legacy > 0) {
        Finding f = make("LEGACY-DECODE");
        if (c.key && entity_types_.size() > 1) {
            f.verdict = Verdict::failed;
            f.expected = "one entity type in the keys of one table";
            f.actual = "entity types " + types;
            f.message = "the keys decode to " + std::to_string(entity_types_.size()) + " entity types: " + types;
        } else {
            f.message = "entity type" + std::string(entity_types_.size() == 1 ? " " : "s ") + types;
        }
        out.push_back(std::move(f));
        Finding h = make("LEGACY-HASH");
        if (!salt_) {
            h.verdict = Verdict::skipped;
            h.message =
                "no salt given (--legacy-salt-env NAME names the variable holding it): the hash bits are not checked";
        } else if (legacy_bad_hash_.count > 0) {
            h.verdict = Verdict::failed;
            h.expected = "hash bits = SHA-256(legacy id, entity type, salt)";
            h.actual = count_text(legacy_bad_hash_.count, "legacy id", "legacy ids") + " whose hash bits do not verify";
            h.examples = legacy_bad_hash_.kept;
            h.message = h.actual + " of " + std::to_string(legacy);
        } else {
            h.message =
                "the hash bits of " + count_text(legacy_ok_, "legacy id", "legacy ids") + " verify with the salt";
        }
        out.push_back(std::move(h));
    }
}

// DATA-ID-007: dummies where an id or null belongs.
void ValueTally::dummy_finding(const JudgedColumn& c, const std::string& seen, std::vector<Finding>& out) const {
    auto make = [&](std::string rule) { return value_finding(c, std::move(rule)); };
    Finding f = make("DATA-ID-007");
    const std::uint64_t dummies = nil_.count + max_.count + empty_.count + zero_.count;
    if (dummies > 0) {
        f.verdict = Verdict::failed;
        f.expected = "an id, or null for absence";
        std::string parts;
        auto part = [&](const Examples& e, std::string_view name) {
            if (e.count == 0) return;
            parts += (parts.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(e.count);
            for (const auto& k : e.kept)
                if (f.examples.size() < max_examples) f.examples.push_back(k.empty() || k == "0" ? "'" + k + "'" : k);
        };
        part(nil_, "Nil UUID");
        part(max_, "Max UUID");
        part(empty_, "''");
        part(zero_, "'0'");
        f.actual = parts;
        f.message = count_text(dummies, "dummy value", "dummy values") + " in " + seen + ": " + parts;
    } else {
        f.message = "no Nil, Max, '' or '0' in " + seen;
    }
    out.push_back(std::move(f));
}

// Versions (one field, one version; a declared version is the version) and v7 times.
void ValueTally::version_findings(const JudgedColumn& c, const std::string& seen, std::vector<Finding>& out) const {
    auto make = [&](std::string rule) { return value_finding(c, std::move(rule)); };
    std::string versions;
    std::size_t distinct = 0;
    std::uint64_t uuids = 0;
    for (std::size_t v = 0; v < versions_.size(); ++v) {
        if (versions_[v] == 0) continue;
        ++distinct;
        uuids += versions_[v];
        versions += (versions.empty() ? "" : ", ") + ("v" + std::to_string(v)) + " " + std::to_string(versions_[v]);
    }
    const int want = c.kind ? ids::uuid_version_of(*c.kind) : 0;
    if (uuids > 0 || (c.kind && ids::is_uuid_kind(*c.kind))) {
        Finding f = make(want == 7 ? "DATA-ID-001" : "DATA-ID-003");
        std::uint64_t wrong = 0;
        if (want > 0) {
            for (std::size_t v = 0; v < versions_.size(); ++v)
                if (static_cast<int>(v) != want && versions_[v] > 0) {
                    wrong += versions_[v];
                    for (const auto& k : version_examples_[v].kept)
                        if (f.examples.size() < max_examples) f.examples.push_back(k);
                }
        }
        const std::uint64_t non_rfc = non_rfc_variant_.count;
        if (want > 0 && (wrong > 0 || non_rfc > 0)) {
            f.verdict = Verdict::failed;
            f.expected = "every UUID of version " + std::to_string(want) + ", RFC 9562 variant";
            f.actual = versions + (non_rfc ? "; " + std::to_string(non_rfc) + " not of the RFC 9562 variant" : "");
            f.message = count_text(wrong, "UUID", "UUIDs") + " not of version " + std::to_string(want) + " in " + seen +
                        ": " + f.actual;
            for (const auto& k : non_rfc_variant_.kept)
                if (f.examples.size() < max_examples) f.examples.push_back(k);
        } else if (want == 0 && distinct > 1) {
            f.verdict = Verdict::failed;
            f.expected = "one version for every value of the column";
            f.actual = versions;
            f.message = "mixed UUID versions in " + seen + ": " + versions;
            for (std::size_t v = 0; v < versions_.size(); ++v)
                if (versions_[v] > 0 && !version_examples_[v].kept.empty())
                    f.examples.push_back(version_examples_[v].kept.front());
        } else {
            f.message = uuids == 0 ? "no UUID among " + seen : "one version in " + seen + ": " + versions;
            if (non_rfc) f.message += "; " + std::to_string(non_rfc) + " not of the RFC 9562 variant";
        }
        out.push_back(std::move(f));
    }
    // DATA-ID-001: a v7's time is its creation's, never ahead of the clock
    if (versions_[7] > 0 && now_ms_ > 0) {
        Finding f = make("DATA-ID-001");
        f.check = "v7 timestamps";
        const std::string bound = ids::iso8601_ms(now_ms_) + " + " + std::to_string(skew_ms_ / 1000) + " s";
        if (future_.count > 0) {
            f.verdict = Verdict::failed;
            f.expected = "v7 timestamps no later than the audit's clock (" + bound + ")";
            f.actual = count_text(future_.count, "v7 timestamp", "v7 timestamps") + " in the future";
            f.examples = future_.kept;
            const ids::Uuid first = *ids::parse_canonical(future_.kept.front());
            f.message = f.actual + " of " + std::to_string(versions_[7]) + " v7 values; the first at " +
                        ids::iso8601_ms(static_cast<std::int64_t>(ids::decode_v7(first).unix_ts_ms));
        } else {
            f.message = "no v7 timestamp after " + bound + " in " + std::to_string(versions_[7]) + " v7 values";
        }
        out.push_back(std::move(f));
    }
}

std::vector<Finding> ValueTally::findings(const JudgedColumn& c) const {
    std::vector<Finding> out;
    auto make = [&](std::string rule) { return value_finding(c, std::move(rule)); };
    const std::uint64_t values = rows_ - nulls_;
    const std::string seen =
        count_text(values, "value", "values") + (nulls_ ? " (and " + std::to_string(nulls_) + " null)" : "");
    // Values that are no id of the declared kind at all (judge() says why).
    auto bad_kind_finding = [&] {
        if (bad_kind_.count == 0) return;
        const ids::IdKind k = *kind_;
        const int v = ids::uuid_version_of(k);
        Finding f = make(v == 7                       ? "DATA-ID-001"
                         : v == 4                     ? "DATA-ID-003"
                         : ids::is_uuid_kind(k)       ? "DATA-ID-002"
                         : k == ids::IdKind::ulid     ? "R4"
                         : k == ids::IdKind::viewable ? "VIEWABLE-FORMAT"
                                                      : "LEGACY-FLAG");
        f.check = "values of the declared kind";
        f.verdict = Verdict::failed;
        f.expected = "ids of kind " + std::string(ids::kind_name(k));
        f.actual = count_text(bad_kind_.count, "value", "values") + " that are not";
        f.examples = bad_kind_.kept;
        f.message = f.actual + " in " + seen + "; the first: " + ids::judge(bad_kind_.kept.front(), k).summary();
        out.push_back(std::move(f));
    };

    dummy_finding(c, seen, out);
    if (family_ == TypeFamily::integer) {
        bad_kind_finding();
        return out;
    }

    version_findings(c, seen, out);
    if (kind_ == ids::IdKind::uuidv8_legacy) legacy_findings(c, seen, out);
    if (family_ != TypeFamily::text) {
        bad_kind_finding();
        return out;
    }

    // DATA-ID-002: text ids in the canonical spelling only
    {
        Finding f = make("DATA-ID-002");
        if (non_canonical_.count > 0) {
            f.verdict = Verdict::failed;
            f.expected = "canonical lower-case 8-4-4-4-12 text";
            f.actual = count_text(non_canonical_.count, "value", "values") + " in another spelling";
            f.examples = non_canonical_.kept;
            const ids::Recognition r = ids::recognize(non_canonical_.kept.front());
            f.message = f.actual + " in " + seen + "; the first: " + r.describe();
        } else {
            f.message = "no UUID in another spelling in " + seen;
        }
        out.push_back(std::move(f));
    }
    // R4: ULIDs in lower case
    if (ulid_upper_.count > 0 || ulid_lower_.count > 0 || (c.kind && *c.kind == ids::IdKind::ulid)) {
        Finding f = make("R4");
        if (ulid_upper_.count > 0) {
            f.verdict = Verdict::failed;
            f.expected = "lower-case ULIDs";
            f.actual = count_text(ulid_upper_.count, "ULID", "ULIDs") + " not in lower case";
            f.examples = ulid_upper_.kept;
            f.message = f.actual + " in " + seen;
        } else {
            f.message = count_text(ulid_lower_.count, "lower-case ULID", "lower-case ULIDs") + " in " + seen;
        }
        out.push_back(std::move(f));
    }
    bad_kind_finding();
    return out;
}

void TimeTally::add(const Value* row) {
    if (row[0].null || row[1].null || row[0].bytes.size() != 16 || row[1].bytes.size() != 8) return;
    ids::Uuid u;
    std::memcpy(u.bytes.data(), row[0].bytes.data(), 16);
    if (ids::version(u) != 7 || ids::special(u) != ids::Special::none) return;
    std::uint64_t us = 0;
    for (unsigned char b : row[1].bytes) us = (us << 8) | b;
    ++compared_;
    if (static_cast<std::int64_t>(us) == static_cast<std::int64_t>(ids::decode_v7(u).unix_ts_ms) * 1000) {
        ++equal_;
        if (examples_.size() < max_examples) examples_.push_back(ids::format(u));
    }
}

Finding TimeTally::finding(const JudgedColumn& key, const Column& time) const {
    Finding f = value_finding(key, "DATA-ID-005");
    f.object = key.table->qualified() + "." + time.name;
    f.check = "time from id";
    f.basis = "compared with the key " + key.column->name + "'s v7 timestamp";
    if (compared_ > 0 && equal_ == compared_) {
        f.verdict = Verdict::warning;
        f.expected = "an explicit time of its own (the id's timestamp is not business time)";
        f.actual = "equal to the v7 timestamp of " + key.column->name + " on every one of " +
                   count_text(compared_, "row", "rows");
        f.examples = examples_;
        f.message = time.name + " is " + f.actual + ": derived from the id?";
    } else {
        f.message = std::to_string(equal_) + " of " + count_text(compared_, "row", "rows") +
                    " with a v7 key equal to " + key.column->name + "'s timestamp";
    }
    return f;
}

}  // namespace idconform::db
