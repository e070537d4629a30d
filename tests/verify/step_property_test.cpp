// Every step kind on random well-typed inputs over random meshes: running the step's
// collective on distribute(before) gives, on every device and element, the data the
// type after the step prescribes.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "step_cases.hpp"

namespace redist::testing {
namespace {

RC_GTEST_PROP(VerifyStepProperty, AllGatherGivesTypeAfter, ()) {
  check_step_case(any_all_gather_case(), Expect::exact);
}

RC_GTEST_PROP(VerifyStepProperty, AllSliceGivesTypeAfter, ()) {
  check_step_case(any_all_slice_case(), Expect::exact);
}

RC_GTEST_PROP(VerifyStepProperty, AllToAllGivesTypeAfter, ()) {
  check_step_case(any_all_to_all_case(), Expect::exact);
}

RC_GTEST_PROP(VerifyStepProperty, CollectivePermuteGivesTypeAfter, ()) {
  check_step_case(any_collective_permute_case(), Expect::exact);
}

RC_GTEST_PROP(VerifyStepProperty, ReduceScatterGivesTypeAfter, ()) {
  check_step_case(any_reduce_scatter_case(), Expect::reduced);
}

RC_GTEST_PROP(VerifyStepProperty, AllReduceGivesTypeAfter, ()) {
  check_step_case(any_all_reduce_case(), Expect::reduced);
}

}  // namespace
}  // namespace redist::testing
