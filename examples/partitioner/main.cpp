// A partitioner calling redist: an auto-sharder has an activation sharded one way and
// several shardings the next operation could use. It asks redist for the plan of each
// reshard and its exact figures, and keeps the cheapest that fits its memory budget.

#include <iostream>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

int main() {
  using namespace redist;
  const Mesh mesh = parse_mesh("{data:4, model:2}").value();
  const DistType current = parse_type("bf16[{data}1024, {model}4096]", mesh).value();
  const std::vector<std::string> candidates = {
      "bf16[{data,model}1024, 4096]",  // batch over every device
      "bf16[{model}1024, {data}4096]",  // axes swapped
      "bf16[1024, {data,model}4096]",  // features over every device
      "bf16[{data}1024, 4096]",        // model-replicated
  };

  std::optional<std::pair<BigInt, std::string>> best;
  for (const auto& text : candidates) {
    auto target = parse_type(text, mesh);
    if (!target) {
      std::cerr << text << ": " << target.error().to_string() << "\n";
      return 2;
    }
    auto plan = synthesize(mesh, current, *target);
    if (!plan) {
      std::cout << text << ": no plan (" << plan.error().message << ")\n";
      continue;
    }
    auto figures = plan_figures(*plan).value();
    std::cout << text << ": " << plan->steps.size() << " steps, receives " << to_decimal(figures.recv_bytes_max)
              << " bytes per device at most, peak " << to_decimal(figures.peak_local_bytes) << " bytes\n";
    if (!best || figures.recv_bytes_max < best->first) best = {figures.recv_bytes_max, text};
  }
  if (!best) return 1;
  std::cout << "\ncheapest reshard: " << best->second << "\n"
            << to_string(synthesize(mesh, current, parse_type(best->second, mesh).value()).value());
  return 0;
}
