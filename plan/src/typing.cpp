// Typing rules of the plan steps (docs/design.md §2), at the level of axis factors: a
// sub-axis suffix such as x:(2)2 may be gathered from a dim tiled {x} on x:4.

#include "redist/plan/typing.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "redist/plan/plan_text.hpp"

namespace redist {

namespace {

using Axes = std::vector<AxisRef>;

std::string text(const Axes& axes) { return to_string(std::span<const AxisRef>(axes)); }

/// `error` with `prefix` put before its message.
Error prefixed(Error error, const std::string& prefix) {
  error.message = fmt::format("{}{}", prefix, error.message);
  return error;
}

/// Ok when `axes` is non-empty and every reference is valid on `mesh`.
Status check_refs(const Mesh& mesh, const Axes& axes) {
  if (axes.empty()) return invalid_error("the step names no axes");
  for (const auto& a : axes)
    if (auto s = validate_axis_ref(a, mesh); !s) return s;
  return Ok{};
}

/// Ok when `dim` indexes a dim of `type`; `role` names it in the message ("dim", "src").
Status check_dim(const DistType& type, int dim, std::string_view role) {
  if (dim < 0 || static_cast<std::size_t>(dim) >= type.rank())
    return invalid_error(fmt::format("{} {} is out of range for rank {}", role, dim, type.rank()));
  return Ok{};
}

/// Ok when dim `dim` of `type` is not padded (global a multiple of its tile count).
Status check_unpadded(const DistType& type, int dim) {
  const Dim& d = type.dims[dim];
  const int64_t tiles = tile_count(d);
  if (d.global % tiles != 0)
    return unsupported_error(fmt::format(
        "dim {} is padded (global {} over {} tiles); steps on non-divisible dims are not supported yet", dim, d.global,
        tiles));
  return Ok{};
}

/// Ok when dim `dim` may move between the tilings `coarse` and `fine` (a suffix of
/// axes more) by a local slice or a gather: their padded blocks nest (tiles_nest;
/// docs/notation.md, "Padded dims"). A gather concatenates the chunks and drops a padded
/// tail; a slice keeps chunk j of its buffer, the part past the buffer's end padding.
/// `step` names the move in the error.
Status check_nests(const Dim& coarse, const Dim& fine, int dim, std::string_view step) {
  const int64_t n = coarse.global, rest = tile_count(coarse), tiles = tile_count(fine);
  if (tiles_nest(n, rest, tiles)) return Ok{};
  const int64_t chunk = (n + tiles - 1) / tiles, result = (n + rest - 1) / rest;
  return unsupported_error(fmt::format(
      "dim {} is padded (global {} over {} tiles) and {} between {} blocks of {} and {} blocks of {} does not nest "
      "({} x {} != {}); only moves to or from the whole dim or between nesting tilings are supported",
      dim, n, tiles, step, rest, result, tiles, chunk, tiles / rest, chunk, result));
}

/// Ok when `a` and `b` may coexist in one type; `where` says where `b` is used.
Status check_compatible(const AxisRef& a, const AxisRef& b, std::string_view where) {
  if (compatible(a, b)) return Ok{};
  const char* relation = overlaps(a, b) ? "overlaps" : "does not nest with";
  return invalid_error(fmt::format("axis {} {} {} {}", to_string(a), relation, to_string(b), where));
}

/// Ok when the axes one step names are pairwise compatible (none named twice).
Status check_distinct(const Axes& axes) {
  for (std::size_t i = 0; i < axes.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (auto st = check_compatible(axes[i], axes[j], "in the same step"); !st) return st;
  return Ok{};
}

/// Ok when the explicit groups/pairs of `step` fit its kind and name devices of `mesh`
/// (its physical ids: [0, N) on a mesh over 0..N-1).
Status check_lowering(const Step& step, const Mesh& mesh) {
  const bool permute = std::holds_alternative<CollectivePermute>(step.op);
  auto check_id = [&](int64_t id, const char* where) -> Status {
    if (mesh.has_device(id)) return Ok{};
    if (mesh.compact())
      return invalid_error(fmt::format("device {} in {} is out of range [0, {})", id, where, mesh.num_devices()));
    return invalid_error(fmt::format("device {} in {} is not a device of {}", id, where, to_string(mesh)));
  };
  if (std::holds_alternative<Transfer>(step.op) && (step.groups || step.pairs))
    return invalid_error("a transfer takes sends=, not groups= or pairs=");
  if (std::holds_alternative<AddPending>(step.op) && (step.groups || step.pairs))
    return invalid_error("add_pending is local: it takes no groups= or pairs= (member 0 of each group over its axes keeps "
                         "the value)");
  if (step.groups) {
    if (permute) return invalid_error("collective_permute takes pairs=, not groups=");
    for (const auto& group : *step.groups)
      for (int64_t id : group)
        if (auto s = check_id(id, "groups"); !s) return s;
  }
  if (step.pairs) {
    if (!permute) return invalid_error("pairs= only applies to collective_permute");
    for (const auto& [source, target] : *step.pairs) {
      if (auto s = check_id(source, "pairs"); !s) return s;
      if (auto s = check_id(target, "pairs"); !s) return s;
    }
  }
  return Ok{};
}

/// Ok when every one of `axes` is a distinct reduction axis of `type`.
Status check_reduction_axes(const DistType& type, const Axes& axes) {
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (std::find(axes.begin(), axes.begin() + i, axes[i]) != axes.begin() + i)
      return invalid_error(fmt::format("axis {} is listed twice", to_string(axes[i])));
    if (std::find(type.reduce_axes.begin(), type.reduce_axes.end(), axes[i]) == type.reduce_axes.end())
      return invalid_error(fmt::format("axis {} is not a reduction axis of the type (reduction axes {})",
                                       to_string(axes[i]), text(type.reduce_axes)));
  }
  return Ok{};
}

/// `axes` without the members of `removed`.
Axes without(const Axes& axes, const Axes& removed) {
  Axes out;
  for (const auto& a : axes)
    if (std::find(removed.begin(), removed.end(), a) == removed.end()) out.push_back(a);
  return out;
}

/// The canonical pending reduction axes of `type` on `mesh` (canonical() of the type
/// without its dims, which it would copy for nothing).
Axes pending_of(const DistType& type, const Mesh& mesh) {
  DistType pending;
  pending.reduce_axes = type.reduce_axes;
  return canonical(pending, mesh).reduce_axes;
}

/// Maps the name of an axis of `mesh` to the axis size.
struct AxisSizer {
  const Mesh& mesh;
  int64_t operator()(const std::string& name) const { return mesh.axis_size(*mesh.axis_index(name)); }
};

/// Applies one step kind to a state; each call operator returns the state after it.
class StepTyper {
 public:
  explicit StepTyper(const TypedState& before) : mesh_(before.mesh), type_(before.type) {}

  Result<TypedState> operator()(const AllSlice& s) const {
    if (auto st = check_dim(type_, s.dim, "dim"); !st) return st.error();
    if (auto st = check_refs(mesh_, s.axes); !st) return st.error();
    if (auto st = check_distinct(s.axes); !st) return st.error();
    for (const auto& a : s.axes) {
      for (std::size_t d = 0; d < type_.rank(); ++d)
        for (const auto& used : type_.dims[d].axes)
          if (!compatible(a, used))  // the message is built only for an error
            return check_compatible(a, used, fmt::format("already used by dim {}", d)).error();
      for (const auto& used : type_.reduce_axes)
        if (auto st = check_compatible(a, used, "already used as a reduction axis"); !st) return st.error();
    }
    DistType t = type_;
    auto& axes = t.dims[s.dim].axes;
    axes.insert(axes.end(), s.axes.begin(), s.axes.end());
    if (auto st = check_nests(type_.dims[s.dim], t.dims[s.dim], s.dim, "its slice"); !st) return st.error();
    return finish(mesh_, std::move(t));
  }

  // The parts in order, each typed like a single all_gather on the type the earlier
  // ones leave; a fused step (several parts) is one collective, so its parts gather
  // distinct dims (hence disjoint axes: a part's axes overlapping an earlier part's are
  // no suffix of what that part left), and their dims are unpadded.
  Result<TypedState> operator()(const AllGather& s) const {
    if (s.parts.empty()) return invalid_error("the all_gather names no parts");
    DistType t = type_;
    for (std::size_t k = 0; k < s.parts.size(); ++k) {
      auto st = gather(t, s.parts[k]);
      if (!st) return s.parts.size() == 1 ? st.error() : prefixed(st.error(), fmt::format("part {}: ", k + 1));
    }
    if (s.parts.size() > 1) {
      for (std::size_t k = 0; k < s.parts.size(); ++k)
        for (std::size_t j = 0; j < k; ++j)
          if (s.parts[j].dim == s.parts[k].dim)
            return invalid_error(fmt::format("dim {} is gathered by parts {} and {} of the fused all_gather; each part "
                                             "gathers its own dim",
                                             s.parts[k].dim, j + 1, k + 1));
      for (const auto& p : s.parts)
        if (const Dim& d = type_.dims[p.dim]; d.global % tile_count(d) != 0)
          return unsupported_error(fmt::format(
              "a fused all_gather gathers unpadded dims only; dim {} is padded (global {} over {} tiles)", p.dim,
              d.global, tile_count(d)));
    }
    return finish(mesh_, std::move(t));
  }

  // The moves in order, each typed like a single all_to_all on the type the earlier
  // ones leave; a fused step (several moves) is one exchange, so its moves use
  // disjoint axes, no dim is both a source and a destination, and its dims are unpadded.
  Result<TypedState> operator()(const AllToAll& s) const {
    if (s.moves.empty()) return invalid_error("the all_to_all names no moves");
    DistType t = type_;
    for (std::size_t k = 0; k < s.moves.size(); ++k) {
      auto st = move(t, s.moves[k]);
      if (!st) return s.moves.size() == 1 ? st.error() : prefixed(st.error(), fmt::format("move {}: ", k + 1));
    }
    if (s.moves.size() > 1) {
      if (auto st = check_distinct(s.axes()); !st) return st.error();
      for (const auto& a : s.moves)
        for (const auto& b : s.moves)
          if (a.src_dim == b.dst_dim)
            return invalid_error(fmt::format("dim {} is both a source and a destination of the fused all_to_all; its "
                                             "moves go from source dims to other destination dims",
                                             a.src_dim));
      for (const auto& m : s.moves)
        for (int dim : {m.src_dim, m.dst_dim})
          for (const DistType* u : std::initializer_list<const DistType*>{&type_, &t})
            if (const Dim& d = u->dims[dim]; d.global % tile_count(d) != 0)
              return unsupported_error(fmt::format(
                  "a fused all_to_all moves unpadded dims only; dim {} is padded (global {} over {} tiles)", dim,
                  d.global, tile_count(d)));
    }
    return finish(mesh_, std::move(t));
  }

  Result<TypedState> operator()(const CollectivePermute& s) const {
    const Mesh& mesh = s.to_mesh ? *s.to_mesh : mesh_;
    if (!mesh.same_axes(mesh_))
      return invalid_error(fmt::format("the new mesh {} does not have the axes of the current mesh {}", to_string(mesh),
                                       to_string(mesh_)));
    if (!mesh.same_devices(mesh_))
      return invalid_error(fmt::format("the new mesh {} is over other devices than the current mesh {}: a transfer "
                                       "moves an array between device sets",
                                       to_string(mesh), to_string(mesh_)));
    if (auto st = validate(s.to, mesh); !st) return prefixed(st.error(), "to type: ");
    const DistType& to = s.to;
    if (to.elem != type_.elem)
      return invalid_error(
          fmt::format("element type changes from {} to {}", elem_name(type_.elem), elem_name(to.elem)));
    if (to.rank() != type_.rank())
      return invalid_error(fmt::format("rank changes from {} to {}", type_.rank(), to.rank()));
    if ((!type_.reduce_axes.empty() || !to.reduce_axes.empty()) &&
        pending_of(type_, mesh_) != pending_of(to, mesh))
      return invalid_error(
          fmt::format("reduction axes change from {} to {}", text(type_.reduce_axes), text(to.reduce_axes)));
    if (!to.reduce_axes.empty() && to.reduce_op != type_.reduce_op)
      return invalid_error(fmt::format("reduction op changes from {} to {}", reduce_op_name(type_.reduce_op),
                                       reduce_op_name(to.reduce_op)));
    for (std::size_t d = 0; d < to.rank(); ++d) {
      const Dim &a = type_.dims[d], &b = to.dims[d];
      if (a.global != b.global)
        return invalid_error(fmt::format("dim {} global size changes from {} to {}", d, a.global, b.global));
      if (tile_count(a) != tile_count(b))
        return invalid_error(fmt::format(
            "dim {} has {} tiles before and {} after; a permute must keep every local size", d, tile_count(a),
            tile_count(b)));
    }
    return finish(mesh, to);
  }

  // The array moves to another device set (docs/meshes.md): same element type and
  // global shape, no pending reduction on either side (a device outside the other mesh
  // could not hold a summand), an explicit table's devices and boxes inside the meshes
  // and buffers (whether it covers the target is the checker's question).
  Result<TypedState> operator()(const Transfer& s) const {
    if (auto st = validate(s.to, s.to_mesh); !st) return prefixed(st.error(), "to type: ");
    if (auto st = same_array(type_, s.to); !st) return st.error();
    if (!type_.reduce_axes.empty() || !s.to.reduce_axes.empty())
      return unsupported_error(fmt::format(
          "a transfer moves values, not pending reductions: reduce {} on its mesh first (reduce_scatter or "
          "all_reduce), and add pending axes on the new mesh after it (add_pending)",
          to_string(type_)));
    if (s.table)
      if (auto st = check_sends(*s.table, TypedState{mesh_, type_}, TypedState{s.to_mesh, s.to}); !st) return st.error();
    return finish(s.to_mesh, s.to);
  }

  Result<TypedState> operator()(const ReduceScatter& s) const {
    if (auto st = check_dim(type_, s.dim, "dim"); !st) return st.error();
    if (auto st = check_unpadded(type_, s.dim); !st) return st.error();
    if (auto st = check_refs(mesh_, s.axes); !st) return st.error();
    if (auto st = check_reduction_axes(type_, s.axes); !st) return st.error();
    DistType t = type_;
    t.reduce_axes = without(t.reduce_axes, s.axes);
    auto& axes = t.dims[s.dim].axes;
    axes.insert(axes.end(), s.axes.begin(), s.axes.end());
    if (auto st = check_unpadded(t, s.dim); !st) return st.error();
    return finish(mesh_, std::move(t));
  }

  Result<TypedState> operator()(const AllReduce& s) const {
    if (auto st = check_refs(mesh_, s.axes); !st) return st.error();
    if (auto st = check_reduction_axes(type_, s.axes); !st) return st.error();
    DistType t = type_;
    t.reduce_axes = without(t.reduce_axes, s.axes);
    return finish(mesh_, std::move(t));
  }

  // The axes must be replicated (in no dim and no pending reduction) and the op must
  // be the one already pending, if any.
  Result<TypedState> operator()(const AddPending& s) const {
    if (auto st = check_refs(mesh_, s.axes); !st) return st.error();
    if (auto st = check_distinct(s.axes); !st) return st.error();
    for (const auto& a : s.axes) {
      for (std::size_t d = 0; d < type_.rank(); ++d)
        for (const auto& used : type_.dims[d].axes)
          if (overlaps(a, used))
            return invalid_error(fmt::format("axis {} is used by dim {} of {}; only replicated axes can become pending",
                                             to_string(a), d, to_string(type_)));
      for (const auto& used : type_.reduce_axes)
        if (auto st = check_compatible(a, used, "already used as a reduction axis"); !st) return st.error();
    }
    if (!type_.reduce_axes.empty() && s.op != type_.reduce_op)
      return invalid_error(fmt::format("the op {} differs from the pending {} of {}", reduce_op_name(s.op),
                                       reduce_op_name(type_.reduce_op), to_string(type_)));
    DistType t = type_;
    t.reduce_axes.insert(t.reduce_axes.end(), s.axes.begin(), s.axes.end());
    t.reduce_op = s.op;
    return finish(mesh_, std::move(t));
  }

 private:
  /// Returns the error that `axes` are no suffix of dim `dim` of `t`.
  static Error not_suffix(const Axes& axes, int dim, const DistType& t) {
    return invalid_error(
        fmt::format("axes {} are not a suffix of dim {} tiled {}", text(axes), dim, text(t.dims[dim].axes)));
  }

  /// Returns Ok after applying the all_gather part `p` to `t` (not canonicalized), or
  /// the reason it is ill-typed.
  Status gather(DistType& t, const AllGatherPart& p) const {
    if (auto st = check_dim(t, p.dim, "dim"); !st) return st;
    if (auto st = check_refs(mesh_, p.axes); !st) return st;
    auto rest = strip_suffix(t.dims[p.dim].axes, p.axes, AxisSizer{mesh_});
    if (!rest) return not_suffix(p.axes, p.dim, t);
    const Dim before = t.dims[p.dim];
    t.dims[p.dim].axes = std::move(*rest);
    return check_nests(t.dims[p.dim], before, p.dim, "its gather");
  }

  /// Applies the all_to_all move `m` to `t` (not canonicalized); Ok or the reason it is ill-typed.
  Status move(DistType& t, const AllToAllMove& m) const {
    if (auto st = check_dim(t, m.src_dim, "src dim"); !st) return st;
    if (auto st = check_dim(t, m.dst_dim, "dst dim"); !st) return st;
    if (m.src_dim == m.dst_dim) return invalid_error(fmt::format("src and dst are both dim {}", m.src_dim));
    if (auto st = check_refs(mesh_, m.axes); !st) return st;
    auto rest = strip_suffix(t.dims[m.src_dim].axes, m.axes, AxisSizer{mesh_});
    if (!rest) return not_suffix(m.axes, m.src_dim, t);
    const Dim src_before = t.dims[m.src_dim], dst_before = t.dims[m.dst_dim];
    t.dims[m.src_dim].axes = std::move(*rest);
    auto& dst = t.dims[m.dst_dim].axes;
    dst.insert(dst.end(), m.axes.begin(), m.axes.end());
    if (auto st = check_nests(t.dims[m.src_dim], src_before, m.src_dim, "its gather"); !st) return st;
    return check_nests(dst_before, t.dims[m.dst_dim], m.dst_dim, "its split");
  }

  /// The state on `mesh` with `type` in canonical form (no reduction: op sum).
  static TypedState finish(const Mesh& mesh, DistType type) {
    if (!is_canonical(type, mesh)) type = canonical(type, mesh);
    if (type.reduce_axes.empty()) type.reduce_op = ReduceOp::sum;
    return TypedState{mesh, std::move(type)};
  }

  const Mesh& mesh_;
  const DistType& type_;
};

}  // namespace

Status check_sends(const TransferTable& sends, const TypedState& before, const TypedState& after) {
  const auto from_shape = local_shape(before.type), to_shape = local_shape(after.type);
  const std::size_t rank = before.type.rank();
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const TransferBox& box = sends[i];
    const std::size_t number = i + 1;  // sends count from 1 in messages
    if (!before.mesh.has_device(box.from))
      return invalid_error(
          fmt::format("send {} is from device {}, which is not in {}", number, box.from, to_string(before.mesh)));
    if (!after.mesh.has_device(box.to))
      return invalid_error(
          fmt::format("send {} is to device {}, which is not in {}", number, box.to, to_string(after.mesh)));
    if (box.src_start.size() != rank || box.dst_start.size() != rank || box.extent.size() != rank)
      return invalid_error(fmt::format("send {} does not give one start and extent per dim (rank {})", number, rank));
    for (std::size_t d = 0; d < rank; ++d)
      if (box.extent[d] < 1 || box.src_start[d] < 0 || box.dst_start[d] < 0 ||
          box.src_start[d] > from_shape[d] - box.extent[d] || box.dst_start[d] > to_shape[d] - box.extent[d])
        return invalid_error(fmt::format("send {} reaches outside the local buffers in dim {}", number, d));
  }
  return Ok{};
}

Result<TypedState> apply_step(const TypedState& before, const Step& step) {
  if (auto st = validate(before.type, before.mesh); !st) return prefixed(st.error(), "the type before the step: ");
  if (auto st = check_lowering(step, before.mesh); !st) return st.error();
  return std::visit(StepTyper(before), step.op);
}

Result<std::vector<TypedState>> type_plan(const Plan& plan) {
  if (auto st = validate(plan.source, plan.mesh); !st) return prefixed(st.error(), "source: ");
  return type_plan(plan, {});
}

Result<std::vector<TypedState>> type_plan(const Plan& plan, std::vector<TypedState> states) {
  states.reserve(plan.steps.size());
  const TypedState source{plan.mesh, plan.source};
  for (std::size_t k = states.size(); k < plan.steps.size(); ++k) {
    auto next = apply_step(k == 0 ? source : states.back(), plan.steps[k]);
    if (!next) {
      return prefixed(next.error(), fmt::format("step {} ({}): ", k + 1, to_string(plan.steps[k])));
    }
    states.push_back(std::move(*next));
  }
  const TypedState& state = states.empty() ? source : states.back();
  if (plan.target && !(*plan.target == state.type)) {  // equal to a typed (valid) state: nothing to check
    if (auto st = validate(*plan.target, state.mesh); !st) return prefixed(st.error(), "target: ");
    if (canonical(*plan.target, state.mesh) != canonical(state.type, state.mesh))
      return invalid_error(
          fmt::format("the plan ends at {} but the target is {}", to_string(state.type), to_string(*plan.target)));
  }
  return states;
}

}  // namespace redist
