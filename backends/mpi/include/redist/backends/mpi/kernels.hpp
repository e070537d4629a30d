#pragma once
// MPI kernels of the plan steps over row-major byte buffers. Self-contained (MPI and the
// C++ standard library only): the runtime calls them, and `redist emit --target mpi`
// pastes this file into the programs it writes. Every kernel returns an MPI error code
// (MPI_SUCCESS when it worked); the communicators should carry MPI_ERRORS_RETURN.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace redist::mpi::kernels {

/// An uninitialised byte buffer of fixed size: one rank's shard.
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t size)
      : data_(size ? std::make_unique_for_overwrite<std::byte[]>(size) : nullptr), size_(size) {}

  std::byte* data() { return data_.get(); }
  const std::byte* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  std::unique_ptr<std::byte[]> data_;
  std::size_t size_ = 0;
};

/// A communicator this program owns (freed on destruction).
class Comm {
 public:
  Comm() = default;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  Comm(Comm&& other) noexcept : comm_(std::exchange(other.comm_, MPI_COMM_NULL)) {}
  Comm& operator=(Comm&& other) noexcept {
    std::swap(comm_, other.comm_);
    return *this;
  }
  ~Comm() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  MPI_Comm get() const { return comm_; }
  MPI_Comm* out() { return &comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

/// Duplicates `parent` into `out` with MPI_ERRORS_RETURN set, so that MPI failures come
/// back as error codes. Returns an MPI error code.
inline int duplicate_returning_errors(MPI_Comm parent, Comm& out) {
  if (int rc = MPI_Comm_dup(parent, out.out()); rc != MPI_SUCCESS) return rc;
  return MPI_Comm_set_errhandler(out.get(), MPI_ERRORS_RETURN);
}

/// Splits `parent` into the group numbered `color`, this rank at position `key` of it
/// (MPI_Comm_split; the new communicator inherits the error handler). Returns an MPI
/// error code.
inline int split(MPI_Comm parent, int color, int key, Comm& out) {
  return MPI_Comm_split(parent, color, key, out.out());
}

/// A row-major buffer seen around one dim: `outer` rows (the product of the dims before
/// it), `extent` entries along it, each entry `inner` bytes (the product of the dims
/// after it times the element bytes).
struct DimView {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
};

/// The view of a buffer of local `shape` (elements) around `dim`.
inline DimView view_at(std::span<const int64_t> shape, int dim, int64_t elem_bytes) {
  DimView v;
  v.inner = elem_bytes;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < dim) v.outer *= shape[d];
    if (d > dim) v.inner *= shape[d];
  }
  v.extent = shape[dim];
  return v;
}

/// True when `value` fits an MPI count.
inline bool fits_int(int64_t value) { return value >= 0 && value <= INT_MAX; }

/// `count` items of an MPI datatype: either a contiguous run of bytes, or one strided
/// piece (a derived datatype this object frees).
class Piece {
 public:
  Piece() = default;
  Piece(const Piece&) = delete;
  Piece& operator=(const Piece&) = delete;
  ~Piece() {
    if (owned_ != MPI_DATATYPE_NULL) MPI_Type_free(&owned_);
  }

  /// Describes `rows` blocks of `block` bytes, `stride` bytes apart, with an extent of
  /// `block` bytes, so that piece j of a collective starts j * block bytes in. Returns an
  /// MPI error code (MPI_ERR_COUNT when a figure exceeds an MPI count).
  int describe(int64_t rows, int64_t block, int64_t stride) {
    if (!fits_int(rows) || !fits_int(block) || !fits_int(stride)) return MPI_ERR_COUNT;
    if (rows == 1) {
      count_ = static_cast<int>(block);
      type_ = MPI_BYTE;
      return MPI_SUCCESS;
    }
    MPI_Datatype vector = MPI_DATATYPE_NULL;
    int rc = MPI_Type_vector(static_cast<int>(rows), static_cast<int>(block), static_cast<int>(stride), MPI_BYTE,
                             &vector);
    if (rc != MPI_SUCCESS) return rc;
    rc = MPI_Type_create_resized(vector, 0, block, &owned_);
    MPI_Type_free(&vector);
    if (rc != MPI_SUCCESS) return rc;
    count_ = 1;
    type_ = owned_;
    return MPI_Type_commit(&owned_);
  }

  int count() const { return count_; }
  MPI_Datatype type() const { return type_; }

 private:
  int count_ = 0;
  MPI_Datatype type_ = MPI_BYTE;
  MPI_Datatype owned_ = MPI_DATATYPE_NULL;
};

/// all_slice: keeps the `chunk` entries from `offset` on along the dim `v` describes (a
/// local strided copy); entries past the end of the dim are padding, zero-filled (a
/// padded dim's last shards, which may be all padding). Returns MPI_SUCCESS.
inline int all_slice(const Buffer& in, DimView v, int64_t chunk, int64_t offset, Buffer& out) {
  const int64_t block = chunk * v.inner;
  const int64_t real = std::max<int64_t>(0, std::min(chunk, v.extent - offset)) * v.inner;
  out = Buffer(static_cast<std::size_t>(v.outer * block));
  for (int64_t o = 0; o < v.outer; ++o) {
    if (real > 0)
      std::memcpy(out.data() + o * block, in.data() + (o * v.extent + offset) * v.inner,
                  static_cast<std::size_t>(real));
    std::memset(out.data() + o * block + real, 0, static_cast<std::size_t>(block - real));
  }
  return MPI_SUCCESS;
}

/// all_gather: concatenates the buffers of the `parts` members of `comm` (in rank order)
/// along the dim `v` describes; a non-outermost dim is laid out by the receive datatype.
/// Keeps the first `keep` entries of the concatenation along the dim: fewer than
/// parts * extent when the dim is padded, whose tail is padding. Returns an MPI error code.
inline int all_gather(MPI_Comm comm, const Buffer& in, DimView v, int64_t parts, int64_t keep, Buffer& out) {
  const int64_t block = v.extent * v.inner;
  Piece send, recv;
  if (int rc = send.describe(1, static_cast<int64_t>(in.size()), 0); rc != MPI_SUCCESS) return rc;
  if (int rc = recv.describe(v.outer, block, parts * block); rc != MPI_SUCCESS) return rc;
  out = Buffer(in.size() * static_cast<std::size_t>(parts));
  const int rc = MPI_Allgather(in.data(), send.count(), send.type(), out.data(), recv.count(), recv.type(), comm);
  if (rc != MPI_SUCCESS || keep == parts * v.extent) return rc;
  Buffer gathered = std::move(out);
  return all_slice(gathered, DimView{v.outer, parts * v.extent, v.inner}, keep, 0, out);
}

/// all_to_all: with `shape` the local shape before, splits `split_dim` into `parts`
/// chunks of `chunk` entries (a padded dim is first padded to parts * chunk), sends
/// chunk j to member j of `comm`, concatenates what member j sends at position j along
/// `concat_dim`, and keeps the first `keep` entries of that dim (fewer when it is
/// padded: the tail is padding). Both sides are packed by derived datatypes. Returns
/// an MPI error code.
inline int all_to_all(MPI_Comm comm, const Buffer& in, std::span<const int64_t> shape, int split_dim, int concat_dim,
                      int64_t elem_bytes, int64_t parts, int64_t chunk, int64_t keep, Buffer& out) {
  std::vector<int64_t> padded(shape.begin(), shape.end());
  padded[split_dim] = parts * chunk;
  Buffer grown;
  const Buffer* send_buffer = &in;
  if (padded[split_dim] != shape[split_dim]) {
    all_slice(in, view_at(shape, split_dim, elem_bytes), parts * chunk, 0, grown);
    send_buffer = &grown;
  }
  std::vector<int64_t> after = padded;
  after[split_dim] = chunk;
  after[concat_dim] *= parts;
  const DimView s = view_at(padded, split_dim, elem_bytes);
  const DimView r = view_at(after, concat_dim, elem_bytes);
  Piece send, recv;
  if (int rc = send.describe(s.outer, chunk * s.inner, s.extent * s.inner); rc != MPI_SUCCESS) return rc;
  if (int rc = recv.describe(r.outer, r.extent / parts * r.inner, r.extent * r.inner); rc != MPI_SUCCESS) return rc;
  out = Buffer(send_buffer->size());
  const int rc = MPI_Alltoall(send_buffer->data(), send.count(), send.type(), out.data(), recv.count(), recv.type(), comm);
  if (rc != MPI_SUCCESS || keep == after[concat_dim]) return rc;
  Buffer gathered = std::move(out);
  return all_slice(gathered, r, keep, 0, out);
}

/// Copies the box of `extent` elements (`elem_bytes` each) at `src_start` of a row-major
/// buffer of `src_shape` to `dst_start` of one of `dst_shape`, a run of the last dim at
/// a time.
inline void copy_box(const std::byte* src, std::span<const int64_t> src_shape, std::span<const int64_t> src_start,
                     std::byte* dst, std::span<const int64_t> dst_shape, std::span<const int64_t> dst_start,
                     std::span<const int64_t> extent, int64_t elem_bytes) {
  const std::size_t rank = extent.size();
  const int64_t run = (rank ? extent[rank - 1] : 1) * elem_bytes;
  std::vector<int64_t> at(rank, 0);  // index inside the box, last dim 0
  for (;;) {
    int64_t s = 0, d = 0;
    for (std::size_t i = 0; i < rank; ++i) {
      s = s * src_shape[i] + src_start[i] + at[i];
      d = d * dst_shape[i] + dst_start[i] + at[i];
    }
    if (run > 0) std::memcpy(dst + d * elem_bytes, src + s * elem_bytes, static_cast<std::size_t>(run));
    std::size_t i = rank > 0 ? rank - 1 : 0;
    while (i-- > 0) {
      if (++at[i] < extent[i]) break;
      at[i] = 0;
    }
    if (i == static_cast<std::size_t>(-1)) return;
  }
}

/// fused all_to_all: one MPI_Alltoall over `comm` (members in the order of the member
/// index, part 0 its most significant digit) for the parts `split[k]`, `concat[k]` of
/// `sizes[k]` members (dims unpadded, split and concat dims distinct). Member i's chunk
/// is, along each split dim, chunk number (i's digits of the parts splitting it, in
/// part order) of the chunk length; they are packed in member order, exchanged, and the
/// piece from member j is placed, along each concat dim, at number (j's digits of the
/// parts concatenating there, last part most significant) times the dim's length.
/// Returns an MPI error code.
inline int fused_all_to_all(MPI_Comm comm, const Buffer& in, std::span<const int64_t> shape, std::span<const int> split,
                            std::span<const int> concat, std::span<const int64_t> sizes, int64_t elem_bytes,
                            Buffer& out) {
  const std::size_t parts = sizes.size(), rank = shape.size();
  int64_t members = 1;
  for (int64_t g : sizes) members *= g;
  std::vector<int64_t> chunk(shape.begin(), shape.end()), after(shape.begin(), shape.end());
  for (std::size_t k = 0; k < parts; ++k) {
    chunk[static_cast<std::size_t>(split[k])] /= sizes[k];
    after[static_cast<std::size_t>(split[k])] /= sizes[k];
    after[static_cast<std::size_t>(concat[k])] *= sizes[k];
  }
  int64_t chunk_bytes = elem_bytes;
  for (int64_t e : chunk) chunk_bytes *= e;
  if (!fits_int(chunk_bytes)) return MPI_ERR_COUNT;
  // Per member: along each dim, its chunk number (split dims) or place (concat dims).
  auto offsets = [&](int64_t member, bool send) {
    std::vector<int64_t> digit(parts), at(rank, 0);
    for (std::size_t k = parts; k-- > 0; member /= sizes[k]) digit[k] = member % sizes[k];
    for (std::size_t d = 0; d < rank; ++d) {
      int64_t number = 0;
      if (send) {
        for (std::size_t k = 0; k < parts; ++k)
          if (split[k] == static_cast<int>(d)) number = number * sizes[k] + digit[k];
      } else {
        for (std::size_t k = parts; k-- > 0;)
          if (concat[k] == static_cast<int>(d)) number = number * sizes[k] + digit[k];
      }
      at[d] = number * chunk[d];
    }
    return at;
  };
  const std::vector<int64_t> zero(rank, 0);
  Buffer packed(in.size()), received(in.size());
  for (int64_t i = 0; i < members; ++i)
    copy_box(in.data(), shape, offsets(i, true), packed.data() + i * chunk_bytes, chunk, zero, chunk, elem_bytes);
  const int rc = MPI_Alltoall(packed.data(), static_cast<int>(chunk_bytes), MPI_BYTE, received.data(),
                              static_cast<int>(chunk_bytes), MPI_BYTE, comm);
  if (rc != MPI_SUCCESS) return rc;
  packed = Buffer();
  out = Buffer(in.size());
  for (int64_t j = 0; j < members; ++j)
    copy_box(received.data() + j * chunk_bytes, chunk, zero, out.data(), after, offsets(j, false), chunk, elem_bytes);
  return MPI_SUCCESS;
}

/// fused all_gather: returns an MPI error code after one MPI_Allgather of the whole
/// buffer over `comm` (members in the order of the member index, part 0 its most
/// significant digit) for the parts gathering dims `dims[k]` over `sizes[k]` members
/// (dims distinct and unpadded); the buffer from member j is placed, along each part's
/// dim, at j's digit of that part times the dim's length.
inline int fused_all_gather(MPI_Comm comm, const Buffer& in, std::span<const int64_t> shape, std::span<const int> dims,
                            std::span<const int64_t> sizes, int64_t elem_bytes, Buffer& out) {
  const std::size_t parts = sizes.size();
  const auto bytes = static_cast<int64_t>(in.size());
  if (!fits_int(bytes)) return MPI_ERR_COUNT;
  int64_t members = 1;
  for (int64_t g : sizes) members *= g;
  std::vector<int64_t> after(shape.begin(), shape.end());
  for (std::size_t k = 0; k < parts; ++k) after[static_cast<std::size_t>(dims[k])] *= sizes[k];
  Buffer received(in.size() * static_cast<std::size_t>(members));
  const int rc = MPI_Allgather(in.data(), static_cast<int>(bytes), MPI_BYTE, received.data(), static_cast<int>(bytes),
                               MPI_BYTE, comm);
  if (rc != MPI_SUCCESS) return rc;
  out = Buffer(received.size());
  const std::vector<int64_t> zero(shape.size(), 0);
  for (int64_t j = 0; j < members; ++j) {
    std::vector<int64_t> at(shape.size(), 0);
    int64_t member = j;
    for (std::size_t k = parts; k-- > 0; member /= sizes[k])
      at[static_cast<std::size_t>(dims[k])] = member % sizes[k] * shape[static_cast<std::size_t>(dims[k])];
    copy_box(received.data() + j * bytes, shape, zero, out.data(), after, at, shape, elem_bytes);
  }
  return MPI_SUCCESS;
}

/// collective_permute: sends `in` to every rank of `comm` in `send_to` and receives `out`
/// from rank `recv_from`; when that is this rank (`me`) no message moves and `out`
/// takes over `in`. Returns an MPI error code.
inline int permute(MPI_Comm comm, int me, Buffer& in, int recv_from, std::span<const int> send_to, Buffer& out) {
  if (!fits_int(static_cast<int64_t>(in.size()))) return MPI_ERR_COUNT;
  const int count = static_cast<int>(in.size());
  std::vector<MPI_Request> requests;
  Buffer received;
  if (recv_from != me) {
    received = Buffer(in.size());
    requests.emplace_back();
    if (int rc = MPI_Irecv(received.data(), count, MPI_BYTE, recv_from, 0, comm, &requests.back()); rc != MPI_SUCCESS)
      return rc;
  }
  for (int target : send_to) {
    requests.emplace_back();
    if (int rc = MPI_Isend(in.data(), count, MPI_BYTE, target, 0, comm, &requests.back()); rc != MPI_SUCCESS)
      return rc;
  }
  const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  out = recv_from == me ? std::move(in) : std::move(received);
  return rc;
}

/// reduce_scatter: reduces the buffers of the members of `comm` elementwise with `op`
/// over `type` (`elem_bytes` each) and leaves member j chunk j of `parts` along the dim
/// `v` describes (packed first when that dim is not the outermost). Returns an MPI error
/// code.
inline int reduce_scatter(MPI_Comm comm, const Buffer& in, DimView v, int64_t parts, MPI_Datatype type,
                          int64_t elem_bytes, MPI_Op op, Buffer& out) {
  const int64_t chunk = v.extent / parts * v.inner;
  const int64_t count = v.outer * chunk / elem_bytes;
  if (!fits_int(count)) return MPI_ERR_COUNT;
  Buffer packed;
  const Buffer* send = &in;
  if (v.outer > 1) {
    packed = Buffer(in.size());
    for (int64_t j = 0; j < parts; ++j)
      for (int64_t o = 0; o < v.outer; ++o)
        std::memcpy(packed.data() + (j * v.outer + o) * chunk, in.data() + o * v.extent * v.inner + j * chunk,
                    static_cast<std::size_t>(chunk));
    send = &packed;
  }
  out = Buffer(static_cast<std::size_t>(v.outer * chunk));
  return MPI_Reduce_scatter_block(send->data(), out.data(), static_cast<int>(count), type, op, comm);
}

/// add_pending: `out` takes over `in` when this rank keeps its values (`keep`), else
/// holds `in.size()` bytes of copies of the `elem_bytes` bytes at `identity` (the
/// reduction's identity). Local; returns MPI_SUCCESS.
inline int add_pending(Buffer& in, bool keep, const void* identity, int64_t elem_bytes, Buffer& out) {
  if (keep) {
    out = std::move(in);
    return MPI_SUCCESS;
  }
  out = Buffer(in.size());
  const auto step = static_cast<std::size_t>(elem_bytes);
  for (std::size_t at = 0; at + step <= out.size(); at += step) std::memcpy(out.data() + at, identity, step);
  return MPI_SUCCESS;
}

/// all_reduce: reduces the buffers of the members of `comm` elementwise with `op` over
/// `type` (`elem_bytes` each), in place. Returns an MPI error code.
inline int all_reduce(MPI_Comm comm, Buffer& buffer, MPI_Datatype type, int64_t elem_bytes, MPI_Op op) {
  const int64_t count = static_cast<int64_t>(buffer.size()) / elem_bytes;
  if (!fits_int(count)) return MPI_ERR_COUNT;
  return MPI_Allreduce(MPI_IN_PLACE, buffer.data(), static_cast<int>(count), type, op, comm);
}

/// Elements of a box of `extent`.
inline int64_t box_elements(std::span<const int64_t> extent) {
  int64_t n = 1;
  for (int64_t e : extent) n *= e;
  return n;
}

/// transfer between device sets: every `Box` (fields from, to, src_start, dst_start,
/// extent: redist::TransferBox) from this rank (`me`) to another is packed and sent,
/// every box to it from another is received and unpacked, a box to itself is copied;
/// `out` is a zero-filled buffer of `out_shape` when this rank is in the target mesh
/// (`member`), else empty. `in` has `in_shape` (empty when the rank holds no source).
/// Returns an MPI error code.
template <class Box>
inline int transfer(MPI_Comm comm, int me, const Buffer& in, std::span<const int64_t> in_shape,
                    std::span<const int64_t> out_shape, bool member, std::span<const Box> boxes, int64_t elem_bytes,
                    Buffer& out) {
  out = Buffer(member ? static_cast<std::size_t>(box_elements(out_shape) * elem_bytes) : 0);
  if (out.size()) std::memset(out.data(), 0, out.size());
  std::vector<Buffer> packed;
  std::vector<std::pair<const Box*, std::size_t>> received;  // box, index into packed
  std::vector<MPI_Request> requests;
  const std::vector<int64_t> zero(in_shape.size(), 0);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Box& box = boxes[i];
    if (box.from == box.to) {
      if (box.to == me)
        copy_box(in.data(), in_shape, box.src_start, out.data(), out_shape, box.dst_start, box.extent, elem_bytes);
      continue;
    }
    if (box.from != me && box.to != me) continue;
    const int64_t bytes = box_elements(box.extent) * elem_bytes;
    if (!fits_int(bytes)) return MPI_ERR_COUNT;
    packed.emplace_back(static_cast<std::size_t>(bytes));
    requests.emplace_back();
    const int tag = static_cast<int>(i % 32768);  // MPI_TAG_UB is at least 32767
    int rc = MPI_SUCCESS;
    if (box.from == me) {
      copy_box(in.data(), in_shape, box.src_start, packed.back().data(), box.extent, zero, box.extent, elem_bytes);
      rc = MPI_Isend(packed.back().data(), static_cast<int>(bytes), MPI_BYTE, static_cast<int>(box.to), tag, comm,
                     &requests.back());
    } else {
      received.emplace_back(&box, packed.size() - 1);
      rc = MPI_Irecv(packed.back().data(), static_cast<int>(bytes), MPI_BYTE, static_cast<int>(box.from), tag, comm,
                     &requests.back());
    }
    if (rc != MPI_SUCCESS) return rc;
  }
  const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  for (const auto& [box, at] : received)
    copy_box(packed[at].data(), box->extent, zero, out.data(), out_shape, box->dst_start, box->extent, elem_bytes);
  return MPI_SUCCESS;
}

}  // namespace redist::mpi::kernels
