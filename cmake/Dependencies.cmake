# Every dependency is a Debian package (scripts/setup.sh installs them).
# Boost 1.81 (not Debian's default 1.74, which lacks Boost.JSON).
set(Threads_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
find_package(Boost 1.81.0 EXACT REQUIRED CONFIG COMPONENTS json url)
find_package(OpenSSL REQUIRED)
find_package(yaml-cpp REQUIRED)      # 0.7: target is plain `yaml-cpp`
find_package(doctest REQUIRED)
find_package(CLI11 REQUIRED)
find_package(pugixml REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka)   # librdkafka 2.0 (C API; mock cluster in rdkafka_mock.h)
pkg_check_modules(LIBPQ REQUIRED IMPORTED_TARGET libpq)     # libpq 15 (idconform db: PostgreSQL)
# gRPC 1.51 / protobuf 3.21: Threads first (found above), then gRPC's config;
# protobuf's targets come along (protobuf::libprotobuf, ::libprotoc, ::protoc).
find_package(Protobuf CONFIG QUIET)
if(NOT Protobuf_FOUND)
  find_package(Protobuf REQUIRED)
endif()
find_package(gRPC CONFIG REQUIRED)
# jemalloc for the idconform executable: the runner allocates per case, and
# glibc's malloc cost ~15-20% of the client's CPU in bench/run_http.sh. Not
# with sanitizers (they bring their own allocator).
if(IDCONFORM_JEMALLOC AND NOT IDCONFORM_SANITIZE)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
endif()
