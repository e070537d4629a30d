// StableHLO (MLIR) spelling of a Program, as JAX writes shard_map lowerings.

#include <variant>

#include "printers.hpp"

namespace redist::hlo::detail {
namespace {

std::string mlir_elem(ElemType elem) {
  switch (elem) {
    case ElemType::pred: return "i1";
    case ElemType::s8: return "i8";
    case ElemType::u8: return "ui8";
    case ElemType::s16: return "i16";
    case ElemType::u16: return "ui16";
    case ElemType::s32: return "i32";
    case ElemType::u32: return "ui32";
    case ElemType::s64: return "i64";
    case ElemType::u64: return "ui64";
    default: return std::string(elem_name(elem));  // f16, bf16, f32, f64
  }
}

std::string tensor(const TensorType& type) {
  std::string out = "tensor<";
  for (int64_t d : type.shape) out += std::to_string(d) + "x";
  return out + mlir_elem(type.elem) + ">";
}

std::string name(ValueId v) { return v == kParameter ? "%arg0" : "%v" + std::to_string(v); }

std::string groups_attr(const Groups& groups) {
  const std::size_t size = groups.empty() ? 0 : groups.front().size();
  return "replica_groups = dense<[" + join(groups, ", ", [](const auto& g) { return "[" + join_ints(g) + "]"; }) +
         "]> : tensor<" + std::to_string(groups.size()) + "x" + std::to_string(size) + "xi64>";
}

std::string channel_attr(int64_t channel) {
  return "channel_handle = #stablehlo.channel_handle<handle = " + std::to_string(channel) + ", type = 1>";
}

std::string reducer_op(ReduceOp op, ElemType elem) {
  if (elem == ElemType::pred) return op == ReduceOp::min ? "stablehlo.and" : "stablehlo.or";
  switch (op) {
    case ReduceOp::sum: return "stablehlo.add";
    case ReduceOp::max: return "stablehlo.maximum";
    case ReduceOp::min: return "stablehlo.minimum";
  }
  return "";
}

/// The reduction region of an all-reduce or reduce-scatter.
std::string region(ReduceOp op, ElemType elem) {
  const std::string s = tensor(TensorType{elem, {}});
  return " ({\n    ^bb0(%lhs: " + s + ", %rhs: " + s + "):\n      %out = " + reducer_op(op, elem) +
         " %lhs, %rhs : " + s + "\n      stablehlo.return %out : " + s + "\n    })";
}

struct Spell {
  const Program& program;
  const Instruction& instr;

  std::string operand(std::size_t i) const { return name(instr.operands[i]); }
  std::string type_of(ValueId v) const {
    return tensor(v == kParameter ? program.param : program.instrs[static_cast<std::size_t>(v)].type);
  }
  /// ` : (operand types) -> result type`
  std::string signature() const {
    return " : (" + join(instr.operands, ", ", [&](ValueId v) { return type_of(v); }) + ") -> " + tensor(instr.type);
  }
  std::string generic(const std::string& op, const std::string& attrs, const std::string& body = "") const {
    return "\"stablehlo." + op + "\"(" + operand(0) + ") <{" + attrs + "}>" + body + signature();
  }

  std::string operator()(const CustomCall& c) const {
    return "stablehlo.custom_call @" + c.target + "(" + operand(0) + ") {mhlo.sharding = \"" + c.sharding + "\"}" +
           signature();
  }
  std::string operator()(const Reshape&) const { return "stablehlo.reshape " + operand(0) + signature(); }
  std::string operator()(const Transpose& t) const {
    return "stablehlo.transpose " + operand(0) + ", dims = [" + join_ints(t.permutation) + "]" + signature();
  }
  std::string operator()(const Concatenate& c) const {
    return "stablehlo.concatenate " + join(instr.operands, ", ", name) + ", dim = " + std::to_string(c.dim) +
           signature();
  }
  std::string operator()(const Constant& c) const {
    const std::string values = instr.type.shape.empty() ? join_ints(c.values) : "[" + join_ints(c.values) + "]";
    return "stablehlo.constant dense<" + values + "> : " + tensor(instr.type);
  }
  std::string operator()(const PartitionId&) const { return "stablehlo.partition_id : " + tensor(instr.type); }
  std::string operator()(const Convert&) const { return "stablehlo.convert " + operand(0) + signature(); }
  std::string operator()(const DynamicSlice&) const {
    return "stablehlo.dynamic_slice " + join(instr.operands, ", ", name) + ", sizes = [" +
           join_ints(instr.type.shape) + "]" + signature();
  }
  std::string operator()(const Pad& p) const {
    const std::vector<int64_t> none(p.high.size(), 0);
    return "stablehlo.pad " + operand(0) + ", " + operand(1) + ", low = [" + join_ints(none) + "], high = [" +
           join_ints(p.high) + "], interior = [" + join_ints(none) + "]" + signature();
  }
  std::string operator()(const AllGather& g) const {
    return generic("all_gather", "all_gather_dim = " + std::to_string(g.dim) + " : i64, " + channel_attr(g.channel) +
                                     ", " + groups_attr(g.groups) + ", use_global_device_ids");
  }
  std::string operator()(const AllToAll& a) const {
    const std::string dim = std::to_string(a.dim) + " : i64";
    return generic("all_to_all", channel_attr(a.channel) + ", concat_dimension = " + dim + ", " +
                                     groups_attr(a.groups) + ", split_count = " +
                                     std::to_string(a.groups.front().size()) + " : i64, split_dimension = " + dim);
  }
  std::string operator()(const CollectivePermute& p) const {
    const std::string pairs = join(p.pairs, ", ", [](const auto& st) {
      return "[" + std::to_string(st.first) + ", " + std::to_string(st.second) + "]";
    });
    return generic("collective_permute", channel_attr(p.channel) + ", source_target_pairs = dense<[" + pairs +
                                             "]> : tensor<" + std::to_string(p.pairs.size()) + "x2xi64>");
  }
  std::string operator()(const ReduceScatter& r) const {
    return generic("reduce_scatter",
                   channel_attr(r.channel) + ", " + groups_attr(r.groups) +
                       ", scatter_dimension = " + std::to_string(r.dim) + " : i64, use_global_device_ids",
                   region(r.reducer, instr.type.elem));
  }
  std::string operator()(const AllReduce& r) const {
    return generic("all_reduce", channel_attr(r.channel) + ", " + groups_attr(r.groups) + ", use_global_device_ids",
                   region(r.reducer, instr.type.elem));
  }
  std::string operator()(const Identity& i) const {
    return "stablehlo.constant dense<" + identity_literal(i.op, instr.type.elem, true) + "> : " + tensor(instr.type);
  }
  std::string operator()(const Broadcast&) const {
    return "stablehlo.broadcast_in_dim " + operand(0) + ", dims = []" + signature();
  }
  std::string operator()(const Select&) const {
    return "stablehlo.select " + join(instr.operands, ", ", name) + signature();
  }
};

}  // namespace

std::string print_stablehlo(const Program& program) {
  std::string out = "module @redist attributes {mhlo.num_partitions = " + std::to_string(program.num_partitions) +
                    " : i32, mhlo.num_replicas = 1 : i32} {\n";
  out += "  func.func public @main(%arg0: " + tensor(program.param) + " {mhlo.sharding = \"" +
         program.param_sharding + "\"}) -> (" + tensor(program.result_type) + " {mhlo.sharding = \"" +
         program.result_sharding + "\"}) {\n";
  for (std::size_t i = 0; i < program.instrs.size(); ++i) {
    const Instruction& instr = program.instrs[i];
    out += "    " + name(static_cast<ValueId>(i)) + " = " + std::visit(Spell{program, instr}, instr.op) + "\n";
  }
  out += "    return " + name(program.result) + " : " + tensor(program.result_type) + "\n  }\n}\n";
  return out;
}

}  // namespace redist::hlo::detail
