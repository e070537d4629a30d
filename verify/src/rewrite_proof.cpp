// prove_rewrite(): the rewrite of a type on a refined mesh keeps its placement (see
// rewrite_proof.hpp). The query has one bounded variable, the mesh position p; the
// coordinate of an axis is (p / stride) % size and of a sub-axis x:(m)k is
// (c_x / (n / (m*k))) % k, the definition of docs/notation.md, written as Z3 div/mod
// by numerals. The two meshes share p because the refined mesh keeps the original
// device order (checked exactly).

#include "redist/verify/rewrite_proof.hpp"

#include <string>

#include <fmt/format.h>

#include "query.hpp"
#include "solve.hpp"

namespace redist {
namespace {

/// Coordinate of the device at position `p` on `ref` of `mesh`.
z3::expr coord(smt::Query& q, const Mesh& mesh, const z3::expr& p, const AxisRef& ref) {
  int64_t stride = 1;
  for (std::size_t i = mesh.rank(); i-- > 0;) {
    const int64_t n = mesh.axis_size(i);
    if (mesh.axes()[i].name == ref.name) {
      const z3::expr c = z3::mod(p / q.num(stride), q.num(n));
      return z3::mod(c / q.num(n / (ref.pre * ref.size)), q.num(ref.size));
    }
    stride *= n;
  }
  return q.num(0);
}

/// Mixed-radix number of the coordinates on `refs` (refs[0] most significant).
z3::expr mixed(smt::Query& q, const Mesh& mesh, const z3::expr& p, const std::vector<AxisRef>& refs) {
  z3::expr v = q.num(0);
  for (const auto& ref : refs) v = v * q.num(ref.size) + coord(q, mesh, p, ref);
  return v;
}

PropertyResult refuted(std::string reason, const Mesh& mesh, int64_t position) {
  PropertyResult r;
  r.verdict = Verdict::refuted;
  Counterexample ce;
  ce.device = mesh.device_at(position);
  ce.coords = mesh.coords_of_position(position);
  ce.reason = std::move(reason);
  r.counterexample = std::move(ce);
  return r;
}

}  // namespace

PropertyResult prove_rewrite(const Mesh& mesh, const DistType& original, const Mesh& refined,
                             const DistType& rewritten, unsigned timeout_ms, bool keep_smt2) {
  if (mesh.num_devices() != refined.num_devices() || mesh.device_order() != refined.device_order())
    return refuted(fmt::format("the refined mesh {} has another device order than {}", to_string(refined),
                               to_string(mesh)),
                   mesh, 0);
  if (original.elem != rewritten.elem || original.rank() != rewritten.rank() ||
      local_shape(original) != local_shape(rewritten) || original.reduce_op != rewritten.reduce_op)
    return refuted(fmt::format("the rewritten type {} has another element type, local shape or reduction op than {}",
                               to_string(rewritten), to_string(original)),
                   mesh, 0);
  for (std::size_t d = 0; d < original.rank(); ++d)
    if (original.dims[d].global != rewritten.dims[d].global)
      return refuted(fmt::format("dim {} has another global size", d), mesh, 0);
  smt::Query q;
  const z3::expr p = q.bounded("p", mesh.num_devices());
  z3::expr_vector cases(q.ctx());
  for (std::size_t d = 0; d < original.rank(); ++d)
    cases.push_back(mixed(q, mesh, p, original.dims[d].axes) != mixed(q, refined, p, rewritten.dims[d].axes));
  cases.push_back(mixed(q, mesh, p, original.reduce_axes) != mixed(q, refined, p, rewritten.reduce_axes));
  const smt::Solved solved = smt::solve(q, q.ctx().bool_val(true), cases, timeout_ms, keep_smt2);
  PropertyResult result = smt::result_of(solved, "every device holds the same blocks and summands");
  if (solved.verdict == Verdict::refuted && solved.model) {
    const int64_t at = smt::value_of(*solved.model, p);
    std::size_t dim = 0;
    for (; dim < original.rank(); ++dim)
      if (solved.model->eval(cases[static_cast<unsigned>(dim)], true).is_true()) break;
    const std::string what = dim < original.rank() ? fmt::format("dim {} has another block", dim)
                                                   : "the pending reduction has another summand";
    PropertyResult r =
        refuted(fmt::format("{} in {} than in {}", what, to_string(rewritten), to_string(original)), mesh, at);
    r.solver_ms = result.solver_ms;
    r.smt2 = std::move(result.smt2);
    return r;
  }
  return result;
}

}  // namespace redist
