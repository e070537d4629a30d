// libFuzzer target: parse_cost_model on any text; a model that parses is validated
// against a mesh and prices a one-step plan, and an error is placed in the text
// (line and column), without crashing.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "redist/core/mesh.hpp"
#include "redist/synth/cost_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto model = redist::parse_cost_model(text);
  if (!model) {
    (void)model.error().to_string(text);  // placed in the text: line and column
    return 0;
  }
  static const redist::Mesh mesh = *redist::parse_mesh("{x:4, y:2}");
  (void)redist::validate(*model, mesh);
  (void)redist::collective_time_us(*model, redist::CollectiveKind::all_gather, 4, 1024, redist::LinkClass::inter);
  return 0;
}
