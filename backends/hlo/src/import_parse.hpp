#pragma once
// The text of an HLO module as computations of instructions, for the importer
// (import.hpp). Only the structure is parsed here: names, shapes with layouts,
// opcodes, operand names, constant literals and the raw text of each attribute.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/result.hpp"

namespace redist::hlo_import {

/// An array shape `f32[8,16]{1,0}`, or a tuple of them.
struct Shape {
  std::string elem;                    // "f32", "s32", "pred", ...; empty for a tuple
  std::vector<int64_t> dims;
  std::vector<int64_t> minor_to_major;  // the layout; row-major when not printed
  std::vector<Shape> tuple;
  bool is_tuple = false;
  int64_t elements() const;
};

struct Instruction {
  std::string name;     // without the leading '%'
  Shape shape;
  std::string opcode;
  std::vector<std::string> operands;  // names without '%'
  std::string literal;                // constant(...) text
  std::map<std::string, std::string> attrs;  // key -> raw value text
  bool root = false;
  int line = 0;  // 1-based line in the module text
};

struct Computation {
  std::string name;
  bool entry = false;
  std::vector<Instruction> instructions;
  int line = 0;
  /// The instruction named `name`, if any.
  const Instruction* find(std::string_view name) const;
  /// The ROOT instruction (the last one when none is marked).
  const Instruction& root() const;
};

struct Module {
  std::vector<Computation> computations;
  std::size_t entry_index = 0;
  int64_t num_partitions = 1;  // from the HloModule line
  /// The ENTRY computation.
  const Computation& entry() const { return computations[entry_index]; }
  /// The computation named `name`, if any.
  const Computation* find(std::string_view name) const;
};

/// Parses `text`; errors say "line L: why".
Result<Module> parse_module(std::string_view text);

/// Parses a shape such as `f32[8,16]{1,0}` or `(f32[2], s32[])`.
Result<Shape> parse_shape(std::string_view text);

/// The integers in `text` in order (signs kept; `true`/`false` as 1/0).
std::vector<int64_t> integers_in(std::string_view text);

/// Splits `text` at commas outside (), [], {} and quotes, trimming spaces.
std::vector<std::string> split_top_level(std::string_view text);

}  // namespace redist::hlo_import
