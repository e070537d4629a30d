#pragma once
// What the libFuzzer targets share: a check that aborts (a crash libFuzzer reports,
// with the input saved) when a parser breaks its own contract.

#include <cstdio>
#include <cstdlib>

/// Aborts with `what` when `ok` is false.
inline void fuzz_require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz contract broken: %s\n", what);
  std::abort();
}
