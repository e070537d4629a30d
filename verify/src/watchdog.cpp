// The watchdog of one check (why: watchdog.hpp).
//
// Z3_solver_interrupt fires the check's cancel handler only while a check is running
// (before the check installs it, or after the check removed it, the call does nothing),
// and that cancel is undone when the check returns, so a late interrupt cannot leak
// into a later check. Because an interrupt sent just before the check starts is lost,
// the watchdog repeats it every few milliseconds until the check has returned.

#include "watchdog.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace redist::smt {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRepeat = std::chrono::milliseconds(2);

/// The watchdog thread of one check: started by the constructor, stopped and joined by
/// finish() or the destructor (also when the check throws).
class Watchdog {
 public:
  Watchdog(Z3_context ctx, Z3_solver solver, Clock::time_point deadline)
      : thread_([this, ctx, solver, deadline] { watch(ctx, solver, deadline); }) {}
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog() { finish(); }

  /// Stops the watchdog; returns whether it interrupted the check.
  bool finish() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
    return fired_;
  }

 private:
  void watch(Z3_context ctx, Z3_solver solver, Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    if (wake_.wait_until(lock, deadline, [this] { return done_; })) return;
    fired_ = true;
    // Interrupting under the lock: finish() cannot mark the check done meanwhile.
    while (!done_) {
      Z3_solver_interrupt(ctx, solver);
      wake_.wait_for(lock, kRepeat, [this] { return done_; });
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  bool fired_ = false;
  std::thread thread_;  // last: started once the fields above exist
};

}  // namespace

Watched check_within(z3::solver& solver, unsigned timeout_ms) {
  Watchdog watchdog(solver.ctx(), solver, Clock::now() + std::chrono::milliseconds(timeout_ms));
  Watched out;
  try {
    out.answer = solver.check();
  } catch (const z3::exception&) {
    // An interrupted check may surface as "canceled": that is the timeout, not a failure.
    if (!watchdog.finish()) throw;
    out.answer = z3::unknown;
  }
  out.timed_out = watchdog.finish() && out.answer == z3::unknown;
  return out;
}

}  // namespace redist::smt
