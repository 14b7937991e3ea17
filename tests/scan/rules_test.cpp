// The identifier rules for one value (scan/rules.hpp): shape rules shared with
// the HTTP shape scan, declared kinds, and the field-spec syntax.
#include "scan/rules.hpp"

#include <doctest/doctest.h>

using namespace idconform::scan;

namespace {
const char* const v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
const char* const v4 = "919108f7-52d1-4320-9bac-f847db4148a8";
}  // namespace

TEST_CASE("shape rules: canonical ids pass and report their version") {
    int v = 0;
    CHECK_FALSE(shape_string(v7, false, &v));
    CHECK(v == 7);
    CHECK_FALSE(shape_string(v4, true, &v));
    CHECK(v == 4);
    CHECK_FALSE(shape_string("01arz3ndektsv4rrffq69g5fav", false, &v));  // lower-case ULID
    CHECK(v == -1);
    CHECK_FALSE(shape_string("hello world", true, &v));
    CHECK_FALSE(shape_string("", false, &v));
}

TEST_CASE("shape rules: non-canonical spellings are DATA-ID-002") {
    int v = 0;
    for (const char* bad : {"017F22E2-79B0-7CC3-98C4-DC0C0C07398F", "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}",
                            "017f22e279b07cc398c4dc0c0c07398f", "urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
                            " 017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "01ARZ3NDEKTSV4RRFFQ69G5FAV",
                            "017f22e2-79b0-7cc3-08c4-dc0c0c07398f"}) {
        CAPTURE(bad);
        const Finding f = shape_string(bad, false, &v);
        CHECK(f.rule == "DATA-ID-002");
        CHECK(f.actual.find(bad) != std::string::npos);
        CHECK(v == -1);
    }
}

TEST_CASE("shape rules: placeholders and dummies") {
    int v = 0;
    CHECK(shape_string("00000000-0000-0000-0000-000000000000", true, &v).rule == "DATA-ID-007");
    CHECK(shape_string("00000000-0000-0000-0000-000000000000", false, &v).rule == "nil-max");
    CHECK(shape_string("ffffffff-ffff-ffff-ffff-ffffffffffff", false, &v).rule == "nil-max");
    CHECK(shape_string("", true, &v).rule == "DATA-ID-007");
    CHECK(shape_zero(true).rule == "DATA-ID-007");
    CHECK_FALSE(shape_zero(false));
}

TEST_CASE("id-named keys") {
    for (const char* k : {"id", "ID", "_id", "owner_id", "ownerId"}) CHECK(id_named(k));
    for (const char* k : {"idx", "name", "Identity", "valid"}) CHECK_FALSE(id_named(k));
}

TEST_CASE("field specs") {
    FieldSpec f;
    std::string err;
    REQUIRE(parse_field_spec("/id=uuidv7", f, err));
    CHECK(f.name == "/id");
    CHECK(f.kind == "uuidv7");
    CHECK_FALSE(f.nullable);
    REQUIRE(parse_field_spec("owner_id=ulid,nullable", f, err));
    CHECK(f.name == "owner_id");
    CHECK(f.nullable);
    CHECK_FALSE(parse_field_spec("/id", f, err));
    CHECK(err.find("NAME=KIND") != std::string::npos);
    CHECK_FALSE(parse_field_spec("/id=uuidv9", f, err));
    CHECK(err.find("unknown id kind 'uuidv9'") != std::string::npos);
    CHECK_FALSE(parse_field_spec("/id=uuidv7,optional", f, err));
    CHECK(err.find("nullable") != std::string::npos);
}

TEST_CASE("declared kinds") {
    FieldSpec f{"/id", "uuidv7", false};
    CHECK_FALSE(check_declared_string(f, v7));
    CHECK(check_declared_string(f, v4).rule == "DATA-ID-002");
    CHECK(check_declared_string(f, "00000000-0000-0000-0000-000000000000").rule == "DATA-ID-007");
    CHECK(check_declared_string(f, "").rule == "DATA-ID-007");
    CHECK(check_declared_missing(f, true).rule == "DATA-ID-007");
    CHECK(check_declared_non_string(f, "0", true).rule == "DATA-ID-007");
    CHECK(check_declared_non_string(f, "42", false).rule == "DATA-ID-002");
    FieldSpec four{"/t", "uuidv4", true};
    CHECK_FALSE(check_declared_missing(four, true));
    CHECK_FALSE(check_declared_string(four, v4));
    CHECK(check_declared_string(four, v7).rule == "DATA-ID-003");  // a v7 leaks creation time
    FieldSpec ulid{"/u", "ulid", false};
    CHECK_FALSE(check_declared_string(ulid, "01arz3ndektsv4rrffq69g5fav"));
    CHECK(check_declared_string(ulid, "01ARZ3NDEKTSV4RRFFQ69G5FAV").rule == "R4");
    FieldSpec any{"/a", "uuid", false};
    CHECK_FALSE(check_declared_string(any, v4));
    CHECK(check_declared_string(any, "not an id").rule == "DATA-ID-002");
}
