// import_hlo: a compiled SPMD reshard module as a lowered plan (import.hpp).
//
// States are the buffers the module holds between collectives: the parameter, the
// operand of each collective, the buffer a collective's result becomes once the local
// rearrangement after it (XLA:CPU's tuple all-to-all of chunks, concatenated and
// transposed back) has produced an array of the reshard's rank, and the root. Between
// two states there is exactly one lowered step (or none when they hold the same
// elements), found from the collective's own groups/pairs and checked to reproduce
// the next state on every device; a local change between states must be a slice
// (XLA's dynamic-slice by partition-id), recorded with its offsets table.

#include "redist/backends/hlo/import.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <unordered_map>

#include "import_eval.hpp"
#include "import_parse.hpp"
#include "import_sharding.hpp"
#include "redist/core/semantics.hpp"

namespace redist {
namespace {

using hlo_import::Instruction;
using hlo_import::kNoElement;
using hlo_import::row_major_strides;
using hlo_import::Values;

Error cannot_place(const Instruction& ins, const std::string& why) {
  return invalid_error(fmt::format("cannot place %{} (line {}): {}", ins.name, ins.line, why));
}

/// A state: every device's buffer of one local shape (tags of source elements).
struct State {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> data;  // per device, row-major
};

State state_of(const Values& v) {
  State s{v[0].shape.dims, {}};
  for (const auto& x : v) s.data.push_back(x.data);
  return s;
}

bool same(const State& a, const State& b) { return a.dims == b.dims && a.data == b.data; }

/// Per device, the window of `from` at `offsets` (one start per dim) with `to`'s dims.
std::vector<int64_t> window(const std::vector<int64_t>& from_dims, const std::vector<int64_t>& data,
                            const std::vector<int64_t>& start, const std::vector<int64_t>& dims) {
  const auto sf = row_major_strides(from_dims);
  std::vector<int64_t> out;
  int64_t total = 1;
  for (auto d : dims) total *= d;
  out.reserve(total);
  std::vector<int64_t> idx(dims.size(), 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t o = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) o += (start[i] + idx[i]) * sf[i];
    out.push_back(data[o]);
    for (std::size_t i = dims.size(); i-- > 0;) {
      if (++idx[i] < dims[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

/// The start (per dim) of `to` inside `from` on one device, if `to` is a window of it.
std::optional<std::vector<int64_t>> find_window(const std::vector<int64_t>& from_dims, const std::vector<int64_t>& from,
                                                const std::vector<int64_t>& to_dims, const std::vector<int64_t>& to) {
  std::size_t first = 0;
  while (first < to.size() && to[first] == kNoElement) ++first;
  if (first == to.size()) return std::nullopt;
  const auto st = row_major_strides(to_dims), sf = row_major_strides(from_dims);
  std::vector<int64_t> at(to_dims.size());
  for (std::size_t i = 0, rest = first; i < to_dims.size(); ++i) {
    at[i] = static_cast<int64_t>(rest) / st[i];
    rest %= st[i];
  }
  for (std::size_t p = 0; p < from.size(); ++p) {
    if (from[p] != to[first]) continue;
    std::vector<int64_t> start(from_dims.size());
    bool fits = true;
    for (std::size_t i = 0, rest = p; i < from_dims.size(); ++i) {
      start[i] = static_cast<int64_t>(rest) / sf[i] - at[i];
      rest %= sf[i];
      fits = fits && start[i] >= 0 && start[i] + to_dims[i] <= from_dims[i];
    }
    if (fits && window(from_dims, from, start, to_dims) == to) return start;
  }
  return std::nullopt;
}

/// The all-to-all of `v` within `groups` splitting `split` and concatenating `concat`.
State all_to_all(const State& v, const DeviceGroups& groups, int split, int concat) {
  const int64_t g = static_cast<int64_t>(groups.front().size());
  State out{v.dims, std::vector<std::vector<int64_t>>(v.data.size())};
  out.dims[split] /= g;
  out.dims[concat] *= g;
  const auto so = row_major_strides(out.dims);
  std::vector<int64_t> chunk_dims = v.dims;
  chunk_dims[split] /= g;
  for (const auto& group : groups)
    for (int64_t i = 0; i < g; ++i) {
      auto& dst = out.data[group[i]];
      dst.assign(v.data[group[i]].size(), kNoElement);
      for (int64_t j = 0; j < g; ++j) {
        std::vector<int64_t> start(v.dims.size(), 0);
        start[split] = i * chunk_dims[split];
        const auto chunk = window(v.dims, v.data[group[j]], start, chunk_dims);
        std::vector<int64_t> idx(chunk_dims.size(), 0);
        for (std::size_t k = 0; k < chunk.size(); ++k) {
          int64_t o = 0;
          for (std::size_t d = 0; d < idx.size(); ++d)
            o += (idx[d] + (static_cast<int>(d) == concat ? j * chunk_dims[d] : 0)) * so[d];
          dst[o] = chunk[k];
          for (std::size_t d = idx.size(); d-- > 0;) {
            if (++idx[d] < chunk_dims[d]) break;
            idx[d] = 0;
          }
        }
      }
    }
  return out;
}

/// What the importer builds, before types are attached.
struct RawStep {
  LoweredOp op;
  State after;
  std::string origin;
  std::vector<AxisRef> pending;  // reduction axes still pending after the step
};

class Importer {
 public:
  Importer(const hlo_import::Module& m, int64_t n) : m_(m), n_(n) {}

  Result<ImportedPlan> run() {
    const auto& entry = m_.entry();
    const Instruction* param = nullptr;
    for (const auto& ins : entry.instructions) {
      if (ins.opcode != "parameter") continue;
      if (param) return cannot_place(ins, "the module is not one reshard: it has a second parameter");
      param = &ins;
    }
    if (!param) return invalid_error("the ENTRY computation has no parameter");
    const Instruction& root = entry.root();
    if (param->shape.is_tuple || root.shape.is_tuple) return cannot_place(root, "tuples are not one array");
    auto elem = parse_elem_type(param->shape.elem);
    if (!elem) return cannot_place(*param, "unknown element type " + param->shape.elem);
    if (root.shape.elem != param->shape.elem)
      return cannot_place(root, "the root's element type differs from the parameter's: not a reshard");
    const auto psh = param->attrs.find("sharding");
    if (psh == param->attrs.end()) return cannot_place(*param, "the parameter has no sharding={...}");
    const auto rsh = root.attrs.find("sharding");
    if (rsh == root.attrs.end())
      return cannot_place(root, "the root has no sharding={...}: compiled modules drop it; add the output "
                                "sharding to the ROOT instruction (python/redist_xla/xla_plans.py does)");
    auto src = hlo_import::parse_sharding(psh->second, param->shape.dims.size(), n_);
    if (!src) return cannot_place(*param, src.error().message);
    auto dst = hlo_import::parse_sharding(rsh->second, root.shape.dims.size(), n_);
    if (!dst) return cannot_place(root, dst.error().message);
    // A pending reduction arrives as a leading summand dim, one summand per device
    // along the reduction axes (docs/hlo.md, "Module shape"), reduced by the module.
    const bool pending = param->shape.dims.size() == root.shape.dims.size() + 1;
    if (pending && param->shape.dims[0] != 1)
      return cannot_place(*param, "a leading summand dim must hold one summand per device");
    if (!pending && param->shape.dims.size() != root.shape.dims.size())
      return cannot_place(root, "the root's rank differs from the parameter's: not a reshard");
    const std::size_t lead = pending ? 1 : 0;
    std::vector<int64_t> src_global, dst_global;
    for (std::size_t i = 0; i < param->shape.dims.size(); ++i) src_global.push_back(param->shape.dims[i] * src->tiles[i]);
    for (std::size_t i = 0; i < root.shape.dims.size(); ++i) dst_global.push_back(root.shape.dims[i] * dst->tiles[i]);
    if (std::vector<int64_t>(src_global.begin() + lead, src_global.end()) != dst_global)
      return cannot_place(root, "the parameter and the root are arrays of different global shapes: not a reshard");
    auto mt = hlo_import::mesh_and_types(*src, *dst, *elem, src_global, dst_global, n_);
    if (!mt) return mt.error();
    mesh_ = mt->mesh;
    source_ = mt->source;
    target_ = mt->target;
    global_ = dst_global;
    if (pending) {
      source_.reduce_axes = source_.dims[0].axes;
      source_.dims.erase(source_.dims.begin());
      auto op = reduce_op(m_);
      if (!op) return op.error();
      source_.reduce_op = *op;
      pending_ = source_.reduce_axes;
      if (auto ok = validate(source_, mesh_); !ok) return cannot_place(*param, ok.error().message);
    }

    // The parameter's tags and the global element each one is.
    Values pv(n_);
    const auto local = local_shape(source_);
    int64_t local_elems = 1;
    for (auto d : local) local_elems *= d;
    if (local_elems > (int64_t{1} << 26) / n_)
      return cannot_place(*param, "too large for the importer's concrete run (at most 2^26 elements over all devices)");
    tag_global_.assign(n_ * local_elems, -1);
    const auto gs = row_major_strides(global_);
    for (int64_t d = 0; d < n_; ++d) {
      pv[d].shape = param->shape;
      pv[d].is_data = true;
      pv[d].data.resize(local_elems);
      const auto coords = mesh_.coords_of_device(d);
      const auto ls = row_major_strides(local);
      for (int64_t k = 0; k < local_elems; ++k) {
        pv[d].data[k] = d * local_elems + k;
        std::vector<int64_t> idx(local.size());
        for (std::size_t i = 0, rest = k; i < local.size(); ++i) {
          idx[i] = static_cast<int64_t>(rest) / ls[i];
          rest %= ls[i];
        }
        if (auto g = local_to_global(mesh_, source_, coords, idx)) {
          int64_t flat = 0;
          for (std::size_t i = 0; i < g->size(); ++i) flat += (*g)[i] * gs[i];
          tag_global_[d * local_elems + k] = flat;
        }
      }
    }
    auto env = hlo_import::run_entry(m_, n_, pv);
    if (!env) return env.error();
    env_ = &*env;
    if (auto ok = walk(entry, *param, root); !ok) return ok.error();
    return assemble();
  }

 private:
  const Values& value(const std::string& name) const { return env_->at(name); }

  /// The slice steps taking `from` to `to` (none when equal), one per dim that shrinks;
  /// `ins` names the instruction that leaves `to`.
  Result<std::vector<RawStep>> slices(const State& from, const State& to, const Instruction& ins) const {
    std::vector<RawStep> out;
    if (same(from, to)) return out;
    if (to.dims.size() != from.dims.size())
      return cannot_place(ins, fmt::format("it changes the buffer's rank from {} to {} outside a collective",
                                           from.dims.size(), to.dims.size()));
    std::vector<std::vector<int64_t>> starts;
    for (int64_t d = 0; d < n_; ++d) {
      auto start = find_window(from.dims, from.data[d], to.dims, to.data[d]);
      if (!start)
        return cannot_place(ins, fmt::format("on device {} the buffer it leaves is not a slice of the buffer before "
                                             "it (a local reordering or a computation, not one collective step)",
                                             d));
      starts.push_back(*start);
    }
    State cur = from;
    for (std::size_t i = 0; i < to.dims.size(); ++i) {
      if (to.dims[i] == cur.dims[i]) continue;
      State after{cur.dims, {}};
      after.dims[i] = to.dims[i];
      std::vector<int64_t> offsets;
      for (int64_t d = 0; d < n_; ++d) {
        std::vector<int64_t> start(to.dims.size(), 0);
        start[i] = starts[d][i];
        offsets.push_back(starts[d][i]);
        after.data.push_back(window(cur.dims, cur.data[d], start, after.dims));
      }
      LoweredSlice slice;
      slice.dim = static_cast<int>(i);
      slice.chunk = to.dims[i];
      slice.group.size = cur.dims[i] / std::max<int64_t>(1, to.dims[i]);
      slice.offsets = std::move(offsets);
      out.push_back({slice, after, "%" + ins.name, pending_});
      cur = std::move(after);
    }
    return out;
  }

  /// Takes the current state to `next` by slices (see slices()).
  Status local_step(const State& next, const Instruction& ins) {
    auto s = slices(current_, next, ins);
    if (!s) return s.error();
    for (auto& step : *s) steps_.push_back(std::move(step));
    current_ = next;
    return Ok{};
  }

  /// `x` read as an array of every rank-`rank` shape that differs from its own only by
  /// dims of size 1 (XLA adds and drops unit dims freely; the data is the same).
  static std::vector<State> rank_views(const State& x, int rank) {
    if (static_cast<int>(x.dims.size()) == rank) return {x};
    std::vector<int64_t> big;
    for (auto d : x.dims)
      if (d != 1) big.push_back(d);
    std::vector<State> out;
    if (static_cast<int>(big.size()) > rank) return out;
    // Choose which of the `rank` slots hold the non-unit dims, in order.
    for (uint32_t mask = 0; mask < (1u << rank); ++mask) {
      if (__builtin_popcount(mask) != static_cast<int>(big.size())) continue;
      State v = x;
      v.dims.assign(rank, 1);
      for (int i = 0, k = 0; i < rank; ++i)
        if (mask >> i & 1) v.dims[i] = big[k++];
      out.push_back(std::move(v));
    }
    return out;
  }

  /// `x` read as an array of `dims` when the two shapes differ only by dims of size 1.
  static std::optional<State> as_dims(const State& x, const std::vector<int64_t>& dims) {
    auto squeeze = [](const std::vector<int64_t>& v) {
      std::vector<int64_t> o;
      for (auto d : v)
        if (d != 1) o.push_back(d);
      return o;
    };
    if (squeeze(x.dims) != squeeze(dims)) return std::nullopt;
    State out = x;
    out.dims = dims;
    return out;
  }

  /// Groups of a collective instruction.
  Result<DeviceGroups> groups_of(const Instruction& ins) const {
    const auto rg = ins.attrs.find("replica_groups");
    const auto ids = ins.attrs.find("device_ids");
    return hlo_import::parse_replica_groups(rg == ins.attrs.end() ? "{}" : rg->second,
                                            ids == ins.attrs.end() ? "" : ids->second, n_);
  }

  /// Whether entry instruction `ins` depends on `on` (transitively).
  bool depends(const Instruction& ins, const std::string& on, std::map<std::string, bool>& memo) const {
    if (ins.name == on) return true;
    if (auto it = memo.find(ins.name); it != memo.end()) return it->second;
    bool r = false;
    for (const auto& o : ins.operands) r = r || depends(*m_.entry().find(o), on, memo);
    return memo[ins.name] = r;
  }

  Status walk(const hlo_import::Computation& entry, const Instruction& param, const Instruction& root) {
    current_ = state_of(value(param.name));
    current_.dims = local_shape(source_);  // without a leading summand dim
    const Instruction* pending = nullptr;  // an all-to-all whose result is not yet one array
    std::map<std::string, bool> memo;
    for (const auto& ins : entry.instructions) {
      const bool collective = ins.opcode == "all-gather" || ins.opcode == "all-to-all" ||
                              ins.opcode == "collective-permute" || ins.opcode == "all-reduce" ||
                              ins.opcode == "reduce-scatter";
      if (pending) {
        const auto& v = value(ins.name);
        const bool array = !v[0].shape.is_tuple && ins.opcode != "get-tuple-element";
        if (array && v[0].is_data && depends(ins, pending->name, memo)) {
          if (auto ok = place_all_to_all(*pending, state_of(v)); !ok) return ok;
          pending = nullptr;
        } else if (collective || &ins == &root) {
          return cannot_place(*pending, "its result never becomes one buffer of the array's rank before %" + ins.name);
        }
      }
      if (!collective) continue;
      if (ins.opcode == "all-to-all") {
        // Placed once its result is one buffer again (place_all_to_all), together with
        // any slice of the buffer before it that XLA fused into its chunks.
        pending = &ins;
        continue;
      }
      if (ins.operands.size() != 1) return cannot_place(ins, "a collective of several operands");
      const Instruction& operand = *entry.find(ins.operands[0]);
      State in = state_of(value(operand.name));
      if (in.dims.size() != current_.dims.size()) {
        auto same_rank = as_dims(in, current_.dims);
        if (!same_rank) return cannot_place(operand, "its buffer is not of the array's rank");
        in = std::move(*same_rank);
      }
      if (auto ok = local_step(in, operand); !ok) return ok;
      State after = state_of(value(ins.name));
      if (after.dims.size() != current_.dims.size()) {
        auto same_rank = ins.opcode == "collective-permute" ? as_dims(after, current_.dims) : std::nullopt;
        if (!same_rank) return cannot_place(ins, "its result is not of the array's rank");
        after = std::move(*same_rank);
      }
      if (ins.opcode == "all-reduce" || ins.opcode == "reduce-scatter") {
        auto groups = groups_of(ins);
        if (!groups) return cannot_place(ins, groups.error().message);
        auto op = reduce_op_of(ins);
        if (!op) return op.error();
        GroupSpec group;
        group.size = static_cast<int64_t>(groups->front().size());
        group.table = std::move(*groups);
        // The reduction groups of a correct plan are the pending axes' groups: once a
        // step reduces over as many devices as they hold, nothing is pending.
        if (group.size >= product_of_sizes(pending_)) pending_.clear();
        if (ins.opcode == "all-reduce") {
          steps_.push_back({LoweredAllReduce{group, *op}, after, "%" + ins.name, pending_});
        } else {
          const auto dims = hlo_import::integers_in(ins.attrs.count("dimensions") ? ins.attrs.at("dimensions") : "");
          if (dims.size() != 1) return cannot_place(ins, "a reduce-scatter needs one dimension");
          steps_.push_back({LoweredReduceScatter{static_cast<int>(dims[0]), group, *op}, after, "%" + ins.name, pending_});
        }
      } else if (ins.opcode == "all-gather") {
        auto groups = groups_of(ins);
        if (!groups) return cannot_place(ins, groups.error().message);
        const auto dims = hlo_import::integers_in(ins.attrs.at("dimensions"));
        LoweredGather g;
        g.group.size = static_cast<int64_t>(groups->front().size());
        g.parts = {{static_cast<int>(dims.at(0)), g.group.size, {}}};
        g.group.table = std::move(*groups);
        steps_.push_back({g, after, "%" + ins.name, pending_});
      } else {
        auto pairs = hlo_import::parse_pairs(ins.attrs.at("source_target_pairs"), n_);
        if (!pairs) return cannot_place(ins, pairs.error().message);
        std::vector<bool> targeted(n_);
        for (const auto& [s, t] : *pairs) targeted[t] = true;
        for (int64_t d = 0; d < n_; ++d)
          if (!targeted[d])
            return cannot_place(ins, fmt::format("device {} receives nothing (XLA fills it with zeros)", d));
        std::sort(pairs->begin(), pairs->end(), [](auto& a, auto& b) { return a.second < b.second; });
        LoweredPermute p;
        p.table = std::move(*pairs);
        steps_.push_back({p, after, "%" + ins.name, pending_});
      }
      current_ = std::move(after);
    }
    if (pending) return cannot_place(*pending, "its result never becomes one buffer of the array's rank");
    return local_step(state_of(value(root.name)), root);  // the root has the array's rank
  }

  /// The all-to-all step (after slices of the current state, where XLA fused a
  /// dynamic-slice into the chunks) that leaves `next`: for each (split, concat) pair
  /// of dims, the buffer before the all-to-all is `next` sent back by the inverse
  /// all-to-all; the pair is taken when that buffer is a slice of the current state and
  /// the all-to-all of it gives `next` again on every device.
  Status place_all_to_all(const Instruction& ins, const State& raw_next) {
    auto groups = groups_of(ins);
    if (!groups) return cannot_place(ins, groups.error().message);
    const int64_t g = static_cast<int64_t>(groups->front().size());
    const int rank = static_cast<int>(current_.dims.size());
    for (const State& next : rank_views(raw_next, rank))
    for (int split = 0; split < rank; ++split)
      for (int concat = 0; concat < rank; ++concat) {
        if (split == concat) continue;
        if (next.dims[concat] % g != 0) continue;
        State before = all_to_all(next, *groups, concat, split);  // the inverse
        if (!same(all_to_all(before, *groups, split, concat), next)) continue;
        auto pre = slices(current_, before, ins);
        if (!pre) continue;
        for (auto& step : *pre) steps_.push_back(std::move(step));
        LoweredAllToAll a;
        a.parts = {{split, concat, g, {}}};
        a.group.size = g;
        a.group.table = std::move(*groups);
        steps_.push_back({a, next, "%" + ins.name, pending_});
        current_ = std::move(next);
        return Ok{};
      }
    return cannot_place(ins, "no all-to-all of the buffer before it (any split and concat dim, its groups, "
                             "after a slice) gives the buffer after it");
  }

  /// The type a state's data has on the mesh, if its elements are laid out as one.
  std::optional<DistType> infer_type(const State& s) const {
    const std::size_t r = s.dims.size();
    DistType t;
    t.elem = source_.elem;
    const auto gs = row_major_strides(global_);
    auto global_of = [&](int64_t tag, std::size_t dim) -> int64_t {
      const int64_t flat = tag < 0 ? -1 : tag_global_[tag];
      return flat < 0 ? -1 : (flat / gs[dim]) % global_[dim];
    };
    std::vector<int64_t> first(n_);
    for (int64_t d = 0; d < n_; ++d) {
      first[d] = s.data[d].empty() ? -1 : s.data[d][0];
      if (first[d] < 0 || tag_global_[first[d]] < 0) return std::nullopt;
    }
    for (std::size_t i = 0; i < r; ++i) {
      Dim dim;
      dim.global = global_[i];
      if (s.dims[i] < 1 || global_[i] % s.dims[i] != 0) return std::nullopt;
      std::vector<std::pair<int64_t, std::size_t>> weights;  // (weight, axis)
      if (global_of(first[0], i) != 0) return std::nullopt;
      int64_t stride = 1;
      for (std::size_t a = mesh_.rank(); a-- > 0;) {
        const int64_t unit = stride;  // identity device order: axis a's unit device
        stride *= mesh_.axis_size(a);
        const int64_t g = global_of(first[unit], i);
        if (g % s.dims[i] != 0) return std::nullopt;
        if (g > 0) weights.push_back({g / s.dims[i], a});
      }
      std::sort(weights.begin(), weights.end());
      int64_t expect = 1;
      for (const auto& [w, a] : weights) {
        if (w != expect) return std::nullopt;
        expect *= mesh_.axis_size(a);
      }
      if (expect != global_[i] / s.dims[i]) return std::nullopt;
      for (auto it = weights.rbegin(); it != weights.rend(); ++it)
        dim.axes.push_back(AxisRef{mesh_.axes()[it->second].name, 1, mesh_.axis_size(it->second), false});
      t.dims.push_back(std::move(dim));
    }
    if (!validate(t, mesh_).ok()) return std::nullopt;
    // Every element of every device must be where the type puts it.
    const auto ls = row_major_strides(s.dims);
    for (int64_t d = 0; d < n_; ++d) {
      const auto coords = mesh_.coords_of_device(d);
      for (std::size_t k = 0; k < s.data[d].size(); ++k) {
        std::vector<int64_t> idx(r);
        for (std::size_t i = 0, rest = k; i < r; ++i) {
          idx[i] = static_cast<int64_t>(rest) / ls[i];
          rest %= ls[i];
        }
        const auto g = local_to_global(mesh_, t, coords, idx);
        const int64_t tag = s.data[d][k];
        const int64_t flat = tag < 0 ? -1 : tag_global_[tag];
        int64_t want = -1;
        if (g) {
          want = 0;
          for (std::size_t i = 0; i < r; ++i) want += (*g)[i] * gs[i];
        }
        if (want != flat) return std::nullopt;
      }
    }
    return t;
  }

  /// A type of local shape `dims` (declared for a state whose data is no type's).
  std::optional<DistType> shape_type(const std::vector<int64_t>& dims, const std::vector<AxisRef>& pending) const {
    if (local_shape(target_) == dims && pending.empty()) return target_;
    if (local_shape(source_) == dims && pending == source_.reduce_axes) return source_;
    DistType t;
    t.elem = source_.elem;
    t.reduce_axes = pending;
    t.reduce_op = source_.reduce_op;
    std::vector<bool> used(mesh_.rank());
    for (const auto& r : pending)
      if (auto a = mesh_.axis_index(r.name)) used[*a] = true;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      Dim dim;
      dim.global = global_[i];
      if (dims[i] < 1 || global_[i] % dims[i] != 0) return std::nullopt;
      int64_t need = global_[i] / dims[i];
      for (std::size_t a = 0; a < mesh_.rank() && need > 1; ++a)
        if (!used[a] && need % mesh_.axis_size(a) == 0) {
          used[a] = true;
          need /= mesh_.axis_size(a);
          dim.axes.push_back(AxisRef{mesh_.axes()[a].name, 1, mesh_.axis_size(a), false});
        }
      if (need != 1) return std::nullopt;
      t.dims.push_back(std::move(dim));
    }
    if (!validate(t, mesh_).ok()) return std::nullopt;
    return t;
  }

  /// The reduction of an all-reduce or reduce-scatter: its to_apply computation's root.
  Result<ReduceOp> reduce_op_of(const Instruction& ins) const {
    const auto it = ins.attrs.find("to_apply");
    std::string name = it == ins.attrs.end() ? "" : it->second;
    if (!name.empty() && name[0] == '%') name.erase(0, 1);
    const auto* c = m_.find(name);
    if (!c) return cannot_place(ins, "its reduction computation is missing");
    const std::string& op = c->root().opcode;
    if (op == "add" || op == "or") return ReduceOp::sum;
    if (op == "maximum") return ReduceOp::max;
    if (op == "minimum" || op == "and") return ReduceOp::min;
    return cannot_place(ins, "reduces with '" + op + "', not a sum, max or min");
  }

  /// The reduction of the module's first reducing collective (sum when it has none).
  Result<ReduceOp> reduce_op(const hlo_import::Module& m) const {
    for (const auto& ins : m.entry().instructions)
      if (ins.opcode == "all-reduce" || ins.opcode == "reduce-scatter") return reduce_op_of(ins);
    return ReduceOp::sum;
  }

  Result<ImportedPlan> assemble() {
    ImportedPlan out;
    out.plan.source = {mesh_, source_};
    out.target = {mesh_, target_};
    TypedState before = out.plan.source;
    for (auto& raw : steps_) {
      auto t = infer_type(raw.after);
      if (t) {
        t->reduce_axes = raw.pending;
        t->reduce_op = source_.reduce_op;
        if (!validate(*t, mesh_).ok()) t.reset();
      }
      out.typed.push_back(t.has_value());
      if (!t) t = shape_type(raw.after.dims, raw.pending);
      if (!t) return invalid_error("cannot declare a type for the buffer after " + raw.origin);
      TypedState after{mesh_, *t};
      out.plan.steps.push_back({raw.op, before, after});
      out.origins.push_back(raw.origin);
      before = after;
    }
    for (int64_t d = 0; d < n_; ++d) {
      std::vector<int64_t> g;
      for (auto tag : current_.data[d]) g.push_back(tag < 0 ? -1 : tag_global_[tag]);
      out.result_global.push_back(std::move(g));
    }
    return out;
  }

  const hlo_import::Module& m_;
  int64_t n_;
  Mesh mesh_;
  DistType source_, target_;
  std::vector<int64_t> global_;
  std::vector<int64_t> tag_global_;
  const std::map<std::string, Values>* env_ = nullptr;
  State current_;
  std::vector<AxisRef> pending_;  // reduction axes pending in the current state
  std::vector<RawStep> steps_;
};

}  // namespace

Result<ImportedPlan> import_hlo(std::string_view text) {
  auto module = hlo_import::parse_module(text);
  if (!module) return module.error();
  Importer importer(*module, module->num_partitions);
  return importer.run();
}

std::optional<std::vector<int64_t>> imported_global_at(const ImportedPlan& imported, int64_t device,
                                                       const std::vector<int64_t>& local_index) {
  const TypedState& last = imported.plan.steps.empty() ? imported.plan.source : imported.plan.steps.back().after;
  const auto dims = local_shape(last.type);
  if (device < 0 || device >= static_cast<int64_t>(imported.result_global.size()) || local_index.size() != dims.size())
    return std::nullopt;
  int64_t flat = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (local_index[i] < 0 || local_index[i] >= dims[i]) return std::nullopt;
    flat = flat * dims[i] + local_index[i];
  }
  const int64_t g = imported.result_global[device][flat];
  if (g < 0) return std::nullopt;
  std::vector<int64_t> out(dims.size());
  int64_t rest = g;
  for (std::size_t i = dims.size(); i-- > 0;) {
    out[i] = rest % last.type.dims[i].global;
    rest /= last.type.dims[i].global;
  }
  return out;
}

}  // namespace redist
