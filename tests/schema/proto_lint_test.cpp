// The .proto lint: id fields typed bytes or integers, string ids without a
// protovalidate constraint, patterns judged by behaviour; files that do not
// tokenize are errors with their position.
#include "schema/lint.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

using namespace idconform::schema;

namespace {

LintResult lint_text(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path) << text;
    LintResult r = lint_path(path.string());
    std::filesystem::remove(path);
    return r;
}

std::map<std::string, std::string> kinds_by_field(const LintResult& r) {
    std::map<std::string, std::string> m;
    for (const auto& f : r.findings) m[f.pointer] = f.kind;
    return m;
}

}  // namespace

TEST_CASE("proto id fields: types and protovalidate constraints") {
    const LintResult r = lint_text("idconform-lint-test.proto", R"(syntax = "proto3";
package shop.v1;
import "buf/validate/validate.proto";
// a comment naming owner_id is not a field
message Order {
  string id = 1 [(buf.validate.field).string.pattern = "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"];
  bytes owner_id = 2;
  int64 shop_id = 3;
  string customer_id = 4;
  string parent_id = 5 [(buf.validate.field).string.uuid = true];
  string coupon_id = 6 [(buf.validate.field).string = {pattern: "^[0-9a-fA-F-]{36}$"}];
  repeated string item_ids = 7;
  string name = 8;
  map<string, string> labels_id = 9;
  message Line {
    fixed64 sku_id = 1;
  }
  oneof target {
    string gift_id = 10 [(validate.rules).string.uuid = true];
  }
  string request_id = 11;
}
enum Status { STATUS_UNSPECIFIED = 0; }
service Shop { rpc Get(Order) returns (Order) { option deprecated = true; } }
)");
    CHECK(r.errors.empty());
    const auto k = kinds_by_field(r);
    CHECK(k.count("shop.v1.Order.id") == 0);  // the canonical v7 pattern
    CHECK(k.at("shop.v1.Order.owner_id") == "proto-bytes-id");
    CHECK(k.at("shop.v1.Order.shop_id") == "proto-integer-id");
    CHECK(k.at("shop.v1.Order.customer_id") == "proto-unconstrained");
    CHECK(k.at("shop.v1.Order.parent_id") == "proto-uuid-only");
    CHECK(k.at("shop.v1.Order.coupon_id") == "proto-pattern");
    CHECK(k.at("shop.v1.Order.item_ids") == "proto-unconstrained");
    CHECK(k.at("shop.v1.Order.Line.sku_id") == "proto-integer-id");
    CHECK(k.at("shop.v1.Order.gift_id") == "proto-uuid-only");
    CHECK(k.count("shop.v1.Order.request_id") == 0);  // out of the data-id scope
    CHECK(k.count("shop.v1.Order.labels_id") == 0);
    CHECK(r.findings.size() == 8);
    for (const auto& f : r.findings)
        if (f.pointer == "shop.v1.Order.owner_id") {
            CHECK(f.pos.line == 7);
            CHECK(f.pos.column == 9);
        }
}

TEST_CASE("the example's .proto files: bytes and int64 ids of the legacy API and the tickets, unconstrained strings") {
    const LintResult r = lint_path(std::string(IDCONFORM_SOURCE_DIR) + "/examples/proto");
    CHECK(r.errors.empty());
    CHECK(r.files == 3);
    std::map<std::string, std::size_t> kinds;
    for (const auto& f : r.findings) ++kinds[f.kind];
    CHECK(kinds["proto-bytes-id"] == 2);
    CHECK(kinds["proto-integer-id"] == 5);  // legacy's category_id; the tickets' four ids (int64, uint64)
    CHECK(kinds["proto-unconstrained"] == 17);
}

TEST_CASE("a .proto that does not tokenize is an error with its position") {
    const LintResult r = lint_text("idconform-lint-bad.proto", "syntax = \"proto3\";\nmessage A {\n  string id = 1 [(x) = \"unterminated];\n}\n");
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors.front().pos.line == 3);
    const LintResult u = lint_text("idconform-lint-unbalanced.proto", "message A {\n  string id = 1;\n");
    REQUIRE_FALSE(u.errors.empty());
}

TEST_CASE("proto: the input guard's cap and text check (no copy of a huge file, positions for non-text)") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("idconform-proto-guard-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string big = (dir / "big.proto").string();
    std::ofstream(big) << "syntax = \"proto3\";\n";
    fs::resize_file(big, (std::size_t{16} << 20) + 1);
    const auto r = idconform::schema::lint_proto(big);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].title == "cannot read .proto file: it is 16.0 MiB, over the limit of 16 MiB for input files");
    const std::string nul = (dir / "nul.proto").string();
    std::ofstream(nul, std::ios::binary) << std::string("syntax = \"proto3\";\nmessage A { string SECRET\0 = 1; }\n", 52);
    const auto n = idconform::schema::lint_proto(nul);
    REQUIRE(n.errors.size() == 1);
    CHECK(n.errors[0].pos.str() == nul + ":2:26");
    CHECK(n.errors[0].title == "NUL byte in the file: it is not text");
    CHECK(n.errors[0].source_line.empty());
    const std::string u16 = (dir / "u16.proto").string();
    std::ofstream(u16, std::ios::binary) << std::string("\xFF\xFEs\0y\0", 6);
    CHECK(idconform::schema::lint_proto(u16).errors.at(0).title.find("UTF-16") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("openapi: NUL, invalid UTF-8 and UTF-16 in a document are given at their position") {
    namespace fs = std::filesystem;
    const fs::path f = fs::temp_directory_path() / ("idconform-openapi-guard-" + std::to_string(::getpid()) + ".yaml");
    std::ofstream(f, std::ios::binary) << "openapi: 3.0.3\ninfo: {title: caf\xE9, version: '1'}\npaths: {}\n";
    auto r = idconform::schema::lint_openapi(f.string());
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors[0].pos.str() == f.string() + ":2:18");
    CHECK(r.errors[0].title.rfind("invalid UTF-8 (byte 0xE9)", 0) == 0);
    std::ofstream(f, std::ios::binary) << std::string("openapi: 3.0.3\n\0", 16);
    r = idconform::schema::lint_openapi(f.string());
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors[0].pos.str() == f.string() + ":2:1");
    std::ofstream(f, std::ios::binary) << std::string("\xFE\xFF\0o", 4);
    r = idconform::schema::lint_openapi(f.string());
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors[0].title.find("UTF-16") != std::string::npos);
    fs::remove(f);
}
