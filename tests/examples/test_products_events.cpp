// The example server's events and commands without a broker: the event
// payload for each change (conformant and with each event defect), and the
// decision for each command (applied or dead-lettered, and why).
#include "events.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

using namespace products;
namespace ids = idconform::ids;
namespace json = boost::json;

namespace {

const std::string pid = "01900000-0000-7000-8000-0000000000ab";
const std::string cid = "01900000-0000-7000-8000-0000000000cd";

Product product(bool with_parent) {
    Product p;
    p.id = *ids::parse_canonical(pid);
    p.name = "p1";
    p.category.kind = Ref::Kind::id;
    p.category.id = *ids::parse_canonical(cid);
    if (with_parent) {
        p.parent.kind = Ref::Kind::id;
        p.parent.id = *ids::parse_canonical(cid);
    }
    p.updated_at = "2024-05-01T12:00:00.000000Z";
    return p;
}

json::object event(std::string_view change, const Product& p, DefectSet d = {}, std::string* key = nullptr) {
    const Event e = render_event(change, p, d);
    if (key) *key = e.key;
    return json::parse(e.payload).as_object();
}

std::string text(const json::value& v) { return v.is_string() ? std::string(v.as_string()) : json::serialize(v); }

CommandDecision decide(const std::string& payload, DefectSet d = {}) { return decide_command(payload, d); }

}  // namespace

TEST_CASE("events carry the product's canonical ids, key = id, null for an absent reference") {
    std::string key;
    const json::object o = event("created", product(false), {}, &key);
    CHECK(key == pid);
    CHECK(text(o.at("type")) == "product.created");
    CHECK(text(o.at("id")) == pid);
    CHECK(text(o.at("category_id")) == cid);
    CHECK(o.at("parent_id").is_null());
    CHECK(text(o.at("name")) == "p1");
    CHECK(text(event("deleted", product(true)).at("parent_id")) == cid);
}

TEST_CASE("event defects") {
    std::string key;
    const json::object up = event("created", product(true), {Defect::event_upper_case}, &key);
    CHECK(key == "01900000-0000-7000-8000-0000000000AB");
    CHECK(text(up.at("id")) == "01900000-0000-7000-8000-0000000000AB");
    CHECK(text(up.at("category_id")) == "01900000-0000-7000-8000-0000000000CD");
    const json::object other = event("created", product(false), {Defect::event_id_mismatch}, &key);
    CHECK(key == pid);
    CHECK(text(other.at("id")) != pid);
    CHECK(ids::is_canonical_version(other.at("id").as_string(), 7));
    CHECK(text(event("created", product(false), {Defect::event_nil_for_absent_ref}).at("parent_id")) ==
          "00000000-0000-0000-0000-000000000000");
    CHECK(text(event("created", product(true), {Defect::event_nil_for_absent_ref}).at("parent_id")) == cid);
}

TEST_CASE("commands with a canonical v7 id are applied") {
    const CommandDecision del = decide(R"({"type":"delete_product","id":")" + pid + "\"}");
    CHECK(del.action == CommandDecision::Action::delete_product);
    CHECK(ids::format(del.id) == pid);
    const CommandDecision ren = decide(R"({"type":"rename_product","id":")" + pid + R"(","name":"n2"})");
    CHECK(ren.action == CommandDecision::Action::rename_product);
    CHECK(ren.name == "n2");
}

TEST_CASE("every other command is rejected with a reason") {
    const std::string upper = "01900000-0000-7000-8000-0000000000AB";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{", "malformed JSON"},
        {"[1]", "a command is a JSON object"},
        {R"({"id":"x"})", "unknown command type"},
        {R"({"type":"drop","id":"x"})", "unknown command type"},
        {R"({"type":"delete_product"})", "id is missing"},
        {R"({"type":"delete_product","id":null})", "id is null"},
        {R"({"type":"delete_product","id":0})", "id is not a string"},
        {R"({"type":"delete_product","id":""})", "id is empty"},
        {R"({"type":"delete_product","id":"00000000-0000-0000-0000-000000000000"})", "Nil UUID"},
        {R"({"type":"delete_product","id":"ffffffff-ffff-ffff-ffff-ffffffffffff"})", "Max UUID"},
        {R"({"type":"delete_product","id":")" + upper + "\"}", "upper-case"},
        {R"({"type":"delete_product","id":"{)" + pid + "}\"}", "not a canonical lower-case UUIDv7"},
        {R"({"type":"delete_product","id":"919108f7-52d1-4320-9bac-f847db4148a8"})", "not a canonical lower-case UUIDv7"},
        {R"({"type":"rename_product","id":")" + pid + "\"}", "name must be a non-empty string"},
    };
    for (const auto& [payload, reason] : cases) {
        const CommandDecision d = decide(payload);
        INFO(payload);
        CHECK(d.action == CommandDecision::Action::reject);
        CHECK(d.reason.find(reason) != std::string::npos);
    }
}

TEST_CASE("defect command-accepts-bad-id: other spellings of a v7 are normalised and applied") {
    const DefectSet lenient{Defect::command_accepts_bad_id};
    for (const std::string& id : {std::string("01900000-0000-7000-8000-0000000000AB"), "{" + pid + "}", "urn:uuid:" + pid,
                                  std::string("01900000000070008000" "0000000000ab")}) {
        const CommandDecision d = decide(R"({"type":"delete_product","id":")" + id + "\"}", lenient);
        INFO(id);
        CHECK(d.action == CommandDecision::Action::delete_product);
        CHECK(ids::format(d.id) == pid);
    }
    // what no lenient parser reads stays rejected
    CHECK(decide(R"({"type":"delete_product","id":"00000000-0000-0000-0000-000000000000"})", lenient).action ==
          CommandDecision::Action::reject);
    CHECK(decide(R"({"type":"delete_product","id":null})", lenient).action == CommandDecision::Action::reject);
}
