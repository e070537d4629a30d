#pragma once
// Row-major buffer operations the interpreter's collectives are built from: chunking
// and concatenating along one dim, and elementwise reduction.

#include <cstdint>
#include <span>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::interp {

/// Number of elements of a row-major buffer of `shape` (1 for rank 0).
int64_t element_count(std::span<const int64_t> shape);

/// Advances `index` to the next row-major index within `shape`; returns false (and
/// leaves `index` all zeros) after the last one.
bool next_index(std::vector<int64_t>& index, std::span<const int64_t> shape);

/// Chunk `j` of `buffer` along `dim` in chunks of `chunk` elements: indices
/// j*chunk .. (j+1)*chunk - 1, those past the end of the buffer kPadding (a padded
/// dim's last chunks; docs/notation.md, "Padded dims").
LocalBuffer chunk_along(const LocalBuffer& buffer, std::size_t dim, int64_t chunk, int64_t j);

/// The first `size` elements of `buffer` along `dim` (size <= shape[dim]).
LocalBuffer prefix_along(const LocalBuffer& buffer, std::size_t dim, int64_t size);

/// The buffers concatenated along `dim` in order; they must agree in every other dim.
LocalBuffer concat_along(std::span<const LocalBuffer* const> parts, std::size_t dim);

/// `a` combined with `b` by `op`; sums wrap modulo 2^64 so any split of a value into
/// summands adds back exactly.
int64_t combine(ReduceOp op, int64_t a, int64_t b);

/// Elementwise `op`-reduction of equally shaped buffers (at least one).
LocalBuffer reduce_elementwise(ReduceOp op, std::span<const LocalBuffer* const> parts);

}  // namespace redist::interp
