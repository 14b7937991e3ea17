# `cmake --install`: the idconform executable, the built-in suites and packs
# and the vectors they include (share/idconform/, same relative layout as the
# source tree, so `include: [../../../vectors/...]` resolves), the example
# target profile, the docs, the man page and the bash, zsh and fish
# completions. The packs
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
              ${PROJECT_SOURCE_DIR}/docs/lint.md ${PROJECT_SOURCE_DIR}/docs/packs.md ${PROJECT_SOURCE_DIR}/docs/rules.md
              ${PROJECT_SOURCE_DIR}/docs/suite-format.md ${PROJECT_SOURCE_DIR}/docs/target-profile.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The man page and the bash, zsh and fish completions are written by the built
# binary from its own CLI11 tree (harness/cli/help_docs.cpp; the man page's
# prose from docs/idconform.1.in), so they list exactly the commands and
# options --help lists. Debian policy: man pages compressed with gzip -9n.
if(TARGET idconform)
  set(IDCONFORM_DOCS_OUT ${PROJECT_BINARY_DIR}/docs)
  set(IDCONFORM_MAN ${IDCONFORM_DOCS_OUT}/idconform.1)
  set(IDCONFORM_MAN_GZ ${IDCONFORM_DOCS_OUT}/idconform.1.gz)
  set(IDCONFORM_COMPLETIONS ${IDCONFORM_DOCS_OUT}/idconform.bash ${IDCONFORM_DOCS_OUT}/_idconform
      ${IDCONFORM_DOCS_OUT}/idconform.fish)
  add_custom_command(OUTPUT ${IDCONFORM_MAN} ${IDCONFORM_MAN_GZ} ${IDCONFORM_COMPLETIONS}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${IDCONFORM_DOCS_OUT}
    COMMAND $<TARGET_FILE:idconform> help --man ${PROJECT_SOURCE_DIR}/docs/idconform.1.in > ${IDCONFORM_MAN}
    COMMAND gzip -9nc ${IDCONFORM_MAN} > ${IDCONFORM_MAN_GZ}
    COMMAND $<TARGET_FILE:idconform> help --completion bash > ${IDCONFORM_DOCS_OUT}/idconform.bash
    COMMAND $<TARGET_FILE:idconform> help --completion zsh > ${IDCONFORM_DOCS_OUT}/_idconform
    COMMAND $<TARGET_FILE:idconform> help --completion fish > ${IDCONFORM_DOCS_OUT}/idconform.fish
    DEPENDS idconform ${PROJECT_SOURCE_DIR}/docs/idconform.1.in
    COMMENT "man page and shell completions from idconform's --help tree" VERBATIM)
  add_custom_target(idconform_help_docs ALL DEPENDS ${IDCONFORM_MAN_GZ} ${IDCONFORM_COMPLETIONS})
  install(FILES ${IDCONFORM_MAN_GZ} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${IDCONFORM_DOCS_OUT}/idconform.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME idconform)
  install(FILES ${IDCONFORM_DOCS_OUT}/_idconform DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  install(FILES ${IDCONFORM_DOCS_OUT}/idconform.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
endif()
