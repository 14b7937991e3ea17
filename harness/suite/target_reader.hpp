// The one reader of a target: what suites (`target:`, `principals:`) and
// target profiles (top level) say about where and how to reach the API -
// TLS files, timeouts, principals, the gRPC server - into the suite model's
// types (suite/model.hpp), so a suite and a profile accept the same things
// and mean the same by them. Used by the suite loader (load_target.cpp) and
// the profile loader (profile/load.cpp), over the shared yaml_reader.
#pragma once

#include "suite/model.hpp"
#include "suite/yaml_reader.hpp"

#include <optional>
#include <string>

namespace idconform::suite::detail {

// `tls: {cacert: ..., cert: ..., key: ..., insecure: false}` (paths as written).
void read_tls(Reader& r, const Val& v, TargetTls& out);

// `timeout: {connect: 2s, read: 5s}`.
void read_timeouts(Reader& r, const Val& v, TargetTimeouts& out);

// One entry of `principals:`: `alice: {headers: {Authorization: ...}}`, or
// `anonymous:` (null) / `anonymous: {}`: a principal that sends no headers;
// `authenticated: false` says the API must not know it (runner/auth.hpp).
// nullopt after a diagnostic.
[[nodiscard]] std::optional<Principal> read_principal(Reader& r, const Entry& entry);

// `refused: [403, 404]` (a suite's or a profile's, or a resource's): 4xx
// codes, each once. nullopt after a diagnostic.
[[nodiscard]] std::optional<std::vector<int>> read_refused(Reader& r, const Val& v);

// `grpc: {address, protos, import_paths, reflection, tls}`. Files are
// resolved against files.base_dir. The schemas come from server
// reflection unless .proto files are named (then only from them, unless
// `reflection: true` says both); `reflection: false` without protos is an
// error. `tls:` is a boolean or `{cacert, cert, key}` (mTLS needs both).
struct GrpcFiles {
    std::string base_dir;     // relative paths are resolved against it
    const char* relative_to;  // "suite file" / "profile's folder", for messages
    // Suites check that the files exist; profiles (written for the machine
    // they run on) only resolve them, as they always did.
    bool must_exist = true;
};
[[nodiscard]] std::optional<Target::Grpc> read_grpc_target(Reader& r, const Val& v, const GrpcFiles& files);

}  // namespace idconform::suite::detail
