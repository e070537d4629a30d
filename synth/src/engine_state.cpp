// The search engine's factor-level states and the frame of one search (engine_state.hpp).

#include "engine_state.hpp"

#include <algorithm>

#include "same_blocks.hpp"

namespace redist::engine_detail {

namespace {

void mix(std::size_t& h, uint64_t v) { h = (h ^ v) * 1099511628211ull; }

void mix(std::size_t& h, const Factors& factors) {
  mix(h, factors.size());
  for (const auto& f : factors) {
    mix(h, static_cast<uint64_t>(f.axis));
    mix(h, static_cast<uint64_t>(f.pre));
    mix(h, static_cast<uint64_t>(f.size));
  }
}

}  // namespace

std::size_t StateHash::operator()(const State& s) const {
  std::size_t h = 1469598103934665603ull;
  for (const auto& d : s.dims) mix(h, d);
  mix(h, s.reduce);
  mix(h, s.permuted);
  mix(h, s.received);
  return h;
}

std::size_t DimChangeHash::operator()(const DimChange& c) const {
  std::size_t h = 1469598103934665603ull;
  mix(h, c.from);
  mix(h, c.to);
  return h;
}

bool stays_in_place(const Frame& frame, const State& s, const State& t) {
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    auto [it, fresh] = frame.dim_stays.try_emplace(DimChange{s.dims[d], t.dims[d]}, false);
    if (fresh)
      it->second = synth_detail::same_blocks(frame.src_mesh, {&s.dims[d], 1}, frame.dst_mesh, {&t.dims[d], 1});
    if (!it->second) return false;
  }
  return true;
}

bool compatible(const Factor& a, const Factor& b) {
  if (a.axis != b.axis) return true;
  if (a.pre == b.pre) return false;
  const Factor& major = a.pre < b.pre ? a : b;
  const Factor& minor = a.pre < b.pre ? b : a;
  return minor.pre % major.end() == 0;
}

bool fits(const State& s, const Factor& f) {
  for (const auto& d : s.dims)
    for (const auto& u : d)
      if (!compatible(u, f)) return false;
  for (const auto& u : s.reduce)
    if (!compatible(u, f)) return false;
  return true;
}

Tiles tiles_of(const State& s) {
  Tiles tiles;
  for (const auto& d : s.dims) tiles.push_back(product(d));
  return tiles;
}

int64_t local_bytes(const Frame& frame, const Tiles& tiles) {
  int64_t bytes = frame.elem_bytes;
  for (std::size_t d = 0; d < tiles.size(); ++d) bytes *= (frame.globals[d] + tiles[d] - 1) / tiles[d];
  return bytes;
}

int64_t local_bytes(const Frame& frame, const State& s) { return local_bytes(frame, tiles_of(s)); }

Factors free_regions(const Frame& frame, const State& s) {
  Factors used = s.reduce;
  for (const auto& d : s.dims) used.insert(used.end(), d.begin(), d.end());
  return synth_detail::gaps(frame.axis_sizes, std::move(used));
}

void append_sub_factors(const Factor& region, Factors& out) {
  // (region.pre * a, b) with a * b dividing region.size.
  for (int64_t a = 1; a < region.size; ++a) {
    if (region.size % a != 0) continue;
    const int64_t rest = region.size / a;
    for (int64_t b = 2; b <= rest; ++b)
      if (rest % b == 0) out.push_back({region.axis, region.pre * a, b});
  }
}

LinkClass slowest(const Frame& frame, const Factors& factors) {
  LinkClass c = LinkClass::intra;
  for (const auto& f : factors)
    if (f.size > 1) c = slower(c, frame.classes[static_cast<std::size_t>(f.axis)]);
  return c;
}

State state_of(const DistType& type, const Mesh& mesh, bool permuted) {
  State s;
  for (const auto& d : type.dims) s.dims.push_back(synth_detail::factors_of(d.axes, mesh));
  s.reduce = synth_detail::factors_of(type.reduce_axes, mesh);
  s.permuted = permuted;
  return s;
}

DistType type_of(const Frame& frame, const State& s) {
  DistType t = frame.like;
  for (std::size_t d = 0; d < s.dims.size(); ++d) t.dims[d].axes = refs_of(s.dims[d], frame.src_mesh);
  t.reduce_axes = refs_of(s.reduce, frame.src_mesh);
  if (t.reduce_axes.empty()) t.reduce_op = ReduceOp::sum;
  return t;
}

State without_size_one(State s) {
  for (auto& d : s.dims)
    d.erase(std::remove_if(d.begin(), d.end(), [](const Factor& f) { return f.size == 1; }), d.end());
  return s;
}

Frame make_frame(const CostModel& model, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                 const DistType& dst, int64_t budget) {
  Frame f;
  for (const auto& axis : src_mesh.axes()) {
    f.axis_sizes.push_back(axis.size);
    f.classes.push_back(model.class_of(axis.name));
  }
  for (const auto& d : src.dims) f.globals.push_back(d.global);
  f.elem_bytes = elem_bytes(src.elem);
  f.budget_bytes = budget;
  f.model = &model;
  f.src_mesh = src_mesh;
  f.dst_mesh = dst_mesh;
  f.mesh_change = !(src_mesh == dst_mesh);
  f.like = src;
  f.padded = has_padding(src) || has_padding(dst);
  f.target_padded = has_padding(dst);
  if (!src.reduce_axes.empty()) f.like.reduce_op = src.reduce_op;
  else f.like.reduce_op = dst.reduce_op;
  f.target = state_of(canonical(dst, dst_mesh), dst_mesh, false);
  // A change of device order that carries the source to another type on the new order
  // (same_blocks.hpp): that permute, which moves nothing, is offered from the source.
  if (f.mesh_change)
    if (auto moved = synth_detail::same_blocks_type(src_mesh, src, dst_mesh))
      f.permute_hints.emplace_back(state_of(canonical(src, src_mesh), src_mesh, false),
                                   state_of(canonical(*moved, dst_mesh), dst_mesh, true));
  for (const auto& region : free_regions(f, f.target)) append_sub_factors(region, f.pool);
  const std::size_t free_in_target = f.pool.size();
  for (int axis = 0; axis < static_cast<int>(f.axis_sizes.size()); ++axis) {
    Factors all;
    append_sub_factors(Factor{axis, 1, f.axis_sizes[static_cast<std::size_t>(axis)]}, all);
    for (const auto& x : all)
      if (std::find(f.pool.begin(), f.pool.end(), x) == f.pool.end()) f.pool.push_back(x);
  }
  for (const auto& d : f.target.dims)
    for (const auto& x : d)
      if (x.size == 1) f.size_one_axes.push_back(x.axis);
  f.counted_target = without_size_one(f.target);
  f.size_one_mesh_axes = std::find(f.axis_sizes.begin(), f.axis_sizes.end(), 1) != f.axis_sizes.end();
  for (std::size_t a = 0; a < f.axis_sizes.size(); ++a)
    if (f.axis_sizes[a] > 1) f.order_change_link = slower(f.order_change_link, f.classes[a]);
  f.min_latency_us = std::min(model.intra.latency_us, model.inter.latency_us);
  f.max_bandwidth_gbps = std::max(model.intra.bandwidth_gbps, model.inter.bandwidth_gbps);
  if (model.intra.bandwidth_gbps != model.inter.bandwidth_gbps)
    f.slow_class = model.intra.bandwidth_gbps < model.inter.bandwidth_gbps ? LinkClass::intra : LinkClass::inter;
  else if (model.intra.latency_us != model.inter.latency_us)
    f.slow_class = model.intra.latency_us > model.inter.latency_us ? LinkClass::intra : LinkClass::inter;
  f.slow_latency_us = f.slow_class == LinkClass::intra ? model.intra.latency_us : model.inter.latency_us;
  for (std::size_t a = 0; a < f.axis_sizes.size(); ++a)
    if (f.classes[a] != f.slow_class) f.fast_group_size *= static_cast<double>(f.axis_sizes[a]);
  for (const int64_t g : f.globals) f.array_elements *= static_cast<double>(g);
  f.device_count = src_mesh.num_devices();
  // A group's size has a prime factor of some axis: (p - 1) / p over the axes' primes.
  for (const auto& digit : synth_detail::digits_of(src_mesh)) {
    const double p = static_cast<double>(digit.radix), share = (p - 1) / p;
    f.step_fraction = std::min(f.step_fraction, share);
    if (!f.slow_class || f.classes[static_cast<std::size_t>(digit.axis)] == *f.slow_class)
      f.slow_step_fraction = std::min(f.slow_step_fraction, share);
  }
  // The permute targets pad dims with pool factors in pool order, and a search offers a
  // state only the first few targets: of the factors the target leaves replicated, those
  // of fast axes go first, so that what a permute leaves to gather is gathered on fast
  // links.
  if (f.slow_class) {
    auto fast = [&](const Factor& x) { return f.classes[static_cast<std::size_t>(x.axis)] != *f.slow_class; };
    std::stable_partition(f.pool.begin(), f.pool.begin() + static_cast<std::ptrdiff_t>(free_in_target), fast);
  }
  return f;
}

}  // namespace redist::engine_detail
