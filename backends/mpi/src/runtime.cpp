// The MPI runtime: communicators per axis group, then one kernel call per step.

#include "redist/backends/mpi/runtime.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mpi_lowering.hpp"
#include "redist/core/bigint.hpp"

namespace redist::mpi {

namespace {

/// An Error::Kind::runtime error from MPI error code `rc`, saying `what` failed.
Error mpi_error(int rc, const std::string& what) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  return Error{Error::Kind::runtime, fmt::format("{}: MPI error {} ({})", what, rc, std::string_view(text, length))};
}

/// Bytes of one rank's buffer of `type` in `format`, or an error when it exceeds int64.
Result<std::size_t> shard_bytes(const DistType& type, ElementFormat format) {
  const BigInt bytes = local_elements(type) * format.bytes;
  if (bytes > std::numeric_limits<int64_t>::max())
    return unsupported_error(fmt::format("a shard of {} exceeds 2^63 bytes", to_string(type)));
  return static_cast<std::size_t>(bytes);
}

/// True when some step of `program` combines values (needs an MPI datatype).
bool reduces(const MpiProgram& program) {
  for (const auto& step : program.steps)
    if (step.kernel == Kernel::reduce_scatter || step.kernel == Kernel::all_reduce ||
        step.kernel == Kernel::add_pending)
      return true;
  return false;
}

}  // namespace

struct Executor::State {
  MpiProgram program;
  ElementFormat format;
  int rank = 0;
  std::size_t source_bytes = 0;
  std::size_t target_bytes = 0;
  kernels::Comm world;
  std::vector<kernels::Comm> comms;  // one per distinct grouping
  std::vector<int> step_comm;        // per step: index into comms, -1 for a permute

  /// Runs step `k` from `in` into `out`; returns the MPI error code. A rank outside the
  /// step's mesh holds no buffer and takes part only in a transfer.
  int run_step(std::size_t k, kernels::Buffer& in, kernels::Buffer& out) const {
    const MpiStep& step = program.steps[k];
    if (step.kernel == Kernel::transfer) {
      const bool member = std::binary_search(step.after_members.begin(), step.after_members.end(), rank);
      return kernels::transfer<TransferBox>(world.get(), rank, in, step.shape, step.after_shape, member, step.sends,
                                            format.bytes, out);
    }
    if (!std::binary_search(step.members.begin(), step.members.end(), rank)) {
      out = std::move(in);
      return MPI_SUCCESS;
    }
    const MPI_Comm group = step_comm[k] >= 0 ? comms[static_cast<std::size_t>(step_comm[k])].get() : MPI_COMM_NULL;
    const int64_t bytes = format.bytes;
    const auto r = static_cast<std::size_t>(rank);
    switch (step.kernel) {
      case Kernel::all_slice:
        return kernels::all_slice(in, kernels::view_at(step.shape, step.dim, bytes), step.chunk, step.offset[r], out);
      case Kernel::all_gather:
        if (!step.fused_sizes.empty())
          return kernels::fused_all_gather(group, in, step.shape, step.fused_concat, step.fused_sizes, bytes, out);
        return kernels::all_gather(group, in, kernels::view_at(step.shape, step.dim, bytes), step.parts, step.chunk,
                                   out);
      case Kernel::all_to_all:
        if (!step.fused_sizes.empty())
          return kernels::fused_all_to_all(group, in, step.shape, step.fused_split, step.fused_concat,
                                           step.fused_sizes, bytes, out);
        return kernels::all_to_all(group, in, step.shape, step.split_dim, step.concat_dim, bytes, step.parts,
                                   step.chunk, step.keep, out);
      case Kernel::permute:
        return kernels::permute(world.get(), rank, in, step.source[r], permute_targets(step, rank), out);
      case Kernel::reduce_scatter:
        return kernels::reduce_scatter(group, in, kernels::view_at(step.shape, step.dim, bytes), step.parts,
                                       format.datatype, bytes, reduce_op_of(step.op, format.datatype), out);
      case Kernel::all_reduce: {
        const int rc = kernels::all_reduce(group, in, format.datatype, bytes, reduce_op_of(step.op, format.datatype));
        out = std::move(in);
        return rc;
      }
      case Kernel::add_pending: {
        const auto identity = identity_bytes(step.op, format.datatype);
        if (static_cast<int64_t>(identity.size()) != bytes) return MPI_ERR_TYPE;
        return kernels::add_pending(in, step.key[r] == 0, identity.data(), bytes, out);
      }
      case Kernel::transfer: break;  // above
    }
    return MPI_ERR_OTHER;
  }
};

Executor::Executor(std::unique_ptr<State> state) : state_(std::move(state)) {}
Executor::Executor(Executor&&) noexcept = default;
Executor& Executor::operator=(Executor&&) noexcept = default;
Executor::~Executor() = default;

Result<Executor> Executor::create(const Plan& plan, MPI_Comm comm, ElementFormat format) {
  auto program = lower_for_mpi(plan);
  if (!program) return program.error();
  if (format.bytes < 1) return invalid_error("elements must have at least one byte");
  if (reduces(*program) && format.datatype == MPI_DATATYPE_NULL)
    return unsupported_error(fmt::format(
        "the plan reduces {} values, which have no MPI datatype; pass an ElementFormat with one",
        elem_name(plan.source.elem)));
  if (format.datatype != MPI_DATATYPE_NULL) {
    int size = 0;
    if (int rc = MPI_Type_size(format.datatype, &size); rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Type_size");
    if (size != format.bytes)
      return invalid_error(fmt::format("the element datatype has {} bytes, the format says {}", size, format.bytes));
  }
  auto state = std::make_unique<State>();
  auto source_bytes = shard_bytes(program->source.type, format);
  if (!source_bytes) return source_bytes.error();
  auto target_bytes = shard_bytes(program->target.type, format);
  if (!target_bytes) return target_bytes.error();
  state->source_bytes = *source_bytes;
  state->target_bytes = *target_bytes;
  state->format = format;
  state->program = std::move(*program);

  if (int rc = kernels::duplicate_returning_errors(comm, state->world); rc != MPI_SUCCESS)
    return mpi_error(rc, "MPI_Comm_dup");
  int size = 0;
  if (int rc = MPI_Comm_size(state->world.get(), &size); rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Comm_size");
  if (int rc = MPI_Comm_rank(state->world.get(), &state->rank); rc != MPI_SUCCESS)
    return mpi_error(rc, "MPI_Comm_rank");
  if (size != state->program.ranks)
    return invalid_error(state->program.ranks == plan.mesh.num_devices()
                             ? fmt::format("the communicator has {} ranks but the mesh has {} devices", size,
                                           plan.mesh.num_devices())
                             : fmt::format("the communicator has {} ranks but the plan's meshes name devices 0..{} "
                                           "(rank = physical device id)",
                                           size, state->program.ranks - 1));
  // A rank outside the source (or target) mesh starts (or ends) with no shard.
  if (!state->program.source.mesh.has_device(state->rank)) state->source_bytes = 0;
  if (!state->program.target.mesh.has_device(state->rank)) state->target_bytes = 0;

  // One communicator per distinct grouping; every rank walks the steps in the same order.
  std::map<std::pair<std::vector<int>, std::vector<int>>, int> known;
  const auto r = static_cast<std::size_t>(state->rank);
  for (const auto& step : state->program.steps) {
    if (step.kernel == Kernel::permute || step.kernel == Kernel::all_slice || step.kernel == Kernel::add_pending ||
        step.kernel == Kernel::transfer) {
      state->step_comm.push_back(-1);
      continue;
    }
    auto [it, fresh] = known.try_emplace({step.color, step.key}, static_cast<int>(state->comms.size()));
    if (fresh) {
      kernels::Comm group;
      const bool in_mesh = r < step.color.size() && step.color[r] >= 0;  // ranks off the step's mesh: no group
      if (int rc = kernels::split(state->world.get(), in_mesh ? step.color[r] : MPI_UNDEFINED, in_mesh ? step.key[r] : 0,
                                  group);
          rc != MPI_SUCCESS)
        return mpi_error(rc, "MPI_Comm_split for " + step.text);
      state->comms.push_back(std::move(group));
    }
    state->step_comm.push_back(it->second);
  }
  return Executor(std::move(state));
}

std::size_t Executor::source_bytes() const { return state_->source_bytes; }
std::size_t Executor::target_bytes() const { return state_->target_bytes; }
const TypedState& Executor::target() const { return state_->program.target; }

Result<kernels::Buffer> Executor::run(kernels::Buffer source) const {
  const State& s = *state_;
  const int mine = source.size() == s.source_bytes ? 1 : 0;
  int all = 0;
  if (int rc = MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, s.world.get()); rc != MPI_SUCCESS)
    return mpi_error(rc, "MPI_Allreduce (source sizes)");
  if (!all)
    return invalid_error(mine ? "another rank's source shard has the wrong size"
                              : fmt::format("the source shard has {} bytes, expected {}", source.size(),
                                            s.source_bytes));
  kernels::Buffer shard = std::move(source);
  for (std::size_t k = 0; k < s.program.steps.size(); ++k) {
    kernels::Buffer out;
    if (int rc = s.run_step(k, shard, out); rc != MPI_SUCCESS)
      return mpi_error(rc, fmt::format("step {} ({}) on rank {}", k + 1, s.program.steps[k].text, s.rank));
    shard = std::move(out);
  }
  return shard;
}

kernels::Buffer copy_to_buffer(const void* bytes, std::size_t size) {
  kernels::Buffer buffer(size);
  if (size) std::memcpy(buffer.data(), bytes, size);
  return buffer;
}

}  // namespace redist::mpi
