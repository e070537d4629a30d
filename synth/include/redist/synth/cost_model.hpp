#pragma once
// The alpha-beta cost model of plans (docs/design.md §4, docs/cost_model.md). Each mesh axis
// belongs to a link class, intra-node (fast) or inter-node (slow); a collective over
// several axes runs at the speed of its slowest one. A step over a group of g devices
// whose larger local buffer (input or output) holds B bytes takes
//
//   time = latency + fraction * B / (bandwidth * efficiency)
//
// with fraction (g-1)/g for a ring all_gather, reduce_scatter or all_to_all, 2(g-1)/g
// for an all_reduce, 1 for a collective_permute and 0 for an all_slice (local), and
// efficiency the share of the bandwidth the kind reaches (1 unless configured). A
// transfer between device sets takes latency + W / bandwidth, W the most bytes one
// device sends or receives over its lowered sends, on the class `transfer.link` (the
// links between the two meshes; inter-node unless configured). Given nodes
// (`transfer.node_size = n`: devices d and e share a node when d / n == e / n), the
// sends within a node are charged apart on the intra class: time = the transfer.link
// term over the busiest device's sends across nodes + the intra term over its sends
// within one, and the planner takes a replica on the receiver's node first. A
// step that communicates nothing (a group of one device, a permute that moves no
// device) costs 0. A plan's modeled time is the sum over its steps.
//
// Config text (a file for `redist plan --cost-model FILE`), one `key = value` a line,
// `#` comments:
//   x = inter                  # axis x is inter-node; unnamed axes are intra-node
//   y = intra
//   inter.bandwidth_gbps = 25  # class speeds (defaults: intra 300 GB/s and 1 us,
//   inter.latency_us = 5       #                inter 25 GB/s and 5 us)
//   transfer.link = inter      # links between the meshes of a transfer (default inter)
//   transfer.node_size = 8     # devices 0-7, 8-15, ... share a node (default: no nodes)
//   all_to_all.efficiency = 0.5  # share of the link's bandwidth a kind reaches, in (0, 1]
//                              # (all_gather, reduce_scatter, all_to_all, all_reduce,
//                              #  collective_permute, transfer; default 1)
// Heavy header (big integers): include it only where costs are computed.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/bigint.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist {

enum class LinkClass { intra, inter };

/// The speed of one link class: bandwidth per device in GB/s (1e9 bytes per second) and
/// the latency of one collective in microseconds.
struct Link {
  double bandwidth_gbps = 300;
  double latency_us = 1;
  bool operator==(const Link&) const = default;
};

/// What a step is charged for, by kind (see the header comment).
enum class CollectiveKind { local, all_gather, reduce_scatter, all_to_all, all_reduce, permute, transfer };

/// Per collective kind, the share of its link's bandwidth it reaches, in (0, 1] (1
/// unless configured): a kind that runs below the link's speed on the platform (an
/// all-to-all's local copies around its exchange, say) is charged fraction * B /
/// (bandwidth * efficiency). Below 1 only, so the search's lower bound, which counts
/// every byte at the fastest bandwidth, stays below every plan's time.
struct Efficiency {
  double all_gather = 1;
  double reduce_scatter = 1;
  double all_to_all = 1;
  double all_reduce = 1;
  double permute = 1;
  double transfer = 1;
  /// The share for `kind` (1 for a local step).
  double of(CollectiveKind kind) const;
  bool operator==(const Efficiency&) const = default;
};

struct CostModel {
  Link intra{300, 1};
  Link inter{25, 5};
  /// The share of the link's bandwidth each collective kind reaches (all 1 by default).
  Efficiency efficiency;
  /// The class of each axis named in the config; every other axis is intra-node.
  std::map<std::string, LinkClass, std::less<>> axis_class;
  /// The class of the links between the two meshes of a transfer between device sets.
  LinkClass transfer_link = LinkClass::inter;
  /// Devices d and e are on one node when d / transfer_node_size == e / transfer_node_size;
  /// 0: no nodes (every send of a transfer on transfer_link).
  int64_t transfer_node_size = 0;

  /// The class of the mesh axis `axis`.
  LinkClass class_of(std::string_view axis) const;
  /// The speed of `link_class`.
  const Link& link(LinkClass link_class) const { return link_class == LinkClass::inter ? inter : intra; }
  bool operator==(const CostModel&) const = default;
};

/// The bytes model: both classes at 1 GB/s with a latency of 1e-6 us, so a plan's
/// modeled time in ns is the bytes a device puts on its links summed over the steps
/// (the latency only breaks ties toward fewer collectives). synthesize() ranks plans by
/// it unless given another model.
CostModel bytes_model();

/// "intra" or "inter".
std::string_view link_class_name(LinkClass link_class);

/// The model in the config `text` (format above). Errors name the character offset and,
/// in the message, the line: unknown keys or classes, values that are not positive
/// numbers, an axis given twice.
Result<CostModel> parse_cost_model(std::string_view text);
/// The model in the config file at `path`; errors as parse_cost_model(), or a runtime
/// error when the file cannot be read.
Result<CostModel> read_cost_model(const std::string& path);
/// Ok when every axis `model` names is an axis of `mesh`, else an invalid error naming
/// the first unknown one.
Status validate(const CostModel& model, const Mesh& mesh);

/// The fraction of the larger local buffer a collective of `kind` over `group_size`
/// devices puts on each device's link: (g-1)/g, 2(g-1)/g, 1 or 0; 0 when g <= 1. A
/// transfer's buffer is its busiest device's bytes, so its fraction is 1.
double wire_fraction(CollectiveKind kind, int64_t group_size);
/// Modeled microseconds of a collective of `kind` over `group_size` devices whose larger
/// local buffer holds `buffer_bytes` bytes, on `link` at its full bandwidth; 0 when it
/// communicates nothing.
double collective_time_us(CollectiveKind kind, int64_t group_size, double buffer_bytes, const Link& link);
/// The same under `model`: on its link `link_class`, at the kind's efficiency. Every
/// step, search edge and bound term of a plan is priced by this one function.
double collective_time_us(const CostModel& model, CollectiveKind kind, int64_t group_size, double buffer_bytes,
                          LinkClass link_class);
/// True when physical devices `a` and `b` share a node under the model's
/// transfer.node_size (never without nodes).
bool same_node(const CostModel& model, int64_t a, int64_t b);

/// Modeled microseconds of a transfer whose busiest device moves `across` bytes between
/// nodes (on transfer.link; every byte without nodes) and `within` bytes inside one (on
/// the intra class): the two terms added, each only when its bytes are > 0.
double transfer_time_us(const CostModel& model, double across, double within);

/// The slower of two classes.
inline LinkClass slower(LinkClass a, LinkClass b) { return a == LinkClass::inter ? a : b; }

/// The modeled cost of one step.
struct StepCost {
  CollectiveKind kind = CollectiveKind::local;
  double time_us = 0;
  BigInt wire_bytes;       // bytes each device puts on its link: fraction * buffer (rounded up)
  int64_t group_size = 1;  // devices per group; 2 for a permute or transfer that moves data, 1 when none
  LinkClass link = LinkClass::intra;
  bool communicates = false;
};

/// The modeled cost of a plan: its steps' costs and their sums.
struct PlanCost {
  std::vector<StepCost> steps;
  double time_us = 0;
  BigInt wire_bytes;  // sum over steps of the bytes each device puts on its link
  int collectives = 0;  // steps that communicate
};

/// The mesh axes whose links a step from `before` to `after` uses: a collective's own
/// axes of size 2 or more; for a permute, the axes on which a device and the source the lowering pairs it
/// with differ (every axis when the device order changes). Names in mesh order.
std::vector<std::string> step_link_axes(const TypedState& before, const TypedState& after, const Step& step);

/// The cost of `step` taking `before` to `after` (as apply_step gives it).
StepCost step_cost(const CostModel& model, const TypedState& before, const TypedState& after, const Step& step);

/// The cost of `plan`, or its typing error.
Result<PlanCost> plan_cost(const CostModel& model, const Plan& plan);

}  // namespace redist
