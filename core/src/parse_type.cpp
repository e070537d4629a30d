// Parser of the distributed array type notation, e.g. `bf16[32{x,y}512, 128] sum{z}`.

#include <cctype>
#include <fmt/format.h>

#include "axis_checks.hpp"
#include "lexer.hpp"
#include "redist/core/dist_type.hpp"

namespace redist {
namespace {

/// Parses types against one mesh, remembering where each used axis was written.
class TypeParser {
 public:
  TypeParser(std::string_view text, const Mesh& mesh) : lex_(text), mesh_(mesh) {}

  Result<Parsed<DistType>> parse() {
    DistType type;
    if (lex_.peek() != '[') {
      const std::size_t at = (lex_.skip_spaces(), lex_.position());
      auto name = lex_.identifier("an element type or '['");
      if (!name) return name.error();
      auto elem = parse_elem_type(*name);
      if (!elem) return parse_error(at, fmt::format("unknown element type '{}'", *name));
      type.elem = *elem;
    }
    if (auto s = lex_.expect('[', "to open the dimensions"); !s) return s.error();
    if (!lex_.accept(']')) {
      do {
        auto dim = parse_dim(type.dims.size());
        if (!dim) return dim.error();
        type.dims.push_back(std::move(*dim));
      } while (lex_.accept(','));
      if (auto s = lex_.expect(']', "to close the dimensions"); !s) return s.error();
    }
    if (auto s = parse_reduction(type); !s) return s.error();
    return Parsed<DistType>{std::move(type), lex_.consumed()};
  }

 private:
  Result<Dim> parse_dim(std::size_t index) {
    Dim dim;
    const std::size_t at = (lex_.skip_spaces(), lex_.position());
    std::optional<int64_t> local;
    if (lex_.peek() != '{') {
      auto size = lex_.positive_integer(fmt::format("a size for dimension {}", index));
      if (!size) return size.error();
      if (lex_.peek() != '{') {
        dim.global = *size;
        return dim;
      }
      local = *size;
    }
    auto axes = parse_axis_list(fmt::format("dimension {}", index));
    if (!axes) return axes.error();
    dim.axes = std::move(*axes);
    auto global = lex_.positive_integer(fmt::format("the global size of dimension {}", index));
    if (!global) return global.error();
    dim.global = *global;
    if (local && *local != local_size(dim))
      return parse_error(at, fmt::format("local size {} of dimension {} contradicts ceil({} / {}) = {}", *local, index,
                                         dim.global, tile_count(dim), local_size(dim)));
    return dim;
  }

  /// `{a, b:(m)k, ...}`; every reference is checked against the mesh and earlier uses.
  Result<std::vector<AxisRef>> parse_axis_list(const std::string& owner) {
    if (auto s = lex_.expect('{', "to open the axes of " + owner); !s) return s.error();
    std::vector<AxisRef> axes;
    if (lex_.accept('}')) return axes;
    do {
      auto ref = parse_axis_ref();
      if (!ref) return ref.error();
      axes.push_back(std::move(*ref));
    } while (lex_.accept(','));
    if (auto s = lex_.expect('}', "to close the axes of " + owner); !s) return s.error();
    return axes;
  }

  Result<AxisRef> parse_axis_ref() {
    const std::size_t at = (lex_.skip_spaces(), lex_.position());
    auto name = lex_.identifier("an axis name");
    if (!name) return name.error();
    AxisRef ref{*name, 1, 1, false};
    if (lex_.accept(':')) {
      if (auto s = lex_.expect('(', fmt::format("to open the sub-axis of '{}'", *name)); !s) return s.error();
      auto pre = lex_.positive_integer("the major size of the sub-axis");
      if (!pre) return pre.error();
      if (auto s = lex_.expect(')', "after the major size of the sub-axis"); !s) return s.error();
      auto size = lex_.positive_integer("the size of the sub-axis");
      if (!size) return size.error();
      ref = AxisRef{*name, *pre, *size, true};
    } else if (auto index = mesh_.axis_index(*name)) {
      ref.size = mesh_.axis_size(*index);
    }
    if (auto problem = detail::axis_ref_problem(mesh_, ref)) return parse_error(at, *problem);
    for (const auto& [earlier, earlier_at] : used_)
      if (auto conflict = detail::axis_conflict(earlier, ref))
        return parse_error(at, fmt::format("{} (first at column {})", *conflict, earlier_at + 1));
    used_.push_back({ref, at});
    return ref;
  }

  Status parse_reduction(DistType& type) {
    if (!std::isalpha(static_cast<unsigned char>(lex_.peek()))) return Ok{};  // the caller checks the rest
    const std::size_t at = lex_.position();
    auto word = lex_.identifier("a reduction (sum, max or min)");
    if (!word) return word.error();
    if (*word == "sum") type.reduce_op = ReduceOp::sum;
    else if (*word == "max") type.reduce_op = ReduceOp::max;
    else if (*word == "min") type.reduce_op = ReduceOp::min;
    else return parse_error(at, fmt::format("unknown reduction '{}' (expected sum, max or min)", *word));
    const std::size_t list_at = (lex_.skip_spaces(), lex_.position());
    auto axes = parse_axis_list("the reduction");
    if (!axes) return axes.error();
    if (axes->empty()) return parse_error(list_at, "a reduction needs at least one axis");
    type.reduce_axes = std::move(*axes);
    return Ok{};
  }

  detail::Lexer lex_;
  const Mesh& mesh_;
  std::vector<std::pair<AxisRef, std::size_t>> used_;
};

}  // namespace

Result<Parsed<DistType>> parse_type_prefix(std::string_view text, const Mesh& mesh) {
  return TypeParser(text, mesh).parse();
}

Result<DistType> parse_type(std::string_view text, const Mesh& mesh) {
  auto parsed = parse_type_prefix(text, mesh);
  if (!parsed) return parsed.error();
  detail::Lexer rest(text.substr(parsed->consumed), parsed->consumed);
  if (!rest.at_end()) return rest.error_here("unexpected text after the type, " + rest.found());
  return std::move(parsed->value);
}

}  // namespace redist
