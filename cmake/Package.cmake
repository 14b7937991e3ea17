# `cpack -G DEB`: a Debian 12 package of what cmake/Install.cmake installs,
# under /usr. Its Depends are computed by dpkg-shlibdeps from the executable,
# so they are the runtime library packages (libboost-json1.81.0, libre2-9,
# libgrpc++1.51, ...), never -dev packages.
set(CPACK_PACKAGE_NAME idconform)
set(CPACK_PACKAGE_VENDOR "idconform")
set(CPACK_PACKAGE_CONTACT "idconform maintainers <idconform@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "contract-conformance tests for entity identifiers (RFC 9562 UUIDs, ULIDs)")
set(CPACK_PACKAGE_DESCRIPTION
    "idconform proves or refutes what a service promises about its identifiers (UUIDv7 minted now,\n"
    "canonical lower-case text, Nil/Max never as placeholders, ids that never change) over HTTP(S),\n"
    "gRPC and Kafka, and in exported files, and writes JUnit XML and JSON reports.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.invalid/idconform")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
include(CPack)
