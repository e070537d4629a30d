#pragma once
// Element types of distributed arrays and their sizes in bytes.

#include <optional>
#include <string_view>

namespace redist {

enum class ElemType { pred, s8, u8, s16, u16, f16, bf16, s32, u32, f32, s64, u64, f64 };

/// Bytes one element occupies (pred counts as one byte, as in XLA).
int elem_bytes(ElemType t);
/// The lower-case name used in the notation, e.g. "bf16".
std::string_view elem_name(ElemType t);
/// Parses a name such as "f32"; nullopt when unknown.
std::optional<ElemType> parse_elem_type(std::string_view name);

}  // namespace redist
