#include "synth_moves.hpp"

#include <algorithm>

#include "synth_atoms.hpp"

namespace redist::synth_detail {

Move slice_move(int dim, Factors axes) {
  Move m;
  m.kind = Move::Kind::slice;
  m.dim = dim;
  m.axes = std::move(axes);
  return m;
}

Move gather_move(int dim, Factors axes) {
  Move m;
  m.kind = Move::Kind::gather;
  m.dim = dim;
  m.axes = std::move(axes);
  return m;
}

Move all_to_all_move(int src, int dst, Factors axes) {
  Move m;
  m.kind = Move::Kind::all_to_all;
  m.dim = src;
  m.dst = dst;
  m.axes = std::move(axes);
  return m;
}

Move permute_move(Layout to) {
  Move m;
  m.kind = Move::Kind::permute;
  m.to = std::make_shared<const Layout>(std::move(to));
  return m;
}

namespace {

/// `factors` without its minor factors of product `size`.
void drop_suffix(Factors& factors, int64_t size) {
  while (size > 1 && !factors.empty()) {
    Factor& last = factors.back();
    if (last.size <= size) {
      size /= last.size;
      factors.pop_back();
    } else {
      last.size /= size;
      size = 1;
    }
  }
}

}  // namespace

bool same_steps(const Moves& a, const Moves& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Move& x, const Move& y) {
    return x.kind == y.kind && x.dim == y.dim && x.dst == y.dst && x.axes == y.axes;
  });
}

Layout apply(const Layout& layout, const Move& move) {
  Layout out = layout;
  auto& from = out.dims[static_cast<std::size_t>(move.dim)];
  switch (move.kind) {
    case Move::Kind::slice: from.insert(from.end(), move.axes.begin(), move.axes.end()); break;
    case Move::Kind::gather: drop_suffix(from, product(move.axes)); break;
    case Move::Kind::all_to_all: {
      drop_suffix(from, product(move.axes));
      auto& to = out.dims[static_cast<std::size_t>(move.dst)];
      to.insert(to.end(), move.axes.begin(), move.axes.end());
      break;
    }
    case Move::Kind::permute: out = *move.to; break;
  }
  return out;
}

namespace {

Step step_of(StepOp op) {
  Step step;
  step.op = std::move(op);
  return step;
}

/// Returns true when `step` is an all_slice of dim `dim`.
bool slices_dim(const Step& step, int dim) {
  const auto* op = std::get_if<AllSlice>(&step.op);
  return op && op->dim == dim;
}

/// Returns true when `step` is a one-part all_gather of dim `dim`.
bool gathers_dim(const Step& step, int dim) {
  const auto* op = std::get_if<AllGather>(&step.op);
  return op && op->parts.size() == 1 && op->parts[0].dim == dim;
}

}  // namespace

Plan to_plan(const Moves& moves, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
             const DistType& dst) {
  Plan plan;
  plan.mesh = src_mesh;
  plan.source = src;
  plan.target = dst;
  const bool mesh_change = !(src_mesh == dst_mesh);
  bool permuted = false;
  Factors last_axes;  // the factors of the last slice or gather emitted
  for (const auto& m : moves) {
    // Steps after the permute live on the target mesh (same axes, so same references).
    const Mesh& mesh = permuted ? dst_mesh : src_mesh;
    switch (m.kind) {
      case Move::Kind::slice:
      case Move::Kind::gather: {
        // Adjacent slices (gathers) of one dim are one collective: A then B is A ++ B
        // (B ++ A for gathers, which remove from the minor end).
        const bool gather = m.kind == Move::Kind::gather;
        Factors axes = m.axes;
        if (!plan.steps.empty() &&
            (gather ? gathers_dim(plan.steps.back(), m.dim) : slices_dim(plan.steps.back(), m.dim))) {
          axes.insert(gather ? axes.end() : axes.begin(), last_axes.begin(), last_axes.end());
          plan.steps.pop_back();
        }
        if (gather) plan.steps.push_back(step_of(AllGather{m.dim, refs_of(axes, mesh)}));
        else plan.steps.push_back(step_of(AllSlice{m.dim, refs_of(axes, mesh)}));
        last_axes = std::move(axes);
        break;
      }
      case Move::Kind::all_to_all:
        plan.steps.push_back(step_of(AllToAll{m.dim, m.dst, refs_of(m.axes, mesh)}));
        break;
      case Move::Kind::permute: {
        CollectivePermute p{type_of(*m.to, src, dst_mesh), std::nullopt};
        if (mesh_change && !permuted) p.to_mesh = dst_mesh;
        plan.steps.push_back(step_of(std::move(p)));
        permuted = true;
        break;
      }
    }
  }
  return plan;
}

void append_gathers(const Layout& at, const Layout& target, Moves& moves) {
  for (std::size_t d = 0; d < at.dims.size(); ++d) {
    const auto& have = at.dims[d];
    const std::size_t keep = target.dims[d].size();
    if (have.size() > keep)
      moves.push_back(gather_move(static_cast<int>(d), Factors(have.begin() + static_cast<std::ptrdiff_t>(keep), have.end())));
  }
}

}  // namespace redist::synth_detail
