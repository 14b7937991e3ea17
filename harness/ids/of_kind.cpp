// The mutations of a declared kind (see of_kind.hpp): the kind fixes the
// names, the live id gives the texts.
#include "ids/of_kind.hpp"

#include <algorithm>

namespace idconform::ids {

namespace {

const std::vector<std::string> uuid_forms_before_versions = {
    "upper-case",   "mixed-case",      "no-hyphens",       "misplaced-hyphens", "braces",
    "urn-uuid",     "padded-spaces",   "trailing-newline", "one-char-short",    "one-char-long",
    "non-hex-char", "fullwidth-digit", "cyrillic-letter"};
const std::vector<std::string> uuid_forms_after_versions = {"variant-ncs", "variant-microsoft", "variant-reserved",
                                                            "base32",      "crockford-base32",  "base64",
                                                            "base64url",   "decimal-integer"};
const std::vector<std::string> ulid_forms = {"upper-case",        "one-char-short",    "one-char-long",
                                             "overflow",          "excluded-letter-i", "excluded-letter-l",
                                             "excluded-letter-o", "excluded-letter-u", "uuid-form"};
const std::vector<std::string> opaque_forms = {"upper-case",     "lower-case",   "swapped-case", "padded-spaces",
                                               "braces",         "quoted",       "leading-zero", "decimal-point",
                                               "one-char-short", "one-char-long"};

bool numeric(std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos; }

std::string quoted(std::string_view live) {
    std::string s(live.substr(0, 64));
    if (live.size() > 64) s += "...";
    return "'" + s + "'";
}

// Why mutations_of_kind() could not make the mutation `name` of `live`, an
// id of the kind's form.
std::string why_not(IdKind kind, const std::string& name, std::string_view live) {
    const bool uuid = is_uuid_kind(kind);
    if (name == "upper-case") return uuid ? "it has no hex letter a-f" : "it has no lower-case letter";
    if (name == "lower-case") return kind == IdKind::viewable ? "it has no letter" : "it has no upper-case letter";
    if (name == "mixed-case")
        return kind == IdKind::viewable ? "it has no letter after the prefix" : "it has fewer than two hex letters";
    if (name == "swapped-case") return "swapping the case of its letters gives its upper- or lower-case form";
    if (name == "fullwidth-digit") return "it has no digit";
    if (name == "cyrillic-letter") return "it has none of the letters a, c, e that have Cyrillic look-alikes";
    if (name.rfind("version-", 0) == 0) return "it is " + name.substr(0, 7) + " " + name.substr(8) + " already";
    if (name.rfind("variant-", 0) == 0) return "it has the " + name.substr(8) + " variant already";
    if (name == "leading-zero" || name == "decimal-point") return "it is not a number";
    if ((name == "one-char-short" || name == "one-char-long") && numeric(live))
        return "it is a number: one digit fewer or more names another entity, not a malformed id";
    if (name == "one-char-short") return "it has one character only";
    if (name == "wrong-prefix" || name == "no-prefix") return "the format has no prefix";
    return "this form does not exist for it";
}

}  // namespace

std::vector<std::string> mutation_names(IdKind kind, const ViewableFormat& viewable) {
    std::vector<std::string> out;
    if (is_uuid_kind(kind)) {
        const int own = uuid_version_of(kind);  // 0: `uuid` fixes none
        out = uuid_forms_before_versions;
        for (int v = 0; v < 16; ++v)
            if (own == 0 || v != own) out.push_back("version-" + std::to_string(v));
        out.insert(out.end(), uuid_forms_after_versions.begin(), uuid_forms_after_versions.end());
    } else if (kind == IdKind::ulid) {
        out = ulid_forms;
    } else if (kind == IdKind::viewable) {
        out = {"lower-case",        "mixed-case",        "excluded-letter-i", "excluded-letter-l",
               "excluded-letter-o", "excluded-letter-u", "one-symbol-short",  "one-symbol-long"};
        if (!viewable.prefix.empty()) {
            out.emplace_back("wrong-prefix");
            out.emplace_back("no-prefix");
        }
    } else {
        out = opaque_forms;
    }
    return out;
}

std::vector<KindMutation> mutations_of_kind(IdKind kind, std::string_view live, const ViewableFormat& viewable) {
    std::vector<Mutation> made;
    std::string not_of_form;  // the live id is not of the kind's form: why
    const std::string kind_text(kind_name(kind));
    if (is_uuid_kind(kind)) {
        if (auto u = parse_canonical(live)) made = mutations(*u);
        else not_of_form = quoted(live) + " is not a canonical UUID";
    } else if (kind == IdKind::ulid) {
        if (auto u = parse_ulid(live, CasePolicy::lower_only); u.value) made = ulid_mutations(*u.value);
        else not_of_form = quoted(live) + " is not a lower-case ULID";
    } else if (kind == IdKind::viewable) {
        if (check_viewable(live, viewable) == ViewableError::none) made = viewable_mutations(live, viewable);
        else
            not_of_form = quoted(live) + " is not a viewable id of the format " + viewable.prefix + " + " +
                          std::to_string(viewable.length) + " symbols";
    } else if (live.empty()) {
        not_of_form = "the id is empty";
    } else {
        made = opaque_mutations(live);
    }
    std::vector<KindMutation> out;
    for (const auto& name : mutation_names(kind, viewable)) {
        KindMutation k;
        k.name = name;
        const auto it = std::find_if(made.begin(), made.end(), [&](const Mutation& m) { return m.name == name; });
        if (!not_of_form.empty()) {
            k.not_applicable = "not applicable: " + not_of_form + ", so no " + kind_text + " mutation (" + name +
                               ") can be made of it; the id's own form is judged by the rule checks";
        } else if (it == made.end()) {
            k.not_applicable = "not applicable: the " + name + " mutation cannot be made of the " + kind_text + " id " +
                               quoted(live) + ": " + why_not(kind, name, live);
        } else if (it->text == live) {
            k.not_applicable = "not applicable: the " + name + " form of " + quoted(live) + " is the id itself";
        } else {
            k.text = it->text;
            k.breaks = it->breaks;
        }
        out.push_back(std::move(k));
    }
    return out;
}

IdKind kind_of_text(std::string_view text) {
    if (auto u = parse_canonical(text)) {
        const int v = version(*u);
        static constexpr IdKind by_version[] = {IdKind::uuid,   IdKind::uuidv1, IdKind::uuid,
                                                IdKind::uuidv3, IdKind::uuidv4, IdKind::uuidv5,
                                                IdKind::uuidv6, IdKind::uuidv7, IdKind::uuidv8};
        return v >= 1 && v <= 8 ? by_version[v] : IdKind::uuid;
    }
    if (parse_ulid(text, CasePolicy::lower_only).value) return IdKind::ulid;
    return IdKind::existing;
}

}  // namespace idconform::ids
