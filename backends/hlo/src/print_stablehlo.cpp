// StableHLO (MLIR) spelling of a Program, as JAX writes shard_map lowerings.

#include <fmt/format.h>
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
  for (int64_t d : type.shape) out += fmt::format("{}x", d);
  return out + mlir_elem(type.elem) + ">";
}

std::string name(ValueId v) { return v == kParameter ? "%arg0" : fmt::format("%v{}", v); }

std::string groups_attr(const Groups& groups) {
  const std::size_t size = groups.empty() ? 0 : groups.front().size();
  return fmt::format("replica_groups = dense<[{}]> : tensor<{}x{}xi64>",
                     join(groups, ", ", [](const auto& g) { return "[" + join_ints(g) + "]"; }), groups.size(), size);
}

std::string channel_attr(int64_t channel) {
  return fmt::format("channel_handle = #stablehlo.channel_handle<handle = {}, type = 1>", channel);
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
  return fmt::format(" ({{\n    ^bb0(%lhs: {0}, %rhs: {0}):\n      %out = {1} %lhs, %rhs : {0}\n"
                     "      stablehlo.return %out : {0}\n    }})",
                     s, reducer_op(op, elem));
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
    return fmt::format("stablehlo.concatenate {}, dim = {}{}", join(instr.operands, ", ", name), c.dim, signature());
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
  std::string operator()(const DynamicUpdateSlice&) const {
    return "stablehlo.dynamic_update_slice " + join(instr.operands, ", ", name) + signature();
  }
  std::string operator()(const Pad& p) const {
    const std::vector<int64_t> none(p.high.size(), 0);
    return "stablehlo.pad " + operand(0) + ", " + operand(1) + ", low = [" + join_ints(none) + "], high = [" +
           join_ints(p.high) + "], interior = [" + join_ints(none) + "]" + signature();
  }
  std::string operator()(const AllGather& g) const {
    return generic("all_gather", fmt::format("all_gather_dim = {} : i64, {}, {}, use_global_device_ids", g.dim,
                                             channel_attr(g.channel), groups_attr(g.groups)));
  }
  std::string operator()(const AllToAll& a) const {
    return generic("all_to_all",
                   fmt::format("{0}, concat_dimension = {1} : i64, {2}, split_count = {3} : i64, "
                               "split_dimension = {1} : i64",
                               channel_attr(a.channel), a.dim, groups_attr(a.groups), a.groups.front().size()));
  }
  std::string operator()(const CollectivePermute& p) const {
    const std::string pairs = join(p.pairs, ", ", [](const auto& st) {
      return fmt::format("[{}, {}]", st.first, st.second);
    });
    return generic("collective_permute", fmt::format("{}, source_target_pairs = dense<[{}]> : tensor<{}x2xi64>",
                                                     channel_attr(p.channel), pairs, p.pairs.size()));
  }
  std::string operator()(const ReduceScatter& r) const {
    return generic("reduce_scatter",
                   fmt::format("{}, {}, scatter_dimension = {} : i64, use_global_device_ids", channel_attr(r.channel),
                               groups_attr(r.groups), r.dim),
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
  std::string out = fmt::format(
      "module @redist attributes {{mhlo.num_partitions = {} : i32, mhlo.num_replicas = 1 : i32}} {{\n",
      program.num_partitions);
  out += fmt::format(
      "  func.func public @main(%arg0: {} {{mhlo.sharding = \"{}\"}}) -> ({} {{mhlo.sharding = \"{}\"}}) {{\n",
      tensor(program.param), program.param_sharding, tensor(program.result_type), program.result_sharding);
  for (std::size_t i = 0; i < program.instrs.size(); ++i) {
    const Instruction& instr = program.instrs[i];
    out += "    " + name(static_cast<ValueId>(i)) + " = " + std::visit(Spell{program, instr}, instr.op) + "\n";
  }
  out += fmt::format("    return {} : {}\n  }}\n}}\n", name(program.result), tensor(program.result_type));
  return out;
}

}  // namespace redist::hlo::detail
