// `idconform inspect [--json] [--kind K] ID...`: explains each identifier:
// kind, whether it is canonical and what is wrong, version, variant, decoded
// time, special value name; then the verdict by the rules (ids::judge): valid
// id of the kind asked for (or, without --kind, of the kind it looks like),
// with the reasons when not. Ids come from the arguments or, without any,
// from stdin. The exit code follows the verdict.
#include "cli/commands.hpp"
#include "core/diagnostic.hpp"
#include "ids/ids.hpp"
#include "ids/kind.hpp"
#include "reporters/text.hpp"

#include <boost/json.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace idconform::cli {

namespace {

namespace json = boost::json;

// The kind an id is judged as without --kind: a ULID or a viewable id by its
// own rules, everything else as an RFC 9562 UUID (DATA-ID-002).
ids::IdKind implied_kind(const ids::Recognition& r) {
    if (r.kind == ids::Kind::ulid) return ids::IdKind::ulid;
    if (r.kind == ids::Kind::viewable) return ids::IdKind::viewable;
    return ids::IdKind::uuid;
}

std::string hex_bytes(std::string_view s) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

json::object describe(const std::string& input, std::optional<ids::IdKind> want) {
    const ids::Recognition r = ids::recognize(input);
    json::object o;
    // JSON text must be valid UTF-8: invalid bytes become U+FFFD in `input`,
    // and `input_hex` keeps the exact bytes.
    const std::string shown = reporters::valid_utf8(input);
    o["input"] = shown;
    if (shown != input) o["input_hex"] = hex_bytes(input);
    o["kind"] = std::string(ids::to_string(r.kind));
    o["canonical"] = r.canonical;
    o["description"] = r.describe();
    json::array defects;
    for (auto d : ids::defect_names(r.defects)) defects.emplace_back(std::string(d));
    o["defects"] = std::move(defects);
    if (r.value && r.kind == ids::Kind::uuid) {
        const ids::Uuid& u = *r.value;
        o["canonical_form"] = ids::format(u);
        o["version"] = r.version;
        o["variant"] = std::string(ids::to_string(r.variant));
        o["special"] = r.special == ids::Special::none ? json::value(nullptr)
                                                       : json::value(std::string(ids::to_string(r.special)));
        if (r.special == ids::Special::none && r.variant == ids::Variant::rfc9562) {
            if (r.version == 7) {
                const auto f = ids::decode_v7(u);
                o["unix_ts_ms"] = f.unix_ts_ms;
                o["time"] = ids::iso8601_ms(static_cast<std::int64_t>(f.unix_ts_ms));
                o["rand_a"] = f.rand_a;
                o["rand_b"] = f.rand_b;
            } else if (r.version == 1 || r.version == 6) {
                const auto f = r.version == 1 ? ids::decode_v1(u) : ids::decode_v6(u);
                o["gregorian_100ns"] = f.timestamp_100ns;
                o["time"] = ids::iso8601_100ns(f.unix_ns() / 100);
                o["clock_seq"] = f.clock_seq;
                o["node"] = f.node;
            } else if (r.version == 8) {
                const auto f = ids::decode_v8(u);
                o["custom_a"] = f.custom_a;
                o["custom_b"] = f.custom_b;
                o["custom_c"] = f.custom_c;
            }
        }
    } else if (r.kind == ids::Kind::ulid && r.value) {
        ids::Ulid u{r.value->bytes};
        o["canonical_form"] = ids::format_ulid(u, true);
        o["unix_ms"] = u.unix_ms();
        o["time"] = ids::iso8601_ms(static_cast<std::int64_t>(u.unix_ms()));
    }
    const ids::Verdict v = ids::judge(input, want.value_or(implied_kind(r)));
    o["checked_as"] = std::string(ids::kind_name(v.kind));
    o["valid"] = v.valid;
    o["verdict"] = v.valid ? "valid" : "invalid";
    json::array reasons;
    for (const auto& why : v.reasons)
        reasons.emplace_back(json::object{{"code", why.code}, {"text", reporters::valid_utf8(why.text)}});
    o["reasons"] = std::move(reasons);
    return o;
}

std::string_view str(const json::value& v) { return v.as_string(); }

void print_text(const json::object& o) {
    std::cout << reporters::terminal_line(str(o.at("input"))) << '\n';
    std::cout << "  " << str(o.at("description")) << '\n';
    std::cout << "  kind: " << str(o.at("kind")) << ", canonical: " << (o.at("canonical").as_bool() ? "yes" : "no");
    if (auto* c = o.if_contains("canonical_form"); c && c->as_string() != o.at("input").as_string())
        std::cout << ", canonical form: " << str(*c);
    std::cout << '\n';
    if (auto* v = o.if_contains("version"))
        std::cout << "  version: " << v->as_int64() << ", variant: " << str(o.at("variant")) << '\n';
    if (auto* s = o.if_contains("special"); s && s->is_string()) std::cout << "  special value: " << str(*s) << '\n';
    if (auto* t = o.if_contains("time")) {
        std::cout << "  time: " << str(*t);
        if (auto* ms = o.if_contains("unix_ts_ms")) std::cout << " (unix_ts_ms " << ms->as_uint64() << ")";
        if (auto* ms = o.if_contains("unix_ms")) std::cout << " (unix_ms " << ms->as_uint64() << ")";
        if (auto* g = o.if_contains("gregorian_100ns")) std::cout << " (gregorian_100ns " << g->as_uint64() << ")";
        std::cout << '\n';
    }
    if (auto* cs = o.if_contains("clock_seq"))
        std::cout << "  clock_seq: " << cs->as_uint64() << ", node: " << o.at("node").as_uint64() << '\n';
    const std::string kind(str(o.at("checked_as")));
    if (o.at("valid").as_bool()) {
        std::cout << "  verdict: valid " << kind << '\n';
    } else {
        std::cout << "  verdict: not a valid " << kind << '\n';
        for (const auto& why : o.at("reasons").as_array())
            std::cout << "    - " << reporters::terminal_line(str(why.at("text"))) << " [" << str(why.at("code")) << "]\n";
    }
}

// --kind accepts the suite language's names and gen's short ones (v1..v8).
std::optional<ids::IdKind> kind_option(const std::string& text) {
    if (text.size() == 2 && text[0] == 'v') return ids::parse_kind("uuid" + text);
    return ids::parse_kind(text);
}

}  // namespace

Runner add_inspect(CLI::App& app) {
    auto* cmd = app.add_subcommand("inspect", "Explain identifiers: kind, canonical form, version, variant, time");
    auto ids_in = std::make_shared<std::vector<std::string>>();
    auto as_json = std::make_shared<bool>(false);
    auto kind_text = std::make_shared<std::string>();
    cmd->add_option("ID", *ids_in, "Identifiers to inspect; none (or '-') reads one per line from stdin");
    cmd->add_flag("--json", *as_json,
                  "Print one JSON object per id (JSON Lines); always valid UTF-8 (invalid input bytes become U+FFFD "
                  "in \"input\", the exact bytes are in \"input_hex\")");
    cmd->add_option("--kind,-k", *kind_text,
                    "Judge every id as this kind: " + ids::kind_list() +
                        " (v1..v8 are short for uuidv1..uuidv8). Default: a ULID or viewable id by its own rules, "
                        "anything else as an RFC 9562 UUID (uuid)");
    cmd->footer(
        "Verdict (by the rules, docs/rules.md): a UUID is valid only when its text is canonical (lower-case\n"
        "8-4-4-4-12), its variant is RFC 9562's (10xx) and its version one RFC 9562 defines (1-8; uuidvN: N);\n"
        "Nil and Max are named special values, not valid ids. A ULID must be lower-case; uuidv8-legacy needs the\n"
        "legacy flag. JSON adds \"checked_as\", \"valid\", \"verdict\" and \"reasons\" [{code, text}].\n" +
        exit_codes_footer({{exit_ok, "every id valid"},
                           {exit_broken, "some id not valid"},
                           {exit_usage, "usage error (e.g. an unknown --kind)"}}));
    return [ids_in, as_json, kind_text]() -> int {
        std::optional<ids::IdKind> want;
        if (!kind_text->empty()) {
            want = kind_option(*kind_text);
            if (!want) {
                const std::string best = did_you_mean(*kind_text, ids::kind_names());
                std::cerr << "idconform inspect: unknown id kind '" << reporters::terminal_line(*kind_text) << "'; "
                          << (best.empty() ? "kinds: " + ids::kind_list() : "did you mean '" + best + "'?") << '\n';
                return exit_usage;
            }
        }
        std::vector<std::string> inputs = *ids_in;
        if (inputs.empty() || (inputs.size() == 1 && inputs[0] == "-")) {
            inputs.clear();
            std::string line;
            while (std::getline(std::cin, line)) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                inputs.push_back(line);
            }
        }
        bool all_valid = true;
        for (const auto& in : inputs) {
            const json::object o = describe(in, want);
            all_valid = all_valid && o.at("valid").as_bool();
            if (*as_json)
                std::cout << json::serialize(o) << '\n';
            else
                print_text(o);
        }
        return all_valid ? exit_ok : exit_broken;
    };
}

}  // namespace idconform::cli
