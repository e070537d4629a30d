// libFuzzer target: parse_mesh on any text. Beyond no crash, leak or UB: a mesh that
// parses prints to a text that parses back to the same mesh.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "redist/core/mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto mesh = redist::parse_mesh(text);
  if (!mesh) return 0;
  auto again = redist::parse_mesh(redist::to_string(*mesh));
  fuzz_require(again.ok() && *again == *mesh, "parse_mesh(to_string(mesh)) == mesh");
  return 0;
}
