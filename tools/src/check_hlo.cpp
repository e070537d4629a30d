// `redist check --from-hlo`: XLA's own plan, imported and proved (check_hlo.hpp). The
// steps are printed in their lowered form (explicit groups, pairs and offsets, as the
// module has them), each with the HLO instruction it comes from and the type declared
// after it; a counterexample is replayed on the module's own run (the importer's
// interpreter) and said to be confirmed or not.

#include "check_hlo.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "input.hpp"
#include "plan_json.hpp"
#include "read_input.hpp"
#include "redist/backends/hlo/import.hpp"
#include "redist/core/bigint.hpp"
#include "redist/verify/checker.hpp"

namespace redist::cli {
namespace {

std::string ints_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string groups_text(const GroupSpec& g) {
  if (!g.table) return "axes=" + to_string(std::span<const AxisRef>(g.axes));
  std::string s = "groups=[";
  for (std::size_t i = 0; i < g.table->size(); ++i) s += (i ? "," : "") + ints_text((*g.table)[i]);
  return s + "]";
}

/// One lowered step as text, e.g. `all_gather(dim=2, groups=[[0,2],[1,3]])`.
std::string lowered_text(const LoweredOp& op) {
  return std::visit(
      [](const auto& s) -> std::string {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, LoweredSlice>) {
          return fmt::format("all_slice(dim={}, chunk={}, {})", s.dim, s.chunk,
                             s.offsets ? "offsets=" + ints_text(*s.offsets) : groups_text(s.group));
        } else if constexpr (std::is_same_v<T, LoweredGather>) {
          std::string parts;
          for (const auto& p : s.parts) parts += fmt::format("{}dim={}", parts.empty() ? "" : "; ", p.dim);
          return fmt::format("all_gather({}, {})", parts, groups_text(s.group));
        } else if constexpr (std::is_same_v<T, LoweredAllToAll>) {
          std::string parts;
          for (const auto& p : s.parts) parts += fmt::format("{}split={}, concat={}", parts.empty() ? "" : "; ", p.split_dim, p.concat_dim);
          return fmt::format("all_to_all({}, {})", parts, groups_text(s.group));
        } else if constexpr (std::is_same_v<T, LoweredPermute>) {
          std::string p = "collective_permute(pairs=[";
          if (s.table)
            for (std::size_t i = 0; i < s.table->size(); ++i)
              p += fmt::format("{}({},{})", i ? "," : "", (*s.table)[i].first, (*s.table)[i].second);
          return p + "])";
        } else if constexpr (std::is_same_v<T, LoweredReduceScatter>) {
          return fmt::format("reduce_scatter(dim={}, {})", s.dim, groups_text(s.group));
        } else if constexpr (std::is_same_v<T, LoweredTransfer>) {
          return fmt::format("transfer({} sends)", s.sends.size());
        } else {
          return "all_reduce(" + groups_text(s.group) + ")";
        }
      },
      op);
}

/// "confirmed" / "NOT confirmed" for a G1 counterexample replayed on the module's run.
std::optional<bool> replay(const ImportedPlan& imported, const Counterexample& ce) {
  if (ce.local_index.empty()) return std::nullopt;
  const auto got = imported_global_at(imported, ce.device, ce.local_index);
  if (!ce.actual_global) return !got.has_value() || got != ce.expected_global;
  return got == *ce.actual_global && got != ce.expected_global;
}

const char* kProps[] = {"correct", "memory", "no_peak"};

}  // namespace

int run_check_hlo(const std::string& path, const VerifyArgs& args, const VerifySettings& settings) {
  const auto text = read_text_input(path, "--from-hlo");
  if (!text) return kExitBadInput;
  auto imported = import_hlo(*text);
  if (!imported)
    return fail(kExitBadInput, fmt::format("error in --from-hlo {}: {}", path, imported.error().message), "--from-hlo");
  CheckOptions options;
  if (settings.budget) options.budget_bytes = BigInt(*settings.budget);
  options.timeout_ms = settings.timeout_ms;
  auto report = check_lowered(imported->plan, imported->target, options);
  if (!report) {
    const bool internal = report.error().kind == Error::Kind::runtime;
    return fail(internal ? kExitInternal : kExitBadInput,
                "the imported plan is malformed: " + report.error().to_string());
  }
  const auto& plan = imported->plan;
  const CheckReport& r = *report;
  const PropertyResult* props[] = {&r.correct, &r.memory, &r.no_peak};
  std::optional<bool> confirmed;
  if (r.correct.counterexample) confirmed = replay(*imported, *r.correct.counterexample);
  const std::string lb = r.lower_bound_bytes_max ? to_decimal(*r.lower_bound_bytes_max) : "unknown";
  const int exit_code = r.verified() ? kExitOk : kExitUnproved;
  if (args.json) {
    nlohmann::json out = json_header(exit_code);
    out["mesh"] = mesh_json(plan.source.mesh);
    out["verified"] = r.verified();
    out["source"] = to_string(plan.source.type);
    out["target"] = to_string(imported->target.type);
    out["steps"] = nlohmann::json::array();
    for (std::size_t k = 0; k < plan.steps.size(); ++k)
      out["steps"].push_back({{"op", std::string(lowered_name(plan.steps[k].op))},
                              {"lowered", lowered_text(plan.steps[k].op)},
                              {"instruction", imported->origins[k]},
                              {"after", to_string(plan.steps[k].after.type)},
                              {"after_inferred", static_cast<bool>(imported->typed[k])}});
    nlohmann::json v;
    for (int i = 0; i < 3; ++i) {
      v[kProps[i]] = verdict_name(props[i]->verdict);
      if (props[i]->verdict == Verdict::unknown) v[std::string(kProps[i]) + "_detail"] = props[i]->detail;
    }
    v["transfers"] = transfers_name(r.transfers);
    v["received_over_lower_bound"] = r.received_over_lower_bound;
    v["recv_bytes_max"] = to_decimal(r.recv_bytes_max);
    v["lower_bound_bytes_max"] = lb;
    v["peak_local_bytes"] = to_decimal(r.peak_local_bytes);
    v["bound_bytes"] = to_decimal(r.bound_bytes);
    v["transient_peak_bytes"] = to_decimal(r.transient_peak_bytes);
    for (int i = 0; i < 3; ++i)
      if (props[i]->counterexample) {
        const auto& c = *props[i]->counterexample;
        v["counterexample"] = {{"property", kProps[i]}, {"device", c.device}, {"local_index", c.local_index},
                               {"expected_global", c.expected_global},
                               {"actual_global", c.actual_global ? nlohmann::json(*c.actual_global) : nlohmann::json()},
                               {"step", c.step}, {"reason", c.reason}};
        break;
      }
    if (confirmed) v["counterexample_confirmed"] = *confirmed;
    v["solver_ms"] = r.solver_ms;
    out["verdict"] = v;
    std::cout << out.dump(2) << "\n";
    return exit_code;
  }
  std::cout << "# redist check --from-hlo " << path << ": " << plan.steps.size() << " step"
            << (plan.steps.size() == 1 ? "" : "s") << " imported\n";
  std::cout << "mesh " << to_string(plan.source.mesh) << "\nsource " << to_string(plan.source.type) << "\n";
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    std::cout << "# " << k + 1 << ". " << lowered_text(plan.steps[k].op) << "   <- " << imported->origins[k] << "\n";
    std::cout << "#   -> " << to_string(plan.steps[k].after.type)
              << (imported->typed[k] ? "" : "  (declared by shape: the buffer is no distributed type)") << "\n";
  }
  std::cout << "target " << to_string(imported->target.type) << "\n";
  std::cout << "#\n# verdicts (Z3, " << static_cast<int64_t>(r.solver_ms + 0.5) << " ms):\n";
  for (int i = 0; i < 3; ++i) {
    std::string label = kProps[i];
    label.resize(16, ' ');
    std::cout << "#   " << label << verdict_name(props[i]->verdict);
    if (props[i]->counterexample) {
      std::cout << "\n#     counterexample: " << props[i]->counterexample->to_string();
      if (i == 0 && confirmed)
        std::cout << "\n#     replayed on the module: " << (*confirmed ? "confirmed" : "NOT confirmed");
    } else if (!props[i]->detail.empty()) {
      std::cout << ": " << props[i]->detail;
    }
    std::cout << "\n";
    if (i == 1)
      std::cout << "#     peak " << to_decimal(r.peak_local_bytes) << " of " << to_decimal(r.bound_bytes)
                << " bytes per device; transient peak " << to_decimal(r.transient_peak_bytes) << "\n";
  }
  std::cout << "#   transfers       " << transfers_name(r.transfers) << "\n";
  std::cout << "#     received " << to_decimal(r.recv_bytes_max) << " bytes per device (max), lower bound " << lb
            << ", ratio " << r.received_over_lower_bound << "\n";
  std::cout << "# " << (r.verified() ? "VERIFIED" : "NOT VERIFIED") << "\n";
  return exit_code;
}

}  // namespace redist::cli
