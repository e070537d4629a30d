// libFuzzer target: parse_type on any text, over a mesh given by the input's first line
// (so both parsers and their interplay are explored). A type that parses prints to a
// text that parses back to the same type, and its per-device figures are computed.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "redist/core/bigint.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  if (newline == std::string_view::npos) return 0;
  auto mesh = redist::parse_mesh(input.substr(0, newline));
  if (!mesh) return 0;
  auto type = redist::parse_type(input.substr(newline + 1), *mesh);
  if (!type) return 0;
  auto again = redist::parse_type(redist::to_string(*type), *mesh);
  fuzz_require(again.ok() && *again == *type, "parse_type(to_string(type)) == type");
  (void)redist::local_bytes(*type);
  (void)redist::local_shape(*type);
  (void)redist::replication_factor(*type, *mesh);
  return 0;
}
