// The seeded random suite of reshard cases (corpus.hpp).

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "corpus.hpp"

namespace redist::corpus {

namespace {

using Rng = std::mt19937_64;

int64_t uniform(Rng& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

/// min_axes..max_axes axes named x, y, z, w, u, v with sizes from {2, 3, 4, 6, 8, 16},
/// at most max_devices devices in all.
Mesh random_mesh(Rng& rng, const RandomSuiteOptions& o) {
  static const char* names[] = {"x", "y", "z", "w", "u", "v"};
  static const int64_t sizes[] = {2, 2, 4, 4, 8, 3, 6, 16};
  const int rank = static_cast<int>(uniform(rng, o.min_axes, std::min(o.max_axes, 6)));
  std::vector<MeshAxis> axes;
  int64_t devices = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t size = sizes[uniform(rng, 0, 7)];
    if (devices * size > o.max_devices) size = 2;
    if (devices * size > o.max_devices) break;
    devices *= size;
    axes.push_back({names[i], size});
  }
  if (axes.empty()) axes.push_back({"x", 2});
  return Mesh::create(std::move(axes)).value();
}

/// `mesh` with its devices in a random order.
Mesh reordered(const Mesh& mesh, Rng& rng) {
  std::vector<int64_t> order(static_cast<std::size_t>(mesh.num_devices()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  return Mesh::create(mesh.axes(), std::move(order)).value();
}

/// The pieces of every axis: whole, or (one time in three, for composite sizes) its
/// two sub-axes split at the smallest prime factor.
std::vector<AxisRef> pieces(const Mesh& mesh, Rng& rng) {
  std::vector<AxisRef> out;
  for (const auto& a : mesh.axes()) {
    int64_t p = 2;
    while (a.size % p != 0) ++p;
    if (p < a.size && uniform(rng, 0, 2) == 0) {
      out.push_back({a.name, 1, p, true});
      out.push_back({a.name, p, a.size / p, true});
    } else {
      out.push_back({a.name, 1, a.size, false});
    }
  }
  return out;
}

/// Dims of rank `rank` tiled by the pieces of `mesh` in random order and places.
std::vector<Dim> random_tiling(const Mesh& mesh, int rank, Rng& rng) {
  std::vector<Dim> dims(static_cast<std::size_t>(rank));
  auto ps = pieces(mesh, rng);
  std::shuffle(ps.begin(), ps.end(), rng);
  for (const auto& p : ps)
    if (const int64_t where = uniform(rng, -1, rank - 1); where >= 0) dims[static_cast<std::size_t>(where)].axes.push_back(p);
  return dims;
}

/// Global sizes: the lcm of both tile counts times 1..4 per dim, then scaled up by
/// integer factors until the array holds about `bytes` bytes.
void size_dims(DistType& src, DistType& dst, double bytes, Rng& rng) {
  double elements = 1;
  for (std::size_t d = 0; d < src.rank(); ++d) {
    const int64_t g = std::lcm(tile_count(src.dims[d]), tile_count(dst.dims[d])) * uniform(rng, 1, 4);
    src.dims[d].global = dst.dims[d].global = g;
    elements *= static_cast<double>(g);
  }
  const double want = bytes / elem_bytes(src.elem);
  const auto per_dim = static_cast<int64_t>(std::floor(std::pow(std::max(1.0, want / elements), 1.0 / static_cast<double>(src.rank()))));
  for (std::size_t d = 0; d < src.rank(); ++d) src.dims[d].global = dst.dims[d].global *= std::max<int64_t>(1, per_dim);
}

/// `c` with the axis `s` of size 1 added to its meshes at a random place and named by
/// the target, and the source half the time, each at a random place of a random dim.
void add_size_one_axis(Case& c, Rng& rng) {
  auto axes = c.mesh.axes();
  axes.insert(axes.begin() + uniform(rng, 0, static_cast<int64_t>(axes.size())), MeshAxis{"s", 1});
  c.mesh = Mesh::create(axes, c.mesh.device_order()).value();
  c.target_mesh = Mesh::create(axes, c.target_mesh.device_order()).value();
  auto name = [&rng](DistType& type) {
    auto& dim = type.dims[static_cast<std::size_t>(uniform(rng, 0, static_cast<int64_t>(type.rank()) - 1))].axes;
    dim.insert(dim.begin() + uniform(rng, 0, static_cast<int64_t>(dim.size())), AxisRef{"s", 1, 1, false});
  };
  name(c.dst);
  if (uniform(rng, 0, 1) == 0) name(c.src);
}

}  // namespace

std::vector<Case> random_cases(const RandomSuiteOptions& options) {
  Rng rng(options.seed);
  Rng size_one_rng(options.seed ^ 0x5153u);  // its own stream: the cases stay the same
  std::vector<Case> out;
  for (int i = 0; i < options.count; ++i) {
    Case c{"random", "random" + std::to_string(i), random_mesh(rng, options), {}, {}, {}, std::nullopt, ""};
    c.target_mesh = uniform(rng, 0, 9) == 0 ? reordered(c.mesh, rng) : c.mesh;
    const int rank = static_cast<int>(uniform(rng, options.min_rank, options.max_rank));
    c.src.elem = c.dst.elem = uniform(rng, 0, 1) ? ElemType::f32 : ElemType::bf16;
    c.src.dims = random_tiling(c.mesh, rank, rng);
    c.dst.dims = random_tiling(c.mesh, rank, rng);
    const double log2_bytes = std::uniform_real_distribution<double>(options.min_log2_bytes, options.max_log2_bytes)(rng);
    size_dims(c.src, c.dst, std::exp2(log2_bytes), rng);
    if (options.size_one_axis) add_size_one_axis(c, size_one_rng);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace redist::corpus
