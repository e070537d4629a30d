#pragma once
// Random reshard problems for the synthesis property tests: a mesh (sometimes a target
// mesh with another device order) and two divisible types without reductions over the
// same global shape.

#include <rapidcheck.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "tests/support/generators.hpp"

namespace redist::testing {

struct ReshardCase {
  Mesh mesh;
  Mesh target_mesh;
  DistType src;
  DistType dst;
};

inline std::ostream& operator<<(std::ostream& os, const ReshardCase& c) {
  os << "mesh " << to_string(c.mesh) << "\n";
  if (!(c.target_mesh == c.mesh)) os << "target mesh " << to_string(c.target_mesh) << "\n";
  return os << to_string(c.src) << " -> " << to_string(c.dst);
}

/// The case of `src` on `mesh` to `dst` on `target_mesh`, parsed (fixed test input).
inline ReshardCase parsed_case(const char* mesh, const char* target_mesh, const char* src, const char* dst) {
  ReshardCase c;
  c.mesh = parse_mesh(mesh).value();
  c.target_mesh = parse_mesh(target_mesh).value();
  c.src = parse_type(src, c.mesh).value();
  c.dst = parse_type(dst, c.target_mesh).value();
  return c;
}

/// `mesh` with a random device order: half the time any permutation of the devices,
/// half the time a permutation of the mixed-radix digits of the device position (each
/// axis split into prime digits; XLA's transposed iotas such as `<=[4,2]T(1,0)` are
/// these), under which many types are other types on the new order.
inline rc::Gen<Mesh> gen_reordered(const Mesh& mesh) {
  return rc::gen::exec([mesh] {
    std::vector<int64_t> order(static_cast<std::size_t>(mesh.num_devices()));
    if (*rc::gen::inRange(0, 2) == 0) {
      std::vector<int64_t> radix;  // digits major first
      for (const auto& axis : mesh.axes())
        for (int64_t rest = axis.size, p = 2; rest > 1; ++p)
          for (; rest % p == 0; rest /= p) radix.push_back(p);
      std::vector<int64_t> stride(radix.size());
      for (std::size_t i = radix.size(), s = 1; i-- > 0;) {
        stride[i] = static_cast<int64_t>(s);
        s *= static_cast<std::size_t>(radix[i]);
      }
      // A random permutation of the digits among those of equal radix.
      const auto keys = *rc::gen::container<std::vector<unsigned>>(radix.size(), rc::gen::arbitrary<unsigned>());
      std::vector<std::size_t> perm(radix.size());
      std::iota(perm.begin(), perm.end(), 0);
      std::stable_sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) {
        return radix[a] != radix[b] ? radix[a] < radix[b] : keys[a] < keys[b];
      });
      std::vector<std::size_t> slots(radix.size());
      std::iota(slots.begin(), slots.end(), 0);
      std::stable_sort(slots.begin(), slots.end(), [&](std::size_t a, std::size_t b) { return radix[a] < radix[b]; });
      std::vector<std::size_t> to(radix.size());  // digit slots[i] of a position is digit perm[i] of its id
      for (std::size_t i = 0; i < radix.size(); ++i) to[slots[i]] = perm[i];
      for (int64_t q = 0; q < mesh.num_devices(); ++q) {
        int64_t id = 0;
        for (std::size_t j = 0; j < radix.size(); ++j) id += q / stride[j] % radix[j] * stride[to[j]];
        order[static_cast<std::size_t>(q)] = id;
      }
      return Mesh::create(mesh.axes(), order).value();
    }
    const auto keys = *rc::gen::container<std::vector<unsigned>>(static_cast<std::size_t>(mesh.num_devices()),
                                                                 rc::gen::arbitrary<unsigned>());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
    });
    return Mesh::create(mesh.axes(), order).value();
  });
}

/// Axis pieces of `mesh` placed at random into `rank` dims (or left replicated).
inline rc::Gen<std::vector<Dim>> gen_tiling(const Mesh& mesh, int rank) {
  return rc::gen::exec([mesh, rank] {
    std::vector<Dim> dims(static_cast<std::size_t>(rank));
    auto pieces = *gen_axis_pieces(mesh);
    const auto keys = *rc::gen::container<std::vector<unsigned>>(pieces.size(), rc::gen::arbitrary<unsigned>());
    std::vector<std::size_t> idx(pieces.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
    for (auto i : idx) {
      const int where = *rc::gen::inRange(-1, rank);
      if (where >= 0) dims[static_cast<std::size_t>(where)].axes.push_back(pieces[i]);
    }
    return dims;
  });
}

/// A random reshard problem on meshes of `mesh_options` with types of rank 1..max_rank.
inline rc::Gen<ReshardCase> gen_reshard_case(MeshOptions mesh_options = {}, int max_rank = 3) {
  return rc::gen::exec([mesh_options, max_rank] {
    ReshardCase c;
    c.mesh = *gen_mesh(mesh_options);
    c.target_mesh = *rc::gen::inRange(0, 4) == 0 ? *gen_reordered(c.mesh) : c.mesh;
    const int rank = *rc::gen::inRange(1, max_rank + 1);
    static const ElemType elems[] = {ElemType::f32, ElemType::bf16, ElemType::s8, ElemType::f64};
    c.src.elem = c.dst.elem = elems[*rc::gen::inRange(0, 4)];
    c.src.dims = *gen_tiling(c.mesh, rank);
    c.dst.dims = *gen_tiling(c.mesh, rank);
    for (std::size_t d = 0; d < c.src.dims.size(); ++d) {
      const int64_t global = std::lcm(tile_count(c.src.dims[d]), tile_count(c.dst.dims[d])) *
                             *rc::gen::inRange<int64_t>(1, 3);
      c.src.dims[d].global = c.dst.dims[d].global = global;
    }
    return c;
  });
}

}  // namespace redist::testing
