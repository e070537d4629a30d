// Array shapes in XLA's (`f32[512,128]`) and MLIR's (`tensor<512x128xf32>`) spellings.

#include <cctype>

#include "notation/cursor.hpp"
#include "redist/core/notation/notation.hpp"

namespace redist::notation {

using detail::Cursor;
using detail::str;

namespace {

// `512x128xf32` after an optional `tensor<`: dims separated by 'x', then the element type.
Result<Parsed<ArrayShape>> parse_mlir_shape(Cursor& cur, bool bracketed) {
  ArrayShape shape;
  while (true) {
    cur.skip_spaces();
    const char c = cur.peek();
    if (std::isdigit(static_cast<unsigned char>(c))) {
      auto d = cur.integer("a dimension size", 1);
      if (!d) return d.error();
      shape.dims.push_back(*d);
      if (auto s = cur.expect('x', "after a dimension size"); !s) return s.error();
      continue;
    }
    const std::size_t at = cur.position();
    auto name = cur.word("an element type");
    if (!name) return name.error();
    auto elem = parse_elem_type(*name);
    if (!elem) return parse_error(at, str("unknown element type '", *name, "'"));
    shape.elem = *elem;
    break;
  }
  if (bracketed)
    if (auto s = cur.expect('>', "to close the tensor type"); !s) return s.error();
  return Parsed<ArrayShape>{shape, cur.consumed()};
}

}  // namespace

Result<Parsed<ArrayShape>> parse_array_shape_prefix(std::string_view text) {
  Cursor cur(text);
  if (cur.accept("tensor")) {
    if (auto s = cur.expect('<', "after 'tensor'"); !s) return s.error();
    return parse_mlir_shape(cur, true);
  }
  ArrayShape shape;
  if (std::isdigit(static_cast<unsigned char>(cur.peek()))) return parse_mlir_shape(cur, false);
  if (cur.peek() != '[') {
    const std::size_t at = cur.position();
    auto name = cur.word("an element type or '['");
    if (!name) return name.error();
    auto elem = parse_elem_type(*name);
    if (!elem) return parse_error(at, str("unknown element type '", *name, "'"));
    shape.elem = *elem;
  }
  auto dims = cur.integer_list('[', ']', "dimension size", 1);
  if (!dims) return dims.error();
  shape.dims = std::move(*dims);
  // XLA may print a layout after the dims (`f32[8,4]{1,0}`); it does not change the shape.
  if (cur.peek() == '{') {
    Cursor probe = cur;
    probe.accept('{');
    auto layout = probe.integer("a layout dim");
    if (layout) {
      if (auto s = cur.skip_group(); !s) return s.error();
    }
  }
  return Parsed<ArrayShape>{shape, cur.consumed()};
}

Result<ArrayShape> parse_array_shape(std::string_view text) {
  auto p = parse_array_shape_prefix(text);
  if (!p) return p.error();
  Cursor rest(text.substr(p->consumed), p->consumed);
  if (auto s = rest.expect_end("the shape"); !s) return s.error();
  return p->value;
}

std::string to_string(const ArrayShape& shape) {
  std::string out(elem_name(shape.elem));
  out += '[';
  for (std::size_t i = 0; i < shape.dims.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(shape.dims[i]);
  }
  return out + ']';
}

ArrayShape shape_of(const DistType& type) {
  ArrayShape shape{type.elem, {}};
  for (const auto& d : type.dims) shape.dims.push_back(d.global);
  return shape;
}

}  // namespace redist::notation
