#pragma once
// Atoms: the common refinement of the factors two layouts use, so that each factor of
// either is a run of whole atoms and "the same atom" can be found on both sides.

#include <optional>
#include <utility>

#include "synth_layout.hpp"

namespace redist::synth_detail {

/// Two layouts over common atoms, and every atom of every axis.
struct Atomized {
  Layout a;
  Layout b;
  Factors all;  // per axis in order, major to minor
};

/// `a` and `b` with every factor split at the boundaries either uses on its axis (and,
/// with `primes`, further into prime-size atoms, smaller primes major). nullopt when
/// the boundaries of some axis do not form a divisor chain (x:(1)2 against x:(1)3 on
/// x:6): such layouts share no common atoms.
std::optional<Atomized> atomize(const Frame& frame, const Layout& a, const Layout& b, bool primes);

/// True when `factors` contains `f`.
bool contains(const Factors& factors, const Factor& f);
/// True when some dim of `layout` contains `f`.
bool contains(const Layout& layout, const Factor& f);
/// Dim and position of `atom` in `layout`; dim -1 when absent.
std::pair<int, std::size_t> locate(const Layout& layout, const Factor& atom);
/// The dim of `atom` under `dst` (its target dim); -1 when `dst` leaves it replicated.
inline int target_dim(const Layout& dst, const Factor& atom) { return locate(dst, atom).first; }
/// Length of the longest common prefix of `a` (from `from`) and `b` (from `from_b`).
std::size_t common_prefix(const Factors& a, const Factors& b, std::size_t from_a = 0, std::size_t from_b = 0);

/// `extras` reordered so that, appended after `base`, as many atoms as possible have the
/// same stride (product of the sizes after them) as in `reference`: a permute from a
/// dim tiled `reference` to one tiled `base ++ extras` then leaves more devices in
/// place. Exhaustive up to 4 atoms; beyond, `extras` as given.
Factors aligned_order(const Factors& base, Factors extras, const Factors& reference);

}  // namespace redist::synth_detail
