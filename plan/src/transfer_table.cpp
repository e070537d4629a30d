// The sends of a transfer between device sets (docs/meshes.md "Other device sets"):
// every target device's box is cut along the source's block boundaries, and each piece
// comes from one holder of that source block: the receiver itself when it holds the
// block (the piece stays, no message), else the holder that has sent the fewest
// elements so far (ties: the earliest in source mesh order), so replicas of a block
// share the sending; given a node size, holders on the receiver's node come first
// (a replica next to the receiver instead of one across the slow link). Each target
// element is listed exactly once.

#include <algorithm>
#include <map>
#include <utility>

#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"

namespace redist {

namespace {

/// A piece of one dim: the source block `block` and the global range [lo, hi).
struct Piece {
  int64_t block = 0;
  int64_t lo = 0;
  int64_t hi = 0;
};

/// The pieces of the global range [start, start + size) cut at multiples of `local`.
std::vector<Piece> pieces(int64_t start, int64_t size, int64_t local) {
  std::vector<Piece> out;
  for (int64_t k = start / local; k * local < start + size; ++k)
    out.push_back({k, std::max(start, k * local), std::min(start + size, (k + 1) * local)});
  return out;
}

}  // namespace

std::vector<TransferPiece> transfer_pieces(const TypedState& before, const TypedState& after) {
  const DistType &src = before.type, &dst = after.type;
  const std::size_t rank = dst.rank();
  const auto src_local = local_shape(src);
  // The holders of each source block tuple, in source mesh order.
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders;
  for (int64_t p = 0; p < before.mesh.num_devices(); ++p) {
    const Coords c = before.mesh.coords_of_position(p);
    std::vector<int64_t> blocks;
    for (const auto& dim : src.dims) blocks.push_back(block_index(before.mesh, c, dim));
    holders[blocks].push_back(before.mesh.device_at(p));
  }
  std::vector<TransferPiece> out;
  for (int64_t q = 0; q < after.mesh.num_devices(); ++q) {
    const int64_t receiver = after.mesh.device_at(q);
    const auto box = shard_box(after.mesh, dst, after.mesh.coords_of_position(q));
    std::vector<std::vector<Piece>> cut;
    for (std::size_t d = 0; d < rank; ++d) cut.push_back(pieces(box[d].start, box[d].size, src_local[d]));
    if (std::any_of(cut.begin(), cut.end(), [](const auto& c) { return c.empty(); })) continue;
    std::vector<std::size_t> at(rank, 0);  // odometer over the pieces of each dim
    for (bool more = true; more;) {
      TransferPiece piece;
      piece.box.to = receiver;
      std::vector<int64_t> blocks;
      piece.elements = 1;
      for (std::size_t d = 0; d < rank; ++d) {
        const Piece& cut_d = cut[d][at[d]];
        blocks.push_back(cut_d.block);
        piece.box.src_start.push_back(cut_d.lo - cut_d.block * src_local[d]);
        piece.box.dst_start.push_back(cut_d.lo - box[d].start);
        piece.box.extent.push_back(cut_d.hi - cut_d.lo);
        piece.elements *= cut_d.hi - cut_d.lo;
      }
      piece.holders = holders.at(blocks);
      const bool held = std::find(piece.holders.begin(), piece.holders.end(), receiver) != piece.holders.end();
      piece.box.from = held ? receiver : -1;
      out.push_back(std::move(piece));
      more = false;
      for (std::size_t d = rank; d-- > 0;) {
        if (++at[d] < cut[d].size()) {
          more = true;
          break;
        }
        at[d] = 0;
      }
    }
  }
  return out;
}

TransferTable transfer_table(const TypedState& before, const TypedState& after, int64_t node_size) {
  std::map<int64_t, int64_t> sent;  // elements sent so far per source device
  TransferTable table;
  for (TransferPiece& piece : transfer_pieces(before, after)) {
    TransferBox& t = piece.box;
    if (t.from < 0) {
      // Ordered by (off the receiver's node, sent so far): min_element keeps the first.
      auto far = [&](int64_t d) { return node_size > 0 && d / node_size != t.to / node_size; };
      t.from = *std::min_element(piece.holders.begin(), piece.holders.end(), [&](int64_t a, int64_t b) {
        return std::make_pair(far(a), sent[a]) < std::make_pair(far(b), sent[b]);
      });
      sent[t.from] += piece.elements;
    }
    table.push_back(std::move(t));
  }
  return table;
}

}  // namespace redist
