// A complete suite (tests/suite/fixtures/good/basic.yaml) loads into exactly
// the expected model, positions included; vector-set files load alone.
#include "test_support.hpp"

#include <boost/json.hpp>

#include <fstream>
#include <sstream>

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;
namespace json = boost::json;

namespace {

const Suite& basic() {
    static const LoadResult r = load_file(fixture("good/basic.yaml"));
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    return *r.suite;
}

void check_pos(const SourcePos& p, const std::string& file, int line, int col) {
    CHECK(p.file == file);
    CHECK(p.line == line);
    CHECK(p.column == col);
}

}  // namespace

TEST_CASE("good suite: top level, vars, target, principals") {
    const Suite& s = basic();
    const std::string file = fixture("good/basic.yaml");
    CHECK(s.file == file);
    CHECK(s.name == "data-id-basics");
    CHECK(s.description == "basic id checks");
    CHECK(s.tags == std::vector<std::string>{"smoke", "data-id"});
    check_pos(s.pos, file, 2, 1);

    REQUIRE(s.vars.size() == 3);
    CHECK(s.vars[0].name == "token_a");
    CHECK(s.vars[0].value == json::value("${env:TOKEN_A:-alice}"));
    CHECK_FALSE(s.vars[0].secret);
    check_pos(s.vars[0].pos, file, 9, 3);
    CHECK(s.vars[1].name == "api_key");
    CHECK(s.vars[1].value == json::value("${env:API_KEY}"));
    CHECK(s.vars[1].secret);
    CHECK(s.vars[2].name == "limits");
    CHECK(s.vars[2].value == json::parse(R"({"max": 3, "names": ["a", "b"]})"));

    CHECK(s.target.base_url == "${env:IDCONFORM_BASE_URL:-http://127.0.0.1:8080}");
    REQUIRE(s.target.headers.size() == 1);
    CHECK(s.target.headers[0] == std::pair<std::string, std::string>{"Accept", "application/json"});
    CHECK(s.target.ca_file == "ca.pem");
    CHECK(s.target.cert_file == "c.pem");
    CHECK(s.target.key_file == "k.pem");
    CHECK(s.target.insecure);
    CHECK(s.target.connect_timeout_ms == 2000);
    CHECK(s.target.read_timeout_ms == 500);
    check_pos(s.target.pos, file, 13, 3);

    REQUIRE(s.principals.size() == 2);
    const Principal& alice = s.principals.at("alice");
    check_pos(alice.pos, file, 18, 3);
    REQUIRE(alice.headers.size() == 1);
    CHECK(alice.headers[0].first == "Authorization");
    CHECK(alice.headers[0].second == "Bearer ${token_a}");
    CHECK(s.principals.at("bob").headers[0].second == "Bearer bob");
}

TEST_CASE("good suite: vector sets from includes and inline") {
    const Suite& s = basic();
    REQUIRE(s.vector_sets.size() == 2);
    const VectorSet& rfc = s.vector_sets.at("rfc9562");
    CHECK(rfc.description == "RFC 9562 appendix vectors");
    check_pos(rfc.pos, fixture("vectors/rfc9562.yaml"), 2, 6);  // include path normalised
    REQUIRE(rfc.vectors.size() == 6);
    CHECK(rfc.vectors[0].name == "a6-v7");
    CHECK(rfc.vectors[0].value == json::value("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"));
    CHECK(rfc.vectors[0].fields == json::parse(R"({"version": 7, "unix_ts_ms": 1645557742000})").as_object());
    check_pos(rfc.vectors[0].pos, fixture("vectors/rfc9562.yaml"), 5, 5);
    CHECK(rfc.vectors[2].value == json::value("00000000-0000-0000-0000-000000000000"));
    CHECK(rfc.vectors[3].value == json::value(""));
    CHECK(rfc.vectors[4].value == json::value(0));
    CHECK(rfc.vectors[5].value.is_null());

    const VectorSet& local = s.vector_sets.at("local");
    check_pos(local.pos, fixture("good/basic.yaml"), 21, 3);
    REQUIRE(local.vectors.size() == 1);
    CHECK(local.vectors[0].fields.at("note") == json::value("first"));
}

TEST_CASE("good suite: setup and teardown") {
    const Suite& s = basic();
    const std::string file = fixture("good/basic.yaml");
    REQUIRE(s.setup.size() == 1);
    const Step& st = s.setup[0];
    CHECK(st.name == "POST /v1/categories");
    CHECK(st.as<HttpRequest>().method == "POST");
    CHECK(st.as<HttpRequest>().principal == "alice");
    CHECK(*st.as<HttpRequest>().json == json::parse(R"({"name": "c1"})"));
    check_pos(st.pos, file, 24, 5);
    check_pos(st.as<HttpRequest>().pos, file, 24, 11);
    REQUIRE(st.expect.status);
    CHECK(st.expect.status->exact == std::vector<int>{201});
    REQUIRE(st.captures.size() == 1);
    CHECK(st.captures[0].var == "category_id");
    CHECK(st.captures[0].from == Capture::From::json);
    CHECK(st.captures[0].path == "/id");

    REQUIRE(s.teardown.size() == 1);
    CHECK(s.teardown[0].as<HttpRequest>().method == "DELETE");
    CHECK(s.teardown[0].as<HttpRequest>().path == "/v1/categories/{category_id}");
    CHECK_FALSE(s.teardown[0].expect.status);
}

TEST_CASE("good suite: the first case in full") {
    const Suite& s = basic();
    const std::string file = fixture("good/basic.yaml");
    REQUIRE(s.cases.size() == 3);
    const Case& c = s.cases[0];
    CHECK(c.name == "create returns a v7 id");
    CHECK(c.description == "the server mints v7");
    CHECK(c.rules == std::vector<std::string>{"DATA-ID-001"});
    CHECK(c.tags == std::vector<std::string>{"create"});
    CHECK(c.skip.empty());
    CHECK_FALSE(c.for_each);
    check_pos(c.pos, file, 30, 5);

    REQUIRE(c.steps.size() == 1);
    const Step& st = c.steps[0];
    CHECK(st.name == "create it");
    check_pos(st.pos, file, 35, 9);
    const HttpRequest& h = st.as<HttpRequest>();
    check_pos(h.pos, file, 37, 11);
    CHECK(h.method == "POST");
    CHECK(h.path == "/v1/products");
    REQUIRE(h.query.size() == 1);
    CHECK(h.query[0].second == "${category_id}");
    CHECK(h.headers[0].first == "X-Request-Id");
    // YAML 1.2 core scalars: quoted "42" stays a string, 1.5 is a double.
    CHECK(*h.json == json::parse(R"({"name":"p1","count":2,"ratio":1.5,"ok":true,"parent_id":null,"quoted":"42"})"));
    CHECK((*h.json).as_object().at("count").is_int64());
    CHECK_FALSE(h.raw);

    const Expect& x = st.expect;
    check_pos(x.pos, file, 44, 11);
    CHECK(x.rule == "DATA-ID-002");
    REQUIRE(x.status);
    CHECK(x.status->exact == std::vector<int>{200, 201});
    CHECK_FALSE(x.status->negate);
    check_pos(x.status->pos, file, 45, 19);

    REQUIRE(x.headers.size() == 3);
    CHECK(x.headers[0].name == "Location");
    CHECK(x.headers[0].regex == "^/v1/products/[0-9a-f-]{36}$");
    check_pos(x.headers[0].pos, file, 47, 13);
    CHECK(x.headers[1].equals == "application/json");
    CHECK(x.headers[2].absent);

    REQUIRE(x.json.size() == 8);
    CHECK(x.json[0].pointer == "/name");
    CHECK(x.json[0].op == JsonOp::equals);
    CHECK(x.json[0].operand == json::value("p1"));
    check_pos(x.json[0].pos, file, 51, 13);
    CHECK(x.json[1].op == JsonOp::null);
    CHECK(x.json[2].op == JsonOp::absent);
    CHECK(x.json[3].op == JsonOp::type);
    CHECK(x.json[3].operand == json::value("string"));
    CHECK(x.json[4].op == JsonOp::one_of);
    CHECK(x.json[4].operand == json::parse(R"(["a","b"])"));
    CHECK(x.json[5].op == JsonOp::present);
    CHECK(x.json[6].op == JsonOp::equals);
    CHECK(x.json[6].operand == json::parse(R"({"nested":"value"})"));
    CHECK(x.json[7].operand == json::parse("[1,2]"));

    REQUIRE(x.body);
    CHECK(x.body->contains == std::vector<std::string>{"p1"});
    CHECK(x.body->not_contains == std::vector<std::string>{"${category_id}"});

    REQUIRE(x.ids.size() == 2);
    CHECK(x.ids[0].at == "/id");
    CHECK(x.ids[0].kind == "uuidv7");
    CHECK(x.ids[0].minted);
    CHECK(x.ids[0].canonical);
    check_pos(x.ids[0].pos, file, 61, 15);
    CHECK(x.ids[1].header == "Location");
    CHECK_FALSE(x.ids[1].at);
    CHECK_FALSE(x.ids[1].minted);

    REQUIRE(st.captures.size() == 3);
    CHECK(st.captures[0].var == "product_id");
    check_pos(st.captures[0].pos, file, 64, 11);
    CHECK(st.captures[1].from == Capture::From::header);
    CHECK(st.captures[1].path == "Location");
    CHECK(st.captures[2].from == Capture::From::status);
}

TEST_CASE("good suite: for_each, skip, fragments") {
    const Suite& s = basic();
    const Case& c = s.cases[1];
    CHECK(c.rules == std::vector<std::string>{"DATA-ID-002", "DATA-ID-007"});
    CHECK(c.skip == "waiting for ticket 12");
    REQUIRE(c.for_each);
    CHECK(c.for_each->source == ForEach::Source::vectors);
    CHECK(c.for_each->set == "rfc9562");
    CHECK(c.for_each->as == "v");
    CHECK(c.for_each->only == std::vector<std::string>{"a6-v7"});
    CHECK(c.for_each->except == std::vector<std::string>{"nil"});
    check_pos(c.for_each->pos, fixture("good/basic.yaml"), 70, 15);

    REQUIRE(c.steps.size() == 2);
    // The fragment step is copied with the fragment file's positions.
    const Step& used = c.steps[0];
    CHECK(used.name == "create_product");
    CHECK(used.as<HttpRequest>().method == "POST");
    CHECK(used.as<HttpRequest>().principal == "alice");
    check_pos(used.pos, fixture("good/fragments/products.yaml"), 5, 5);
    REQUIRE(used.captures.size() == 1);
    CHECK(used.captures[0].var == "product_id");

    const Step& second = c.steps[1];
    CHECK(second.as<HttpRequest>().method == "GET");  // default
    CHECK(second.name == "GET /v1/products/{v.value}");
    REQUIRE(second.expect.status);
    CHECK(second.expect.status->negate);
    CHECK(second.expect.status->classes == std::vector<int>{2, 5});

    const Case& m = s.cases[2];
    REQUIRE(m.for_each);
    CHECK(m.for_each->source == ForEach::Source::mutations);
    CHECK(m.for_each->set == "${product_id}");
    CHECK(m.for_each->as == "m");
    const Expect& x = m.steps[0].expect;
    CHECK(x.status->classes == std::vector<int>{4});
    REQUIRE(x.ids.size() == 1);  // a single mapping is one check
    CHECK(x.ids[0].allow_null);
}

TEST_CASE("load_text resolves includes relative to the given path") {
    const std::string text = "name: t\n"
                             "include: [../vectors/rfc9562.yaml]\n"
                             "cases:\n"
                             "  - name: c\n"
                             "    for_each: {vectors: rfc9562}\n"
                             "    steps:\n"
                             "      - http: {path: /x}\n";
    const LoadResult r = load_text(text, fixture("good/inline.yaml"));
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    CHECK(r.suite->vector_sets.count("rfc9562") == 1);
    CHECK(r.suite->cases[0].for_each->as == "item");
    CHECK(r.suite->cases[0].steps[0].pos.file == fixture("good/inline.yaml"));
}

TEST_CASE("the same file included twice is loaded once") {
    const std::string text = "name: t\n"
                             "include: [../vectors/rfc9562.yaml, ../good/../vectors/rfc9562.yaml]\n"
                             "cases: []\n";
    const LoadResult r = load_text(text, fixture("good/inline.yaml"));
    INFO(dump(r.diagnostics));
    CHECK(r.ok());
}

TEST_CASE("load_vector_file") {
    const VectorLoadResult r = load_vector_file(fixture("vectors/rfc9562.yaml"));
    INFO(dump(r.diagnostics));
    REQUIRE(r.set);
    CHECK(r.diagnostics.empty());
    CHECK(r.set->name == "rfc9562");
    CHECK(r.set->vectors.size() == 6);
    CHECK(r.set->vectors[1].name == "a3-v4");
    CHECK(r.set->vectors[1].fields.at("version") == json::value(4));
}

TEST_CASE("load_vector_file reports every problem and returns no set") {
    const VectorLoadResult r = load_vector_file(fixture("broken/bad_vectors.yaml"));
    CHECK_FALSE(r.set);
    const std::string file = fixture("broken/bad_vectors.yaml");
    REQUIRE(r.diagnostics.size() == 2);
    check(r.diagnostics, file, 5, 11, "duplicate vector name 'v1' in set 'broken'", "the first is at line 3");
    check(r.diagnostics, file, 5, 5, "missing required key 'value' in vector", "value: ");
    CHECK(r.diagnostics[0].source_line == "  - name: v1");
}

TEST_CASE("load_vector_file: missing file") {
    const VectorLoadResult r = load_vector_file(fixture("nope.yaml"));
    CHECK_FALSE(r.set);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].title == "cannot read vector-set file: no such file or directory");
    CHECK(r.diagnostics[0].hint.find("check the path") != std::string::npos);
}

TEST_CASE("the complete example in docs/suite-format.md loads") {
    std::ifstream in(std::string(IDCONFORM_SOURCE_DIR) + "/docs/suite-format.md");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    const std::size_t start = doc.find("```yaml\n");
    REQUIRE(start != std::string::npos);
    const std::size_t end = doc.find("```", start + 8);
    REQUIRE(end != std::string::npos);
    // Resolved beside the good fixtures, whose include paths match the example.
    const LoadResult r = load_text(doc.substr(start + 8, end - start - 8), fixture("good/doc_example.yaml"));
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    CHECK(r.suite->name == "data-id-basics");
    CHECK(r.suite->cases.size() == 2);
}

TEST_CASE("expect: not_found beside a refusal is read into the status check, with its position") {
    const LoadResult r = load_text("name: t\n"
                                   "cases:\n"
                                   "  - name: c\n"
                                   "    steps:\n"
                                   "      - http: {path: /x}\n"
                                   "        expect:\n"
                                   "          status: [403, 404]\n"
                                   "          not_found: {status: 200, at: /found, equals: false}\n"
                                   "      - http: {path: /y}\n"
                                   "        expect: {status: refused, not_found: {status: 204, empty: true}}\n"
                                   "      - http: {path: /z}\n"
                                   "        expect: {status: 4xx, not_found: {status: 200, body: []}}\n",
                                   "nf.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const auto& steps = r.suite->cases.at(0).steps;
    REQUIRE(steps.size() == 3);
    auto nf_of = [&](std::size_t i) -> const NotFound& {
        const auto& x = steps[i].expect;
        REQUIRE(x.status);
        REQUIRE(x.status->not_found);
        return *x.status->not_found;
    };
    const NotFound& member = nf_of(0);
    CHECK(member.status == 200);
    CHECK(member.at == "/found");
    CHECK(member.equals == json::value(false));
    CHECK_FALSE(member.empty);
    check_pos(member.pos, "nf.yaml", 8, 22);
    CHECK(nf_of(1).status == 204);
    CHECK(nf_of(1).empty);
    CHECK(nf_of(2).body == json::array());
    CHECK(nf_of(2).at.empty());
}
