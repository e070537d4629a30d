# The redist package (docs/install.md): the one list of the libraries it exports, their
# namespaced names redist::<name> (also ALIAS targets inside the build, so in-tree and
# installed users spell them the same), the generated version header, and the install
# rules for headers, libraries, the command and the CMake package config.
#
# A branch that adds a library registers it below with one line:
#   redist_package_library(<target> <name> [DEPENDS <name>...] [USES <pkg>...]
#                          [LINK_ONLY_USES <pkg>...] [INTERNAL])
# DEPENDS: the package's other libraries it links (so the config finds what they need);
# USES: outside packages its public interface needs (the config finds them: Boost, MPI);
# LINK_ONLY_USES: outside packages it links privately, needed by consumers only when it
# is a static library (Z3); INTERNAL: exported for linking but no ALIAS and no headers.
# Its public headers are its folder's include/ and are installed as they are. A target
# an option left out is skipped.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# redist/core/version.hpp, generated from project(VERSION).
set(REDIST_GENERATED_INCLUDE ${PROJECT_BINARY_DIR}/generated/include)
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in
               ${REDIST_GENERATED_INCLUDE}/redist/core/version.hpp @ONLY)
target_include_directories(redist_core PUBLIC $<BUILD_INTERFACE:${REDIST_GENERATED_INCLUDE}>)

# Every library's headers are C++20; users get the standard through redist::core.
target_compile_features(redist_core PUBLIC cxx_std_20)

set(REDIST_PACKAGE_COMPONENTS "")   # names, in registration order
set(REDIST_PACKAGE_TARGETS "")      # build targets to install
set(REDIST_PACKAGE_HEADER_DIRS "")  # include/ folders to install

macro(redist_package_library target name)
  cmake_parse_arguments(_pkg "INTERNAL" "" "DEPENDS;USES;LINK_ONLY_USES" ${ARGN})
  if(TARGET ${target})
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    # The build tree's include folders are not the installed one.
    get_target_property(_pkg_dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
    set(_pkg_wrapped "")
    foreach(_pkg_dir IN LISTS _pkg_dirs)
      if(_pkg_dir MATCHES "^\\$<(BUILD|INSTALL)_INTERFACE:")
        list(APPEND _pkg_wrapped "${_pkg_dir}")
      elseif(_pkg_dir)
        list(APPEND _pkg_wrapped "$<BUILD_INTERFACE:${_pkg_dir}>")
      endif()
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES ${_pkg_wrapped})
    target_include_directories(${target} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    list(APPEND REDIST_PACKAGE_TARGETS ${target})
    if(NOT _pkg_INTERNAL)
      add_library(redist::${name} ALIAS ${target})
      list(APPEND REDIST_PACKAGE_COMPONENTS ${name})
      get_target_property(_pkg_source_dir ${target} SOURCE_DIR)
      if(IS_DIRECTORY ${_pkg_source_dir}/include)
        list(APPEND REDIST_PACKAGE_HEADER_DIRS ${_pkg_source_dir}/include)
      endif()
    endif()
    # What a consumer of this library needs, with what its dependencies need.
    set(_pkg_uses ${_pkg_USES})
    get_target_property(_pkg_type ${target} TYPE)
    if(_pkg_type STREQUAL "STATIC_LIBRARY")
      list(APPEND _pkg_uses ${_pkg_LINK_ONLY_USES})
    endif()
    foreach(_pkg_dep IN LISTS _pkg_DEPENDS)
      list(APPEND _pkg_uses ${REDIST_PACKAGE_USES_${_pkg_dep}})
    endforeach()
    list(REMOVE_DUPLICATES _pkg_uses)
    set(REDIST_PACKAGE_USES_${name} ${_pkg_uses})
  endif()
endmacro()

# The libraries, dependencies before dependents. The MPI backend is two libraries: the
# code generator (no MPI needed; `redist emit --target mpi`) and the runtime (MPI).
redist_package_library(redist_core core USES Boost fmt)
redist_package_library(redist_plan plan DEPENDS core)
redist_package_library(redist_synth synth DEPENDS plan)
redist_package_library(redist_verify verify DEPENDS plan LINK_ONLY_USES Z3)
redist_package_library(redist_proofs proofs DEPENDS verify)
redist_package_library(redist_hlo hlo DEPENDS plan)
redist_package_library(redist_hlo_import hlo_import DEPENDS plan)
redist_package_library(redist_mpi_lowering mpi_lowering DEPENDS plan INTERNAL)
redist_package_library(redist_mpi_codegen mpi_codegen DEPENDS plan mpi_lowering)
redist_package_library(redist_mpi_runtime mpi DEPENDS plan mpi_lowering USES MPI)

if(NOT REDIST_INSTALL)
  return()
endif()

set(REDIST_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/redist)

list(REMOVE_DUPLICATES REDIST_PACKAGE_HEADER_DIRS)
foreach(dir IN LISTS REDIST_PACKAGE_HEADER_DIRS)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${REDIST_GENERATED_INCLUDE}/redist/core/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/redist/core)

install(TARGETS ${REDIST_PACKAGE_TARGETS} EXPORT redistTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT redistTargets NAMESPACE redist:: DESTINATION ${REDIST_INSTALL_CMAKEDIR})

if(TARGET redist)
  # The installed command finds shared redist libraries (BUILD_SHARED_LIBS=ON) beside it.
  set_target_properties(redist PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  install(TARGETS redist RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/THIRD_PARTY_NOTICES.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The config lists the installed components and what each needs from outside.
set(REDIST_COMPONENT_USES "")
foreach(name IN LISTS REDIST_PACKAGE_COMPONENTS)
  string(APPEND REDIST_COMPONENT_USES "set(_redist_uses_${name} \"${REDIST_PACKAGE_USES_${name}}\")\n")
endforeach()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/redistConfig.cmake.in
  ${PROJECT_BINARY_DIR}/redistConfig.cmake
  INSTALL_DESTINATION ${REDIST_INSTALL_CMAKEDIR})
# 0.x releases are compatible only within one minor version.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/redistConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/redistConfig.cmake ${PROJECT_BINARY_DIR}/redistConfigVersion.cmake
        DESTINATION ${REDIST_INSTALL_CMAKEDIR})
