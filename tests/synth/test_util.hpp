#pragma once
// Helpers of the synth tests: meshes, types and states from their notation.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/typing.hpp"

namespace redist::testing {

/// The mesh written `text`; a test failure (and an empty mesh) when it does not parse.
inline Mesh mesh_of(std::string_view text) {
  auto mesh = parse_mesh(text);
  if (!mesh) {
    ADD_FAILURE() << "bad mesh " << text << ": " << mesh.error().to_string();
    return Mesh();
  }
  return *mesh;
}

/// The type written `text` over `mesh`; a test failure when it does not parse.
inline DistType type_of(std::string_view text, const Mesh& mesh) {
  auto type = parse_type(text, mesh);
  if (!type) {
    ADD_FAILURE() << "bad type " << text << ": " << type.error().to_string();
    return DistType();
  }
  return *type;
}

/// The state of type `type` on mesh `mesh`, both in notation.
inline TypedState state_of(std::string_view mesh, std::string_view type) {
  Mesh m = mesh_of(mesh);
  return TypedState{m, type_of(type, m)};
}

/// A whole axis reference, with its size.
inline AxisRef whole(std::string name, int64_t size) { return AxisRef{std::move(name), 1, size, false}; }
/// The sub-axis reference name:(pre)size.
inline AxisRef sub(std::string name, int64_t pre, int64_t size) { return AxisRef{std::move(name), pre, size, true}; }

}  // namespace redist::testing
