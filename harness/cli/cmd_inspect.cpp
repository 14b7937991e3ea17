// `idconform inspect [--json] ID...`: explains each identifier: kind, whether
// it is canonical and what is wrong, version, variant, decoded time, special
// value name. Ids come from the arguments or, without any, from stdin.
#include "cli/commands.hpp"
#include "ids/ids.hpp"

#include <boost/json.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace idconform::cli {

namespace {

namespace json = boost::json;

json::object describe(const std::string& input) {
    const ids::Recognition r = ids::recognize(input);
    json::object o;
    o["input"] = input;
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
    return o;
}

std::string_view str(const json::value& v) { return v.as_string(); }

void print_text(const json::object& o) {
    std::cout << str(o.at("input")) << '\n';
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
}

}  // namespace

Runner add_inspect(CLI::App& app) {
    auto* cmd = app.add_subcommand("inspect", "Explain identifiers: kind, canonical form, version, variant, time");
    auto ids_in = std::make_shared<std::vector<std::string>>();
    auto as_json = std::make_shared<bool>(false);
    cmd->add_option("ID", *ids_in, "Identifiers to inspect; none (or '-') reads one per line from stdin");
    cmd->add_flag("--json", *as_json, "Print one JSON object per id (JSON Lines)");
    cmd->footer("Exit codes: 0 every id canonical; 1 some id not canonical; 2 usage error.");
    return [ids_in, as_json]() -> int {
        std::vector<std::string> inputs = *ids_in;
        if (inputs.empty() || (inputs.size() == 1 && inputs[0] == "-")) {
            inputs.clear();
            std::string line;
            while (std::getline(std::cin, line)) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                inputs.push_back(line);
            }
        }
        bool all_canonical = true;
        for (const auto& in : inputs) {
            const json::object o = describe(in);
            all_canonical = all_canonical && o.at("canonical").as_bool();
            if (*as_json)
                std::cout << json::serialize(o) << '\n';
            else
                print_text(o);
        }
        return all_canonical ? exit_ok : exit_broken;
    };
}

}  // namespace idconform::cli
