#pragma once
// THE TRUSTED BASE of the checker (docs/checker.md "Trusted base"): what each lowered
// collective does, as one constraint per collective kind relating an element location
// BEFORE the step to one AFTER it. relate(step, b, a) holds exactly when the element at
// `a` after the step is the element at `b` before it (for a reduction: when the element
// at `b` is one of the values combined into `a`). The relations read only the lowered
// form (groups and member order, chunk sizes, split/concat dims, permute moves or
// pairs, slice offsets) and the declared local shapes, never the types' index maps;
// Z3 composes them over the steps of a plan.

#include <optional>
#include <vector>

#include "encoding.hpp"
#include "redist/plan/lowered.hpp"

namespace redist::smt {

/// The constraint "the element at `after` (on step.after.mesh) is, or for a reduction
/// combines, the element at `before` (on step.before.mesh)".
z3::expr relate(Encoding& enc, const LoweredStep& step, const Location& before, const Location& after);

/// Where the element at `before` would be after the step if it stays on its device
/// `there` (before's device on the mesh after the step; for a transfer a device of the
/// new mesh with before's physical id, when it has one): the local index it takes there.
/// It does stay exactly when relate(step, before, {there, this index}) holds and the
/// index is inside the buffer after the step; the relation, not this guess, decides.
std::vector<z3::expr> stay_index(Encoding& enc, const LoweredStep& step, const Location& before, const Device& there);

/// For transfer `step`: the condition "the element at `before` stays on its physical
/// device": some box that stays (from == to) is on before's device and holds its
/// index; for a symbolic transfer, before's physical id is a device of the new mesh (whose
/// block then holds the element exactly when the index stay_index gives is in bounds).
z3::expr stays_on_device(Encoding& enc, const LoweredStep& step, const Location& before);

/// The local buffer shape the lowered collective of `step` produces from the declared
/// shape before it (a gather or all_to_all keeps at most the declared extent of its
/// concatenation; an all_to_all's chunks are ceil(extent / members) long); nullopt when
/// a reduce_scatter's split does not divide evenly.
std::optional<std::vector<int64_t>> produced_shape(const LoweredStep& step);

/// True when the step moves data between devices (every kind but all_slice and
/// add_pending).
bool communicates(const LoweredStep& step);

/// True for reduce_scatter and all_reduce.
bool reduces(const LoweredStep& step);

/// True for add_pending (local: it makes replicated axes pending).
bool adds_pending(const LoweredStep& step);

}  // namespace redist::smt
