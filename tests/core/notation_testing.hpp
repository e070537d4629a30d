#pragma once
// Helpers shared by the notation converters' tests: reading a type in redist's own
// notation and comparing two (mesh, type) pairs device by device.

#include <gtest/gtest.h>

#include <string>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/semantics.hpp"

namespace redist::testing {

inline Mesh mesh_of(const std::string& text) {
  auto m = parse_mesh(text);
  EXPECT_TRUE(m.ok()) << text << ": " << (m.ok() ? "" : m.error().to_string());
  return m.ok() ? *m : Mesh();
}

inline DistType type_of(const std::string& text, const Mesh& mesh) {
  auto t = parse_type(text, mesh);
  EXPECT_TRUE(t.ok()) << text << ": " << (t.ok() ? "" : t.error().to_string());
  return t.ok() ? *t : DistType();
}

/// True when every physical device holds the same global box under both (mesh, type)
/// pairs (no pending reductions), which must span the same devices.
inline bool same_placement(const Mesh& ma, const DistType& ta, const Mesh& mb, const DistType& tb) {
  if (ma.num_devices() != mb.num_devices() || ta.dims.size() != tb.dims.size() || ta.elem != tb.elem) return false;
  for (int64_t d = 0; d < ma.num_devices(); ++d)
    if (shard_box(ma, ta, ma.coords_of_device(d)) != shard_box(mb, tb, mb.coords_of_device(d))) return false;
  return true;
}

}  // namespace redist::testing
