# The `fuzz` ctest label of the test configuration: the libFuzzer targets are built by clang in
# a tree of their own (build/test/fuzz, MOQ_FUZZ), and each runs for a bounded time on its seeds
# (tests/fuzz/run-target): the wire targets' generated ones, the session target's committed
# recordings, the QMux target's committed seeds. tools/fuzz runs them for longer.
find_program(MOQ_CLANG clang)
find_program(MOQ_CLANGXX clang++)
if(NOT MOQ_CLANG OR NOT MOQ_CLANGXX)
  message(WARNING "no clang: the fuzz tests are left out (Debian packages 'clang' and "
                  "'libclang-rt-14-dev'; tools/deps installs them)")
  return()
endif()
include(ExternalProject)
set(MOQ_FUZZ_DIR ${CMAKE_BINARY_DIR}/fuzz)
ExternalProject_Add(moq_fuzz_tree
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${MOQ_FUZZ_DIR}
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DMOQ_FUZZ=ON -DMOQ_TESTS=OFF -G Ninja
             -DCMAKE_C_COMPILER=${MOQ_CLANG} -DCMAKE_CXX_COMPILER=${MOQ_CLANGXX}
             -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
  BUILD_ALWAYS ON
  INSTALL_COMMAND "")
set(MOQ_FUZZ_SEEDS_wire_lite ${MOQ_FUZZ_DIR}/tests/fuzz/fuzz_seeds)
set(MOQ_FUZZ_SEEDS_wire_ietf ${MOQ_FUZZ_DIR}/tests/fuzz/fuzz_seeds)
set(MOQ_FUZZ_SEEDS_session ${CMAKE_CURRENT_LIST_DIR}/corpus/session)
set(MOQ_FUZZ_SEEDS_qmux ${CMAKE_CURRENT_LIST_DIR}/corpus/qmux)
# Seconds each runs: the QMux target's inputs are small and its seeds committed, so a short run
# covers them and keeps the suite's time.
set(MOQ_FUZZ_SECONDS_wire_lite 30)
set(MOQ_FUZZ_SECONDS_wire_ietf 30)
set(MOQ_FUZZ_SECONDS_session 30)
set(MOQ_FUZZ_SECONDS_qmux 5)
foreach(target wire_lite wire_ietf session qmux)
  add_test(NAME fuzz.${target}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/run-target ${MOQ_FUZZ_DIR}/tests/fuzz/fuzz_${target}
                   ${MOQ_FUZZ_SEEDS_${target}} ${CMAKE_BINARY_DIR}/fuzz-work/${target}
                   ${MOQ_FUZZ_SECONDS_${target}})
  set_tests_properties(fuzz.${target} PROPERTIES LABELS "fuzz" TIMEOUT 300)
endforeach()
