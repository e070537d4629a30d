#include "synth_builders.hpp"

namespace redist::synth_detail {

Moves gather_then_slice_moves(const Problem& problem) {
  Moves moves;
  const std::size_t rank = problem.src.dims.size();
  for (std::size_t d = 0; d < rank; ++d)
    if (!problem.src.dims[d].empty()) moves.push_back(gather_move(static_cast<int>(d), problem.src.dims[d]));
  if (problem.mesh_change) {
    Layout replicated;
    replicated.dims.resize(rank);
    moves.push_back(permute_move(std::move(replicated)));
  }
  for (std::size_t d = 0; d < rank; ++d)
    if (!problem.dst.dims[d].empty()) moves.push_back(slice_move(static_cast<int>(d), problem.dst.dims[d]));
  return moves;
}

}  // namespace redist::synth_detail
