#pragma once
// Exact big integers for sizes and byte counts. Heavy header: include it only where
// figures are computed, never from widely included headers.

#include <boost/multiprecision/cpp_int.hpp>

#include "redist/core/dist_type.hpp"

namespace redist {

using BigInt = boost::multiprecision::cpp_int;

/// Elements in one device's buffer of `type`, padding included.
BigInt local_elements(const DistType& type);
/// Bytes of one device's buffer of `type`, padding included.
BigInt local_bytes(const DistType& type);
/// Elements of the whole (logical) array.
BigInt global_elements(const DistType& type);
/// Decimal text.
std::string to_decimal(const BigInt& value);

}  // namespace redist
