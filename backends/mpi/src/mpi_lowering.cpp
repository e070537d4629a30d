// Materializes the shared lowered form of a plan as per-rank MPI kernel arguments.

#include "mpi_lowering.hpp"

#include <algorithm>
#include <climits>
#include <fmt/format.h>
#include <variant>

#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"

namespace redist::mpi {

namespace {

/// Fills `step.color`/`step.key` from `groups`, indexed by physical id (-1 off the mesh);
/// fails when a group's size is not `step.parts` or a device of `ids` is in no group or
/// in two.
Status set_groups(MpiStep& step, const DeviceGroups& groups, const std::vector<int64_t>& ids) {
  step.color.assign(static_cast<std::size_t>(ids.back() + 1), -1);
  step.key.assign(static_cast<std::size_t>(ids.back() + 1), -1);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    if (static_cast<int64_t>(group.size()) != step.parts)
      return invalid_error(fmt::format("group {} has {} members but the step's axes make groups of {}", g,
                                       group.size(), step.parts));
    for (std::size_t m = 0; m < group.size(); ++m) {
      const auto d = static_cast<std::size_t>(group[m]);
      if (d >= step.color.size()) return invalid_error(fmt::format("device {} is not a device of the mesh", d));
      if (step.color[d] != -1) return invalid_error(fmt::format("device {} is in two groups", d));
      step.color[d] = static_cast<int>(g);
      step.key[d] = static_cast<int>(m);
    }
  }
  for (int64_t d : ids)
    if (step.color[static_cast<std::size_t>(d)] == -1)
      return invalid_error(fmt::format("device {} is in no group", d));
  return Ok{};
}

/// Fills `step.source` from `pairs`, indexed by physical id (-1 off the mesh); fails
/// when a device of `ids` receives from none or two.
Status set_sources(MpiStep& step, const DevicePairs& pairs, const std::vector<int64_t>& ids) {
  step.source.assign(static_cast<std::size_t>(ids.back() + 1), -1);
  for (const auto& [source, target] : pairs) {
    if (target < 0 || target > ids.back()) return invalid_error(fmt::format("device {} is not a device of the mesh", target));
    auto& slot = step.source[static_cast<std::size_t>(target)];
    if (slot != -1 && slot != source)
      return invalid_error(fmt::format("device {} receives from two devices", target));
    slot = static_cast<int>(source);
  }
  for (int64_t d : ids)
    if (step.source[static_cast<std::size_t>(d)] == -1)
      return invalid_error(fmt::format("device {} receives nothing", d));
  return Ok{};
}

/// Fills the kernel arguments of one lowered step kind; each call operator returns
/// whether the lowering can run.
struct Materializer {
  MpiStep& step;
  const LoweredStep& lowered;
  std::vector<int64_t> devices;  // the step's mesh's physical ids, sorted

  Status operator()(const LoweredSlice& s) const {
    step.kernel = Kernel::all_slice;
    step.dim = s.dim;
    step.chunk = s.chunk;
    step.offset = slice_offsets(s, mesh());
    for (int64_t offset : step.offset)  // past the dim's end is padding (a padded result)
      if (offset < 0)
        return invalid_error(fmt::format("slice offset {} leaves dim {}", offset, s.dim));
    return groups(s.group);
  }
  Status operator()(const LoweredGather& s) const {
    step.kernel = Kernel::all_gather;
    step.dim = s.parts[0].dim;
    step.chunk = local_shape(lowered.after.type)[static_cast<std::size_t>(step.dim)];  // drops a padded tail
    if (s.parts.size() > 1)
      for (const auto& p : s.parts) {
        step.fused_concat.push_back(p.dim);
        step.fused_sizes.push_back(p.size);
      }
    return groups(s.group);
  }
  Status operator()(const LoweredAllToAll& s) const {
    step.kernel = Kernel::all_to_all;
    step.split_dim = s.parts[0].split_dim;
    step.concat_dim = s.parts[0].concat_dim;
    const auto after = local_shape(lowered.after.type);  // a padded split and concat dim
    step.chunk = after[static_cast<std::size_t>(step.split_dim)];
    step.keep = after[static_cast<std::size_t>(step.concat_dim)];
    if (s.parts.size() > 1)
      for (const auto& p : s.parts) {
        step.fused_split.push_back(p.split_dim);
        step.fused_concat.push_back(p.concat_dim);
        step.fused_sizes.push_back(p.size);
      }
    return groups(s.group);
  }
  Status operator()(const LoweredPermute& s) const {
    step.kernel = Kernel::permute;
    return set_sources(step, pair_table(s, lowered.before.mesh, lowered.after.mesh), devices);
  }
  Status operator()(const LoweredReduceScatter& s) const {
    step.kernel = Kernel::reduce_scatter;
    step.dim = s.dim;
    step.op = s.op;
    return groups(s.group);
  }
  Status operator()(const LoweredAllReduce& s) const {
    step.kernel = Kernel::all_reduce;
    step.op = s.op;
    return groups(s.group);
  }
  Status operator()(const LoweredAddPending& s) const {
    step.kernel = Kernel::add_pending;
    step.op = s.op;
    return groups(s.group);
  }
  Status operator()(const LoweredTransfer& s) const {
    step.kernel = Kernel::transfer;
    step.sends = s.sends;
    step.after_shape = local_shape(lowered.after.type);
    step.after_members = lowered.after.mesh.device_ids();
    return check_sends(s.sends, lowered.before, lowered.after);
  }

  const Mesh& mesh() const { return lowered.before.mesh; }
  Status groups(const GroupSpec& spec) const {
    step.parts = spec.size;
    return set_groups(step, group_table(spec, mesh()), devices);
  }
};

}  // namespace

Result<MpiProgram> lower_for_mpi(const Plan& plan) {
  auto lowered = lower(plan);
  if (!lowered) return lowered.error();
  int64_t ranks = plan.mesh.id_bound();
  for (const auto& step : lowered->steps) ranks = std::max(ranks, step.after.mesh.id_bound());
  if (ranks > INT_MAX)
    return unsupported_error(fmt::format("the plan names device {}, more than MPI ranks can number", ranks - 1));
  MpiProgram program{.source = lowered->source, .target = lowered->source, .steps = {}, .ranks = ranks};
  for (std::size_t k = 0; k < lowered->steps.size(); ++k) {
    const LoweredStep& step = lowered->steps[k];
    MpiStep out;
    out.text = to_string(plan.steps[k]);
    out.shape = local_shape(step.before.type);
    out.members = step.before.mesh.device_ids();
    // Tables indexed by physical id; a step's mesh may be over any ids.
    if (auto set = std::visit(Materializer{out, step, out.members}, step.op); !set) {
      Error error = set.error();
      error.message = fmt::format("step {} ({}): {}", k + 1, out.text, error.message);
      return error;
    }
    program.steps.push_back(std::move(out));
    program.target = step.after;
  }
  return program;
}

std::vector<int> permute_targets(const MpiStep& step, int device) {
  std::vector<int> out;
  for (std::size_t t = 0; t < step.source.size(); ++t)
    if (step.source[t] == device && static_cast<int>(t) != device) out.push_back(static_cast<int>(t));
  return out;
}

}  // namespace redist::mpi
