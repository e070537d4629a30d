// Devices as digits, coordinates, groups, physical ids and index maps as Z3 terms.

#include "encoding.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "redist/core/semantics.hpp"

namespace redist::smt {

namespace {

/// Every axis reference of the plan and the target: types, groups, permute moves.
std::vector<AxisRef> all_refs(const LoweredPlan& plan, const TypedState& target) {
  std::vector<AxisRef> refs;
  auto type_refs = [&refs](const DistType& t) {
    const auto used = used_axes(t);
    refs.insert(refs.end(), used.begin(), used.end());
  };
  type_refs(plan.source.type);
  type_refs(target.type);
  for (const auto& step : plan.steps) {
    type_refs(step.after.type);
    std::visit(
        [&refs](const auto& s) {
          using Op = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<Op, LoweredPermute>) {
            for (const auto& m : s.moves) {
              refs.insert(refs.end(), m.source_axes.begin(), m.source_axes.end());
              refs.insert(refs.end(), m.target_axes.begin(), m.target_axes.end());
            }
          } else if constexpr (!std::is_same_v<Op, LoweredTransfer>) {  // a transfer names devices, not axes
            refs.insert(refs.end(), s.group.axes.begin(), s.group.axes.end());
          }
        },
        step.op);
  }
  return refs;
}

/// Strides (lo, hi) of a reference on an axis of size n: it covers [n/(m*k), n/m).
std::pair<int64_t, int64_t> span_of(const AxisRef& r, int64_t n) { return {n / (r.pre * r.size), n / r.pre}; }

}  // namespace

// Every mesh of the plan has its axes cut: a transfer between device sets goes to a mesh
// with other axes, which may reuse a name with another size (axes are keyed by name and
// size; a reference cuts each same-named axis it fits, extra cuts only refine digits).
Encoding::Encoding(Query& query, const LoweredPlan& plan, const TypedState& target) : q_(query) {
  const auto refs = all_refs(plan, target);
  std::vector<MeshAxis> axes;
  for (const Mesh* mesh : {&plan.source.mesh, &target.mesh})
    axes.insert(axes.end(), mesh->axes().begin(), mesh->axes().end());
  for (const auto& step : plan.steps) axes.insert(axes.end(), step.after.mesh.axes().begin(), step.after.mesh.axes().end());
  for (const auto& axis : axes) {
    if (cuts_.contains({axis.name, axis.size})) continue;
    std::set<int64_t> at{1, axis.size};
    for (const auto& r : refs) {
      if (r.name != axis.name || axis.size % (r.pre * r.size) != 0) continue;
      const auto [lo, hi] = span_of(r, axis.size);
      at.insert(lo);
      at.insert(hi);
    }
    std::vector<int64_t> cuts(at.begin(), at.end());
    bool nested = true;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) nested = nested && cuts[i + 1] % cuts[i] == 0;
    if (!nested) cuts = {1, axis.size};
    cuts_[{axis.name, axis.size}] = std::move(cuts);
    nested_[{axis.name, axis.size}] = nested;
  }
}

Device Encoding::device(const Mesh& mesh, const std::string& name) {
  Device d{&mesh, name, {}};
  for (const auto& axis : mesh.axes()) {
    const auto& c = cuts(axis.name, axis.size);
    std::vector<z3::expr> digits;
    for (std::size_t i = 0; i + 1 < c.size(); ++i) {
      // "<name>_<axis>", numbered when the axis has several digits
      const std::string digit =
          c.size() > 2 ? fmt::format("{}_{}{}", name, axis.name, i) : fmt::format("{}_{}", name, axis.name);
      digits.push_back(q_.bounded(digit, c[i + 1] / c[i]));
    }
    d.digits.push_back(std::move(digits));
  }
  return d;
}

Device Encoding::same_device_on(const Device& d, const Mesh& mesh, const std::string& name) {
  if (*d.mesh == mesh || (d.mesh->same_axes(mesh) && !d.mesh->has_explicit_order() && !mesh.has_explicit_order()))
    return Device{&mesh, d.name, d.digits};
  Device e = device(mesh, name);
  q_.add("domain", physical(e) == physical(d));
  return e;
}

std::vector<z3::expr> Encoding::index(std::size_t rank, const std::string& name) {
  std::vector<z3::expr> out;
  for (std::size_t i = 0; i < rank; ++i) out.push_back(q_.var(fmt::format("{}_l{}", name, i)));
  return out;
}

Location Encoding::location(const TypedState& state, const std::string& name) {
  return Location{device(state.mesh, name), index(state.type.rank(), name)};
}

z3::expr Encoding::axis_value(const Device& d, std::size_t i) {
  const auto& c = cuts(d.mesh->axes()[i].name, d.mesh->axis_size(i));
  z3::expr v = num(0);
  for (std::size_t j = 0; j < d.digits[i].size(); ++j) v = j == 0 ? d.digits[i][j] * num(c[j]) : v + d.digits[i][j] * num(c[j]);
  return v;
}

z3::expr Encoding::coord(const Device& d, const AxisRef& axis) {
  const std::size_t i = *d.mesh->axis_index(axis.name);
  const int64_t n = d.mesh->axis_size(i);
  const auto [lo, hi] = span_of(axis, n);
  const auto& c = cuts(axis.name, n);
  if (nested(axis.name, n)) {
    std::vector<z3::expr> terms;
    for (std::size_t j = 0; j + 1 < c.size(); ++j)
      if (c[j] >= lo && c[j + 1] <= hi) terms.push_back(c[j] == lo ? d.digits[i][j] : d.digits[i][j] * num(c[j] / lo));
    z3::expr v = terms.empty() ? num(0) : terms[0];
    for (std::size_t j = 1; j < terms.size(); ++j) v = v + terms[j];
    return v;
  }
  if (lo == 1 && hi == n) return d.digits[i][0];
  const auto key = std::make_pair(d.name, axis);
  if (auto it = split_coords_.find(key); it != split_coords_.end()) return it->second;
  // c_x = h * hi + v * lo + r: v is the coordinate on the reference.
  const std::string base = fmt::format("{}_{}_{}_{}", d.name, axis.name, axis.pre, axis.size);
  const z3::expr h = q_.bounded(fmt::format("{}_h", base), axis.pre), v = q_.bounded(base, axis.size),
                 r = q_.bounded(fmt::format("{}_r", base), lo);
  q_.add("domain", d.digits[i][0] == h * num(hi) + v * num(lo) + r);
  split_coords_.emplace(key, v);
  return v;
}

z3::expr Encoding::mixed_radix(const Device& d, std::span<const AxisRef> axes) {
  z3::expr v = num(0);
  for (std::size_t j = 0; j < axes.size(); ++j) v = j == 0 ? coord(d, axes[j]) : v * num(axes[j].size) + coord(d, axes[j]);
  return v;
}

z3::expr Encoding::same_except(const Device& a, const Device& b, std::span<const AxisRef> axes) {
  z3::expr_vector eqs(q_.ctx());
  for (std::size_t i = 0; i < a.mesh->rank(); ++i) {
    const std::string& name = a.mesh->axes()[i].name;
    const int64_t n = a.mesh->axis_size(i);
    std::vector<AxisRef> mine;
    for (const auto& r : axes)
      if (r.name == name) mine.push_back(r);
    const auto& c = cuts(name, n);
    if (nested(name, n)) {
      for (std::size_t j = 0; j + 1 < c.size(); ++j) {
        const bool covered = std::any_of(mine.begin(), mine.end(), [&](const AxisRef& r) {
          const auto [lo, hi] = span_of(r, n);
          return c[j] >= lo && c[j + 1] <= hi;
        });
        if (!covered) eqs.push_back(a.digits[i][j] == b.digits[i][j]);
      }
      continue;
    }
    // One digit: the value less the covered references' parts agrees.
    z3::expr ra = a.digits[i][0], rb = b.digits[i][0];
    for (const auto& r : mine) {
      const int64_t lo = span_of(r, n).first;
      ra = ra - coord(a, r) * num(lo);
      rb = rb - coord(b, r) * num(lo);
    }
    eqs.push_back(ra == rb);
  }
  return all_of(eqs.ctx(), eqs);
}

z3::expr Encoding::position(const Device& d) {
  z3::expr p = num(0);
  for (std::size_t i = 0; i < d.mesh->rank(); ++i)
    p = i == 0 ? axis_value(d, i) : p * num(d.mesh->axis_size(i)) + axis_value(d, i);
  return p;
}

z3::expr Encoding::physical(const Device& d) {
  if (!d.mesh->has_explicit_order()) return position(d);
  return q_.table("order", &d.mesh->device_order(), d.mesh->device_order(), position(d));
}

z3::expr Encoding::same(const Device& a, const Device& b) {
  // Digit by digit only where both meshes have the same axes and order (meshes of other
  // shapes, as around a transfer between device sets, have digits that do not pair up).
  if (*a.mesh == *b.mesh) {
    z3::expr_vector eqs(q_.ctx());
    for (std::size_t i = 0; i < a.digits.size(); ++i)
      for (std::size_t j = 0; j < a.digits[i].size(); ++j) eqs.push_back(a.digits[i][j] == b.digits[i][j]);
    return all_of(eqs.ctx(), eqs);
  }
  return physical(a) == physical(b);
}

const std::optional<std::vector<std::pair<int64_t, int64_t>>>& Encoding::member_exceptions(const GroupSpec& spec,
                                                                                          const Mesh& mesh) {
  auto [it, fresh] = exceptions_.try_emplace(&*spec.table);
  if (!fresh || spec.axes.empty()) return it->second;
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& group : *spec.table)
    for (std::size_t j = 0; j < group.size(); ++j) {
      if (mixed_radix_index(mesh, mesh.coords_of_device(group[j]), spec.axes) == static_cast<int64_t>(j)) continue;
      if (out.size() == kMaxMemberExceptions) return it->second;
      out.emplace_back(group[j], static_cast<int64_t>(j));
    }
  return it->second = std::move(out);
}

z3::expr Encoding::member_index(const GroupSpec& spec, const Device& d) {
  if (!spec.table) return mixed_radix(d, spec.axes);
  if (const auto& exceptions = member_exceptions(spec, *d.mesh)) {
    z3::expr m = mixed_radix(d, spec.axes);
    if (!exceptions->empty()) {
      const z3::expr id = physical(d);
      for (const auto& [device, member] : *exceptions) m = z3::ite(id == num(device), num(member), m);
    }
    return m;
  }
  std::vector<int64_t> member(static_cast<std::size_t>(d.mesh->num_devices()), 0);
  for (const auto& group : *spec.table)
    for (std::size_t j = 0; j < group.size(); ++j) member[static_cast<std::size_t>(group[j])] = static_cast<int64_t>(j);
  return q_.table("member", &*spec.table, member, physical(d));
}

const std::optional<std::vector<int64_t>>& Encoding::pairs_off_moves(const LoweredPermute& p, const Mesh& before,
                                                                     const Mesh& after) {
  auto [it, fresh] = off_moves_.try_emplace(&*p.table);
  if (!fresh) return it->second;
  std::vector<int64_t> out;
  for (const auto& pair : *p.table) {
    const auto source = pair.first, target = pair.second;  // clang 14 cannot capture bindings
    const bool keeps = std::all_of(p.moves.begin(), p.moves.end(), [&](const PermuteMove& m) {
      return mixed_radix_index(before, before.coords_of_device(source), m.source_axes) ==
             mixed_radix_index(after, after.coords_of_device(target), m.target_axes);
    });
    if (keeps) continue;
    if (out.size() == kMaxMemberExceptions) return it->second;
    out.push_back(target);
  }
  return it->second = std::move(out);
}

z3::expr Encoding::group_index(const GroupSpec& spec, const Device& d) {
  const DeviceGroups& table = *spec.table;
  std::vector<int64_t> group_of(static_cast<std::size_t>(d.mesh->id_bound()), 0);  // by physical id
  for (std::size_t g = 0; g < table.size(); ++g)
    for (int64_t dev : table[g]) group_of[static_cast<std::size_t>(dev)] = static_cast<int64_t>(g);
  const z3::expr g = q_.table("group", &table, group_of, physical(d));
  if (inverted_.insert({d.name, &table}).second) {
    // The table read back: member m(d) of d's group is d. It follows from the two
    // tables' definitions (C++ derives group_of and the member index from the table,
    // which check_groups has validated as a partition), for the one device d, so that
    // Z3 needs no case split over the table's entries to see that a group holds a
    // device only once.
    std::vector<int64_t> at;
    for (const auto& group : table) at.insert(at.end(), group.begin(), group.end());
    q_.add("domain", q_.table("at", &table, at, g * num(spec.size) + member_index(spec, d)) == physical(d));
  }
  return g;
}

z3::expr Encoding::same_group(const GroupSpec& spec, const Device& a, const Device& b) {
  if (!spec.table) return same_except(a, b, spec.axes);
  return group_index(spec, a) == group_index(spec, b);
}

z3::expr Encoding::global(const DistType& type, const Location& at, std::size_t i) {
  const Dim& dim = type.dims[i];
  return mixed_radix(at.device, dim.axes) * num(local_size(dim)) + at.index[i];
}

z3::expr Encoding::in_bounds(const std::vector<z3::expr>& index, const std::vector<int64_t>& shape) {
  z3::expr_vector v(q_.ctx());
  for (std::size_t i = 0; i < index.size(); ++i) v.push_back(index[i] >= 0 && index[i] < num(shape[i]));
  return all_of(v.ctx(), v);
}

std::vector<int64_t> values_in(const z3::model& model, const std::vector<z3::expr>& terms) {
  std::vector<int64_t> out;
  for (const auto& t : terms) {
    int64_t v = 0;
    out.push_back(model.eval(t, true).is_numeral_i64(v) ? v : 0);
  }
  return out;
}

Coords coords_in(const z3::model& model, Encoding& enc, const Device& d) {
  std::vector<z3::expr> terms;
  for (std::size_t i = 0; i < d.mesh->rank(); ++i) terms.push_back(enc.axis_value(d, i));
  return values_in(model, terms);
}

}  // namespace redist::smt
