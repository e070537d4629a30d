// One constraint per collective kind (the trusted base; docs/checker.md). In each,
// b is the location before the step, a the location after it; L_before / L_after are
// the declared local sizes, m(d) the member index of device d in its group, and
// "same group" the group relation of the lowered form (symbolic axes or a table).

#include "step_relations.hpp"

#include <cassert>

#include <algorithm>
#include <map>
#include <type_traits>

#include "redist/core/dist_type.hpp"

namespace redist::smt {

namespace {

std::size_t at(int dim) { return static_cast<std::size_t>(dim); }

/// Index terms equal on every dim but those in `except`.
z3::expr equal_except(Encoding& enc, const Location& b, const Location& a, const std::vector<int>& except) {
  z3::expr_vector eqs(enc.query().ctx());
  for (std::size_t i = 0; i < b.index.size(); ++i)
    if (std::find(except.begin(), except.end(), static_cast<int>(i)) == except.end()) eqs.push_back(b.index[i] == a.index[i]);
  return all_of(eqs.ctx(), eqs);
}

/// The slice offset of device d: m(d) * chunk, or offsets[physical id].
z3::expr slice_offset(Encoding& enc, const LoweredSlice& s, const Device& d) {
  if (s.offsets) return enc.query().table("offsets", &*s.offsets, *s.offsets, enc.physical(d));
  return enc.member_index(s.group, d) * enc.num(s.chunk);
}

/// The transfer's sends as one disjunction: some send t goes from b's device to a's and
/// a's index lies in t's box at dst_start, read at the same offset from src_start in b:
///   physical(b) = t.from, physical(a) = t.to,
///   dst_start[i] <= a.l[i] < dst_start[i] + extent[i], b.l[i] = a.l[i] - dst_start[i] + src_start[i].
/// A send to itself is a box that stays on its device. The sends are grouped by their
/// receiver (physical(a) = r AND the disjunction of r's sends): the same formula, which
/// Z3 decides in one case split on a's device instead of searching all N^2 sends of an
/// all-to-all transfer (64 devices: `unknown` at 10 s as one flat disjunction).
z3::expr transfer_relation(Encoding& enc, const LoweredTransfer& t, const Location& b, const Location& a) {
  z3::context& ctx = enc.query().ctx();
  assert(!t.symbolic);
  const z3::expr from = enc.physical(b.device), to = enc.physical(a.device);
  std::map<int64_t, z3::expr_vector> by_receiver;
  for (const auto& box : t.sends) {
    z3::expr c = from == enc.num(box.from);
    for (std::size_t i = 0; i < box.extent.size(); ++i)
      c = c && a.index[i] >= enc.num(box.dst_start[i]) && a.index[i] < enc.num(box.dst_start[i] + box.extent[i]) &&
          b.index[i] == a.index[i] - enc.num(box.dst_start[i]) + enc.num(box.src_start[i]);
    by_receiver.try_emplace(box.to, ctx).first->second.push_back(c);
  }
  z3::expr_vector cases(ctx);
  for (const auto& [receiver, sends] : by_receiver) cases.push_back(to == enc.num(receiver) && z3::mk_or(sends));
  return z3::mk_or(cases);
}

/// A symbolic transfer (every source element has one holder, no padding): the element
/// at `a` on the new mesh is the one at the same global index on its holder `b`:
///   global(before.type, b, i) = global(after.type, a, i) for every dim i,
///   0 <= b.l < L_before, 0 <= a.l < L_after.
/// The lowering's table is exactly this relation enumerated (plan/src/transfer_table.cpp:
/// each piece from the one holder of its block), with no formula per send.
z3::expr symbolic_transfer_relation(Encoding& enc, const LoweredStep& step, const Location& b, const Location& a) {
  z3::expr out = enc.in_bounds(b.index, local_shape(step.before.type)) &&
                 enc.in_bounds(a.index, local_shape(step.after.type));
  for (std::size_t i = 0; i < step.after.type.rank(); ++i)
    out = out && enc.global(step.before.type, b, i) == enc.global(step.after.type, a, i);
  return out;
}

/// `id` is the physical id of a device of `mesh`: one range check when its ids are
/// consecutive, else one equality per device.
z3::expr on_mesh(Encoding& enc, const Mesh& mesh, const z3::expr& id) {
  const std::vector<int64_t> ids = mesh.device_ids();
  if (ids.back() - ids.front() + 1 == static_cast<int64_t>(ids.size()))
    return id >= enc.num(ids.front()) && id <= enc.num(ids.back());
  z3::expr_vector any(enc.query().ctx());
  for (int64_t d : ids) any.push_back(id == enc.num(d));
  return z3::mk_or(any);
}

/// Send `box` reads the element at `b`: b's device is its sender and b's index lies in
/// its box at src_start.
z3::expr holds_at_source(Encoding& enc, const TransferBox& box, const Location& b) {
  z3::expr inside = enc.physical(b.device) == enc.num(box.from);
  for (std::size_t i = 0; i < box.extent.size(); ++i)
    inside = inside && b.index[i] >= enc.num(box.src_start[i]) && b.index[i] < enc.num(box.src_start[i] + box.extent[i]);
  return inside;
}

/// Digit `k` of d's member index in a (fused) all_to_all or all_gather (`Op`): the
/// member index itself with one part; else the mixed-radix number of d's coordinates
/// on the part's axes, or for a table the digit of the table's member index (parts[0]
/// most significant).
template <class Op>
z3::expr digit(Encoding& enc, const Op& s, std::size_t k, const Device& d) {
  if (s.parts.size() == 1) return enc.member_index(s.group, d);
  if (!s.group.table) return enc.mixed_radix(d, s.parts[k].axes);
  int64_t stride = 1;
  for (std::size_t j = k + 1; j < s.parts.size(); ++j) stride *= s.parts[j].size;
  return z3::mod(enc.member_index(s.group, d) / enc.num(stride), enc.num(s.parts[k].size));
}

/// The chunk device d receives along `dim`: the mixed-radix number of its digits of the
/// parts that split `dim`, in part order; nullopt when none does.
std::optional<z3::expr> chunk_of(Encoding& enc, const LoweredAllToAll& s, int dim, const Device& d) {
  std::optional<z3::expr> out;
  for (std::size_t k = 0; k < s.parts.size(); ++k)
    if (s.parts[k].split_dim == dim) out = out ? *out * enc.num(s.parts[k].size) + digit(enc, s, k, d) : digit(enc, s, k, d);
  return out;
}

/// The place of sender d's piece along `dim`: the mixed-radix number of its digits of
/// the parts that concatenate on `dim`, in reverse part order; nullopt when none does.
std::optional<z3::expr> place_of(Encoding& enc, const LoweredAllToAll& s, int dim, const Device& d) {
  std::optional<z3::expr> out;
  for (std::size_t k = s.parts.size(); k-- > 0;)
    if (s.parts[k].concat_dim == dim) out = out ? *out * enc.num(s.parts[k].size) + digit(enc, s, k, d) : digit(enc, s, k, d);
  return out;
}

struct Relate {
  Encoding& enc;
  const LoweredStep& step;
  const Location& b;
  const Location& a;
  std::vector<int64_t> lb = local_shape(step.before.type);
  std::vector<int64_t> la = local_shape(step.after.type);

  // all_slice: the same device keeps `chunk` elements of dim from its offset (past the
  // buffer's end: padding, out of bounds for G1's goal if a real slot reads it):
  //   b = a (device), b.l[dim] = offset(a) + a.l[dim], other dims equal.
  z3::expr operator()(const LoweredSlice& s) const {
    return enc.same(b.device, a.device) && b.index[at(s.dim)] == slice_offset(enc, s, a.device) + a.index[at(s.dim)] &&
           equal_except(enc, b, a, {s.dim});
  }
  // all_gather: member order concatenation along dim:
  //   same group, a.l[dim] = m(b) * L_before[dim] + b.l[dim] with 0 <= b.l[dim] < L_before[dim].
  // A fused one (several parts) is the same on each part's dim, with b's digit of that
  // part in place of m(b); other dims equal.
  z3::expr operator()(const LoweredGather& s) const {
    z3::expr out = enc.same_group(s.group, b.device, a.device);
    std::vector<int> dims;
    for (std::size_t k = 0; k < s.parts.size(); ++k) {
      const auto i = at(s.parts[k].dim);
      const z3::expr& l = b.index[i];
      out = out && a.index[i] == digit(enc, s, k, b.device) * enc.num(lb[i]) + l && l >= 0 && l < enc.num(lb[i]);
      dims.push_back(s.parts[k].dim);
    }
    return out && equal_except(enc, b, a, dims);
  }
  // all_to_all: member j sends chunk i of its split dim to member i, who concatenates
  // along the concat dim in sender order (on a padded dim a chunk may reach past the
  // buffer, and the concatenation's tail is dropped: those are padding, never read
  // into a real target slot, which G1's in-bounds goal checks):
  //   same group, b.l[split] = m(a) * L_after[split] + a.l[split],
  //   a.l[concat] = m(b) * L_before[concat] + b.l[concat] with 0 <= b.l[concat] < L_before[concat].
  // A fused one (several parts) is the same per dim, with the chunk and place numbers
  // of its parts' digits (chunk_of, place_of) in place of m(a) and m(b).
  z3::expr operator()(const LoweredAllToAll& s) const {
    z3::expr out = enc.same_group(s.group, b.device, a.device);
    for (std::size_t i = 0; i < b.index.size(); ++i) {
      const int dim = static_cast<int>(i);
      const auto chunk = chunk_of(enc, s, dim, a.device);
      const auto place = place_of(enc, s, dim, b.device);
      if (chunk) out = out && b.index[i] == *chunk * enc.num(la[i]) + a.index[i];
      if (place)
        out = out && a.index[i] == *place * enc.num(lb[i]) + b.index[i] && b.index[i] >= 0 &&
              b.index[i] < enc.num(lb[i]);
      if (!chunk && !place) out = out && b.index[i] == a.index[i];
    }
    return out;
  }
  // collective_permute: the target receives its source's whole buffer (b.l = a.l).
  // Symbolic: for each move, b's coordinates on source_axes read as one number equal
  // a's on target_axes, and b agrees with a on every factor no move sets. Table:
  // physical(b) = source_of(physical(a)) (and the moves' equations where the pairs
  // keep them).
  z3::expr operator()(const LoweredPermute& p) const {
    z3::expr device = enc.query().ctx().bool_val(true);
    if (p.table) {
      std::vector<int64_t> source_of(static_cast<std::size_t>(step.after.mesh.num_devices()), 0);
      for (const auto& [source, to] : *p.table) source_of[static_cast<std::size_t>(to)] = source;
      device = enc.physical(b.device) == enc.query().table("pairs", &*p.table, source_of, enc.physical(a.device));
      // Where a pair keeps the moves (all but a few listed targets, checked over the
      // entries), the moves' equations follow from the table: stated too, so that Z3
      // reads the coordinates that matter without a case split over the entries.
      if (const auto& off = enc.pairs_off_moves(p, step.before.mesh, step.after.mesh)) {
        z3::expr moves = enc.query().ctx().bool_val(true);
        for (const auto& m : p.moves)
          moves = moves && enc.mixed_radix(b.device, m.source_axes) == enc.mixed_radix(a.device, m.target_axes);
        const z3::expr target = enc.physical(a.device);
        for (int64_t t : *off) moves = moves || target == enc.num(t);
        device = device && moves;
      }
    } else {
      std::vector<AxisRef> set;
      for (const auto& m : p.moves) {
        device = device && enc.mixed_radix(b.device, m.source_axes) == enc.mixed_radix(a.device, m.target_axes);
        set.insert(set.end(), m.source_axes.begin(), m.source_axes.end());
      }
      device = device && enc.same_except(b.device, a.device, set);
    }
    return device && equal_except(enc, b, a, {});
  }
  // reduce_scatter: every member b of a's group contributes its chunk m(a) along dim:
  //   same group, b.l[dim] = m(a) * L_after[dim] + a.l[dim], other dims equal.
  z3::expr operator()(const LoweredReduceScatter& s) const {
    return enc.same_group(s.group, b.device, a.device) &&
           b.index[at(s.dim)] == enc.member_index(s.group, a.device) * enc.num(la[at(s.dim)]) + a.index[at(s.dim)] &&
           equal_except(enc, b, a, {s.dim});
  }
  // all_reduce: every member b of a's group contributes the element at the same index.
  z3::expr operator()(const LoweredAllReduce& s) const {
    return enc.same_group(s.group, b.device, a.device) && equal_except(enc, b, a, {});
  }
  // add_pending: the same device keeps its element when it is member 0 of its group;
  // elsewhere the element is the identity of the op, which combines nothing, so no
  // location before the step relates to it:
  //   b = a (device), b.l = a.l, m(a) = 0.
  z3::expr operator()(const LoweredAddPending& s) const {
    return enc.same(b.device, a.device) && enc.member_index(s.group, a.device) == enc.num(0) &&
           equal_except(enc, b, a, {});
  }
  // transfer: a table of boxes (transfer_relation above), or the holder relation.
  z3::expr operator()(const LoweredTransfer& t) const {
    return t.symbolic ? symbolic_transfer_relation(enc, step, b, a) : transfer_relation(enc, t, b, a);
  }
};

struct Stay {
  Encoding& enc;
  const LoweredStep& step;
  const Location& b;
  const Device& there;
  std::vector<int64_t> lb = local_shape(step.before.type);
  std::vector<int64_t> la = local_shape(step.after.type);

  std::vector<z3::expr> operator()(const LoweredSlice& s) const {
    auto l = b.index;
    l[at(s.dim)] = l[at(s.dim)] - slice_offset(enc, s, b.device);
    return l;
  }
  std::vector<z3::expr> operator()(const LoweredGather& s) const {
    auto l = b.index;
    for (std::size_t k = 0; k < s.parts.size(); ++k) {
      const auto i = at(s.parts[k].dim);
      l[i] = digit(enc, s, k, b.device) * enc.num(lb[i]) + l[i];
    }
    return l;
  }
  std::vector<z3::expr> operator()(const LoweredAllToAll& s) const {
    auto l = b.index;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (const auto chunk = chunk_of(enc, s, static_cast<int>(i), b.device)) l[i] = l[i] - *chunk * enc.num(la[i]);
      if (const auto place = place_of(enc, s, static_cast<int>(i), b.device)) l[i] = *place * enc.num(lb[i]) + l[i];
    }
    return l;
  }
  std::vector<z3::expr> operator()(const LoweredPermute&) const { return b.index; }
  std::vector<z3::expr> operator()(const LoweredReduceScatter& s) const {
    auto l = b.index;
    l[at(s.dim)] = l[at(s.dim)] - enc.member_index(s.group, b.device) * enc.num(la[at(s.dim)]);
    return l;
  }
  std::vector<z3::expr> operator()(const LoweredAllReduce&) const { return b.index; }
  std::vector<z3::expr> operator()(const LoweredAddPending&) const { return b.index; }
  // The index the box that stays on b's device and holds b.l gives it (b.l elsewhere);
  // symbolic: b's global index less the start of there's block.
  std::vector<z3::expr> operator()(const LoweredTransfer& t) const {
    auto l = b.index;
    if (t.symbolic) {
      for (std::size_t i = 0; i < l.size(); ++i)
        l[i] = enc.global(step.before.type, b, i) -
               enc.mixed_radix(there, step.after.type.dims[i].axes) * enc.num(la[i]);
      return l;
    }
    for (const auto& box : t.sends) {
      if (box.from != box.to) continue;
      const z3::expr inside = holds_at_source(enc, box, b);
      for (std::size_t i = 0; i < l.size(); ++i)
        l[i] = z3::ite(inside, b.index[i] - enc.num(box.src_start[i]) + enc.num(box.dst_start[i]), l[i]);
    }
    return l;
  }
};

}  // namespace

z3::expr stays_on_device(Encoding& enc, const LoweredStep& step, const Location& before) {
  const auto& t = std::get<LoweredTransfer>(step.op);
  if (t.symbolic) return on_mesh(enc, step.after.mesh, enc.physical(before.device));
  z3::expr_vector stays(enc.query().ctx());
  for (const auto& box : t.sends)
    if (box.from == box.to) stays.push_back(holds_at_source(enc, box, before));
  return z3::mk_or(stays);
}

z3::expr relate(Encoding& enc, const LoweredStep& step, const Location& before, const Location& after) {
  return std::visit(Relate{enc, step, before, after}, step.op);
}

std::vector<z3::expr> stay_index(Encoding& enc, const LoweredStep& step, const Location& before, const Device& there) {
  return std::visit(Stay{enc, step, before, there}, step.op);
}

std::optional<std::vector<int64_t>> produced_shape(const LoweredStep& step) {
  std::vector<int64_t> shape = local_shape(step.before.type);
  auto split = [&shape](int dim, int64_t parts) {
    if (shape[at(dim)] % parts != 0) return false;
    shape[at(dim)] /= parts;
    return true;
  };
  const bool ok = std::visit(
      [&](const auto& s) {
        using Op = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<Op, LoweredSlice>) {
          shape[at(s.dim)] = s.chunk;
        } else if constexpr (std::is_same_v<Op, LoweredGather>) {
          // The concatenation, of which the first L_after[dim] are kept (a padded tail
          // dropped); whether only padding is dropped is G1's question, not this one.
          // A fused one: its parts one after another.
          for (const auto& p : s.parts) {
            const int64_t kept = local_shape(step.after.type)[at(p.dim)];
            shape[at(p.dim)] = std::min(shape[at(p.dim)] * p.size, kept);
          }
        } else if constexpr (std::is_same_v<Op, LoweredAllToAll>) {
          // Chunks of ceil(extent / members) (a padded buffer padded to whole chunks);
          // the concatenation cut to L_after[concat] like a gather's.
          // A fused one: its parts one after another.
          for (const auto& p : s.parts) {
            auto& extent = shape[at(p.split_dim)];
            extent = extent / p.size + (extent % p.size != 0);
            const int64_t kept = local_shape(step.after.type)[at(p.concat_dim)];
            shape[at(p.concat_dim)] = std::min(shape[at(p.concat_dim)] * p.size, kept);
          }
        } else if constexpr (std::is_same_v<Op, LoweredReduceScatter>) {
          return split(s.dim, s.group.size);
        } else if constexpr (std::is_same_v<Op, LoweredTransfer>) {
          shape = local_shape(step.after.type);  // new buffers of the target's shape
        }
        return true;
      },
      step.op);
  if (!ok) return std::nullopt;
  return shape;
}

bool communicates(const LoweredStep& step) {
  return !std::holds_alternative<LoweredSlice>(step.op) && !std::holds_alternative<LoweredAddPending>(step.op);
}

bool reduces(const LoweredStep& step) {
  return std::holds_alternative<LoweredReduceScatter>(step.op) || std::holds_alternative<LoweredAllReduce>(step.op);
}

bool adds_pending(const LoweredStep& step) { return std::holds_alternative<LoweredAddPending>(step.op); }

}  // namespace redist::smt
