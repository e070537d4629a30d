#include "redist/core/elem_type.hpp"

#include <array>
#include <utility>

namespace redist {
namespace {

struct ElemInfo {
  ElemType type;
  std::string_view name;
  int bytes;
};

constexpr std::array<ElemInfo, 13> kElems{{
    {ElemType::pred, "pred", 1}, {ElemType::s8, "s8", 1},     {ElemType::u8, "u8", 1},
    {ElemType::s16, "s16", 2},   {ElemType::u16, "u16", 2},   {ElemType::f16, "f16", 2},
    {ElemType::bf16, "bf16", 2}, {ElemType::s32, "s32", 4},   {ElemType::u32, "u32", 4},
    {ElemType::f32, "f32", 4},   {ElemType::s64, "s64", 8},   {ElemType::u64, "u64", 8},
    {ElemType::f64, "f64", 8},
}};

const ElemInfo& info(ElemType t) { return kElems[static_cast<std::size_t>(t)]; }

}  // namespace

int elem_bytes(ElemType t) { return info(t).bytes; }

std::string_view elem_name(ElemType t) { return info(t).name; }

std::optional<ElemType> parse_elem_type(std::string_view name) {
  for (const auto& e : kElems)
    if (e.name == name) return e.type;
  return std::nullopt;
}

}  // namespace redist
