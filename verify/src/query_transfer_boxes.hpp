#pragma once
// The two queries over the sends of a transfer between device sets (docs/checker.md
// "Transfers"), posed beside G1 and G3b. The step's relation (step_relations.cpp) maps
// each covered element of a new buffer to the element its send reads, so G1's chain
// query says nothing about an element that no send covers: coverage is its own query.
// Likewise G3b's arrival argument counts one arrival per element, so an element that
// two sends write (received twice) is its own query.

#include <cstddef>
#include <optional>

#include "redist/plan/lowered.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/verdict.hpp"

namespace redist::smt {

/// G1 for transfer step k (1-based): every non-padding element of every new buffer is
/// written by some send. nullopt when it holds (or step k is no transfer), else the
/// refuted (or unknown) result with the device and local index no send covers.
std::optional<PropertyResult> transfer_covers(const LoweredPlan& plan, std::size_t k, const CheckOptions& options);

/// G3b for transfer step k (1-based): no element of a new buffer is written by two
/// sends, and no send writes into the padding. nullopt when it holds (or step k is no
/// transfer), else the refuted (or unknown) result with the device and local index.
std::optional<PropertyResult> transfer_sends_once(const LoweredPlan& plan, std::size_t k, const CheckOptions& options);

}  // namespace redist::smt
