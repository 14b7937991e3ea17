# `cmake --install`: the idconform executable, the built-in suites and packs
# and the vectors they include (share/idconform/, same relative layout as the
# source tree, so `include: [../../../vectors/...]` resolves), the example
# target profile, the docs, the man page and the bash completion. The packs
# are found at run time relative to the executable (bin/../share/idconform),
# so a relocated tree (an extracted .deb) works as well as the prefix.
include(GNUInstallDirs)

# The installed executable is stripped unless asked otherwise (the
# RelWithDebInfo binary is about 150 MB with its debug info, 5 MB without):
# `cmake --install build` strips by default; -DIDCONFORM_INSTALL_DEBUG=ON
# keeps the symbols. (`--strip` still works as usual.)
option(IDCONFORM_INSTALL_DEBUG "install the executable with its debug info" OFF)
if(NOT IDCONFORM_INSTALL_DEBUG)
  install(CODE "set(CMAKE_INSTALL_DO_STRIP 1)")
endif()
if(TARGET idconform)
  install(TARGETS idconform RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The licence, and the machine-readable copyright file Debian policy asks for.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/cmake/debian/copyright
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/suites/ DESTINATION ${CMAKE_INSTALL_DATADIR}/idconform/suites
        FILES_MATCHING PATTERN "*.yaml" PATTERN "*.md")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/vectors/ DESTINATION ${CMAKE_INSTALL_DATADIR}/idconform/vectors
        FILES_MATCHING PATTERN "*.yaml" PATTERN "*.md" PATTERN "tools" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/examples/products.target.yaml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/idconform/examples)
# the example API's .proto files, which suites/grpc/ names as ../../examples/proto
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/proto/ DESTINATION ${CMAKE_INSTALL_DATADIR}/idconform/examples/proto
        FILES_MATCHING PATTERN "*.proto")
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/architecture.md ${PROJECT_SOURCE_DIR}/docs/ci.md
              ${PROJECT_SOURCE_DIR}/docs/packs.md ${PROJECT_SOURCE_DIR}/docs/rules.md
              ${PROJECT_SOURCE_DIR}/docs/suite-format.md ${PROJECT_SOURCE_DIR}/docs/target-profile.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian policy: man pages compressed with gzip -9n.
set(IDCONFORM_MAN_GZ ${PROJECT_BINARY_DIR}/idconform.1.gz)
add_custom_command(OUTPUT ${IDCONFORM_MAN_GZ}
  COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/docs/idconform.1 > ${IDCONFORM_MAN_GZ}
  DEPENDS ${PROJECT_SOURCE_DIR}/docs/idconform.1 VERBATIM)
add_custom_target(idconform_man ALL DEPENDS ${IDCONFORM_MAN_GZ})
install(FILES ${IDCONFORM_MAN_GZ} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/scripts/completion/idconform.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME idconform)
