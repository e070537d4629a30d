# Writes OUTPUT: a C++ file defining the texts of KERNELS and SUPPORT (headers that need
# only MPI and the standard library) for the code generator to paste into programs.
# `#pragma once` and includes of redist headers are dropped: the texts are pasted in order.
function(read_for_embedding path out)
  file(READ ${path} text)
  string(REGEX REPLACE "#pragma once\n" "" text "${text}")
  string(REGEX REPLACE "#include \"redist/[^\"]*\"\n" "" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

read_for_embedding(${KERNELS} kernels)
read_for_embedding(${SUPPORT} support)
file(WRITE ${OUTPUT}.tmp "// Generated from kernels.hpp and program_support.hpp by embed_sources.cmake.
#include <string_view>

namespace redist::mpi {
extern const std::string_view kKernelsSource;
extern const std::string_view kSupportSource;
const std::string_view kKernelsSource = R\"redist_embedded(${kernels})redist_embedded\";
const std::string_view kSupportSource = R\"redist_embedded(${support})redist_embedded\";
}  // namespace redist::mpi
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
