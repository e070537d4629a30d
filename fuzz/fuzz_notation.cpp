// libFuzzer entry point for the readers of other systems' notations (docs/interop.md):
// the first byte picks XLA HloSharding, Shardy, JAX PartitionSpec or DTensor placements
// (and their mesh readers); the rest is the text. A reader must return a value or an
// error with a position inside the text, never crash; a type it returns must write back
// in the same notation and read back to the same type (or be refused with a reason).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "redist/core/notation/notation.hpp"

namespace {

using namespace redist;
using namespace redist::notation;

void check(bool ok) {
  if (!ok) std::abort();
}

void check_position(const Error& e, std::string_view text) { check(e.position == Error::npos || e.position <= text.size()); }

// One type per fuzz run: small shapes keep the meshes' expansions cheap.
const ArrayShape kShape{ElemType::f32, {12, 8, 6}};

void round_trip(Notation n, const DistType& type, const Mesh& mesh) {
  auto text = write_type(n, type, mesh);
  if (!text) return;  // refused with a reason
  auto back = read_type(n, *text, &mesh);
  check(back.ok());
  check(canonical(back->type, mesh) == canonical(type, mesh));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const Mesh mesh = *Mesh::create({{"x", 2}, {"y", 4}, {"z", 3}});
  switch (data[0] % 8) {
    case 0: {
      HloShardingOptions options;
      options.mesh = &mesh;
      auto r = from_hlo_sharding(text, kShape, options);
      if (!r) return check_position(r.error(), text), 0;
      round_trip(Notation::hlo, r->type, mesh);
      break;
    }
    case 1: {
      auto r = from_hlo_sharding(text, kShape);  // invents a mesh
      if (!r) return check_position(r.error(), text), 0;
      check(validate(r->type, r->mesh).ok());
      break;
    }
    case 2: {
      auto r = from_sdy_sharding(text, kShape, mesh);
      if (!r) return check_position(r.error(), text), 0;
      round_trip(Notation::sdy, *r, mesh);
      break;
    }
    case 3: {
      auto r = from_partition_spec(text, kShape, mesh);
      if (!r) return check_position(r.error(), text), 0;
      round_trip(Notation::jax, *r, mesh);
      break;
    }
    case 4: {
      auto r = from_placements(text, kShape, mesh);
      if (!r) return check_position(r.error(), text), 0;
      round_trip(Notation::dtensor, *r, mesh);
      break;
    }
    case 5: {
      auto r = parse_sdy_mesh(text);
      if (!r) check_position(r.error(), text);
      break;
    }
    case 6: {
      auto r = parse_jax_mesh(text);
      if (!r) check_position(r.error(), text);
      break;
    }
    default: {
      auto r = parse_device_mesh(text);
      if (!r) check_position(r.error(), text);
      break;
    }
  }
  return 0;
}
