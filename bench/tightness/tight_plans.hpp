// Whether an LB-tight plan exists for a reshard: a plan in which every device receives
// exactly the bytes of its target shard it does not hold at the start (total received =
// total LB, docs/results.md). An exhaustive search of its own, independent of the
// synthesizer (it links no search code), used to tell how many cases of a suite any
// plan of the contract's steps could make tight (docs/lb-tightness.md).
//
// Why a reachability search suffices: a plan is tight iff each of its steps, on each
// device d, (R) receives only elements of d's target shard and (L) drops none of them,
// and a collective_permute moves d's whole buffer or nothing. A plan that breaks (R)
// receives a byte LB does not count or receives one twice; one that breaks (L) must
// receive a target element again (or one it held at the start). Both are conditions on
// one step's types, so the tight plans are the paths of the graph of types whose edges
// are tight steps, and every type on them holds, on each device, only elements of its
// source or target shard.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"

namespace redist::tightness {

struct TightSearchOptions {
  /// Types visited per digit order before the search gives up (verdict `gave_up`).
  int64_t max_states = 200'000;
  /// Keep every type within max(source, target) local bytes (the plans' bound, G2).
  bool within_bound = true;
};

enum class TightVerdict {
  found,                 // `plan` is tight
  none,                  // no plan of the searched steps is tight
  none_per_digit_order,  // none, over plans that split each axis of mixed prime factors
                         // (6 = 2 x 3) one way throughout; plans mixing both ways untried
  gave_up,               // max_states reached
  skipped,               // outside the search's scope (`reason`)
};

struct TightSearchResult {
  TightVerdict verdict = TightVerdict::skipped;
  /// The tight plan found (fewest steps), target asserted; the steps are the contract's
  /// (the fused all_to_all may use a dim as source and destination, which the plan IR
  /// does not type: `plan` is then nullopt and `steps` still names the steps).
  std::optional<Plan> plan;
  std::vector<std::string> steps;
  int64_t states = 0;  // types visited, over every digit order tried
  /// With `none`/`none_per_digit_order`: no plan is tight even with types on other device
  /// orders than the source's and the target's (which the search does not visit): no
  /// step from the source is tight in any order (tight_plans.cpp, stuck_in_every_order).
  bool in_every_order = false;
  std::string reason;  // why skipped
};

/// Returns whether some plan from `src` on `src_mesh` to `dst` on `dst_mesh` (the same
/// axes, the device order may differ) is LB-tight, searching every plan of these steps:
/// all_slice of any free factor at any point; all_gather of suffixes of any dims at
/// once; all_to_all moving, in one collective, a suffix of any number of dims each to
/// another dim (appended in any order, a dim may also receive); collective_permute to
/// any type of the same local sizes, in either device order, any number of times.
/// Factors are the prime digits of each axis (x:8 = x:(1)2 x:(2)2 x:(4)2); an axis of
/// mixed primes (6) is tried in each order of its digits. Types are on the source's or
/// the target's device order (as every plan of redist, XLA and Shardy is); a plan through
/// a third order is not searched, but `in_every_order` says where none could be tight.
/// Padded dims are allowed (a device's elements are the real ones of its block).
/// Skipped: pending reductions.
TightSearchResult find_tight_plan(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                  const DistType& dst, const TightSearchOptions& options = {});

/// Returns the name of `verdict` as the census prints it: "found", "none", ...
std::string_view verdict_name(TightVerdict verdict);

}  // namespace redist::tightness
