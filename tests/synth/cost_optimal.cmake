# Tests of the cost model and the optimal search; included from tests/synth/CMakeLists.txt.
# Paths are relative to this file so it works wherever it is included. The tests read
# tests/data through REDIST_TEST_DATA_DIR.

set(_cost_optimal_dir ${CMAKE_CURRENT_LIST_DIR})

function(redist_cost_optimal_test name)
  cmake_parse_arguments(S "" "" "SOURCES" ${ARGN})
  list(TRANSFORM S_SOURCES PREPEND ${_cost_optimal_dir}/)
  redist_test(${name} SOURCES ${S_SOURCES} LIBS redist_synth redist_verify LABELS unit)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE REDIST_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data")
endfunction()

redist_cost_optimal_test(synth_cost_model_tests SOURCES cost_optimal_model_test.cpp)
redist_cost_optimal_test(synth_optimal_search_tests SOURCES cost_optimal_search_test.cpp)
redist_cost_optimal_test(synth_optimal_exhaustive_tests SOURCES cost_optimal_exhaustive_test.cpp)
