# Tests of the Z3 checker; included from tests/verify/CMakeLists.txt.
redist_test(verify_checker_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/checker_hand_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checker_anchor_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checker_mutant_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checker_lowered_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checker_add_pending_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checker_fused_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checker_fused_gather_test.cpp
  LIBS redist_verify redist_proofs redist_synth
  LABELS unit)
target_include_directories(verify_checker_tests PRIVATE ${PROJECT_SOURCE_DIR})
# checker_lowered_test.cpp materializes the encoding's step constraints (private headers).
target_include_directories(verify_checker_tests PRIVATE ${PROJECT_SOURCE_DIR}/verify/src)
target_link_libraries(verify_checker_tests PRIVATE PkgConfig::Z3)
target_compile_definitions(verify_checker_tests PRIVATE
  REDIST_ANCHORS_FILE="${PROJECT_SOURCE_DIR}/tests/data/anchors.txt")

# The checker on long plans and large irregular tables (verdicts, not times).
redist_test(verify_checker_scale_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/checker_scale_test.cpp
  LIBS redist_verify
  LABELS unit)

# Certificates of the anchor corpus: regenerated, compared with the checked-in set in
# proofs/certificates/, and re-checked with the z3 command.
find_program(Z3_COMMAND z3 REQUIRED)
add_test(NAME proofs_certificates
    COMMAND ${CMAKE_COMMAND}
    -DCERTIFY=$<TARGET_FILE:redist-certify> -DZ3=${Z3_COMMAND}
    -DANCHORS=${PROJECT_SOURCE_DIR}/tests/data/anchors.txt
    -DPLANS=${PROJECT_SOURCE_DIR}/proofs/plans
    -DCHECKED_IN=${PROJECT_SOURCE_DIR}/proofs/certificates
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/certificates
    -P ${PROJECT_SOURCE_DIR}/proofs/check_certificates.cmake)
set_tests_properties(proofs_certificates PROPERTIES LABELS proofs)

# Reshards between meshes with other axes (docs/meshes.md): refinement, rewrite proofs,
# checker and interpreter.
redist_test(verify_mesh_change_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/mesh_change_test.cpp
  LIBS redist_verify redist_proofs redist_synth
  LABELS unit)
target_compile_definitions(verify_mesh_change_tests PRIVATE
  REDIST_MESH_CHANGES_FILE="${PROJECT_SOURCE_DIR}/tests/data/mesh_changes.txt")

# Reshards between other device sets (docs/meshes.md "Other device sets"): one transfer,
# checker and interpreter, wrong transfers refuted.
redist_test(verify_device_sets_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/device_sets_test.cpp
  LIBS redist_verify redist_proofs redist_synth
  LABELS unit)
target_include_directories(verify_device_sets_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(verify_device_sets_tests PRIVATE
  REDIST_DEVICE_SETS_FILE="${PROJECT_SOURCE_DIR}/tests/data/device_sets.txt"
  REDIST_DEVICE_SETS_COST_FILE="${PROJECT_SOURCE_DIR}/tests/data/device_sets.cost")
