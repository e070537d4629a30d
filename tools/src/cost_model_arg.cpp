// The --cost-model and --search arguments shared by plan, prove and emit.

#include "cost_model_arg.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "read_input.hpp"
#include "report.hpp"

namespace redist::cli {

std::optional<CostModel> cost_model_arg(const std::string& path, const Mesh& mesh, const Mesh& target_mesh) {
  if (path.empty()) return CostModel{};
  const auto text = read_text_input(path, "--cost-model");
  if (!text) return std::nullopt;
  auto model = parse_cost_model(*text);
  // An axis of either mesh: between device sets the target's axes have classes too.
  Status valid = model ? Status(Ok{}) : Status(model.error());
  if (model)
    for (const auto& [axis, link_class] : model->axis_class)
      if (!mesh.axis_index(axis) && !target_mesh.axis_index(axis)) {
        valid = invalid_error(
            mesh.same_axes(target_mesh)
                ? fmt::format("the cost model names axis '{}', which the mesh {} does not have", axis, to_string(mesh))
                : fmt::format("the cost model names axis '{}', which neither the mesh {} nor the target mesh {} has",
                              axis, to_string(mesh), to_string(target_mesh)));
        break;
      }
  if (!valid) {
    fail(kExitBadInput, fmt::format("error in --cost-model {}: {}", path, valid.error().to_string(*text)),
         "--cost-model", valid.error().position);
    return std::nullopt;
  }
  return *model;
}

void add_cost_model_option(CLI::App& cmd, std::string& path, const std::string& what) {
  cmd.add_option("--cost-model", path,
                 "Cost model config: 'axis = intra|inter' lines and class speeds (docs/cost_model.md); " + what);
}

CLI::Option* add_search_option(CLI::App& cmd, std::optional<int64_t>& expanded) {
  return cmd
      .add_option("--search", expanded,
                  "Let the synthesizer search up to N states from its constructive plans for a cheaper one under "
                  "the cost model, stopping once it proves its plan within 10% of the optimal one; where it could "
                  "not, N states deeper towards the target, 10 N where its plan is above 1.1x of the least time "
                  "left, then, where the plan is still above 1.5x, 50 N states in the optimal search's order with "
                  "its step set (default: 100 where --cost-model gives the mesh's axes two link speeds, else 0: "
                  "the cheapest constructive plan)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            const bool digits = !text.empty() && text.size() <= 18 &&
                                std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
            return digits ? std::string() : fmt::format("a whole number of states >= 0, got '{}'", text);
          },
          "N"));
}

}  // namespace redist::cli
