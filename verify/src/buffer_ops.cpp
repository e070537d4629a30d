#include "buffer_ops.hpp"

#include <algorithm>

namespace redist::interp {

int64_t element_count(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

bool next_index(std::vector<int64_t>& index, std::span<const int64_t> shape) {
  for (std::size_t i = index.size(); i-- > 0;) {
    if (++index[i] < shape[i]) return true;
    index[i] = 0;
  }
  return false;
}

namespace {

/// Product of the sizes of the dims before `dim` (rows) and after it (contiguous run).
std::pair<int64_t, int64_t> outer_inner(std::span<const int64_t> shape, std::size_t dim) {
  return {element_count(shape.first(dim)), element_count(shape.subspan(dim + 1))};
}

}  // namespace

LocalBuffer chunk_along(const LocalBuffer& buffer, std::size_t dim, int64_t chunk, int64_t j) {
  const auto [outer, inner] = outer_inner(buffer.shape, dim);
  const int64_t size = buffer.shape[dim];
  const int64_t first = std::min(size, j * chunk), real = std::min(size, (j + 1) * chunk) - first;
  LocalBuffer out{buffer.shape, {}};
  out.shape[dim] = chunk;
  out.values.reserve(static_cast<std::size_t>(outer * chunk * inner));
  for (int64_t o = 0; o < outer; ++o) {
    const auto start = buffer.values.begin() + (o * size + first) * inner;
    out.values.insert(out.values.end(), start, start + real * inner);
    out.values.insert(out.values.end(), static_cast<std::size_t>((chunk - real) * inner), kPadding);
  }
  return out;
}

LocalBuffer prefix_along(const LocalBuffer& buffer, std::size_t dim, int64_t size) {
  const auto [outer, inner] = outer_inner(buffer.shape, dim);
  const int64_t full = buffer.shape[dim];
  LocalBuffer out{buffer.shape, {}};
  out.shape[dim] = size;
  out.values.reserve(static_cast<std::size_t>(outer * size * inner));
  for (int64_t o = 0; o < outer; ++o) {
    const auto first = buffer.values.begin() + o * full * inner;
    out.values.insert(out.values.end(), first, first + size * inner);
  }
  return out;
}

LocalBuffer concat_along(std::span<const LocalBuffer* const> parts, std::size_t dim) {
  LocalBuffer out{parts.front()->shape, {}};
  out.shape[dim] = 0;
  for (const LocalBuffer* p : parts) out.shape[dim] += p->shape[dim];
  const auto [outer, inner] = outer_inner(out.shape, dim);
  out.values.reserve(static_cast<std::size_t>(element_count(out.shape)));
  for (int64_t o = 0; o < outer; ++o) {
    for (const LocalBuffer* p : parts) {
      const int64_t run = p->shape[dim] * inner;
      const auto first = p->values.begin() + o * run;
      out.values.insert(out.values.end(), first, first + run);
    }
  }
  return out;
}

int64_t combine(ReduceOp op, int64_t a, int64_t b) {
  switch (op) {
    case ReduceOp::sum:
      return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    case ReduceOp::max:
      return std::max(a, b);
    case ReduceOp::min:
      return std::min(a, b);
  }
  return a;
}

LocalBuffer reduce_elementwise(ReduceOp op, std::span<const LocalBuffer* const> parts) {
  LocalBuffer out = *parts.front();
  for (const LocalBuffer* p : parts.subspan(1)) {
    for (std::size_t k = 0; k < out.values.size(); ++k)
      out.values[k] = combine(op, out.values[k], p->values[k]);
  }
  return out;
}

}  // namespace redist::interp
