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
};

using Moves = std::vector<Move>;

Move slice_move(int dim, Factors axes);
Move gather_move(int dim, Factors axes);
Move all_to_all_move(int src, int dst, Factors axes);
/// A permute to `to`.
Move permute_move(Layout to);

/// True when `a` and `b` take the same slices, all_to_alls and gathers (a permute's
/// target follows from them).
bool same_steps(const Moves& a, const Moves& b);

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
