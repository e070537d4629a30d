// `redist type`: the canonical form of a type and its per-device figures.

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "input.hpp"
#include "plan_json.hpp"
#include "redist/core/bigint.hpp"

namespace redist::cli {
namespace {

struct TypeArgs {
  std::string mesh;
  std::string type;
  bool json = false;
};

int run_type(const TypeArgs& args) {
  auto mesh = parse_mesh_arg(args.mesh, "--mesh");
  if (!mesh) return kExitBadInput;
  auto type = parse_type_arg(args.type, *mesh, "TYPE");
  if (!type) return kExitBadInput;
  const std::vector<int64_t> local = local_shape(*type);
  if (args.json) {
    nlohmann::json out = json_header(kExitOk);
    out["mesh"] = mesh_json(*mesh);
    out["type"] = to_string(*type);
    out["local_shape"] = local;
    out["local_bytes"] = to_decimal(local_bytes(*type));
    out["replication_factor"] = replication_factor(*type, *mesh);
    out["padding"] = has_padding(*type);
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  std::string shape;
  for (int64_t s : local) shape += (shape.empty() ? "" : ", ") + std::to_string(s);
  std::cout << "type:               " << to_string(*type) << "\n"
            << "mesh:               " << to_string(*mesh) << " (" << mesh->num_devices() << " devices)\n"
            << "local shape:        [" << shape << "]\n"
            << "local bytes:        " << to_decimal(local_bytes(*type)) << "\n"
            << "replication factor: " << replication_factor(*type, *mesh) << "\n";
  if (has_padding(*type)) std::cout << "padding:            yes (some shards are padded at the end)\n";
  return kExitOk;
}

}  // namespace

void add_type_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TypeArgs>();
  auto* cmd = app.add_subcommand("type", "Check a distributed array type and print its canonical form, "
                                         "local shape, local bytes and replication factor.");
  cmd->add_option("--mesh", args->mesh, "Device mesh, e.g. '{x:4, y:2}' or '{x:2, y:2} devices=[3,2,1,0]'")
      ->required();
  cmd->add_option("TYPE", args->type, "Distributed array type, e.g. 'f32[{x}16, {y}8]'")->required();
  cmd->add_flag("--json", args->json,
                "Print one JSON object: mesh, type, local_shape, local_bytes, replication_factor, padding");
  cmd->footer("Example: redist type --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]'");
  cmd->callback([args, &exit_code] {
    begin_command("type", args->json);
    exit_code = run_type(*args);
  });
}

}  // namespace redist::cli
