// Names of the plan IR's step kinds, and which steps move no data.

#include "redist/plan/plan.hpp"

#include <algorithm>

namespace redist {

namespace {

struct StepNamer {
  std::string_view operator()(const AllSlice&) const { return "all_slice"; }
  std::string_view operator()(const AllGather&) const { return "all_gather"; }
  std::string_view operator()(const AllToAll&) const { return "all_to_all"; }
  std::string_view operator()(const CollectivePermute&) const { return "collective_permute"; }
  std::string_view operator()(const ReduceScatter&) const { return "reduce_scatter"; }
  std::string_view operator()(const AllReduce&) const { return "all_reduce"; }
  std::string_view operator()(const AddPending&) const { return "add_pending"; }
  std::string_view operator()(const Transfer&) const { return "transfer"; }
};

}  // namespace

std::string_view step_name(const StepOp& op) { return std::visit(StepNamer{}, op); }

bool all_in_place(const DevicePairs& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == p.second; });
}

bool moves_nothing(const Step& step) {
  const auto size_one = [](const std::vector<AxisRef>& axes) {
    return std::all_of(axes.begin(), axes.end(), [](const AxisRef& a) { return a.size == 1; });
  };
  if (const auto* slice = std::get_if<AllSlice>(&step.op)) return size_one(slice->axes);
  if (const auto* gather = std::get_if<AllGather>(&step.op)) return size_one(gather->axes());
  if (const auto* exchange = std::get_if<AllToAll>(&step.op)) return size_one(exchange->axes());
  if (const auto* reduce = std::get_if<AllReduce>(&step.op)) return size_one(reduce->axes);
  if (const auto* scatter = std::get_if<ReduceScatter>(&step.op)) return size_one(scatter->axes);
  return std::holds_alternative<CollectivePermute>(step.op) && step.pairs && all_in_place(*step.pairs);
}

std::vector<AxisRef> AllGather::axes() const {
  std::vector<AxisRef> out;
  for (const auto& p : parts) out.insert(out.end(), p.axes.begin(), p.axes.end());
  return out;
}

std::vector<AxisRef> AllToAll::axes() const {
  std::vector<AxisRef> out;
  for (const auto& m : moves) out.insert(out.end(), m.axes.begin(), m.axes.end());
  return out;
}

}  // namespace redist
