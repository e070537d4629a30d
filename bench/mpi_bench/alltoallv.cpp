// The one-shot MPI_Alltoallv baseline: a schedule of global boxes per peer, computed
// once from the reference semantics; each run packs, exchanges and unpacks.

#include "alltoallv.hpp"

#include <climits>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "redist/core/semantics.hpp"

namespace redist::mpi::bench {

namespace {

/// A box of the global array: per dim its first index and its size.
struct Box {
  std::vector<int64_t> start;
  std::vector<int64_t> size;
};

/// Elements of `box`.
int64_t elements(const Box& box) {
  int64_t n = 1;
  for (int64_t s : box.size) n *= s;
  return n;
}

/// Copies a box of `size` elements per dim from `from` (row-major over `from_shape`,
/// the box at local index `from_at`) to `to` (row-major over `to_shape`, at `to_at`).
void copy_box(const std::byte* from, std::span<const int64_t> from_shape, std::span<const int64_t> from_at,
              std::byte* to, std::span<const int64_t> to_shape, std::span<const int64_t> to_at,
              std::span<const int64_t> size, int64_t elem_bytes) {
  const std::size_t rank = size.size();
  std::vector<int64_t> index(rank, 0);  // within the box; the last dim is copied whole
  const auto row_bytes = static_cast<std::size_t>(size[rank - 1] * elem_bytes);
  int64_t rows = 1;
  for (std::size_t d = 0; d + 1 < rank; ++d) rows *= size[d];
  for (int64_t r = 0; r < rows; ++r) {
    int64_t f = 0, t = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      f = f * from_shape[d] + from_at[d] + index[d];
      t = t * to_shape[d] + to_at[d] + index[d];
    }
    std::memcpy(to + t * elem_bytes, from + f * elem_bytes, row_bytes);
    for (std::size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < size[d]) break;
      index[d] = 0;
    }
  }
}

/// `box.start` relative to `origin`.
std::vector<int64_t> relative(const Box& box, std::span<const int64_t> origin) {
  std::vector<int64_t> out(box.start);
  for (std::size_t d = 0; d < out.size(); ++d) out[d] -= origin[d];
  return out;
}

/// Global starts of `device`'s shard of `state`.
std::vector<int64_t> shard_origin(const TypedState& state, int64_t device) {
  std::vector<int64_t> origin;
  for (const auto& box : shard_box(state.mesh, state.type, state.mesh.coords_of_device(device)))
    origin.push_back(box.start);
  return origin;
}

/// Source block index per dim of `device`.
std::vector<int64_t> blocks_of(const TypedState& state, int64_t device) {
  const Coords coords = state.mesh.coords_of_device(device);
  std::vector<int64_t> blocks;
  for (const auto& dim : state.type.dims) blocks.push_back(block_index(state.mesh, coords, dim));
  return blocks;
}

/// The target shard of `device` cut along the source's block boundaries: each cell
/// lies in one source block, whose per-dim indices are returned alongside.
std::vector<std::pair<Box, std::vector<int64_t>>> cells(const TypedState& source, const TypedState& target,
                                                        int64_t device) {
  std::vector<std::pair<Box, std::vector<int64_t>>> out = {{Box{}, {}}};
  const auto box = shard_box(target.mesh, target.type, target.mesh.coords_of_device(device));
  for (std::size_t d = 0; d < box.size(); ++d) {
    const int64_t tile = local_size(source.type.dims[d]);
    const int64_t begin = box[d].start, end = box[d].start + box[d].size;
    std::vector<std::pair<Box, std::vector<int64_t>>> next;
    for (const auto& [cell, blocks] : out)
      for (int64_t b = begin / tile; b * tile < end; ++b) {
        const int64_t lo = std::max(begin, b * tile), hi = std::min(end, (b + 1) * tile);
        auto grown = std::make_pair(cell, blocks);
        grown.first.start.push_back(lo);
        grown.first.size.push_back(hi - lo);
        grown.second.push_back(b);
        next.push_back(std::move(grown));
      }
    out = std::move(next);
  }
  return out;
}

/// Counts and displacements (bytes) of the boxes per peer; false when one exceeds int.
bool layout(const std::vector<std::vector<Box>>& per_peer, int64_t elem_bytes, std::vector<int>& counts,
            std::vector<int>& displs, int64_t& total) {
  total = 0;
  for (const auto& boxes : per_peer) {
    int64_t bytes = 0;
    for (const auto& box : boxes) bytes += elements(box) * elem_bytes;
    if (bytes > INT_MAX || total > INT_MAX) return false;
    counts.push_back(static_cast<int>(bytes));
    displs.push_back(static_cast<int>(total));
    total += bytes;
  }
  return true;
}

}  // namespace

struct OneShotAlltoallv::Schedule {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int64_t elem_bytes = 4;
  std::vector<int64_t> source_shape, target_shape, source_origin, target_origin;
  std::vector<std::vector<Box>> sends;  // per target rank: boxes this rank sends it
  std::vector<std::vector<Box>> recvs;  // per source rank: boxes this rank receives (own rank: local copies)
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  int64_t send_total = 0, recv_total = 0, target_bytes = 0;
};

OneShotAlltoallv::OneShotAlltoallv(std::unique_ptr<Schedule> schedule) : schedule_(std::move(schedule)) {}
OneShotAlltoallv::OneShotAlltoallv(OneShotAlltoallv&&) noexcept = default;
OneShotAlltoallv& OneShotAlltoallv::operator=(OneShotAlltoallv&&) noexcept = default;
OneShotAlltoallv::~OneShotAlltoallv() = default;

Result<OneShotAlltoallv> OneShotAlltoallv::create(const TypedState& source, const TypedState& target, MPI_Comm comm,
                                                  int64_t elem_bytes) {
  if (!source.type.reduce_axes.empty() || !target.type.reduce_axes.empty())
    return unsupported_error("the one-shot exchange does not reduce");
  auto s = std::make_unique<Schedule>();
  s->comm = comm;
  s->elem_bytes = elem_bytes;
  MPI_Comm_rank(comm, &s->rank);
  // Rank = physical id: the meshes may be over other device sets (docs/meshes.md), a
  // rank outside the source holds nothing, one outside the target receives nothing.
  int size = 0;
  MPI_Comm_size(comm, &size);
  const auto devices = static_cast<int64_t>(size);
  const bool in_source = source.mesh.has_device(s->rank), in_target = target.mesh.has_device(s->rank);
  s->source_shape = local_shape(source.type);
  s->target_shape = local_shape(target.type);
  s->source_origin = in_source ? shard_origin(source, s->rank) : std::vector<int64_t>(s->source_shape.size(), 0);
  s->target_origin = in_target ? shard_origin(target, s->rank) : std::vector<int64_t>(s->target_shape.size(), 0);
  s->target_bytes = in_target ? elem_bytes : 0;
  for (int64_t n : s->target_shape) s->target_bytes *= n;

  // Holders of each source block, ascending; the pieces a target lacks come from
  // holder (target mod holders), so replicas share the sending.
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders;
  for (int64_t d : source.mesh.device_ids()) holders[blocks_of(source, d)].push_back(d);
  s->sends.resize(static_cast<std::size_t>(devices));
  s->recvs.resize(static_cast<std::size_t>(devices));
  for (int64_t t : target.mesh.device_ids()) {
    const auto own = source.mesh.has_device(t) ? blocks_of(source, t) : std::vector<int64_t>{};
    for (auto& [box, blocks] : cells(source, target, t)) {
      const auto& h = holders.at(blocks);
      const int64_t from = blocks == own ? t : h[static_cast<std::size_t>(t) % h.size()];
      if (t == s->rank) s->recvs[static_cast<std::size_t>(from)].push_back(box);
      else if (from == s->rank) s->sends[static_cast<std::size_t>(t)].push_back(box);
    }
  }
  std::vector<std::vector<Box>> remote = s->recvs;
  remote[static_cast<std::size_t>(s->rank)].clear();
  if (!layout(s->sends, elem_bytes, s->send_counts, s->send_displs, s->send_total) ||
      !layout(remote, elem_bytes, s->recv_counts, s->recv_displs, s->recv_total))
    return unsupported_error("a message exceeds an MPI count");
  return OneShotAlltoallv(std::move(s));
}

int64_t OneShotAlltoallv::received_bytes() const { return schedule_->recv_total; }

Result<kernels::Buffer> OneShotAlltoallv::run(kernels::Buffer source) const {
  const Schedule& s = *schedule_;
  const std::vector<int64_t> zero(s.source_shape.size(), 0);
  // Local pieces and packing first, so the source is freed before the exchange.
  kernels::Buffer target(static_cast<std::size_t>(s.target_bytes));
  for (const auto& box : s.recvs[static_cast<std::size_t>(s.rank)])
    copy_box(source.data(), s.source_shape, relative(box, s.source_origin), target.data(), s.target_shape,
             relative(box, s.target_origin), box.size, s.elem_bytes);
  kernels::Buffer send(static_cast<std::size_t>(s.send_total));
  std::byte* cursor = send.data();
  for (const auto& boxes : s.sends)
    for (const auto& box : boxes) {
      copy_box(source.data(), s.source_shape, relative(box, s.source_origin), cursor, box.size, zero, box.size,
               s.elem_bytes);
      cursor += elements(box) * s.elem_bytes;
    }
  source = kernels::Buffer();
  kernels::Buffer received(static_cast<std::size_t>(s.recv_total));
  if (int rc = MPI_Alltoallv(send.data(), s.send_counts.data(), s.send_displs.data(), MPI_BYTE, received.data(),
                             s.recv_counts.data(), s.recv_displs.data(), MPI_BYTE, s.comm);
      rc != MPI_SUCCESS)
    return Error{Error::Kind::runtime, fmt::format("MPI_Alltoallv failed with code {}", rc)};
  send = kernels::Buffer();
  cursor = received.data();
  for (std::size_t peer = 0; peer < s.recvs.size(); ++peer) {
    if (static_cast<int>(peer) == s.rank) continue;
    for (const auto& box : s.recvs[peer]) {
      copy_box(cursor, box.size, zero, target.data(), s.target_shape, relative(box, s.target_origin), box.size,
               s.elem_bytes);
      cursor += elements(box) * s.elem_bytes;
    }
  }
  return target;
}

}  // namespace redist::mpi::bench
