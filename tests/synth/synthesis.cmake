# Tests of synthesis, plan figures and baselines; included from tests/synth/CMakeLists.txt.
# Paths are relative to this file so it works wherever it is included. The tests read
# tests/data through REDIST_TEST_DATA_DIR.

set(_synthesis_dir ${CMAKE_CURRENT_LIST_DIR})

function(redist_synthesis_test name)
  cmake_parse_arguments(S "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  list(TRANSFORM S_SOURCES PREPEND ${_synthesis_dir}/)
  redist_test(${name} SOURCES ${S_SOURCES} LIBS ${S_LIBS} LABELS ${S_LABELS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE REDIST_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data")
endfunction()

redist_synthesis_test(synth_synthesize_tests
  SOURCES
    synthesize_random_test.cpp
    synthesize_anchors_test.cpp
    synthesize_exact_test.cpp
    synthesize_scope_test.cpp
    synthesize_shardy_test.cpp
  LIBS redist_synth redist_verify nlohmann_json::nlohmann_json
  LABELS unit)

redist_synthesis_test(synth_reduction_tests
  SOURCES synthesize_reduction_test.cpp
  LIBS redist_synth redist_verify
  LABELS unit)

redist_synthesis_test(synth_uneven_tests
  SOURCES synthesize_uneven_test.cpp
  LIBS redist_synth redist_verify
  LABELS unit)

redist_synthesis_test(synth_engine_property_tests
  SOURCES engine_property_test.cpp engine_bound_test.cpp engine_permute_test.cpp balanced_test.cpp direct_test.cpp sorted_test.cpp slow_first_test.cpp in_place_test.cpp same_blocks_test.cpp shared_partitions_test.cpp held_slices_test.cpp split_by_class_test.cpp slice_targets_test.cpp gather_order_test.cpp permute_first_test.cpp
    transfer_senders_test.cpp search_gap_test.cpp engine_symmetry_test.cpp size_one_axes_test.cpp
  LIBS redist_synth redist_verify redist_proofs
  LABELS unit)

redist_synthesis_test(synth_figures_tests
  SOURCES figures_test.cpp
  LIBS redist_synth
  LABELS unit)

redist_synthesis_test(synth_baselines_tests
  SOURCES baselines_test.cpp
  LIBS redist_synth redist_verify
  LABELS unit)

redist_synthesis_test(synth_plan_command_tests
  SOURCES synthesize_cli_test.cpp
  LIBS redist_synth nlohmann_json::nlohmann_json
  LABELS cli)
target_compile_definitions(synth_plan_command_tests PRIVATE REDIST_BINARY="$<TARGET_FILE:redist>")
add_dependencies(synth_plan_command_tests redist)
