// A partitioner calling redist. An auto-sharder holds an activation sharded one way and
// weighs the shardings the next operation could use: it asks redist for the plan of each
// reshard and its exact figures, keeps the one that receives the fewest bytes, and proves
// that plan with the Z3 checker. README.md shows this file from its first #include on
// (the test readme_cpp_snippet keeps the two the same); the test
// installed_package_partitioner builds it against the installed package.

#include <iostream>
#include <optional>

#include "redist/core/dist_type.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"

int main() {
  using namespace redist;
  const Mesh mesh = parse_mesh("{data:4, model:2}").value();
  const DistType current = parse_type("bf16[{data}1024, {model}4096]", mesh).value();

  std::optional<Plan> best;
  BigInt best_recv;
  for (const char* text : {"bf16[{data,model}1024, 4096]", "bf16[{model}1024, {data}4096]",
                           "bf16[1024, {data,model}4096]", "bf16[{data}1024, 4096]"}) {
    auto plan = synthesize(mesh, current, parse_type(text, mesh).value());
    if (!plan) {
      std::cerr << text << ": " << plan.error().to_string() << "\n";
      return 2;
    }
    const PlanFigures figures = plan_figures(*plan).value();
    std::cout << text << ": " << plan->steps.size() << " steps, receives " << to_decimal(figures.recv_bytes_max)
              << " bytes per device at most, peak " << to_decimal(figures.peak_local_bytes) << " bytes\n";
    if (!best || figures.recv_bytes_max < best_recv) {
      best = *plan;
      best_recv = figures.recv_bytes_max;
    }
  }

  const CheckReport report = check_plan(*best).value();  // G1-G3 proved with Z3
  std::cout << "\ncheapest reshard (" << (report.verified() ? "verified" : "NOT verified") << ", transfers "
            << transfers_name(report.transfers) << "):\n" << to_string(*best);
  return report.verified() ? 0 : 1;
}
