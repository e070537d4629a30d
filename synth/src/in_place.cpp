// Permute pairs that keep the most data in place (in_place.hpp).

#include "in_place.hpp"

#include <algorithm>
#include <span>

#include "factors.hpp"
#include "redist/plan/lowered.hpp"

namespace redist::synth_detail {

namespace {

/// A factor's digit per coordinate of its axis, and the stride of its digit there.
struct DigitTable {
  std::size_t axis = 0;
  int64_t size = 1;
  int64_t stride = 1;
  std::vector<int64_t> digits;  // per coordinate of the axis
};

/// The digit tables of `factors` on axes of sizes `sizes`.
std::vector<DigitTable> tables_of(const Factors& factors, std::span<const int64_t> sizes) {
  std::vector<DigitTable> out;
  out.reserve(factors.size());
  for (const auto& f : factors) {
    DigitTable t;
    t.axis = static_cast<std::size_t>(f.axis);
    t.size = f.size;
    t.stride = sizes[t.axis] / f.end();
    t.digits.resize(static_cast<std::size_t>(sizes[t.axis]));
    for (int64_t c = 0; c < sizes[t.axis]; ++c) t.digits[static_cast<std::size_t>(c)] = c / t.stride % f.size;
    out.push_back(std::move(t));
  }
  return out;
}

/// The mixed-radix index of the digits of `tables` (the first most significant) at `c`.
int64_t index_of(std::span<const int64_t> c, const std::vector<DigitTable>& tables) {
  int64_t v = 0;
  for (const auto& t : tables) v = v * t.size + t.digits[static_cast<std::size_t>(c[t.axis])];
  return v;
}

/// One number per block combination: the block of every dim (digit tables), mixed radix.
int64_t block_key(std::span<const int64_t> c, const std::vector<std::vector<DigitTable>>& dims,
                  const std::vector<int64_t>& tiles) {
  int64_t key = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) key = key * tiles[d] + index_of(c, dims[d]);
  return key;
}

/// The pairs of the permute from `before` to `after` (same axes) with the most devices
/// in place, repaired from the lowering's (pair_table's rule, computed on positions);
/// nullopt when the lowering's already keep as many.
std::optional<DevicePairs> repaired_pairs(const TypedState& before, const TypedState& after) {
  const Mesh& sm = before.mesh;
  const Mesh& tm = after.mesh;
  const int64_t n = tm.num_devices();
  const std::size_t rank = sm.rank();
  for (std::size_t d = 0; d < before.type.rank(); ++d)
    if (tile_count(before.type.dims[d]) != tile_count(after.type.dims[d])) return std::nullopt;
  const auto lowered_moves = permute_moves(before, after);  // lower_step()'s moves (no pairs here)
  // On one mesh, a device that holds the block it needs keeps it under the lowering's
  // dim moves (its source factors' digits already spell the target's block index), so
  // only a move of replicated factors (the last, free only in the source) can send it
  // another device's copy.
  const auto tiled_dims = static_cast<std::size_t>(std::count_if(
      before.type.dims.begin(), before.type.dims.end(), [](const Dim& d) { return !d.axes.empty(); }));
  if (sm == tm && lowered_moves.size() == tiled_dims) return std::nullopt;
  std::vector<int64_t> sizes;
  for (const auto& a : sm.axes()) sizes.push_back(a.size);
  std::vector<std::vector<DigitTable>> held_dims, needed_dims;
  std::vector<int64_t> tiles;
  for (const auto& d : before.type.dims) {
    held_dims.push_back(tables_of(factors_of(d.axes, sm), sizes));
    tiles.push_back(tile_count(d));
  }
  for (const auto& d : after.type.dims) needed_dims.push_back(tables_of(factors_of(d.axes, sm), sizes));
  std::vector<std::pair<std::vector<DigitTable>, std::vector<DigitTable>>> moves;  // (source, target)
  for (const auto& m : lowered_moves)
    moves.emplace_back(tables_of(factors_of(m.source_axes, sm), sizes), tables_of(factors_of(m.target_axes, sm), sizes));
  // Per mesh position: the blocks held before and needed after.
  std::vector<int64_t> held(static_cast<std::size_t>(n)), needed(static_cast<std::size_t>(n));
  std::vector<int64_t> c(rank, 0), s(rank);
  auto next = [&] {  // the next position's coordinates in c
    for (std::size_t a = rank; a-- > 0;) {
      if (++c[a] < sizes[a]) break;
      c[a] = 0;
    }
  };
  for (int64_t q = 0; q < n; ++q) {
    held[static_cast<std::size_t>(q)] = block_key(c, held_dims, tiles);
    needed[static_cast<std::size_t>(q)] = block_key(c, needed_dims, tiles);
    next();
  }
  // The position whose device the lowering sends to the one at coordinates c.
  auto source_position = [&] {
    s = c;
    for (const auto& [from, to] : moves) {
      int64_t value = index_of(c, to);
      for (auto it = from.rbegin(); it != from.rend(); ++it) {
        int64_t& coord = s[it->axis];
        coord += (value % it->size - it->digits[static_cast<std::size_t>(coord)]) * it->stride;
        value /= it->size;
      }
    }
    int64_t p = 0;
    for (std::size_t a = 0; a < rank; ++a) p = p * sizes[a] + s[a];
    return p;
  };
  // A repair swaps only where a device that already holds its block receives from
  // another: without one (most permutes), nothing changes.
  bool repairs = false;
  for (int64_t t = 0; t < n && !repairs; ++t) {
    int64_t q = tm.position_of(t);
    if (held[static_cast<std::size_t>(sm.position_of(t))] != needed[static_cast<std::size_t>(q)]) continue;
    for (std::size_t a = rank; a-- > 0; q /= sizes[a]) c[a] = q % sizes[a];
    repairs = sm.device_at(source_position()) != t;
  }
  if (!repairs) return std::nullopt;
  std::vector<int64_t> source(static_cast<std::size_t>(n));
  std::fill(c.begin(), c.end(), 0);
  for (int64_t q = 0; q < n; ++q) {
    source[static_cast<std::size_t>(q)] = source_position();
    next();
  }
  // Physical ids: t's position on the target mesh, s's on the source mesh.
  std::vector<int64_t> source_of(static_cast<std::size_t>(n)), target_of(static_cast<std::size_t>(n));
  for (int64_t t = 0; t < n; ++t) {
    const int64_t s_dev = sm.device_at(source[static_cast<std::size_t>(tm.position_of(t))]);
    source_of[static_cast<std::size_t>(t)] = s_dev;
    target_of[static_cast<std::size_t>(s_dev)] = t;
  }
  bool changed = false;
  for (int64_t t = 0; t < n; ++t) {
    const auto ti = static_cast<std::size_t>(t);
    const int64_t from = source_of[ti];
    if (from == t || held[static_cast<std::size_t>(sm.position_of(t))] != needed[static_cast<std::size_t>(tm.position_of(t))])
      continue;
    // t keeps its own block; t's old destination takes from's buffer, which is what t
    // needed and so what t sent it.
    const int64_t moved_to = target_of[ti];
    source_of[ti] = t;
    target_of[ti] = t;
    source_of[static_cast<std::size_t>(moved_to)] = from;
    target_of[static_cast<std::size_t>(from)] = moved_to;
    changed = true;
  }
  if (!changed) return std::nullopt;
  DevicePairs out;
  out.reserve(static_cast<std::size_t>(n));
  for (int64_t t = 0; t < n; ++t) out.emplace_back(source_of[static_cast<std::size_t>(t)], t);
  return out;
}

}  // namespace

std::optional<Plan> kept_in_place(const Plan& plan, const std::vector<TypedState>& states) {
  if (plan.mesh.num_devices() > kMaxInPlaceDevices) return std::nullopt;
  std::optional<Plan> out;
  const TypedState source{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size() && k < states.size(); ++k) {
    const Step& step = plan.steps[k];
    const TypedState& before = k == 0 ? source : states[k - 1];
    const TypedState& after = states[k];
    if (!std::holds_alternative<CollectivePermute>(step.op) || step.pairs || !before.type.reduce_axes.empty() ||
        after.mesh.num_devices() > kMaxInPlaceDevices)
      continue;
    if (auto pairs = repaired_pairs(before, after)) {
      if (!out) out = plan;
      out->steps[k].pairs = std::move(pairs);
    }
  }
  return out;
}

}  // namespace redist::synth_detail
