// Fuzz entry point of the HLO importer: any bytes are parsed as an HLO module and
// imported; the importer must return a plan or an error, never crash or hang.
//
// Modules naming more than 4,096 partitions are skipped: the importer evaluates every
// device's buffers, so its time is linear in the partition count (88,888 partitions of
// a 16-element array: 0.17 s in Release, 1.7 s under ASan, past libFuzzer's 1 s
// budget), which is the work asked for, not a hang; the budget is for the rest.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "redist/backends/hlo/import.hpp"

namespace {

/// True when the first number after some `num_partitions=` on its line (as the parser
/// reads it) is over 4,096.
bool names_many_partitions(std::string_view text) {
  constexpr std::string_view key = "num_partitions=";
  for (auto at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    std::size_t i = at + key.size();
    while (i < text.size() && text[i] != '\n' && !(text[i] >= '0' && text[i] <= '9')) ++i;
    int64_t value = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      value = value * 10 + (text[i] - '0');
      if (value > 4096) return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 16)) return 0;  // keep inputs small: the interpreter is concrete
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (names_many_partitions(text)) return 0;
  auto imported = redist::import_hlo(text);
  if (imported.ok()) (void)imported->plan.steps.size();
  return 0;
}
