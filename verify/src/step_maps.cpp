// Backward and forward element maps of the lowered steps, on mixed-radix numbers.

#include "step_maps.hpp"

#include <type_traits>

namespace redist::smt {

namespace {

std::size_t at(int dim) { return static_cast<std::size_t>(dim); }

/// The source device (on `from`) that sends to `target` (on the after-mesh).
Device permute_source(Encoder& enc, const LoweredPermute& p, const Mesh& from, const Device& target) {
  if (p.table) {
    std::vector<int64_t> source_of(static_cast<std::size_t>(target.mesh->num_devices()), 0);
    for (const auto& [source, to] : *p.table) source_of[static_cast<std::size_t>(to)] = source;
    return enc.on_mesh(from, enc.table("pairs", &*p.table, source_of, enc.physical(target)));
  }
  Device source{&from, target.coords};
  for (const auto& move : p.moves)
    source = enc.with_digits(source, move.source_axes, enc.mixed_radix(target, move.target_axes));
  return source;
}

/// Backward map of each step kind.
struct Back {
  Encoder& enc;
  const LoweredStep& step;
  const Located& after;
  std::vector<int64_t> sb = local_shape(step.before.type);
  std::vector<int64_t> sa = local_shape(step.after.type);

  Origin operator()(const LoweredSlice& s) const {
    Located before = after;
    const Number& l = after.index[at(s.dim)];
    if (!s.offsets) {  // member * chunk + l
      before.index[at(s.dim)] = Encoder::concat(enc.member_index(s.group, after.device), l);
      return {before, enc.yes(), enc.no()};
    }
    const z3::expr index = enc.table("offsets", &*s.offsets, *s.offsets, enc.physical(after.device)) + enc.value(l);
    before.index[at(s.dim)] = Number{{Digit{index, sb[at(s.dim)]}}, false};
    return {before, index >= 0 && index < enc.num(sb[at(s.dim)]), enc.no()};
  }
  Origin operator()(const LoweredGather& s) const {
    auto [j, l] = enc.split(after.index[at(s.dim)], sb[at(s.dim)]);
    Located before{enc.member(s.group, after.device, j), after.index};
    before.index[at(s.dim)] = l;
    return {before, enc.yes(), !enc.equal(j, enc.member_index(s.group, after.device))};
  }
  Origin operator()(const LoweredAllToAll& s) const {
    const Number i = enc.member_index(s.group, after.device);
    auto [j, l] = enc.split(after.index[at(s.concat_dim)], sb[at(s.concat_dim)]);
    Located before{enc.member(s.group, after.device, j), after.index};
    before.index[at(s.concat_dim)] = l;
    before.index[at(s.split_dim)] = Encoder::concat(i, after.index[at(s.split_dim)]);
    return {before, enc.yes(), !enc.equal(j, i)};
  }
  Origin operator()(const LoweredPermute& p) const {
    Device source = permute_source(enc, p, step.before.mesh, after.device);
    const z3::expr moved = !enc.same(source, after.device);
    return {Located{std::move(source), after.index}, enc.yes(), moved};
  }
  Origin operator()(const LoweredReduceScatter&) const { return {after, enc.no(), enc.no()}; }
  Origin operator()(const LoweredAllReduce&) const { return {after, enc.no(), enc.no()}; }
};

/// Forward map, on one device, of each step kind.
struct Forward {
  Encoder& enc;
  const LoweredStep& step;
  const Located& before;
  std::vector<int64_t> sb = local_shape(step.before.type);
  std::vector<int64_t> sa = local_shape(step.after.type);

  Fate operator()(const LoweredSlice& s) const {
    const Number& l = before.index[at(s.dim)];
    Located after = before;
    if (!s.offsets) {  // kept when the top digits of l are the device's member index
      auto [chunk_index, rest] = enc.split(l, s.chunk);
      const z3::expr kept = enc.equal(chunk_index, enc.member_index(s.group, before.device));
      after.index[at(s.dim)] = rest;
      return {after, kept, !kept};
    }
    const z3::expr offset = enc.table("offsets", &*s.offsets, *s.offsets, enc.physical(before.device));
    const z3::expr v = enc.value(l);
    const z3::expr kept = v >= offset && v < offset + enc.num(s.chunk);
    after.index[at(s.dim)] = Number{{Digit{v - offset, s.chunk}}, false};
    return {after, kept, !kept};
  }
  Fate operator()(const LoweredGather& s) const {
    Located after = before;
    after.index[at(s.dim)] = Encoder::concat(enc.member_index(s.group, before.device), before.index[at(s.dim)]);
    return {after, enc.yes(), enc.no()};
  }
  Fate operator()(const LoweredAllToAll& s) const {
    const Number i = enc.member_index(s.group, before.device);
    auto [chunk_index, rest] = enc.split(before.index[at(s.split_dim)], sa[at(s.split_dim)]);
    Located after = before;
    after.index[at(s.split_dim)] = rest;
    after.index[at(s.concat_dim)] = Encoder::concat(i, before.index[at(s.concat_dim)]);
    return {after, enc.equal(chunk_index, i), enc.no()};
  }
  Fate operator()(const LoweredPermute& p) const {
    Located after{enc.moved_to(before.device, step.after.mesh), before.index};
    const Device source = permute_source(enc, p, step.before.mesh, after.device);
    return {after, enc.same(source, before.device), enc.no()};
  }
  Fate operator()(const LoweredReduceScatter&) const { return {before, enc.no(), enc.no()}; }
  Fate operator()(const LoweredAllReduce&) const { return {before, enc.no(), enc.no()}; }
};

}  // namespace

Origin step_back(Encoder& enc, const LoweredStep& step, const Located& after) {
  return std::visit(Back{enc, step, after}, step.op);
}

Fate step_forward(Encoder& enc, const LoweredStep& step, const Located& before) {
  return std::visit(Forward{enc, step, before}, step.op);
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
          shape[at(s.dim)] *= s.group.size;
        } else if constexpr (std::is_same_v<Op, LoweredAllToAll>) {
          if (!split(s.split_dim, s.group.size)) return false;
          shape[at(s.concat_dim)] *= s.group.size;
        } else if constexpr (std::is_same_v<Op, LoweredReduceScatter>) {
          return split(s.dim, s.group.size);
        }
        return true;
      },
      step.op);
  if (!ok) return std::nullopt;
  return shape;
}

bool communicates(const LoweredStep& step) {
  return std::holds_alternative<LoweredGather>(step.op) || std::holds_alternative<LoweredAllToAll>(step.op) ||
         std::holds_alternative<LoweredPermute>(step.op);
}

bool reduces(const LoweredStep& step) {
  return std::holds_alternative<LoweredReduceScatter>(step.op) || std::holds_alternative<LoweredAllReduce>(step.op);
}

}  // namespace redist::smt
