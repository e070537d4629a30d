// libFuzzer target: parse_plan on any text (explicit groups= and pairs= included). A
// plan that parses prints to a text that parses back to the same plan; typing it
// returns a state or an error, never a crash; an error placed in the text, neither.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto plan = redist::parse_plan(text);
  if (!plan) {
    // The error placed in the text (line and column) never reads past it.
    (void)plan.error().to_string(text);
    return 0;
  }
  auto again = redist::parse_plan(redist::to_string(*plan));
  fuzz_require(again.ok() && *again == *plan, "parse_plan(to_string(plan)) == plan");
  (void)redist::type_plan(*plan);
  return 0;
}
