// Boundary shapes and HloSharding text of distributed array types.

#include "sharding.hpp"

#include "redist/core/semantics.hpp"

namespace redist::hlo::detail {
namespace {

/// Tiles per boundary dim: [|R| when pending, tiles per dim].
std::vector<int64_t> tile_shape(const DistType& type) {
  std::vector<int64_t> tiles;
  if (!type.reduce_axes.empty()) tiles.push_back(product_of_sizes(type.reduce_axes));
  for (const Dim& dim : type.dims) tiles.push_back(tile_count(dim));
  return tiles;
}

/// Row-major index over `tiles` of the tile the device at `coords` holds.
int64_t tile_of(const Mesh& mesh, const DistType& type, const Coords& coords) {
  int64_t index = 0;
  if (!type.reduce_axes.empty())
    index = mixed_radix_index(mesh, coords, type.reduce_axes);
  for (const Dim& dim : type.dims) index = index * tile_count(dim) + block_index(mesh, coords, dim);
  return index;
}

}  // namespace

Result<std::vector<int64_t>> boundary_global_shape(const DistType& type) {
  std::vector<int64_t> shape;
  if (!type.reduce_axes.empty()) shape.push_back(product_of_sizes(type.reduce_axes));
  for (const Dim& dim : type.dims) {
    // Padding rounds the size up to a multiple of the tiles, which can pass 2^63 - 1.
    int64_t padded = 0;
    if (__builtin_mul_overflow(local_size(dim), tile_count(dim), &padded))
      return Error{Error::Kind::overflow,
                   "the padded size of a dim of " + to_string(type) + " does not fit an HLO shape (64-bit signed)",
                   Error::npos};
    shape.push_back(padded);
  }
  return shape;
}

std::vector<int64_t> boundary_local_shape(const DistType& type) {
  std::vector<int64_t> shape;
  if (!type.reduce_axes.empty()) shape.push_back(1);
  for (const Dim& dim : type.dims) shape.push_back(local_size(dim));
  return shape;
}

std::string sharding_text(const Mesh& mesh, const DistType& type) {
  const std::vector<int64_t> tiles = tile_shape(type);
  int64_t num_tiles = 1;
  for (int64_t t : tiles) num_tiles *= t;
  if (num_tiles == 1) return "{replicated}";

  std::vector<std::vector<int64_t>> holders(static_cast<std::size_t>(num_tiles));
  for (int64_t position = 0; position < mesh.num_devices(); ++position)
    holders[tile_of(mesh, type, mesh.coords_of_position(position))].push_back(mesh.device_at(position));
  const std::size_t copies = holders.front().size();

  std::string text = "{devices=[";
  for (std::size_t i = 0; i < tiles.size(); ++i) text += (i ? "," : "") + std::to_string(tiles[i]);
  if (copies > 1) text += "," + std::to_string(copies);
  text += "]";
  bool first = true;
  for (const auto& devices : holders) {
    for (int64_t d : devices) {
      text += (first ? "" : ",") + std::to_string(d);
      first = false;
    }
  }
  if (copies > 1) text += " last_tile_dim_replicate";
  return text + "}";
}

}  // namespace redist::hlo::detail
