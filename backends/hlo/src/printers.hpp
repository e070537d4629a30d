#pragma once
// Text renderings of a Program. Each instruction maps to one line (a reducer to one
// region or computation); nothing is decided here.

#include <cstdint>
#include <string>
#include <vector>

#include "program.hpp"

namespace redist::hlo::detail {

/// The program as a StableHLO module (MLIR text) with one public function @main.
std::string print_stablehlo(const Program& program);
/// The program as a classic HLO module with one ENTRY computation.
std::string print_hlo(const Program& program);

/// The literal of the identity of `op` in `elem` (identity_literal.cpp): classic HLO
/// spells infinities `inf` / `-inf`, MLIR (`mlir` true) as the bit pattern in hex.
std::string identity_literal(ReduceOp op, ElemType elem, bool mlir);

/// `values` joined by `sep`, each written by `write`.
template <class T, class Write>
std::string join(const std::vector<T>& values, const std::string& sep, Write write) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? sep : "") + write(values[i]);
  return out;
}
/// Integers joined by `sep`.
inline std::string join_ints(const std::vector<int64_t>& values, const std::string& sep = ", ") {
  return join(values, sep, [](int64_t v) { return std::to_string(v); });
}

}  // namespace redist::hlo::detail
