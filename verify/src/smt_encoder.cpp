// Numbers in mixed radix, devices, groups and tables as Z3 terms.

#include "smt_encoder.hpp"

namespace redist::smt {

Number Encoder::fresh(const std::string& name, int64_t range) {
  const z3::expr v = ctx_.int_const(name.c_str());
  assume(v >= 0 && v < num(range));
  return Number{{Digit{v, range}}, true};
}

Device Encoder::fresh_device(const Mesh& mesh, const std::string& prefix) {
  Device device{&mesh, {}};
  for (std::size_t i = 0; i < mesh.rank(); ++i)
    device.coords.push_back(fresh(prefix + "_" + mesh.axes()[i].name, mesh.axis_size(i)));
  return device;
}

Index Encoder::fresh_index(std::span<const int64_t> shape, const std::string& prefix) {
  Index index;
  for (std::size_t i = 0; i < shape.size(); ++i) index.push_back(fresh(prefix + "_l" + std::to_string(i), shape[i]));
  return index;
}

z3::expr Encoder::value(const Number& n) {
  if (n.digits.empty()) return num(0);
  z3::expr v = n.digits[0].value;
  for (std::size_t i = 1; i < n.digits.size(); ++i) v = v * num(n.digits[i].radix) + n.digits[i].value;
  return v;
}

std::vector<z3::expr> Encoder::values(const std::vector<Number>& numbers) {
  std::vector<z3::expr> out;
  for (const auto& n : numbers) out.push_back(value(n));
  return out;
}

int64_t Encoder::range(const Number& n) {
  int64_t r = 1;
  for (const auto& d : n.digits) r *= d.radix;
  return r;
}

Number Encoder::concat(const Number& high, const Number& low) {
  Number out = high;
  out.digits.insert(out.digits.end(), low.digits.begin(), low.digits.end());
  out.exact = high.exact && low.exact;
  return out;
}

Number Encoder::collapsed(const Number& n) {
  if (n.digits.size() <= 1) return n;
  return Number{{Digit{value(n), range(n)}}, n.exact};
}

void Encoder::split_digit(Number& n, std::size_t at, int64_t low_range) {
  const Digit d = n.digits[at];
  const auto key = std::make_pair(d.value.id(), low_range);
  auto it = splits_by_digit_.find(key);
  if (it == splits_by_digit_.end()) {
    const std::string name = "h" + std::to_string(splits_++);
    const z3::expr hi = ctx_.int_const((name + "_hi").c_str());
    const z3::expr lo = ctx_.int_const((name + "_lo").c_str());
    assume(hi >= 0 && hi < num(d.radix / low_range) && lo >= 0 && lo < num(low_range));
    assume(d.value == hi * num(low_range) + lo);
    it = splits_by_digit_.emplace(key, std::make_pair(hi, lo)).first;
  }
  n.digits[at] = Digit{it->second.first, d.radix / low_range};
  n.digits.insert(n.digits.begin() + static_cast<std::ptrdiff_t>(at) + 1, Digit{it->second.second, low_range});
}

std::pair<Number, Number> Encoder::split(const Number& n, int64_t low_range) {
  if (n.exact) {
    Number m = n;
    int64_t below = 1;  // product of the radices below digit i
    for (std::size_t i = m.digits.size(); i-- > 0 && below < low_range;) {
      const int64_t r = m.digits[i].radix;
      if (below * r > low_range) {
        if (low_range % below != 0 || r % (low_range / below) != 0) break;  // not aligned
        split_digit(m, i, low_range / below);
        ++i;  // the low part of the split digit is now at i + 1 and completes `below`
        below = low_range;
        const auto cut = m.digits.begin() + static_cast<std::ptrdiff_t>(i);
        return {Number{{m.digits.begin(), cut}, true}, Number{{cut, m.digits.end()}, true}};
      }
      below *= r;
      if (below == low_range) {
        const auto cut = m.digits.begin() + static_cast<std::ptrdiff_t>(i);
        return {Number{{m.digits.begin(), cut}, true}, Number{{cut, m.digits.end()}, true}};
      }
    }
    if (low_range == 1) return {m, Number{}};
  }
  // Not aligned (or not exact): one term cut with div/mod.
  const Number whole = collapsed(n);
  const z3::expr v = value(whole);
  const int64_t high_range = range(whole) / low_range;
  return {Number{{Digit{v / num(low_range), high_range}}, n.exact}, Number{{Digit{z3::mod(v, num(low_range)), low_range}}, true}};
}

z3::expr Encoder::equal(const Number& a, const Number& b) {
  if (!a.exact || !b.exact || range(a) != range(b)) return value(a) == value(b);
  Number x = a, y = b;
  z3::expr_vector same(ctx_);
  std::size_t i = x.digits.size(), j = y.digits.size();
  while (i > 0 && j > 0) {
    const int64_t rx = x.digits[i - 1].radix, ry = y.digits[j - 1].radix;
    if (rx == ry) {
      same.push_back(x.digits[i - 1].value == y.digits[j - 1].value);
      --i, --j;
    } else if (rx > ry && rx % ry == 0) {
      split_digit(x, i - 1, ry);
      ++i;
    } else if (ry > rx && ry % rx == 0) {
      split_digit(y, j - 1, rx);
      ++j;
    } else {
      return value(a) == value(b);
    }
  }
  // Leftover digits (radix 1 or an empty side) must be zero.
  for (; i > 0; --i) same.push_back(x.digits[i - 1].value == 0);
  for (; j > 0; --j) same.push_back(y.digits[j - 1].value == 0);
  return z3::mk_and(same);
}

Number Encoder::coord(const Device& device, const AxisRef& axis) {
  const std::size_t i = *device.mesh->axis_index(axis.name);
  const int64_t stride = device.mesh->axis_size(i) / (axis.pre * axis.size);
  return split(split(device.coords[i], stride).first, axis.size).second;
}

Number Encoder::mixed_radix(const Device& device, std::span<const AxisRef> axes) {
  Number out;
  for (const auto& a : axes) out = concat(out, coord(device, a));
  return out;
}

Device Encoder::with_digits(const Device& device, std::span<const AxisRef> axes, const Number& value) {
  Device out = device;
  Number rest = value;
  for (std::size_t k = axes.size(); k-- > 0;) {
    const AxisRef& a = axes[k];
    auto [higher, digit] = k == 0 ? std::pair{Number{}, rest} : split(rest, a.size);
    rest = higher;
    const std::size_t i = *device.mesh->axis_index(a.name);
    const int64_t stride = device.mesh->axis_size(i) / (a.pre * a.size);
    auto [above, low] = split(out.coords[i], stride);
    out.coords[i] = concat(concat(split(above, a.size).first, digit), low);
  }
  return out;
}

z3::expr Encoder::physical(const Device& device) {
  Number position;
  for (const auto& c : device.coords) position = concat(position, c);
  const Mesh& mesh = *device.mesh;
  if (!mesh.has_explicit_order()) return value(position);
  return table("order", &mesh.device_order(), mesh.device_order(), value(position));
}

Device Encoder::on_mesh(const Mesh& mesh, const z3::expr& id) {
  z3::expr p = id;
  if (mesh.has_explicit_order()) {
    std::vector<int64_t> inverse(static_cast<std::size_t>(mesh.num_devices()));
    for (int64_t d = 0; d < mesh.num_devices(); ++d) inverse[static_cast<std::size_t>(d)] = mesh.position_of(d);
    p = table("position", &mesh.device_order(), inverse, id);
  }
  Number rest{{Digit{p, mesh.num_devices()}}, true};
  Device device{&mesh, std::vector<Number>(mesh.rank())};
  for (std::size_t i = mesh.rank(); i-- > 0;) {
    auto [higher, c] = i == 0 ? std::pair{Number{}, rest} : split(rest, mesh.axis_size(i));
    device.coords[i] = c;
    rest = higher;
  }
  return device;
}

Device Encoder::moved_to(const Device& device, const Mesh& mesh) {
  if (*device.mesh == mesh) return Device{&mesh, device.coords};
  return on_mesh(mesh, physical(device));
}

z3::expr Encoder::same(const Device& a, const Device& b) {
  if (*a.mesh != *b.mesh) return physical(a) == physical(b);
  z3::expr_vector all(ctx_);
  for (std::size_t i = 0; i < a.coords.size(); ++i) all.push_back(equal(a.coords[i], b.coords[i]));
  return z3::mk_and(all);
}

Number Encoder::member_index(const GroupSpec& spec, const Device& device) {
  if (!spec.table) return mixed_radix(device, spec.axes);
  std::vector<int64_t> index(static_cast<std::size_t>(device.mesh->num_devices()), 0);
  for (const auto& group : *spec.table)
    for (std::size_t j = 0; j < group.size(); ++j) index[static_cast<std::size_t>(group[j])] = static_cast<int64_t>(j);
  return Number{{Digit{table("index", &*spec.table, index, physical(device)), spec.size}}, true};
}

Device Encoder::member(const GroupSpec& spec, const Device& device, const Number& j) {
  if (!spec.table) return with_digits(device, spec.axes, j);
  std::vector<int64_t> group_of(static_cast<std::size_t>(device.mesh->num_devices()), 0);
  std::vector<int64_t> members;
  for (std::size_t g = 0; g < spec.table->size(); ++g)
    for (int64_t d : (*spec.table)[g]) {
      group_of[static_cast<std::size_t>(d)] = static_cast<int64_t>(g);
      members.push_back(d);
    }
  const z3::expr group = table("group", &*spec.table, group_of, physical(device));
  return on_mesh(*device.mesh, table("members", &*spec.table, members, group * num(spec.size) + value(j)));
}

z3::expr Encoder::table(const std::string& kind, const void* key, const std::vector<int64_t>& values,
                        const z3::expr& arg) {
  auto k = keys_.find(key);
  if (k == keys_.end()) k = keys_.emplace(key, keys_.size()).first;
  const std::string name = kind + std::to_string(k->second);
  auto it = tables_.find(name);
  if (it == tables_.end()) {
    z3::func_decl f = ctx_.function(name.c_str(), ctx_.int_sort(), ctx_.int_sort());
    for (std::size_t i = 0; i < values.size(); ++i) assume(f(num(static_cast<int64_t>(i))) == num(values[i]));
    it = tables_.emplace(name, f).first;
  }
  return it->second(arg);
}

}  // namespace redist::smt
