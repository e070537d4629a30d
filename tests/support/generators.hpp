#pragma once
// RapidCheck generators of random meshes and distributed array types, shared by the
// tests of every folder.

#include <rapidcheck.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"

namespace redist::testing {

struct MeshOptions {
  int max_axes = 4;
  int max_axis_size = 8;
  int64_t max_devices = 256;
  bool explicit_order = true;  // sometimes give a shuffled devices=[...]
};

/// A random mesh with 1..max_axes axes named x, y, z, w, u, v of sizes 1..max_axis_size.
// Generators are resized to RapidCheck's nominal size: inRange scales with the test
// size, which would otherwise give only tiny meshes early in a run.
inline rc::Gen<Mesh> gen_mesh(MeshOptions opt = {}) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::exec([opt] {
    static const char* names[] = {"x", "y", "z", "w", "u", "v"};
    const int rank = *rc::gen::inRange(1, opt.max_axes + 1);
    std::vector<MeshAxis> axes;
    int64_t devices = 1;
    for (int i = 0; i < rank; ++i) {
      const int64_t limit = std::max<int64_t>(1, std::min<int64_t>(opt.max_axis_size, opt.max_devices / devices));
      const int64_t size = *rc::gen::inRange<int64_t>(1, limit + 1);
      devices *= size;
      axes.push_back({names[i], size});
    }
    std::vector<int64_t> order;
    if (opt.explicit_order && *rc::gen::inRange(0, 4) == 0) {
      order.resize(devices);
      std::iota(order.begin(), order.end(), 0);
      const auto seed = *rc::gen::arbitrary<unsigned>();
      std::vector<std::pair<unsigned, int64_t>> keyed;
      for (int64_t d : order) keyed.push_back({(seed ^ static_cast<unsigned>(d * 2654435761u)) * 2246822519u, d});
      std::sort(keyed.begin(), keyed.end());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = keyed[i].second;
    }
    return Mesh::create(std::move(axes), std::move(order)).value();
  }));
}

/// The axis references a random type may use for `mesh`: each whole axis, or, for a
/// composite size n, sometimes sub-axes x:(1)a and x:(a)n/a at a RANDOM divisor a (so
/// two types drawn independently, e.g. a source and a target, may cut an axis at
/// boundaries that do not nest, like x:(1)2 and x:(1)3 on x:6), and sometimes a second
/// cut of the minor piece.
inline rc::Gen<std::vector<AxisRef>> gen_axis_pieces(const Mesh& mesh, bool sub_axes = true) {
  return rc::gen::exec([mesh, sub_axes] {
    std::vector<AxisRef> pieces;
    auto divisors = [](int64_t n) {
      std::vector<int64_t> out;
      for (int64_t a = 2; a < n; ++a)
        if (n % a == 0) out.push_back(a);
      return out;
    };
    for (const auto& axis : mesh.axes()) {
      if (axis.size == 1) continue;  // size-1 axes add nothing; still legal when named
      const auto cuts = divisors(axis.size);
      if (!sub_axes || cuts.empty() || *rc::gen::inRange(0, 3) != 0) {
        pieces.push_back({axis.name, 1, axis.size, false});
        continue;
      }
      const int64_t a = cuts[static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, cuts.size()))];
      pieces.push_back({axis.name, 1, a, true});
      const int64_t rest = axis.size / a;
      const auto inner = divisors(rest);
      if (!inner.empty() && *rc::gen::inRange(0, 3) == 0) {
        const int64_t b = inner[static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, inner.size()))];
        pieces.push_back({axis.name, a, b, true});
        pieces.push_back({axis.name, a * b, rest / b, true});
      } else {
        pieces.push_back({axis.name, a, rest, true});
      }
    }
    return pieces;
  });
}

struct TypeOptions {
  int max_rank = 3;
  bool divisible = true;   // global sizes multiples of tile counts
  bool reductions = false; // may put some axes in a pending sum
  bool sub_axes = true;
  int max_multiple = 3;    // global = tiles * (1..max_multiple) (+ offset when not divisible)
};

/// A random valid type over `mesh`: every axis piece goes to a random dim (in random
/// order), stays replicated, or (with reductions) becomes a reduction axis.
inline rc::Gen<DistType> gen_type(const Mesh& mesh, TypeOptions opt = {}) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::exec([mesh, opt] {
    DistType t;
    const int rank = *rc::gen::inRange(1, opt.max_rank + 1);
    t.dims.resize(rank);
    auto pieces = *gen_axis_pieces(mesh, opt.sub_axes);
    const auto order = *rc::gen::container<std::vector<unsigned>>(pieces.size(), rc::gen::arbitrary<unsigned>());
    std::vector<std::size_t> idx(pieces.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return order[a] < order[b]; });
    for (auto i : idx) {
      const int where = *rc::gen::inRange(-1 - (opt.reductions ? 1 : 0), rank);
      if (where >= 0) t.dims[where].axes.push_back(pieces[i]);
      else if (where == -2) t.reduce_axes.push_back(pieces[i]);
    }
    for (auto& d : t.dims) {
      const int64_t tiles = tile_count(d);
      const int64_t mult = *rc::gen::inRange<int64_t>(1, opt.max_multiple + 1);
      d.global = tiles * mult;
      if (!opt.divisible && tiles > 1 && *rc::gen::inRange(0, 2) == 0)
        d.global -= *rc::gen::inRange<int64_t>(1, tiles);
    }
    static const ElemType elems[] = {ElemType::f32, ElemType::bf16, ElemType::s8, ElemType::f64};
    t.elem = elems[*rc::gen::inRange(0, 4)];
    return t;
  }));
}

}  // namespace redist::testing
