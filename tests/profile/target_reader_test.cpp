// The one reader of a target (suite/target_reader.hpp) seen from a suite and
// from a profile: both accept the same forms and mean the same by them. Each
// case below is a place where the two copies used to disagree.
#include "../suite/test_support.hpp"

#include "profile/profile.hpp"

#include <filesystem>
#include <fstream>

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {

std::string suite_text(const std::string& target, const std::string& principals = "") {
    return "name: t\ntarget:\n" + target + principals + "cases:\n  - name: c\n    steps: [{http: {path: /a}}]\n";
}

std::string profile_text(const std::string& top, const std::string& principals = "principals: {a: {}}\n") {
    return "name: t\nbase_url: http://h\n" + principals + top +
           "resources:\n  r:\n    create: {path: /r, body: {name: x}}\n";
}

}  // namespace

TEST_CASE("target reader: an `anonymous:` principal (no headers) in suites as in profiles") {
    const LoadResult s = load_text(suite_text("  base_url: http://h\n", "principals:\n  anonymous:\n  alice: {headers: {A: b}}\n"),
                                   "inline.yaml");
    INFO(dump(s.diagnostics));
    REQUIRE(s.ok());  // was "expected a mapping" in suites
    CHECK(s.suite->principals.at("anonymous").headers.empty());
    const auto p = profile::load_profile_text(profile_text("", "principals:\n  anonymous:\n  alice: {headers: {A: b}}\n"), "p.yaml");
    INFO(dump(p.diagnostics));
    REQUIRE(p.profile);
    CHECK(p.profile->principals.at(0).name == "anonymous");
    CHECK(p.profile->principals.at(0).headers.empty());
}

TEST_CASE("target reader: gRPC schemas default to reflection unless protos are named, in both") {
    const LoadResult s = load_text(suite_text("  grpc: {address: \"h:1\"}\n"), "inline.yaml");
    REQUIRE(s.ok());
    CHECK(s.suite->target.grpc->reflection);
    const auto p = profile::load_profile_text(profile_text("grpc: {address: \"h:1\"}\n"), "p.yaml");
    INFO(dump(p.diagnostics));
    REQUIRE(p.profile);  // was "the gRPC schemas come from nowhere" in profiles
    CHECK(p.profile->grpc->reflection);
    // `reflection: false` and no protos: an error in both (a suite used to fail only at run time).
    const Diagnostic d = only_error(suite_text("  grpc: {address: \"h:1\", reflection: false}\n"));
    CHECK(d.title == "the gRPC schemas come from nowhere");
    const auto p2 = profile::load_profile_text(profile_text("grpc: {address: \"h:1\", reflection: false}\n"), "p.yaml");
    REQUIRE(p2.diagnostics.size() == 1);
    CHECK(p2.diagnostics[0].title == d.title);
}

TEST_CASE("target reader: gRPC TLS files and proto files resolved relative to the file, in both") {
    const auto dir = std::filesystem::temp_directory_path() / "idconform_target_reader_test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "api.proto") << "syntax = \"proto3\";\n";
    std::ofstream(dir / "ca.pem") << "x\n";
    const std::string grpc = "grpc: {address: \"h:1\", protos: [api.proto], tls: {cacert: ca.pem}}\n";
    const LoadResult s = load_text(suite_text("  " + grpc), (dir / "s.yaml").string());
    INFO(dump(s.diagnostics));
    REQUIRE(s.ok());
    const auto p = profile::load_profile_text(profile_text(grpc), (dir / "p.yaml").string());
    INFO(dump(p.diagnostics));
    REQUIRE(p.profile);  // was "expected a boolean" for tls: {...} in profiles
    for (const Target::Grpc* g : {&*s.suite->target.grpc, &*p.profile->grpc}) {
        CHECK(g->tls);
        CHECK(g->ca_file == (dir / "ca.pem").string());
        CHECK(g->protos == std::vector<std::string>{(dir / "api.proto").string()});
        CHECK_FALSE(g->reflection);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("target reader: TLS and timeouts land in the same fields of suite and profile") {
    const std::string tls = "tls: {cacert: ca.pem, cert: c.pem, key: k.pem, insecure: true}\ntimeout: {connect: 2s, read: 300ms}\n";
    const LoadResult s = load_text(suite_text("  base_url: http://h\n  " + tls.substr(0, tls.find('\n') + 1) + "  " +
                                              tls.substr(tls.find('\n') + 1)),
                                   "inline.yaml");
    INFO(dump(s.diagnostics));
    REQUIRE(s.ok());
    const auto p = profile::load_profile_text(profile_text(tls), "p.yaml");
    INFO(dump(p.diagnostics));
    REQUIRE(p.profile);
    const TargetTls& a = s.suite->target;
    const TargetTls& b = *p.profile;
    CHECK(a.ca_file == b.ca_file);
    CHECK(a.cert_file == b.cert_file);
    CHECK(a.key_file == b.key_file);
    CHECK(a.insecure == b.insecure);
    CHECK(s.suite->target.connect_timeout_ms == p.profile->connect_timeout_ms);
    CHECK(s.suite->target.read_timeout_ms == std::optional<long>(300));
}
