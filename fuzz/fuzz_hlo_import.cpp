// Fuzz entry point of the HLO importer: any bytes are parsed as an HLO module and
// imported; the importer must return a plan or an error, never crash or hang.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "redist/backends/hlo/import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 16)) return 0;  // keep inputs small: the interpreter is concrete
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto imported = redist::import_hlo(text);
  if (imported.ok()) (void)imported->plan.steps.size();
  return 0;
}
