// Classic HLO text spelling of a Program.

#include <fmt/format.h>
#include <set>
#include <utility>
#include <variant>

#include "printers.hpp"

namespace redist::hlo::detail {
namespace {

std::string shape(const TensorType& type) {
  return fmt::format("{}[{}]", elem_name(type.elem), join_ints(type.shape, ","));
}

std::string name(ValueId v) { return v == kParameter ? "param" : fmt::format("v{}", v); }

std::string braces(const std::vector<int64_t>& values) { return "{" + join_ints(values, ",") + "}"; }

std::string groups_attr(const Groups& groups) {
  return "replica_groups={" + join(groups, ",", braces) + "}";
}

std::string channel_attr(int64_t channel) { return fmt::format("channel_id={}", channel); }

std::string reducer_opcode(ReduceOp op, ElemType elem) {
  if (elem == ElemType::pred) return op == ReduceOp::min ? "and" : "or";
  switch (op) {
    case ReduceOp::sum: return "add";
    case ReduceOp::max: return "maximum";
    case ReduceOp::min: return "minimum";
  }
  return "";
}

/// Name of the reduction computation of `op` over `elem`, e.g. "sum.f32".
std::string reducer_name(ReduceOp op, ElemType elem) {
  return fmt::format("{}.{}", reduce_op_name(op), elem_name(elem));
}

std::string reducer_computation(ReduceOp op, ElemType elem) {
  const std::string s = shape(TensorType{elem, {}});
  return fmt::format("{0} {{\n  lhs = {1} parameter(0)\n  rhs = {1} parameter(1)\n  ROOT out = {1} {2}(lhs, rhs)\n"
                     "}}\n\n",
                     reducer_name(op, elem), s, reducer_opcode(op, elem));
}

struct Spell {
  const Instruction& instr;

  std::string call(const std::string& opcode) const {
    return opcode + "(" + join(instr.operands, ", ", name) + ")";
  }

  std::string operator()(const CustomCall& c) const {
    return call("custom-call") + ", custom_call_target=\"" + c.target + "\", sharding=" + c.sharding;
  }
  std::string operator()(const Reshape&) const { return call("reshape"); }
  std::string operator()(const Transpose& t) const { return call("transpose") + ", dimensions=" + braces(t.permutation); }
  std::string operator()(const Concatenate& c) const {
    return fmt::format("{}, dimensions={{{}}}", call("concatenate"), c.dim);
  }
  std::string operator()(const Constant& c) const {
    return instr.type.shape.empty() ? "constant(" + join_ints(c.values) + ")" : "constant({" + join_ints(c.values) + "})";
  }
  std::string operator()(const PartitionId&) const { return call("partition-id"); }
  std::string operator()(const Convert&) const { return call("convert"); }
  std::string operator()(const DynamicSlice&) const {
    return call("dynamic-slice") + ", dynamic_slice_sizes=" + braces(instr.type.shape);
  }
  std::string operator()(const DynamicUpdateSlice&) const { return call("dynamic-update-slice"); }
  std::string operator()(const Pad& p) const {
    return call("pad") + ", padding=" + join(p.high, "x", [](int64_t h) { return fmt::format("0_{}", h); });
  }
  std::string operator()(const AllGather& g) const {
    return fmt::format("{}, {}, {}, dimensions={{{}}}, use_global_device_ids=true", call("all-gather"),
                       channel_attr(g.channel), groups_attr(g.groups), g.dim);
  }
  std::string operator()(const AllToAll& a) const {
    return fmt::format("{}, {}, {}, dimensions={{{}}}", call("all-to-all"), channel_attr(a.channel),
                       groups_attr(a.groups), a.dim);
  }
  std::string operator()(const CollectivePermute& p) const {
    return call("collective-permute") + ", " + channel_attr(p.channel) + ", source_target_pairs={" +
           join(p.pairs, ",", [](const auto& st) { return braces({st.first, st.second}); }) + "}";
  }
  std::string operator()(const ReduceScatter& r) const {
    return fmt::format("{}, {}, {}, dimensions={{{}}}, use_global_device_ids=true, to_apply={}", call("reduce-scatter"),
                       channel_attr(r.channel), groups_attr(r.groups), r.dim, reducer_name(r.reducer, instr.type.elem));
  }
  std::string operator()(const AllReduce& r) const {
    return call("all-reduce") + ", " + channel_attr(r.channel) + ", " + groups_attr(r.groups) +
           ", use_global_device_ids=true, to_apply=" + reducer_name(r.reducer, instr.type.elem);
  }
  std::string operator()(const Identity& i) const {
    return "constant(" + identity_literal(i.op, instr.type.elem, false) + ")";
  }
  std::string operator()(const Broadcast&) const { return call("broadcast") + ", dimensions={}"; }
  std::string operator()(const Select&) const { return call("select"); }
};

/// (reducer, element type) of every all-reduce and reduce-scatter, each once.
std::set<std::pair<ReduceOp, ElemType>> reducers(const Program& program) {
  std::set<std::pair<ReduceOp, ElemType>> used;
  for (const Instruction& instr : program.instrs) {
    if (const auto* r = std::get_if<ReduceScatter>(&instr.op)) used.emplace(r->reducer, instr.type.elem);
    if (const auto* r = std::get_if<AllReduce>(&instr.op)) used.emplace(r->reducer, instr.type.elem);
  }
  return used;
}

}  // namespace

std::string print_hlo(const Program& program) {
  std::string out = fmt::format("HloModule redist, replica_count=1, num_partitions={}\n\n", program.num_partitions);
  for (const auto& [op, elem] : reducers(program)) out += reducer_computation(op, elem);
  out += fmt::format("ENTRY main {{\n  param = {} parameter(0), sharding={}\n", shape(program.param),
                     program.param_sharding);
  for (std::size_t i = 0; i < program.instrs.size(); ++i) {
    const Instruction& instr = program.instrs[i];
    const bool root = static_cast<ValueId>(i) == program.result;
    out += fmt::format("{}{} = {} {}", root ? "  ROOT " : "  ", name(static_cast<ValueId>(i)), shape(instr.type),
                       std::visit(Spell{instr}, instr.op));
    if (instr.manual && !std::holds_alternative<CustomCall>(instr.op)) out += ", sharding={manual}";
    out += "\n";
  }
  return out + "}\n";
}

}  // namespace redist::hlo::detail
