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

Move permute_move(Layout to, std::optional<Layout> from) {
  Move m;
  m.kind = Move::Kind::permute;
  m.to = std::make_shared<const Layout>(std::move(to));
  if (from) m.from = std::make_shared<const Layout>(std::move(*from));
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

constexpr int64_t kMaxCountedTuples = 1024;

}  // namespace

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

double moving_fraction(const Layout& before, const Layout& after, const Factors& all, bool mesh_change) {
  if (mesh_change) return 1.0;
  // Conditions for a device to keep its buffer, each an equality of two mixed-radix
  // numbers over atoms: the blocks of each dim that changes, and the atoms the permute
  // starts using against those it stops using (which the lowering pairs).
  Factors involved;
  auto index_of = [&](const Factor& f) {
    auto it = std::find(involved.begin(), involved.end(), f);
    if (it != involved.end()) return static_cast<int>(it - involved.begin());
    involved.push_back(f);
    return static_cast<int>(involved.size() - 1);
  };
  using Digits = boost::container::small_vector<int, 8>;
  boost::container::small_vector<std::pair<Digits, Digits>, 8> conditions;
  auto add = [&](auto&& lhs, auto&& rhs) {
    Digits l, r;
    for (const auto& f : lhs) l.push_back(index_of(f));
    for (const auto& f : rhs) r.push_back(index_of(f));
    conditions.emplace_back(std::move(l), std::move(r));
  };
  for (std::size_t d = 0; d < before.dims.size(); ++d)
    if (before.dims[d] != after.dims[d]) add(before.dims[d], after.dims[d]);
  Factors entering, leaving;
  for (const auto& f : all) {
    const bool in_before = contains(before, f), in_after = contains(after, f);
    if (in_after && !in_before) entering.push_back(f);
    if (in_before && !in_after) leaving.push_back(f);
  }
  if (!entering.empty()) add(entering, leaving);
  int64_t tuples = 1;
  for (const auto& f : involved)
    if ((tuples *= f.size) > kMaxCountedTuples) return 1.0;
  if (conditions.empty()) return 0.0;
  boost::container::small_vector<int64_t, 16> digits(involved.size(), 0);
  auto value = [&](const Digits& seq) {
    int64_t v = 0;
    for (int i : seq) v = v * involved[static_cast<std::size_t>(i)].size + digits[static_cast<std::size_t>(i)];
    return v;
  };
  int64_t kept = 0;
  for (int64_t t = 0; t < tuples; ++t) {
    bool same = true;
    for (std::size_t c = 0; same && c < conditions.size(); ++c) same = value(conditions[c].first) == value(conditions[c].second);
    kept += same;
    for (std::size_t i = 0; i < digits.size() && ++digits[i] == involved[i].size; ++i) digits[i] = 0;
  }
  return 1.0 - static_cast<double>(kept) / static_cast<double>(tuples);
}

namespace {

/// Bytes per device and summed over devices (the devices a permute moves counted over
/// the prime atoms `all` when given, else all devices).
std::pair<double, double> costs(const Problem& problem, const Moves& moves, const Factors* all) {
  double local = local_elements(problem.frame, problem.src);
  const auto devices = static_cast<double>(total_devices(problem.frame));
  double max = 0, total = 0;
  for (const auto& m : moves) {
    const auto g = static_cast<double>(product(m.axes));
    double per_device = 0, moving = 1;
    switch (m.kind) {
      case Move::Kind::slice: local /= g; break;
      case Move::Kind::all_to_all: per_device = (1.0 - 1.0 / g) * local; break;
      case Move::Kind::permute:
        per_device = local;
        if (all && m.from) moving = moving_fraction(*m.from, *m.to, *all, problem.mesh_change);
        break;
      case Move::Kind::gather:
        per_device = (g - 1.0) * local;
        local *= g;
        break;
    }
    max += per_device;
    total += per_device * moving * devices;
  }
  const auto bytes = static_cast<double>(problem.frame.elem_bytes);
  return {max * bytes, total * bytes};
}

}  // namespace

double estimated_cost(const Problem& problem, const Moves& moves) { return costs(problem, moves, nullptr).first; }

double estimated_total(const Problem& problem, const Moves& moves, const Factors* all) {
  return costs(problem, moves, all).second;
}

namespace {

Step step_of(StepOp op) {
  Step step;
  step.op = std::move(op);
  return step;
}

/// True when `step` is an `Op` (AllSlice or AllGather) of dim `dim`.
template <class Op>
bool same_dim(const Step& step, int dim) {
  const auto* op = std::get_if<Op>(&step.op);
  return op && op->dim == dim;
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
            (gather ? same_dim<AllGather>(plan.steps.back(), m.dim) : same_dim<AllSlice>(plan.steps.back(), m.dim))) {
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
