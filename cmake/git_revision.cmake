# Writes OUTPUT, a header defining LOOPHOLE_GIT_REVISION: `git describe
# --always --dirty` of SOURCE_DIR, or "unknown" when the source is not a git
# checkout (a tarball, even one unpacked inside another repository) or git
# is missing. Run at every build (cli/CMakeLists.txt) so the revision never
# goes stale; the header is rewritten only when the revision changed, so an
# unchanged tree rebuilds nothing.
set(revision "")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(
    COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" describe --always --dirty
    OUTPUT_VARIABLE revision
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    set(revision "")
  endif()
endif()
if(revision STREQUAL "")
  set(revision "unknown")
endif()
set(content "#define LOOPHOLE_GIT_REVISION \"${revision}\"\n")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
