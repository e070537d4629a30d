#pragma once
// Plans at the factor level, as synthesis builds them: a problem (the frame, source and
// target layouts), the moves of a candidate plan, their estimated cost, and the
// conversion to the plan IR.

#include <memory>
#include <optional>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"
#include "synth_layout.hpp"

namespace redist::synth_detail {

/// One reshard to plan: layouts merged; `mesh_change` when the target mesh has another
/// device order (the plan then needs a collective_permute carrying the new mesh).
struct Problem {
  Frame frame;
  Layout src;
  Layout dst;
  bool mesh_change = false;
};

/// One step at the factor level.
struct Move {
  enum class Kind { slice, all_to_all, permute, gather };
  Kind kind = Kind::slice;
  int dim = 0;  // slice/gather dim; all_to_all source dim
  int dst = 0;  // all_to_all target dim
  Factors axes;
  std::shared_ptr<const Layout> to;    // permute: the layout after it
  std::shared_ptr<const Layout> from;  // permute: the layout before it, when over prime atoms
};

using Moves = std::vector<Move>;

Move slice_move(int dim, Factors axes);
Move gather_move(int dim, Factors axes);
Move all_to_all_move(int src, int dst, Factors axes);
/// A permute to `to`; `from` (the layout before it) when both are over prime atoms,
/// so that the devices it moves can be counted.
Move permute_move(Layout to, std::optional<Layout> from = std::nullopt);

/// Estimated bytes each device receives over `moves` from `problem.src`: an
/// all_to_all (g-1)/g of the local bytes, an all_gather (g-1) times them, a permute all
/// of them, an all_slice nothing.
double estimated_cost(const Problem& problem, const Moves& moves);
/// Estimated bytes received summed over devices: as estimated_cost() times the device
/// count, but counting for a permute over the prime atoms `all` only the devices it
/// moves (slower: it counts them).
double estimated_total(const Problem& problem, const Moves& moves, const Factors* all);

/// Fraction of devices that receive data in a permute from `before` to `after` (over
/// the prime atoms `all`) under the lowering's pairing: a device keeps its buffer when
/// its block in every dim and its free coordinates stay. 1 when the device order
/// changes or when too many coordinate tuples would have to be visited.
double moving_fraction(const Layout& before, const Layout& after, const Factors& all, bool mesh_change);

/// `layout` after the slice, all_to_all or gather `move` (a permute: its target).
Layout apply(const Layout& layout, const Move& move);

/// The plan IR of `moves` from `src` on `src_mesh` to `dst` on `dst_mesh`; the permute
/// (if any) carries `dst_mesh` when the device orders differ.
Plan to_plan(const Moves& moves, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
             const DistType& dst);

/// Appends one all_gather per dim that removes what `at` has beyond `target`'s
/// factors (`at` must start with them, as the same factors).
void append_gathers(const Layout& at, const Layout& target, Moves& moves);

}  // namespace redist::synth_detail
