# `cpack -G DEB`: a Debian 12 package of what cmake/Install.cmake installs,
# under /usr. Its Depends are computed by dpkg-shlibdeps from the executable,
# so they are the runtime library packages (libboost-json1.81.0, libre2-9,
# libgrpc++1.51, ...), never -dev packages.
set(CPACK_PACKAGE_NAME idconform)
set(CPACK_PACKAGE_VENDOR "idconform")
# Who answers for a package you build: set them when you publish one
# (-DIDCONFORM_MAINTAINER="Name <mail>" -DIDCONFORM_HOMEPAGE=https://...).
# Without a homepage the field is left out rather than filled with a
# placeholder.
set(IDCONFORM_MAINTAINER "idconform maintainers <maintainers@idconform.invalid>"
    CACHE STRING "the Debian package's Maintainer field")
set(IDCONFORM_HOMEPAGE "" CACHE STRING "the Debian package's Homepage field (left out when empty)")
set(CPACK_PACKAGE_CONTACT "${IDCONFORM_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${IDCONFORM_MAINTAINER}")
if(IDCONFORM_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${IDCONFORM_HOMEPAGE}")
endif()
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "contract-conformance tests for entity identifiers (RFC 9562 UUIDs, ULIDs)")
# The extended description, after the summary line: one string (several
# quoted arguments would make a CMake list, whose ';' separators end up at
# the start of the continuation lines); CPack indents each line by one space,
# as a Description's continuation lines must.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "idconform proves or refutes what a service promises about its identifiers\n\
(UUIDv7 minted now, canonical lower-case text, Nil/Max never as\n\
placeholders, ids that never change) over HTTP(S), gRPC and Kafka, and in\n\
exported files, and writes console, JUnit XML, JSON, SARIF and HTML reports.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Besides the libraries dpkg-shlibdeps finds: the system CA store, without
# which no HTTPS target verifies (a minimal Debian has none).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ca-certificates")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
include(CPack)
