# Helpers every folder's CMakeLists.txt uses, so that all libraries, test
# binaries and fuzzers share one layout and one set of settings (warnings and
# sanitizers come from the top-level CMakeLists.txt and apply to all of them).
#
#   loophole_library(NAME <name> SOURCES <file>... [DEPS <target>...] [PRIVATE_DEPS <target>...])
#   loophole_test(NAME <name> SOURCES <file>... [DEPS <target>...] [NO_MAIN] [COST <seconds>])
#   loophole_fuzzer(NAME <name> SOURCES <file>... [DEPS <target>...])
include_guard(GLOBAL)
include(GoogleTest)

# Static library `loophole_<name>`, alias `loophole::<name>`, with the
# calling folder's `include/` as its public include directory. DEPS are public
# (they appear in the library's headers), PRIVATE_DEPS only in its .cpp files
# (Z3 for checker/, yaml-cpp for model/). Without SOURCES the library is
# header-only (an INTERFACE library).
function(loophole_library)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME" "SOURCES;DEPS;PRIVATE_DEPS")
  if(NOT arg_NAME OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: loophole_library(NAME <name> SOURCES <file>... "
                        "[DEPS <target>...] [PRIVATE_DEPS <target>...]); "
                        "unexpected: '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  set(target loophole_${arg_NAME})
  if(arg_SOURCES)
    add_library(${target} STATIC ${arg_SOURCES})
    target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_link_libraries(${target} PUBLIC ${arg_DEPS} PRIVATE ${arg_PRIVATE_DEPS})
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_link_libraries(${target} INTERFACE ${arg_DEPS} ${arg_PRIVATE_DEPS})
  endif()
  add_library(loophole::${arg_NAME} ALIAS ${target})
endfunction()

# GoogleTest executable `loophole_<name>_tests`, linked with gmock and
# gtest_main (NO_MAIN: the sources bring their own main()). Tests are
# discovered when ctest runs (PRE_TEST) and registered as `<name>.<Suite>.<Test>`
# with label <name>. They run in the source root, with LOOPHOLE_SOURCE_DIR set
# to it both in the environment and as a compile definition (a string
# literal), so fixtures and golden files are found as `tests/fixtures/...`.
# COST is the seconds a test of the binary usually takes: on a machine that
# has not run the tests before (CI), ctest starts the costly ones first, so
# that they do not run last, side by side with nothing.
function(loophole_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "NO_MAIN" "NAME;COST" "SOURCES;DEPS")
  if(NOT arg_NAME OR NOT arg_SOURCES OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: loophole_test(NAME <name> SOURCES <file>... "
                        "[DEPS <target>...] [NO_MAIN] [COST <seconds>]); "
                        "unexpected: '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT arg_COST)
    set(arg_COST 0)
  endif()
  set(target loophole_${arg_NAME}_tests)
  add_executable(${target} ${arg_SOURCES})
  if(arg_NO_MAIN)
    set(gtest GTest::gmock GTest::gtest)
  else()
    set(gtest GTest::gmock GTest::gtest_main)
  endif()
  target_link_libraries(${target} PRIVATE ${arg_DEPS} ${gtest})
  # (tests/common: helpers every test binary may use, e.g. loaded_game.hpp.)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/common)
  # (Where the tests' native code is compiled, tests/common/native_cache.hpp:
  # beside the build trees, so that the presets share it.)
  target_compile_definitions(${target} PRIVATE LOOPHOLE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    LOOPHOLE_TEST_NATIVE_CACHE="${PROJECT_BINARY_DIR}/../native-cache")
  gtest_discover_tests(${target}
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    TEST_PREFIX "${arg_NAME}."
    PROPERTIES
      ENVIRONMENT "LOOPHOLE_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
      LABELS ${arg_NAME}
      COST ${arg_COST})
endfunction()

# libFuzzer executable `fuzz_<name>` (the sources define
# LLVMFuzzerTestOneInput). Only built when LOOPHOLE_FUZZ is ON (the `fuzz`
# preset); otherwise the call does nothing, so tests/fuzz/CMakeLists.txt needs
# no conditions. All fuzzers are collected in the target `loophole_fuzzers`.
function(loophole_fuzzer)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME" "SOURCES;DEPS")
  if(NOT arg_NAME OR NOT arg_SOURCES OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: loophole_fuzzer(NAME <name> SOURCES <file>... "
                        "[DEPS <target>...]); unexpected: '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT LOOPHOLE_FUZZ)
    return()
  endif()
  set(target fuzz_${arg_NAME})
  add_executable(${target} ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE ${arg_DEPS})
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  add_dependencies(loophole_fuzzers ${target})
endfunction()
