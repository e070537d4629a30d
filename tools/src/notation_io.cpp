// --from/--to of the `redist` verbs (notation_io.hpp).

#include "notation_io.hpp"

#include <fmt/format.h>
#include <iostream>

#include "redist/core/notation/notation.hpp"
#include "redist/plan/typing.hpp"

namespace redist::cli {

namespace {

using notation::Notation;

struct Choice {
  Notation from = Notation::redist;
  Notation to = Notation::redist;
};

Choice& choice() {
  static Choice c;
  return c;
}

// Axis names for a mesh invented for DST: letters after those of the source's mesh, so
// two invented meshes never share a name with different sizes.
std::vector<std::string> names_after(const Mesh& first, std::size_t count) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t k = first.rank() + i;
    std::string name(1, static_cast<char>('a' + k % 26));
    if (k >= 26) name += std::to_string(k / 26);
    names.push_back(std::move(name));
  }
  return names;
}

std::optional<notation::MeshType> read_hlo(const std::string& text, const std::string& what,
                                           const notation::HloShardingOptions& options) {
  auto shape = notation::parse_array_shape_prefix(text);
  if (!shape) {
    report_error(what, text, shape.error());
    return std::nullopt;
  }
  auto r = notation::from_hlo_sharding(std::string_view(text).substr(shape->consumed), shape->value, options);
  if (!r) {
    Error e = r.error();
    if (e.position != Error::npos) e.position += shape->consumed;
    report_error(what, text, e);
    return std::nullopt;
  }
  return std::move(*r);
}

// SRC and DST in HloSharding without --mesh: each invents a mesh; DST is read on SRC's
// mesh when that expresses it (one mesh), else it keeps its own (a reshard across meshes
// over the same devices).
std::optional<ReshardArgs> invent_meshes(const std::string& src_text, const std::string& dst_text) {
  auto src = read_hlo(src_text, "SRC", {});
  if (!src) return std::nullopt;
  auto dst = read_hlo(dst_text, "DST", {});
  if (!dst) return std::nullopt;
  // `{replicated}` carries no device count: place it on the other side's mesh.
  if (src->mesh.num_devices() == 1 && dst->mesh.num_devices() > 1) {
    notation::HloShardingOptions on{&dst->mesh, {}};
    src = read_hlo(src_text, "SRC", on);
    if (!src) return std::nullopt;
  }
  notation::HloShardingOptions on_src{&src->mesh, {}};
  auto shape = notation::parse_array_shape_prefix(dst_text);
  auto same = notation::from_hlo_sharding(std::string_view(dst_text).substr(shape->consumed), shape->value, on_src);
  if (same) {
    // One mesh for both, split so that neither type needs sub-axes.
    auto split = notation::split_sub_axes(src->mesh, {src->type, same->type});
    if (split) return ReshardArgs{split->mesh, split->mesh, split->types[0], split->types[1]};
    return ReshardArgs{src->mesh, src->mesh, src->type, same->type};
  }
  notation::HloShardingOptions renamed{nullptr, names_after(src->mesh, dst->mesh.rank())};
  dst = read_hlo(dst_text, "DST", renamed);
  if (!dst) return std::nullopt;
  return ReshardArgs{src->mesh, dst->mesh, src->type, dst->type};
}

std::optional<Mesh> read_mesh_arg(const std::string& text, const std::string& what) {
  auto mesh = notation::read_mesh(choice().from, text);
  if (!mesh) {
    report_error(what, text, mesh.error());
    return std::nullopt;
  }
  return std::move(*mesh);
}

std::optional<DistType> read_type_arg(const std::string& text, const Mesh& mesh, const std::string& what) {
  auto r = notation::read_type(choice().from, text, &mesh);
  if (!r) {
    report_error(what, text, r.error());
    return std::nullopt;
  }
  return std::move(r->type);
}

}  // namespace

void add_notation_options(CLI::App& cmd, bool with_to) {
  const auto names = CLI::IsMember({"redist", "hlo", "sdy", "jax", "dtensor"});
  cmd.add_option_function<std::string>(
         "--from", [](const std::string& n) { choice().from = *notation::parse_notation(n); },
         "Notation of --mesh, --target-mesh, SRC and DST: redist (default), hlo (XLA HloSharding, e.g. "
         "'f32[16,8] {devices=[4,2]<=[8]}'; --mesh optional), sdy (Shardy), jax (PartitionSpec), dtensor "
         "(placements); see docs/interop.md")
      ->check(names);
  if (!with_to) return;
  cmd.add_option_function<std::string>(
         "--to", [](const std::string& n) { choice().to = *notation::parse_notation(n); },
         "Also print the plan's meshes and types in this notation, as '#' comments")
      ->check(names);
}

bool reading_other_notation() { return choice().from != Notation::redist; }

std::optional<ReshardArgs> parse_reshard_args_in_notation(const std::string& mesh_text,
                                                          const std::string& target_mesh_text,
                                                          const std::string& src_text, const std::string& dst_text) {
  if (mesh_text.empty()) {
    if (choice().from == Notation::hlo && target_mesh_text.empty()) return invent_meshes(src_text, dst_text);
    std::cerr << "redist: --mesh is required" << (choice().from == Notation::hlo ? " with --target-mesh" : "")
              << "\n";
    return std::nullopt;
  }
  auto mesh = read_mesh_arg(mesh_text, "--mesh");
  if (!mesh) return std::nullopt;
  auto target_mesh = target_mesh_text.empty() ? mesh : read_mesh_arg(target_mesh_text, "--target-mesh");
  if (!target_mesh) return std::nullopt;
  auto src = read_type_arg(src_text, *mesh, "SRC");
  if (!src) return std::nullopt;
  auto dst = read_type_arg(dst_text, *target_mesh, "DST");
  if (!dst) return std::nullopt;
  return ReshardArgs{std::move(*mesh), std::move(*target_mesh), std::move(*src), std::move(*dst)};
}

void print_plan_in_notation(const Plan& plan, std::ostream& out) {
  const Notation to = choice().to;
  if (to == Notation::redist) return;
  auto states = type_plan(plan);
  if (!states) return;
  const std::string tag = "# " + std::string(notation::notation_name(to)) + ": ";
  auto line = [&](const std::string& what, const Mesh& mesh, const DistType& type) {
    auto text = notation::write_type(to, type, mesh);
    out << tag << what << " " << (text ? *text : "(no spelling: " + text.error().message + ")") << "\n";
  };
  out << tag << "mesh " << notation::write_mesh(to, plan.mesh) << "\n";
  line("source", plan.mesh, plan.source);
  const Mesh* last = &plan.mesh;
  for (std::size_t i = 0; i < states->size(); ++i) {
    const auto& s = (*states)[i];
    if (!(s.mesh == *last)) out << tag << "mesh " << notation::write_mesh(to, s.mesh) << "\n";
    last = &s.mesh;
    line(fmt::format("after step {}", i + 1), s.mesh, s.type);
  }
}

}  // namespace redist::cli
