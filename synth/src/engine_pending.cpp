// The engine's add_pending edge (Replicate -> Partial, docs/synthesis.md "Pending
// reductions"): a local step that makes replicated factors pending, the device at
// coordinate 0 of them keeping its value and the others the op's identity. Offered
// only before anything is received (data received by a device that then holds the
// identity would be wasted, G3b), over every pending factor of the target that the
// state lacks and leaves free, in one step; it moves no byte and costs nothing.

#include <algorithm>

#include "engine_moves.hpp"

namespace redist::engine_detail {

void append_add_pending(const Frame& frame, const State& s, std::vector<Edge>& out) {
  if (s.received) return;
  Factors add;
  for (const auto& f : frame.target.reduce) {
    const bool has = std::find(s.reduce.begin(), s.reduce.end(), f) != s.reduce.end();
    if (!has && fits(s, f)) add.push_back(f);
  }
  if (add.empty()) return;
  Edge e;
  e.move.kind = Move::Kind::add_pending;
  e.move.axes = add;
  e.to = s;
  e.to.reduce.insert(e.to.reduce.end(), add.begin(), add.end());
  sort_and_merge(e.to.reduce);
  e.time_us = 0;
  out.push_back(std::move(e));
}

}  // namespace redist::engine_detail
