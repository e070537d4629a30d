// The importer's HLO interpreter (import_eval.hpp).

#include "import_eval.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "import_sharding.hpp"

namespace redist::hlo_import {

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

namespace {

Error fail(const Instruction& ins, const std::string& why) {
  return invalid_error(fmt::format("%{} (line {}): {}", ins.name, ins.line, why));
}

/// Calls f(multi_index, flat_row_major) for every element of `dims`.
template <class F>
void for_each_index(const std::vector<int64_t>& dims, F&& f) {
  int64_t total = 1;
  for (auto d : dims) total *= d;
  std::vector<int64_t> idx(dims.size(), 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    f(idx, flat);
    for (std::size_t i = dims.size(); i-- > 0;) {
      if (++idx[i] < dims[i]) break;
      idx[i] = 0;
    }
  }
}

/// Position of `idx` in the physical order of `shape`'s layout.
int64_t physical_index(const Shape& shape, const std::vector<int64_t>& idx) {
  int64_t pos = 0, stride = 1;
  for (auto d : shape.minor_to_major) {
    pos += idx[d] * stride;
    stride *= shape.dims[d];
  }
  return pos;
}

std::vector<int64_t> attr_ints(const Instruction& ins, const std::string& key) {
  const auto it = ins.attrs.find(key);
  return it == ins.attrs.end() ? std::vector<int64_t>{} : integers_in(it->second);
}

Value array_like(const Shape& shape) {
  Value v;
  v.shape = shape;
  v.data.assign(shape.elements(), kNoElement);
  return v;
}

/// True when `part` has `shape`'s rank and its sizes except along `dim`: what concat()
/// needs of each part to stay inside the result.
bool fits_along(const Shape& part, const Shape& shape, std::size_t dim) {
  if (part.is_tuple || part.dims.size() != shape.dims.size()) return false;
  for (std::size_t k = 0; k < part.dims.size(); ++k)
    if (k != dim && part.dims[k] != shape.dims[k]) return false;
  return true;
}

/// Concatenation of `parts` along `dim` into `shape` (each part fits_along it, their
/// sizes along `dim` adding up to the result's).
Value concat(const Shape& shape, const std::vector<const Value*>& parts, std::size_t dim) {
  Value out = array_like(shape);
  const auto so = row_major_strides(shape.dims);
  int64_t offset = 0;
  for (const Value* p : parts) {
    for_each_index(p->shape.dims, [&](const std::vector<int64_t>& idx, int64_t flat) {
      int64_t o = 0;
      for (std::size_t k = 0; k < idx.size(); ++k) o += (idx[k] + (k == dim ? offset : 0)) * so[k];
      out.data[o] = p->data[flat];
    });
    offset += p->shape.dims[dim];
    out.is_data = out.is_data || p->is_data;
  }
  return out;
}

/// The block of `v` starting at `start` with sizes `sizes` (strides `step`).
Value block(const Shape& shape, const Value& v, const std::vector<int64_t>& start, const std::vector<int64_t>& step) {
  Value out = array_like(shape);
  out.is_data = v.is_data;
  const auto si = row_major_strides(v.shape.dims);
  for_each_index(shape.dims, [&](const std::vector<int64_t>& idx, int64_t flat) {
    int64_t o = 0;
    for (std::size_t k = 0; k < idx.size(); ++k) o += (start[k] + idx[k] * step[k]) * si[k];
    out.data[flat] = v.data[o];
  });
  return out;
}

int64_t elementwise(const std::string& op, const std::vector<int64_t>& a, const std::string& direction, bool& ok) {
  ok = true;
  if (op == "add") return a[0] + a[1];
  if (op == "subtract") return a[0] - a[1];
  if (op == "multiply") return a[0] * a[1];
  if (op == "divide") return a[1] == 0 ? 0 : a[0] / a[1];
  if (op == "remainder") return a[1] == 0 ? 0 : a[0] % a[1];
  if (op == "maximum") return std::max(a[0], a[1]);
  if (op == "minimum") return std::min(a[0], a[1]);
  if (op == "and") return a[0] & a[1];
  if (op == "or") return a[0] | a[1];
  if (op == "xor") return a[0] ^ a[1];
  if (op == "clamp") return std::clamp(a[1], a[0], std::max(a[0], a[2]));
  if (op == "select") return a[0] ? a[1] : a[2];
  if (op == "negate") return -a[0];
  if (op == "abs") return a[0] < 0 ? -a[0] : a[0];
  if (op == "not") return a[0] ? 0 : 1;
  if (op == "convert") return a[0];
  if (op == "compare") {
    if (direction == "EQ") return a[0] == a[1];
    if (direction == "NE") return a[0] != a[1];
    if (direction == "LT") return a[0] < a[1];
    if (direction == "LE") return a[0] <= a[1];
    if (direction == "GT") return a[0] > a[1];
    if (direction == "GE") return a[0] >= a[1];
  }
  ok = false;
  return 0;
}

const std::set<std::string> kElementwise = {"add", "subtract", "multiply", "divide", "remainder", "maximum",
                                            "minimum", "and", "or", "xor", "clamp", "select", "negate",
                                            "abs", "not", "convert", "compare"};

/// Elements of one instruction over all devices the interpreter will hold.
constexpr int64_t kMaxElements = int64_t{1} << 26;

class Runner {
 public:
  Runner(const Module& m, int64_t n) : m_(m), n_(n) {}

  /// Values of every instruction of `c` given its parameters.
  Result<std::map<std::string, Values>> run(const Computation& c, const std::vector<const Values*>& args, bool entry) {
    std::map<std::string, Values> env;
    for (const auto& ins : c.instructions) {
      std::vector<const Values*> ops;
      for (const auto& o : ins.operands) {
        const auto it = env.find(o);
        if (it == env.end()) return fail(ins, "uses %" + o + " before it is defined");
        ops.push_back(&it->second);
      }
      auto v = eval(ins, ops, args, entry);
      if (!v) return v.error();
      env.emplace(ins.name, std::move(*v));
    }
    return env;
  }

 private:
  Result<Values> eval(const Instruction& ins, const std::vector<const Values*>& ops,
                      const std::vector<const Values*>& args, bool entry) {
    const std::string& op = ins.opcode;
    int64_t elements = ins.shape.elements();
    for (const auto& t : ins.shape.tuple) elements += t.elements();
    if (elements > kMaxElements / n_)
      return Error{Error::Kind::unsupported,
                   fmt::format("%{} (line {}): too large for the importer's concrete run (at most {} elements over "
                               "all devices)",
                               ins.name, ins.line, kMaxElements)};
    if (op == "parameter") {
      const auto k = integers_in(ins.literal);
      if (k.size() != 1 || k[0] < 0 || k[0] >= static_cast<int64_t>(args.size()))
        return fail(ins, entry ? "the module is not one reshard: it has more than one parameter"
                               : "parameter out of range");
      Values v = *args[k[0]];
      for (auto& x : v) {
        if (x.shape.is_tuple != ins.shape.is_tuple || x.shape.dims != ins.shape.dims)
          return fail(ins, "the parameter's shape differs from the argument's");
        x.shape = ins.shape;
      }
      return v;
    }
    if (op == "fusion" || op == "call") {
      auto it = ins.attrs.find(op == "fusion" ? "calls" : "to_apply");
      if (it == ins.attrs.end()) return fail(ins, "has no called computation");
      std::string name = it->second;
      if (!name.empty() && name[0] == '%') name.erase(0, 1);
      const Computation* called = m_.find(name);
      if (!called) return fail(ins, "calls %" + name + ", which is not in the module");
      auto env = run(*called, ops, false);
      if (!env) return env.error();
      return std::move(env->at(called->root().name));
    }
    const bool collective = op == "all-gather" || op == "all-to-all" || op == "collective-permute" ||
                            op == "all-reduce" || op == "reduce-scatter";
    if (collective) {
      if (!entry) return fail(ins, op + " inside a called computation is not imported");
      return eval_collective(ins, ops);
    }
    Values out(n_);
    for (int64_t d = 0; d < n_; ++d) {
      std::vector<const Value*> vs;
      for (const auto* o : ops) vs.push_back(&(*o)[d]);
      auto v = local(ins, vs, args, d);
      if (!v) return v.error();
      out[d] = std::move(*v);
    }
    return out;
  }

  Result<Value> local(const Instruction& ins, const std::vector<const Value*>& ops,
                      const std::vector<const Values*>& args, int64_t device) {
    const std::string& op = ins.opcode;
    const Shape& shape = ins.shape;
    auto need = [&](std::size_t k) -> Status {
      if (ops.size() != k) return fail(ins, fmt::format("expects {} operands, has {}", k, ops.size()));
      for (const auto* o : ops)
        if (o->shape.is_tuple) return fail(ins, "a tuple operand is not supported here");
      return Ok{};
    };
    if (op == "partition-id" || op == "replica-id") {
      Value v = array_like(shape);
      v.data = {op == "partition-id" ? device : 0};
      return v;
    }
    if (op == "constant") {
      Value v = array_like(shape);
      const auto values = integers_in(ins.literal);
      if (static_cast<int64_t>(values.size()) == shape.elements()) {
        v.data = values;
      } else if (values.size() == 1) {
        std::fill(v.data.begin(), v.data.end(), values[0]);
      } else {
        return fail(ins, fmt::format("a constant whose literal does not have {} integers (floating-point constants "
                                     "are not data movement)",
                                     shape.elements()));
      }
      return v;
    }
    if (op == "iota") {
      Value v = array_like(shape);
      const auto dim = attr_ints(ins, "iota_dimension");
      if (dim.size() != 1 || dim[0] >= static_cast<int64_t>(shape.dims.size())) return fail(ins, "bad iota_dimension");
      for_each_index(shape.dims, [&](const std::vector<int64_t>& idx, int64_t flat) { v.data[flat] = idx[dim[0]]; });
      return v;
    }
    if (kElementwise.count(op)) {
      for (const auto* o : ops)
        if (o->shape.is_tuple) return fail(ins, "a tuple operand is not supported here");
      const bool is_select = op == "select";
      for (std::size_t k = 0; k < ops.size(); ++k)
        if (ops[k]->is_data && !(is_select && k > 0) && op != "convert")
          return fail(ins, op + " computes on the array's elements: the module is not a reshard");
      // A convert of the elements keeps their identity: XLA:CPU widens bf16 to f32 around
      // collectives and narrows it back; the plan is typed with the parameter's element type.
      Value v = array_like(shape);
      v.is_data = is_select ? (ops[1]->is_data || ops[2]->is_data) : ops[0]->is_data;
      const auto dir = ins.attrs.count("direction") ? ins.attrs.at("direction") : std::string();
      std::vector<int64_t> a(ops.size());
      for (int64_t i = 0; i < shape.elements(); ++i) {
        for (std::size_t k = 0; k < ops.size(); ++k) {
          const auto& data = ops[k]->data;
          if (data.size() != 1 && static_cast<int64_t>(data.size()) != shape.elements())
            return fail(ins, fmt::format("operand {} does not have the result's shape", k));
          a[k] = data.size() == 1 ? data[0] : data[i];
        }
        bool ok = true;
        v.data[i] = elementwise(op, a, dir, ok);
        if (!ok) return fail(ins, "unknown comparison direction");
        if (is_select && v.is_data && !(a[0] ? ops[1]->is_data : ops[2]->is_data)) v.data[i] = kNoElement;
      }
      return v;
    }
    if (op == "copy" || op == "reshape" || op == "bitcast") {
      if (auto ok = need(1); !ok) return ok.error();
      const Value& x = *ops[0];
      if (x.shape.elements() != shape.elements()) return fail(ins, "changes the number of elements");
      Value v = array_like(shape);
      v.is_data = x.is_data;
      if (op != "bitcast") {
        v.data = x.data;
        return v;
      }
      // A bitcast reinterprets the physical buffer: read both shapes through their layouts.
      std::vector<int64_t> phys(x.data.size());
      for_each_index(x.shape.dims, [&](const std::vector<int64_t>& idx, int64_t flat) {
        phys[physical_index(x.shape, idx)] = x.data[flat];
      });
      for_each_index(shape.dims, [&](const std::vector<int64_t>& idx, int64_t flat) {
        v.data[flat] = phys[physical_index(shape, idx)];
      });
      return v;
    }
    if (op == "transpose") {
      if (auto ok = need(1); !ok) return ok.error();
      const auto perm = attr_ints(ins, "dimensions");
      const Value& x = *ops[0];
      if (perm.size() != shape.dims.size() || x.shape.dims.size() != perm.size()) return fail(ins, "bad dimensions=");
      Value v = array_like(shape);
      v.is_data = x.is_data;
      const auto sx = row_major_strides(x.shape.dims);
      for_each_index(shape.dims, [&](const std::vector<int64_t>& idx, int64_t flat) {
        int64_t o = 0;
        for (std::size_t i = 0; i < idx.size(); ++i) o += idx[i] * sx[perm[i]];
        v.data[flat] = x.data[o];
      });
      return v;
    }
    if (op == "broadcast") {
      if (auto ok = need(1); !ok) return ok.error();
      const auto dims = attr_ints(ins, "dimensions");
      const Value& x = *ops[0];
      if (dims.size() != x.shape.dims.size()) return fail(ins, "bad dimensions=");
      Value v = array_like(shape);
      v.is_data = x.is_data;
      const auto sx = row_major_strides(x.shape.dims);
      for_each_index(shape.dims, [&](const std::vector<int64_t>& idx, int64_t flat) {
        int64_t o = 0;
        for (std::size_t i = 0; i < dims.size(); ++i) o += idx[dims[i]] * sx[i];
        v.data[flat] = x.data[o];
      });
      return v;
    }
    if (op == "slice") {
      if (auto ok = need(1); !ok) return ok.error();
      const auto it = ins.attrs.find("slice");
      if (it == ins.attrs.end()) return fail(ins, "has no slice=");
      std::vector<int64_t> start, step;
      for (const auto& part : split_top_level(std::string_view(it->second).substr(1, it->second.size() - 2))) {
        const auto v = integers_in(part);
        if (v.size() < 2) return fail(ins, "cannot read slice " + part);
        start.push_back(v[0]);
        step.push_back(v.size() > 2 ? v[2] : 1);
      }
      if (start.size() != shape.dims.size()) return fail(ins, "slice= does not match the rank");
      for (std::size_t k = 0; k < start.size(); ++k)
        if (start[k] < 0 || step[k] < 1 || start[k] + (shape.dims[k] - 1) * step[k] >= ops[0]->shape.dims[k] + (shape.dims[k] == 0))
          return fail(ins, "slice out of bounds");
      return block(shape, *ops[0], start, step);
    }
    if (op == "concatenate") {
      const auto dim = attr_ints(ins, "dimensions");
      if (dim.size() != 1 || dim[0] < 0 || dim[0] >= static_cast<int64_t>(shape.dims.size()))
        return fail(ins, "bad dimensions=");
      int64_t total = 0;
      for (const auto* o : ops) {
        if (!fits_along(o->shape, shape, static_cast<std::size_t>(dim[0])))
          return fail(ins, "operands of another rank or other sizes beside the concatenated dimension");
        total += o->shape.dims[dim[0]];
      }
      if (total != shape.dims[dim[0]]) return fail(ins, "operands do not add up to the result");
      const bool any_data = std::any_of(ops.begin(), ops.end(), [](const Value* o) { return o->is_data; });
      std::vector<Value> blanks;  // non-data operands of a data result hold no source element
      blanks.reserve(ops.size());
      std::vector<const Value*> parts;
      for (const auto* o : ops) {
        if (any_data && !o->is_data) {
          blanks.push_back(array_like(o->shape));
          parts.push_back(&blanks.back());
        } else {
          parts.push_back(o);
        }
      }
      return concat(shape, parts, dim[0]);
    }
    if (op == "dynamic-slice" || op == "dynamic-update-slice") {
      const bool update = op == "dynamic-update-slice";
      const std::size_t first = update ? 2 : 1;
      if (ops.size() < first) return fail(ins, "too few operands");
      const Value& x = *ops[0];
      const std::size_t rank = x.shape.dims.size();
      std::vector<int64_t> start;
      if (ops.size() == first + rank) {
        for (std::size_t k = first; k < ops.size(); ++k) {
          if (ops[k]->data.size() != 1) return fail(ins, "a start index that is not a scalar");
          if (ops[k]->is_data) return fail(ins, "indexes by the array's elements");
          start.push_back(ops[k]->data[0]);
        }
      } else if (ops.size() == first + 1 && ops[first]->data.size() == rank) {
        start = ops[first]->data;
      } else {
        return fail(ins, "start indices do not match the rank");
      }
      const Shape& window = update ? ops[1]->shape : shape;
      for (std::size_t k = 0; k < rank; ++k)
        start[k] = std::clamp<int64_t>(start[k], 0, x.shape.dims[k] - window.dims[k]);
      if (!update) return block(shape, x, start, std::vector<int64_t>(rank, 1));
      Value v = x;
      v.shape = shape;
      v.is_data = x.is_data || ops[1]->is_data;
      const auto sx = row_major_strides(x.shape.dims);
      for_each_index(window.dims, [&](const std::vector<int64_t>& idx, int64_t flat) {
        int64_t o = 0;
        for (std::size_t k = 0; k < rank; ++k) o += (start[k] + idx[k]) * sx[k];
        v.data[o] = ops[1]->is_data || !v.is_data ? ops[1]->data[flat] : kNoElement;
      });
      return v;
    }
    if (op == "get-tuple-element") {
      const auto k = attr_ints(ins, "index");
      if (ops.size() != 1 || !ops[0]->shape.is_tuple || k.size() != 1 || k[0] < 0 ||
          k[0] >= static_cast<int64_t>(ops[0]->tuple.size()))
        return fail(ins, "bad get-tuple-element");
      return ops[0]->tuple[k[0]];
    }
    if (op == "tuple") {
      Value v;
      v.shape = shape;
      for (const auto* o : ops) v.tuple.push_back(*o);
      return v;
    }
    (void)args;
    return fail(ins, "'" + op + "' is not a data movement the importer knows (not one reshard)");
  }

  Result<Values> eval_collective(const Instruction& ins, const std::vector<const Values*>& ops) {
    const std::string& op = ins.opcode;
    Values out(n_);
    if (op == "collective-permute") {
      if (ops.size() != 1) return fail(ins, "expects one operand");
      const auto it = ins.attrs.find("source_target_pairs");
      if (it == ins.attrs.end()) return fail(ins, "has no source_target_pairs");
      auto pairs = parse_pairs(it->second, n_);
      if (!pairs) return fail(ins, pairs.error().message);
      for (int64_t d = 0; d < n_; ++d) {
        out[d] = array_like(ins.shape);  // devices no pair targets get zeros
        out[d].is_data = true;
      }
      for (const auto& [s, t] : *pairs) {
        out[t] = (*ops[0])[s];
        out[t].shape = ins.shape;
      }
      return out;
    }
    const auto rg = ins.attrs.find("replica_groups");
    const auto ids = ins.attrs.find("device_ids");
    auto groups = parse_replica_groups(rg == ins.attrs.end() ? "{}" : rg->second,
                                       ids == ins.attrs.end() ? "" : ids->second, n_);
    if (!groups) return fail(ins, groups.error().message);
    const auto dims = attr_ints(ins, "dimensions");
    for (const auto& g : *groups) {
      const int64_t size = static_cast<int64_t>(g.size());
      if (op == "all-reduce" || op == "reduce-scatter") {
        // The elements are partial values of one global element on every member (for a
        // correct plan); the reduced element is named by the smallest member tag.
        if (ops.size() != 1 || ins.shape.is_tuple) return fail(ins, "expects one array operand");
        const Value& first = (*ops[0])[g[0]];
        Value reduced = first;
        for (auto d : g) {
          const Value& v = (*ops[0])[d];
          if (v.shape.dims != first.shape.dims) return fail(ins, "members hold buffers of different shapes");
          for (std::size_t k = 0; k < v.data.size(); ++k)
            if (v.data[k] != kNoElement && (reduced.data[k] == kNoElement || v.data[k] < reduced.data[k]))
              reduced.data[k] = v.data[k];
        }
        if (op == "all-reduce") {
          if (ins.shape.dims != first.shape.dims) return fail(ins, "the result shape differs from the operand's");
          for (auto d : g) {
            out[d] = reduced;
            out[d].shape = ins.shape;
          }
          continue;
        }
        if (dims.size() != 1 || dims[0] < 0 || dims[0] >= static_cast<int64_t>(first.shape.dims.size()) ||
            !fits_along(ins.shape, first.shape, static_cast<std::size_t>(dims[0])) ||
            first.shape.dims[dims[0]] != ins.shape.dims[dims[0]] * size)
          return fail(ins, "the result is not one chunk of the operand per member");
        for (int64_t i = 0; i < size; ++i) {
          std::vector<int64_t> start(first.shape.dims.size(), 0);
          start[dims[0]] = i * ins.shape.dims[dims[0]];
          out[g[i]] = block(ins.shape, reduced, start, std::vector<int64_t>(start.size(), 1));
        }
        continue;
      }
      if (op == "all-gather") {
        if (ops.size() != 1 || dims.size() != 1) return fail(ins, "expects one operand and one dimension");
        std::vector<const Value*> parts;
        for (auto d : g) parts.push_back(&(*ops[0])[d]);
        const bool fits = !ins.shape.is_tuple && dims[0] >= 0 && dims[0] < static_cast<int64_t>(ins.shape.dims.size()) &&
                          std::all_of(parts.begin(), parts.end(), [&](const Value* p) {
                            return p->shape.dims == parts[0]->shape.dims &&
                                   fits_along(p->shape, ins.shape, static_cast<std::size_t>(dims[0]));
                          });
        if (!fits || parts[0]->shape.dims[dims[0]] * size != ins.shape.dims[dims[0]])
          return fail(ins, "the result shape is not the group's buffers concatenated");
        const Value joined = concat(ins.shape, parts, dims[0]);
        for (auto d : g) out[d] = joined;
        continue;
      }
      // all-to-all: the array form splits dimensions={d}; the tuple form sends operand i to member i.
      if (ops.size() == 1 && dims.size() == 1) {
        const Shape& in = (*ops[0])[g[0]].shape;
        const int64_t d = dims[0];
        if (ins.shape.is_tuple || d < 0 || d >= static_cast<int64_t>(in.dims.size()) || in.dims[d] % size != 0 ||
            ins.shape.dims != in.dims)
          return fail(ins, "the array all-to-all's shapes do not match its group size");
        Shape chunk = in;
        chunk.dims[d] /= size;
        for (int64_t i = 0; i < size; ++i) {
          std::vector<const Value*> parts;
          std::vector<Value> chunks;
          chunks.reserve(size);
          for (int64_t j = 0; j < size; ++j) {
            std::vector<int64_t> start(in.dims.size(), 0);
            start[d] = i * chunk.dims[d];
            chunks.push_back(block(chunk, (*ops[0])[g[j]], start, std::vector<int64_t>(in.dims.size(), 1)));
          }
          for (const auto& c : chunks) parts.push_back(&c);
          out[g[i]] = concat(ins.shape, parts, d);
        }
        continue;
      }
      if (static_cast<int64_t>(ops.size()) != size || !ins.shape.is_tuple ||
          static_cast<int64_t>(ins.shape.tuple.size()) != size)
        return fail(ins, fmt::format("a tuple all-to-all needs one operand per group member ({})", size));
      for (int64_t i = 0; i < size; ++i) {
        Value v;
        v.shape = ins.shape;
        v.is_data = true;
        for (int64_t j = 0; j < size; ++j) {
          Value part = (*ops[i])[g[j]];
          if (part.shape.dims != ins.shape.tuple[j].dims) return fail(ins, "tuple element shapes differ from the operands'");
          part.shape = ins.shape.tuple[j];
          v.tuple.push_back(std::move(part));
        }
        out[g[i]] = std::move(v);
      }
    }
    return out;
  }

  const Module& m_;
  int64_t n_;
};

}  // namespace

Result<std::map<std::string, Values>> run_entry(const Module& module, int64_t num_devices, const Values& param) {
  Runner runner(module, num_devices);
  return runner.run(module.entry(), {&param}, true);
}

}  // namespace redist::hlo_import
