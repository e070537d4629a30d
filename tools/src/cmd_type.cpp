// `redist type`: the canonical form of a type and its per-device figures.

#include <iostream>

#include "commands.hpp"
#include "input.hpp"
#include "redist/core/bigint.hpp"

namespace redist::cli {
namespace {

struct TypeArgs {
  std::string mesh;
  std::string type;
};

int run_type(const TypeArgs& args) {
  auto mesh = parse_mesh_arg(args.mesh, "--mesh");
  if (!mesh) return kExitBadInput;
  auto type = parse_type_arg(args.type, *mesh, "TYPE");
  if (!type) return kExitBadInput;
  std::string shape;
  for (int64_t s : local_shape(*type)) shape += (shape.empty() ? "" : ", ") + std::to_string(s);
  std::cout << "type:               " << to_string(*type) << "\n"
            << "mesh:               " << to_string(*mesh) << " (" << mesh->num_devices() << " devices)\n"
            << "local shape:        [" << shape << "]\n"
            << "local bytes:        " << to_decimal(local_bytes(*type)) << "\n"
            << "replication factor: " << replication_factor(*type, *mesh) << "\n";
  if (has_padding(*type)) std::cout << "padding:            yes (some shards are padded at the end)\n";
  return 0;
}

}  // namespace

void add_type_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TypeArgs>();
  auto* cmd = app.add_subcommand("type", "Check a distributed array type and print its canonical form, "
                                         "local shape, local bytes and replication factor.");
  cmd->add_option("--mesh", args->mesh, "Device mesh, e.g. '{x:4, y:2}' or '{x:2, y:2} devices=[3,2,1,0]'")
      ->required();
  cmd->add_option("TYPE", args->type, "Distributed array type, e.g. 'f32[{x}16, {y}8]'")->required();
  cmd->footer("Example: redist type --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]'");
  cmd->callback([args, &exit_code] { exit_code = run_type(*args); });
}

}  // namespace redist::cli
