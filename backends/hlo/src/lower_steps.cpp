// Step lowering: a slice -> dynamic-slice with offsets looked up by partition id (after
// a pad when the chunks reach past a padded buffer: XLA clamps the offsets of a
// dynamic-slice); a gather on a padded dim -> all-gather then a dynamic-slice dropping
// the padding; a fused gather -> one all-gather on a new major dim, reshape, transpose,
// reshape; an all-to-all between two dims -> (pad,) reshape, all-to-all, transpose,
// reshape (as XLA does) (, dynamic-slice); a permute -> one collective-permute per
// round of distinct sources; an add_pending -> a select between the buffer and the
// op's identity by a per-partition flag; a transfer between device sets -> rounds of
// dynamic-slice, collective-permute and dynamic-update-slice.

#include "lower_steps.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace redist::hlo::detail {
namespace {

std::vector<int64_t> after_shape(const LoweredStep& step) { return local_shape(step.after.type); }

ValueId lower(Builder& b, const LoweredStep& step, const LoweredSlice& slice, ValueId value) {
  if (slice.group.size == 1) return value;
  const std::vector<int64_t> shape = after_shape(step);
  const std::vector<int64_t> offsets = slice_offsets(slice, step.before.mesh);
  const auto dim = static_cast<std::size_t>(slice.dim);
  std::vector<ValueId> operands{b.pad_to(value, dim, *std::max_element(offsets.begin(), offsets.end()) + slice.chunk)};
  for (std::size_t d = 0; d < shape.size(); ++d) operands.push_back(d == dim ? b.lookup(offsets) : b.zero());
  return b.add(DynamicSlice{}, std::move(operands), TensorType{step.after.type.elem, shape});
}

/// `v` transposed so that result dim i is operand dim perm[i].
ValueId transpose(Builder& b, ValueId v, const std::vector<std::size_t>& perm) {
  const TensorType t = b.type_of(v);
  std::vector<int64_t> order, shape;
  for (std::size_t p : perm) {
    order.push_back(static_cast<int64_t>(p));
    shape.push_back(t.shape[p]);
  }
  return b.add(Transpose{order}, {v}, TensorType{t.elem, std::move(shape)});
}

/// Returns a fused all-gather (several parts over one group; dims unpadded) lowered as
/// ONE HLO all-gather: the buffer gets a new major dim of 1, gathered into group.size buffers in
/// member order, that dim reshaped into the members' digits (part 0 most significant),
/// each digit transposed to the major end of its part's dim, and reshaped to the result.
ValueId lower_fused(Builder& b, const LoweredStep& step, const LoweredGather& gather, ValueId value) {
  const std::vector<int64_t> before = local_shape(step.before.type);
  const std::size_t parts = gather.parts.size(), rank = before.size();
  std::vector<int64_t> one{1}, all{gather.group.size}, digits;
  one.insert(one.end(), before.begin(), before.end());
  all.insert(all.end(), before.begin(), before.end());
  for (const auto& p : gather.parts) digits.push_back(p.size);
  digits.insert(digits.end(), before.begin(), before.end());
  ValueId v = b.add(AllGather{0, group_table(gather.group, step.before.mesh), b.next_channel()}, {b.reshape(value, one)},
                    TensorType{step.after.type.elem, all});
  v = b.reshape(v, digits);
  std::vector<std::size_t> back;  // [digit of the part gathering d (if any), d] for each dim d
  for (std::size_t d = 0; d < rank; ++d) {
    for (std::size_t k = 0; k < parts; ++k)
      if (gather.parts[k].dim == static_cast<int>(d)) back.push_back(k);
    back.push_back(parts + d);
  }
  return b.reshape(transpose(b, v, back), after_shape(step));
}

/// An all-gather; on a padded dim the concatenation is longer than the result's local
/// size and a dynamic-slice at offset 0 drops its padded tail. Several parts: lower_fused.
ValueId lower(Builder& b, const LoweredStep& step, const LoweredGather& gather, ValueId value) {
  if (gather.group.size == 1) return value;
  if (gather.parts.size() > 1) return lower_fused(b, step, gather, value);
  const int dim = gather.parts[0].dim;
  std::vector<int64_t> gathered = local_shape(step.before.type);
  gathered[static_cast<std::size_t>(dim)] *= gather.group.size;
  const ValueId all = b.add(AllGather{dim, group_table(gather.group, step.before.mesh), b.next_channel()},
                            {value}, TensorType{step.after.type.elem, gathered});
  return b.prefix(all, after_shape(step));
}

/// A fused all-to-all (several parts over one group; dims unpadded) as ONE HLO
/// all-to-all: reshape each split dim into its parts' chunk digits and the chunk,
/// transpose the digits to the front in part order and reshape them into one dim of
/// group.size chunks (member index order, part 0 most significant), exchange that dim,
/// reshape it back into the senders' digits, transpose each digit to the major end of
/// its concat dim (the parts concatenating there in reverse order) and reshape to the
/// result.
ValueId lower_fused(Builder& b, const LoweredStep& step, const LoweredAllToAll& a2a, ValueId value) {
  const ElemType elem = step.before.type.elem;
  const std::vector<int64_t> before = local_shape(step.before.type);
  const std::size_t parts = a2a.parts.size(), rank = before.size();
  // Split dims into [digits of the parts splitting it..., chunk]; remember where each
  // part's digit and each dim's rest lands.
  std::vector<int64_t> expanded;
  std::vector<std::size_t> digit_at(parts), rest_at(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    int64_t rest = before[d];
    for (std::size_t k = 0; k < parts; ++k)
      if (a2a.parts[k].split_dim == static_cast<int>(d)) {
        digit_at[k] = expanded.size();
        expanded.push_back(a2a.parts[k].size);
        rest /= a2a.parts[k].size;
      }
    rest_at[d] = expanded.size();
    expanded.push_back(rest);
  }
  ValueId v = b.reshape(value, expanded);
  std::vector<std::size_t> perm(digit_at);
  for (std::size_t d = 0; d < rank; ++d) perm.push_back(rest_at[d]);
  v = transpose(b, v, perm);
  std::vector<int64_t> chunks{a2a.group.size};
  for (std::size_t d = 0; d < rank; ++d) chunks.push_back(expanded[rest_at[d]]);
  v = b.reshape(v, chunks);
  v = b.add(AllToAll{0, group_table(a2a.group, step.before.mesh), b.next_channel()}, {v}, TensorType{elem, chunks});
  // Now [sender digits (part order)..., rest dims...]: each concat dim takes the
  // digits of the parts concatenating there, last part most significant.
  std::vector<int64_t> senders;
  for (const auto& p : a2a.parts) senders.push_back(p.size);
  senders.insert(senders.end(), chunks.begin() + 1, chunks.end());
  v = b.reshape(v, senders);
  std::vector<std::size_t> back;
  for (std::size_t d = 0; d < rank; ++d) {
    for (std::size_t k = parts; k-- > 0;)
      if (a2a.parts[k].concat_dim == static_cast<int>(d)) back.push_back(k);
    back.push_back(parts + d);
  }
  return b.reshape(transpose(b, v, back), after_shape(step));
}

/// Split along split_dim, exchange, concatenate along concat_dim, through HLO's
/// one-dim all-to-all: the chunk index gets its own dim, is exchanged, then becomes
/// the major part of the concat dim. A padded split dim is first padded to whole
/// chunks, and a padded concat dim's tail dropped after. Several parts: lower_fused.
ValueId lower(Builder& b, const LoweredStep& step, const LoweredAllToAll& a2a, ValueId value) {
  const int64_t k = a2a.group.size;
  if (k == 1) return value;
  if (a2a.parts.size() > 1) return lower_fused(b, step, a2a, value);
  const auto split = static_cast<std::size_t>(a2a.parts[0].split_dim);
  const auto concat = static_cast<std::size_t>(a2a.parts[0].concat_dim);
  const ElemType elem = step.before.type.elem;
  const std::vector<int64_t> after = after_shape(step);
  ValueId v = b.pad_to(value, split, k * after[split]);
  std::vector<int64_t> expanded = b.type_of(v).shape;
  expanded[split] /= k;
  expanded.insert(expanded.begin() + static_cast<std::ptrdiff_t>(split), k);
  v = b.reshape(v, expanded);
  v = b.add(AllToAll{static_cast<int64_t>(split), group_table(a2a.group, step.before.mesh), b.next_channel()}, {v},
            TensorType{elem, expanded});
  const std::size_t concat_pos = concat < split ? concat : concat + 1;
  std::vector<int64_t> perm;
  for (std::size_t i = 0; i < expanded.size(); ++i) {
    if (i == concat_pos) perm.push_back(static_cast<int64_t>(split));
    if (i != split) perm.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> transposed;
  for (int64_t p : perm) transposed.push_back(expanded[static_cast<std::size_t>(p)]);
  v = b.add(Transpose{perm}, {v}, TensorType{elem, transposed});
  std::vector<int64_t> concatenated = after;
  concatenated[concat] = k * local_shape(step.before.type)[concat];
  return b.prefix(b.reshape(v, concatenated), after);
}

/// Rounds of (source, target) pairs in which every source sends at most once (XLA's
/// requirement); a device keeping its own buffer is served in the first round.
std::vector<std::vector<std::pair<int64_t, int64_t>>> permute_rounds(const DevicePairs& pairs) {
  std::map<int64_t, std::vector<int64_t>> targets;
  for (const auto& [source, target] : pairs) targets[source].push_back(target);
  std::vector<std::vector<std::pair<int64_t, int64_t>>> rounds;
  for (auto& [source, list] : targets) {
    std::stable_partition(list.begin(), list.end(), [s = source](int64_t t) { return t == s; });
    for (std::size_t r = 0; r < list.size(); ++r) {
      if (rounds.size() <= r) rounds.emplace_back();
      rounds[r].emplace_back(source, list[r]);
    }
  }
  return rounds;
}

ValueId lower(Builder& b, const LoweredStep& step, const LoweredPermute& permute, ValueId value) {
  const DevicePairs pairs = pair_table(permute, step.before.mesh, step.after.mesh);
  if (std::all_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == p.second; })) return value;
  const auto rounds = permute_rounds(pairs);
  const TensorType type = b.type_of(value);
  if (rounds.size() == 1) return b.add(CollectivePermute{rounds.front(), b.next_channel()}, {value}, type);
  // Each device is the target of exactly one round: stack the rounds' results and keep
  // the one addressed to this device.
  std::vector<int64_t> round_of(static_cast<std::size_t>(b.program().num_partitions), 0);
  std::vector<int64_t> stacked_shape = type.shape;
  stacked_shape.insert(stacked_shape.begin(), 1);
  std::vector<ValueId> parts;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    for (const auto& pair : rounds[r]) round_of[static_cast<std::size_t>(pair.second)] = static_cast<int64_t>(r);
    const ValueId moved = b.add(CollectivePermute{rounds[r], b.next_channel()}, {value}, type);
    parts.push_back(b.reshape(moved, stacked_shape));
  }
  std::vector<int64_t> all_shape = stacked_shape;
  all_shape[0] = static_cast<int64_t>(rounds.size());
  const ValueId all = b.add(Concatenate{0}, parts, TensorType{type.elem, all_shape});
  std::vector<ValueId> operands{all, b.lookup(round_of)};
  for (std::size_t d = 0; d < type.shape.size(); ++d) operands.push_back(b.zero());
  const ValueId mine = b.add(DynamicSlice{}, std::move(operands), TensorType{type.elem, stacked_shape});
  return b.reshape(mine, type.shape);
}

ValueId lower(Builder& b, const LoweredStep& step, const LoweredReduceScatter& rs, ValueId value) {
  if (rs.group.size == 1) return value;
  return b.add(ReduceScatter{rs.dim, group_table(rs.group, step.before.mesh), b.next_channel(), rs.op}, {value},
               TensorType{step.after.type.elem, after_shape(step)});
}

ValueId lower(Builder& b, const LoweredStep& step, const LoweredAllReduce& ar, ValueId value) {
  if (ar.group.size == 1) return value;
  return b.add(AllReduce{group_table(ar.group, step.before.mesh), b.next_channel(), ar.op}, {value},
               TensorType{step.after.type.elem, after_shape(step)});
}

/// Member 0 of each group keeps its buffer, the others take the op's identity:
/// select(broadcast(keep[partition id] != 0), value, broadcast(identity)). A partition
/// off the step's mesh (in a program over the union of two device sets) keeps its zeros.
ValueId lower(Builder& b, const LoweredStep& step, const LoweredAddPending& add, ValueId value) {
  if (add.group.size == 1) return value;
  std::vector<int64_t> keep(static_cast<std::size_t>(b.program().num_partitions), 0);
  for (int64_t d = 0; d < b.program().num_partitions; ++d)
    if (!step.before.mesh.has_device(d)) keep[static_cast<std::size_t>(d)] = 1;
  for (const auto& group : group_table(add.group, step.before.mesh)) keep[static_cast<std::size_t>(group.front())] = 1;
  const TensorType type = b.type_of(value);
  const ValueId flag = b.add(Convert{}, {b.lookup(keep)}, TensorType{ElemType::pred, {}});
  const ValueId mask = b.add(Broadcast{}, {flag}, TensorType{ElemType::pred, type.shape});
  const ValueId identity = b.add(Identity{add.op}, {}, TensorType{type.elem, {}});
  const ValueId fill = b.add(Broadcast{}, {identity}, type);
  return b.add(Select{}, {mask, value, fill}, type);
}

/// A transfer between device sets, in a program over the union of the devices where
/// every device holds a buffer of the source's local shape (a device outside the source
/// mesh holds zeros it never sends). Each send is cut into pieces of one shape G (per
/// dim the gcd of the sends' extents), and the pieces go in rounds in which a device
/// sends at most one and receives at most one: per round a dynamic-slice at the
/// sender's offset (looked up by partition id), one collective-permute, and on the
/// receivers a dynamic-update-slice at their offset into the new buffer (zeros first),
/// selected by a per-partition flag so that a device receiving nothing keeps its buffer.
ValueId lower(Builder& b, const LoweredStep& step, const LoweredTransfer& t, ValueId value) {
  const ElemType elem = step.after.type.elem;
  const std::vector<int64_t> out_shape = after_shape(step);
  const std::size_t rank = out_shape.size();
  std::vector<int64_t> g(rank, 0);
  for (const auto& box : t.sends)
    for (std::size_t d = 0; d < rank; ++d) g[d] = std::gcd(g[d], box.extent[d]);
  struct Piece {
    int64_t from, to;
    std::vector<int64_t> src, dst;
  };
  std::vector<std::vector<Piece>> rounds;
  std::vector<std::set<int64_t>> senders, receivers;
  for (const auto& box : t.sends) {
    std::vector<int64_t> k(rank, 0);  // piece index inside the box
    for (bool more = true; more;) {
      Piece p{box.from, box.to, box.src_start, box.dst_start};
      for (std::size_t d = 0; d < rank; ++d) {
        p.src[d] += k[d] * g[d];
        p.dst[d] += k[d] * g[d];
      }
      std::size_t r = 0;
      while (r < rounds.size() && (senders[r].contains(p.from) || receivers[r].contains(p.to))) ++r;
      if (r == rounds.size()) {
        rounds.emplace_back();
        senders.emplace_back();
        receivers.emplace_back();
      }
      senders[r].insert(p.from);
      receivers[r].insert(p.to);
      rounds[r].push_back(std::move(p));
      more = false;
      for (std::size_t d = rank; d-- > 0;) {
        if (++k[d] < box.extent[d] / g[d]) {
          more = true;
          break;
        }
        k[d] = 0;
      }
    }
  }
  const auto n = static_cast<std::size_t>(b.program().num_partitions);
  const TensorType out_type{elem, out_shape};
  ValueId acc = b.add(Broadcast{}, {b.add(Identity{ReduceOp::sum}, {}, TensorType{elem, {}})}, out_type);
  for (const auto& round : rounds) {
    std::vector<std::vector<int64_t>> src(rank, std::vector<int64_t>(n, 0)), dst = src;
    std::vector<int64_t> receives(n, 0);
    std::vector<std::pair<int64_t, int64_t>> pairs;
    for (const auto& p : round) {
      for (std::size_t d = 0; d < rank; ++d) {
        src[d][static_cast<std::size_t>(p.from)] = p.src[d];
        dst[d][static_cast<std::size_t>(p.to)] = p.dst[d];
      }
      receives[static_cast<std::size_t>(p.to)] = 1;
      pairs.emplace_back(p.from, p.to);
    }
    std::vector<ValueId> slice{value};
    for (std::size_t d = 0; d < rank; ++d) slice.push_back(b.lookup(src[d]));
    const TensorType piece{elem, g};
    const ValueId payload = b.add(DynamicSlice{}, std::move(slice), piece);
    const ValueId moved = b.add(CollectivePermute{pairs, b.next_channel()}, {payload}, piece);
    std::vector<ValueId> update{acc, moved};
    for (std::size_t d = 0; d < rank; ++d) update.push_back(b.lookup(dst[d]));
    const ValueId updated = b.add(DynamicUpdateSlice{}, std::move(update), out_type);
    const ValueId flag = b.add(Convert{}, {b.lookup(receives)}, TensorType{ElemType::pred, {}});
    const ValueId mask = b.add(Broadcast{}, {flag}, TensorType{ElemType::pred, out_shape});
    acc = b.add(Select{}, {mask, updated, acc}, out_type);
  }
  return acc;
}

}  // namespace

ValueId lower_step(Builder& b, const LoweredStep& step, ValueId value) {
  return std::visit(
      [&](const auto& op) { return lower(b, step, op, value); }, step.op);
}

}  // namespace redist::hlo::detail
