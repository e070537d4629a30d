#pragma once
// Bounding one Z3 check in time from outside Z3 (docs/z3.md).
//
// Z3's own `timeout` parameter starts a timer from Z3's timer pool, and in Z3 4.8.12
// (Debian 12's) that pool can deadlock: a check with a short timeout sometimes never
// returns, both threads waiting on a futex inside Z3_solver_check. So the checker never
// sets `timeout`; a watchdog thread of ours interrupts the check at its deadline with
// Z3_solver_interrupt, the documented way to stop a check from another thread.

#include <z3++.h>

namespace redist::smt {

/// A check's answer, and whether the watchdog stopped it.
struct Watched {
  z3::check_result answer = z3::unknown;
  bool timed_out = false;  // unknown because the deadline passed
};

/// Returns `solver.check()`, interrupted once `timeout_ms` milliseconds have passed (the
/// answer is then unknown with timed_out set, unless Z3 finished first).
Watched check_within(z3::solver& solver, unsigned timeout_ms);

}  // namespace redist::smt
