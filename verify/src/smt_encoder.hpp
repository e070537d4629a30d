#pragma once
// Building blocks of the SMT encoding. Device coordinates and local indices are
// NUMBERS in mixed radix: lists of bounded integer digits, most significant first. The
// collectives only cut numbers at chunk boundaries (a gather reads member l div chunk at
// l mod chunk) and join them (a slice reads member * chunk + l), so on numbers they are
// digit selection and concatenation; a digit is split in two (d = hi * q + lo, with
// fresh bounded hi and lo) only where a boundary falls inside it. Queries are then
// linear equalities between small bounded variables, which Z3 decides by propagation,
// instead of div/mod of sums, on which its time varied by orders of magnitude. Where
// a boundary does not divide a digit (sizes that only share a gcd) the number falls
// back to one term with div/mod. Private to redist_verify: z3++.h stays out of public
// headers.

#include <z3++.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/lowered.hpp"

namespace redist::smt {

/// One digit: a term in [0, radix) (when its number is exact).
struct Digit {
  z3::expr value;
  int64_t radix = 1;
};

/// A number in mixed radix, most significant digit first; its range is the product of
/// the radices. `exact` is false for a number that may lie outside its range (read from
/// an explicit offsets table); such a number is one digit and is cut with div/mod.
struct Number {
  std::vector<Digit> digits;
  bool exact = true;
};

/// A device on `mesh`: one number per mesh axis, its coordinate.
struct Device {
  const Mesh* mesh = nullptr;
  std::vector<Number> coords;
};

/// A local index: one number per dim.
using Index = std::vector<Number>;

/// An element of a device's buffer.
struct Located {
  Device device;
  Index index;
};

class Encoder {
 public:
  explicit Encoder(z3::context& ctx) : ctx_(ctx), facts_(ctx) {}

  z3::context& ctx() { return ctx_; }
  /// Integer numeral.
  z3::expr num(int64_t value) { return ctx_.int_val(value); }
  z3::expr yes() { return ctx_.bool_val(true); }
  z3::expr no() { return ctx_.bool_val(false); }

  /// Adds a fact (a definition or a precondition) that every query of this encoder
  /// includes.
  void assume(const z3::expr& fact) { facts_.push_back(fact); }
  /// Every fact so far: bounds of fresh variables, digit splits, table definitions and
  /// preconditions.
  const z3::expr_vector& facts() const { return facts_; }

  /// A fresh variable `name` in [0, range), as a one-digit number.
  Number fresh(const std::string& name, int64_t range);
  /// A fresh device `<prefix>_<axis>` on `mesh`.
  Device fresh_device(const Mesh& mesh, const std::string& prefix);
  /// A fresh local index `<prefix>_l<i>` of `shape`.
  Index fresh_index(std::span<const int64_t> shape, const std::string& prefix);

  /// The value of `n` as one term.
  z3::expr value(const Number& n);
  /// The values of `numbers`.
  std::vector<z3::expr> values(const std::vector<Number>& numbers);
  /// The range of `n` (product of its radices).
  static int64_t range(const Number& n);
  /// `high` followed by `low`: high * range(low) + low.
  static Number concat(const Number& high, const Number& low);
  /// (n div low_range, n mod low_range) as numbers of ranges range(n) / low_range and
  /// low_range; low_range must divide range(n).
  std::pair<Number, Number> split(const Number& n, int64_t low_range);
  /// A term that holds when the two numbers are equal: digit by digit where their
  /// digits can be aligned, else by value.
  z3::expr equal(const Number& a, const Number& b);

  /// Coordinate of `device` on an axis or sub-axis.
  Number coord(const Device& device, const AxisRef& axis);
  /// Mixed-radix number of the coordinates on `axes` (axes[0] most significant).
  Number mixed_radix(const Device& device, std::span<const AxisRef> axes);
  /// `device` with its coordinates on `axes` set to the digits of `value`.
  Device with_digits(const Device& device, std::span<const AxisRef> axes, const Number& value);

  /// Physical device id of `device`.
  z3::expr physical(const Device& device);
  /// The device with physical id `id` (a valid id) on `mesh`.
  Device on_mesh(const Mesh& mesh, const z3::expr& id);
  /// `device` seen on `mesh` (same physical device, possibly another device order).
  Device moved_to(const Device& device, const Mesh& mesh);
  /// True when the two are the same physical device.
  z3::expr same(const Device& a, const Device& b);

  /// The member index of `device` in its group under `spec`.
  Number member_index(const GroupSpec& spec, const Device& device);
  /// Member `j` of the group of `device` under `spec`.
  Device member(const GroupSpec& spec, const Device& device, const Number& j);

  /// f(arg) for the finite table values[i] = f(i), declared once per (`kind`, `key`)
  /// as the function `<kind><n>`, defined by one fact per entry.
  z3::expr table(const std::string& kind, const void* key, const std::vector<int64_t>& values,
                 const z3::expr& arg);

 private:
  /// Splits the digit at `at` of `n` so that a boundary falls `low_range` (a divisor of
  /// the digit's radix) from its bottom.
  void split_digit(Number& n, std::size_t at, int64_t low_range);
  /// `n` as one digit (its value), for cuts that do not align with its digits.
  Number collapsed(const Number& n);

  z3::context& ctx_;
  z3::expr_vector facts_;
  std::map<std::string, z3::func_decl> tables_;
  std::map<const void*, std::size_t> keys_;
  std::map<std::pair<unsigned, int64_t>, std::pair<z3::expr, z3::expr>> splits_by_digit_;  // (digit, low) -> (hi, lo)
  int splits_ = 0;
};

}  // namespace redist::smt
