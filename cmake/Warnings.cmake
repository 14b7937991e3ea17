# idconform_warnings: an interface target every project target links, so the
# warning set and the sanitizer flags are decided once.
add_library(idconform_warnings INTERFACE)
target_compile_options(idconform_warnings INTERFACE -Wall -Wextra -Wpedantic
  -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual
  # g++ 12 reports a false mismatched-new-delete on every Asio awaitable frame
  # (its operator new/delete pair is custom); the warning has no real hits here.
  # (g++ only: clang, for the fuzz build, knows neither flag.)
  $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local -Wno-mismatched-new-delete>)
if(IDCONFORM_WERROR)
  target_compile_options(idconform_warnings INTERFACE -Werror)
endif()
if(IDCONFORM_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
