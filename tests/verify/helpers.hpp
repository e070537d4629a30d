#pragma once
// Meshes, types, axis references and steps for the interpreter's tests.

#include <stdexcept>
#include <string>
#include <string_view>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::testing {

/// The mesh `text` denotes; throws (failing the test) when it does not parse.
inline Mesh mesh_of(std::string_view text) {
  auto mesh = parse_mesh(text);
  if (!mesh.ok()) throw std::runtime_error("bad mesh " + std::string(text) + ": " + mesh.error().to_string());
  return *mesh;
}

/// The type `text` denotes on `mesh`; throws (failing the test) when it does not parse.
inline DistType type_of(std::string_view text, const Mesh& mesh) {
  auto type = parse_type(text, mesh);
  if (!type.ok()) throw std::runtime_error("bad type " + std::string(text) + ": " + type.error().to_string());
  return *type;
}

/// The state of `type_text` on the mesh `mesh_text`.
inline TypedState state_of(std::string_view mesh_text, std::string_view type_text) {
  Mesh mesh = mesh_of(mesh_text);
  DistType type = type_of(type_text, mesh);
  return {std::move(mesh), std::move(type)};
}

/// The whole axis `name` of size `size`.
inline AxisRef axis(std::string name, int64_t size) { return {std::move(name), 1, size, false}; }

/// The sub-axis `name:(pre)size`.
inline AxisRef sub_axis(std::string name, int64_t pre, int64_t size) { return {std::move(name), pre, size, true}; }

/// A step running `op`, with an explicit lowering when `groups` or `pairs` is given.
inline Step make_step(StepOp op, std::optional<DeviceGroups> groups = std::nullopt,
                      std::optional<DevicePairs> pairs = std::nullopt) {
  return {std::move(op), std::move(groups), std::move(pairs)};
}

}  // namespace redist::testing
