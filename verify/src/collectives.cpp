#include "collectives.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "buffer_ops.hpp"

namespace redist::interp {

namespace {

/// Pointers to the buffers of `group`'s members, in member order.
std::vector<const LocalBuffer*> member_buffers(const std::vector<int64_t>& group,
                                               const MeshData& data) {
  std::vector<const LocalBuffer*> out;
  out.reserve(group.size());
  for (int64_t d : group) out.push_back(&data[static_cast<std::size_t>(d)]);
  return out;
}

/// Number of members of `group` as a chunk count.
int64_t members(const std::vector<int64_t>& group) { return static_cast<int64_t>(group.size()); }

}  // namespace

MeshData all_slice(const DeviceGroups& groups, const MeshData& data, std::size_t dim, int64_t chunk) {
  MeshData out(data.size());
  for (const auto& group : groups) {
    for (int64_t i = 0; i < members(group); ++i) {
      const auto d = static_cast<std::size_t>(group[static_cast<std::size_t>(i)]);
      out[d] = chunk_along(data[d], dim, chunk, i);
    }
  }
  return out;
}

MeshData all_gather(const DeviceGroups& groups, const MeshData& data, std::size_t dim, int64_t keep) {
  MeshData out(data.size());
  for (const auto& group : groups) {
    LocalBuffer gathered = concat_along(member_buffers(group, data), dim);
    if (gathered.shape[dim] != keep) gathered = prefix_along(gathered, dim, keep);
    for (int64_t d : group) out[static_cast<std::size_t>(d)] = gathered;
  }
  return out;
}

MeshData all_to_all(const DeviceGroups& groups, const MeshData& data, std::size_t src_dim,
                    std::size_t dst_dim, int64_t chunk, int64_t keep) {
  MeshData out(data.size());
  for (const auto& group : groups) {
    for (int64_t i = 0; i < members(group); ++i) {
      std::vector<LocalBuffer> received;
      received.reserve(group.size());
      for (int64_t j : group)
        received.push_back(chunk_along(data[static_cast<std::size_t>(j)], dst_dim, chunk, i));
      std::vector<const LocalBuffer*> parts;
      for (const auto& r : received) parts.push_back(&r);
      LocalBuffer gathered = concat_along(parts, src_dim);
      if (gathered.shape[src_dim] != keep) gathered = prefix_along(gathered, src_dim, keep);
      out[static_cast<std::size_t>(group[static_cast<std::size_t>(i)])] = std::move(gathered);
    }
  }
  return out;
}

MeshData collective_permute(const DevicePairs& pairs, const MeshData& data) {
  MeshData out(data.size());
  for (const auto& [source, target] : pairs)
    out[static_cast<std::size_t>(target)] = data[static_cast<std::size_t>(source)];
  return out;
}

MeshData transfer(const TransferTable& sends, const MeshData& data, const Mesh& to_mesh,
                  const std::vector<int64_t>& shape, std::size_t slots) {
  MeshData out(slots);
  const LocalBuffer empty{shape, std::vector<int64_t>(static_cast<std::size_t>(element_count(shape)), kPadding)};
  for (int64_t d : to_mesh.device_ids()) out[static_cast<std::size_t>(d)] = empty;
  for (const auto& box : sends) {
    LocalBuffer& to = out[static_cast<std::size_t>(box.to)];
    const LocalBuffer& from = data[static_cast<std::size_t>(box.from)];
    std::vector<int64_t> at(box.extent.size(), 0);  // index inside the box
    do {
      int64_t src = 0, dst = 0;
      for (std::size_t d = 0; d < at.size(); ++d) {
        src = src * from.shape[d] + box.src_start[d] + at[d];
        dst = dst * shape[d] + box.dst_start[d] + at[d];
      }
      to.values[static_cast<std::size_t>(dst)] = from.values[static_cast<std::size_t>(src)];
    } while (next_index(at, box.extent));
  }
  return out;
}

MeshData reduce_scatter(const DeviceGroups& groups, const MeshData& data, std::size_t dim,
                        ReduceOp op) {
  MeshData out(data.size());
  for (const auto& group : groups) {
    const LocalBuffer reduced = reduce_elementwise(op, member_buffers(group, data));
    for (int64_t i = 0; i < members(group); ++i)
      out[static_cast<std::size_t>(group[static_cast<std::size_t>(i)])] =
          chunk_along(reduced, dim, reduced.shape[dim] / members(group), i);
  }
  return out;
}

MeshData all_reduce(const DeviceGroups& groups, const MeshData& data, ReduceOp op) {
  MeshData out(data.size());
  for (const auto& group : groups) {
    const LocalBuffer reduced = reduce_elementwise(op, member_buffers(group, data));
    for (int64_t d : group) out[static_cast<std::size_t>(d)] = reduced;
  }
  return out;
}

int64_t identity(ReduceOp op) {
  switch (op) {
    case ReduceOp::max: return std::numeric_limits<int64_t>::min();
    case ReduceOp::min: return std::numeric_limits<int64_t>::max();
    case ReduceOp::sum: break;
  }
  return 0;
}

MeshData add_pending(const DeviceGroups& groups, const MeshData& data, ReduceOp op) {
  MeshData out = data;
  for (const auto& group : groups)
    for (std::size_t i = 1; i < group.size(); ++i) {
      auto& values = out[static_cast<std::size_t>(group[i])].values;
      std::fill(values.begin(), values.end(), identity(op));
    }
  return out;
}

}  // namespace redist::interp
