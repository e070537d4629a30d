#include "redist/core/bigint.hpp"

namespace redist {

BigInt local_elements(const DistType& type) {
  BigInt n = 1;
  for (const auto& d : type.dims) n *= local_size(d);
  return n;
}

BigInt local_bytes(const DistType& type) { return local_elements(type) * elem_bytes(type.elem); }

BigInt global_elements(const DistType& type) {
  BigInt n = 1;
  for (const auto& d : type.dims) n *= d.global;
  return n;
}

std::string to_decimal(const BigInt& value) { return value.str(); }

}  // namespace redist
