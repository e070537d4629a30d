#pragma once
// The collectives by their definitions on concrete buffers, given the lowered groups
// or pairs. Inputs are already validated: groups partition the devices, every buffer
// has the same shape, and chunked dims divide evenly.

#include <cstddef>

#include "redist/core/dist_type.hpp"
#include "redist/plan/plan.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::interp {

/// Every device keeps chunk i (`chunk` elements) of its buffer along `dim`, i = its
/// place in its group; entries past the buffer's end are padding (a padded result).
MeshData all_slice(const DeviceGroups& groups, const MeshData& data, std::size_t dim, int64_t chunk);

/// Every device gets its group's buffers concatenated along `dim` in member order, of
/// which it keeps the first `keep` elements along `dim` (less than the concatenation
/// when the dim is padded: the tail is padding).
MeshData all_gather(const DeviceGroups& groups, const MeshData& data, std::size_t dim, int64_t keep);

/// Member j of each group splits its buffer along `dst_dim` into one chunk of `chunk`
/// elements per member (padding past the buffer's end) and sends chunk i to member i;
/// member i concatenates what it receives along `src_dim` in member order and keeps
/// the first `keep` elements along it (the tail of a padded dim is padding).
MeshData all_to_all(const DeviceGroups& groups, const MeshData& data, std::size_t src_dim,
                    std::size_t dst_dim, int64_t chunk, int64_t keep);

/// Every target device receives the whole buffer of its source.
MeshData collective_permute(const DevicePairs& pairs, const MeshData& data);

/// A transfer between device sets: every device of `to_mesh` gets a new buffer of
/// `shape` filled with padding, then each box of `sends` is copied from its sender's
/// buffer in `data`; the result has `slots` buffers (devices outside `to_mesh`: empty).
MeshData transfer(const TransferTable& sends, const MeshData& data, const Mesh& to_mesh,
                  const std::vector<int64_t>& shape, std::size_t slots);

/// Each group's buffers reduced elementwise by `op`; member i keeps chunk i along `dim`.
MeshData reduce_scatter(const DeviceGroups& groups, const MeshData& data, std::size_t dim,
                        ReduceOp op);

/// Each group's buffers reduced elementwise by `op`; every member gets the result.
MeshData all_reduce(const DeviceGroups& groups, const MeshData& data, ReduceOp op);

/// The identity of `op` on the interpreter's int64 values: 0, the lowest, the highest.
int64_t identity(ReduceOp op);

/// Member 0 of each group keeps its buffer; every other member's buffer is filled with
/// the identity of `op` (add_pending).
MeshData add_pending(const DeviceGroups& groups, const MeshData& data, ReduceOp op);

}  // namespace redist::interp
