// redist::hlo::emit_stablehlo / emit_hlo.

#include "redist/backends/hlo/emit.hpp"

#include "build_program.hpp"
#include "printers.hpp"

namespace redist::hlo {

Result<std::string> emit_stablehlo(const Plan& plan) {
  auto program = detail::build_program(plan);
  if (!program) return program.error();
  return detail::print_stablehlo(*program);
}

Result<std::string> emit_hlo(const Plan& plan) {
  auto program = detail::build_program(plan);
  if (!program) return program.error();
  return detail::print_hlo(*program);
}

}  // namespace redist::hlo
