// `redist explain` in words (explain.hpp). Blocks are global index boxes from the
// reference semantics (shard_box); who sends to whom comes from the step's lowered
// groups or permute pairs (the one lowering in plan/), so the words describe what
// runs.

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <sstream>

#include "explain.hpp"
#include "redist/core/semantics.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/lowering.hpp"
#include "redist/plan/plan_text.hpp"

namespace redist::cli {
namespace {

using Box = std::vector<DimBox>;

/// Where an axis factor sits in a type: dim `dim` at position `pos` among its axes, in
/// the pending reduction, or replicated (dim -1).
struct Place {
  int dim = -1;
  int pos = -1;
  bool pending = false;
};

/// Per mesh axis, the factor boundaries either type uses (1 and the size included).
std::map<std::string, std::vector<int64_t>> cuts(const Mesh& mesh, const DistType& a, const DistType& b) {
  std::map<std::string, std::set<int64_t>> c;
  for (const auto& ax : mesh.axes()) c[ax.name] = {1, ax.size};
  for (const DistType* t : {&a, &b})
    for (const auto& r : used_axes(*t)) c[r.name].insert({r.pre, r.pre * r.size});
  std::map<std::string, std::vector<int64_t>> out;
  for (auto& [n, s] : c) out[n] = {s.begin(), s.end()};
  return out;
}

/// The factors (as references) `r` consists of between the boundaries `cut`.
std::vector<AxisRef> factors(const AxisRef& r, const std::vector<int64_t>& cut, int64_t axis_size) {
  std::vector<AxisRef> out;
  for (std::size_t i = 0; i + 1 < cut.size(); ++i)
    if (cut[i] >= r.pre && cut[i + 1] <= r.pre * r.size)
      out.push_back(make_axis_ref(r.name, cut[i], cut[i + 1] / cut[i], axis_size));
  return out;
}

std::map<std::string, Place> places(const Mesh& mesh, const DistType& t,
                                    const std::map<std::string, std::vector<int64_t>>& cut) {
  auto size_of = [&](const std::string& n) { return mesh.axis_size(*mesh.axis_index(n)); };
  std::map<std::string, Place> out;
  for (std::size_t i = 0; i < t.dims.size(); ++i) {
    int pos = 0;
    for (const auto& a : t.dims[i].axes)
      for (const auto& f : factors(a, cut.at(a.name), size_of(a.name)))
        out[to_string(f)] = {static_cast<int>(i), pos++, false};
  }
  for (const auto& a : t.reduce_axes)
    for (const auto& f : factors(a, cut.at(a.name), size_of(a.name))) out[to_string(f)] = {-1, -1, true};
  return out;
}

std::string where(const Place& p) {
  if (p.pending) return "the pending reduction";
  if (p.dim < 0) return "replicated";
  return fmt::format("dim {}", p.dim);
}

std::string box_text(const Box& b) {
  std::string s = "[";
  for (std::size_t i = 0; i < b.size(); ++i)
    s += fmt::format("{}{}:{}", i ? ", " : "", b[i].start, b[i].start + b[i].size);
  return s + "]";
}

bool empty(const Box& b) {
  return std::any_of(b.begin(), b.end(), [](const DimBox& d) { return d.size <= 0; });
}

Box meet(const Box& a, const Box& b) {
  Box out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const int64_t lo = std::max(a[i].start, b[i].start);
    const int64_t hi = std::min(a[i].start + a[i].size, b[i].start + b[i].size);
    out[i] = {lo, std::max<int64_t>(0, hi - lo), 0};
  }
  return out;
}

bool contains(const Box& outer, const Box& inner) { return meet(outer, inner) == inner || empty(inner); }

std::string coords_text(const Mesh& mesh, int64_t device) {
  const auto c = mesh.coords_of_device(device);
  std::string s;
  for (std::size_t a = 0; a < c.size(); ++a) s += fmt::format("{}{}={}", a ? "," : "", mesh.axes()[a].name, c[a]);
  return s;
}

/// A transfer between device sets (docs/meshes.md), device by device over the union
/// of the meshes (up to `max_devices`): what each holds, keeps, sends and receives by
/// the lowered sends (global boxes), and what it holds after.
void transfer_words(const TypedState& before, const TypedState& after, const Step& step, int max_devices,
                    std::ostringstream& o) {
  const LoweredStep lowered = lower_step(before, after, step);
  const TransferTable& sends = std::get<LoweredTransfer>(lowered.op).sends;
  // The global box of a send: the receiver's target shard start plus its dst_start.
  auto global_box = [&](const TransferBox& t) {
    const Box target = shard_box(after.mesh, after.type, after.mesh.coords_of_device(t.to));
    Box out;
    for (std::size_t i = 0; i < target.size(); ++i) out.push_back({target[i].start + t.dst_start[i], t.extent[i], 0});
    return out;
  };
  std::set<int64_t> ids;
  for (int64_t d : before.mesh.device_ids()) ids.insert(d);
  for (int64_t d : after.mesh.device_ids()) ids.insert(d);
  int shown = 0;
  for (int64_t d : ids) {
    if (shown++ == max_devices) {
      o << "  (" << ids.size() - static_cast<std::size_t>(max_devices) << " more devices; --max-devices N shows them)\n";
      break;
    }
    const bool in_before = before.mesh.has_device(d), in_after = after.mesh.has_device(d);
    o << "  device " << d;
    if (in_before)
      o << " (" << coords_text(before.mesh, d) << "): holds "
        << box_text(shard_box(before.mesh, before.type, before.mesh.coords_of_device(d)));
    else
      o << ": holds nothing (only in the new mesh)";
    std::vector<std::string> keeps, out, in;
    for (const auto& t : sends) {
      if (t.from == d && t.to == d) keeps.push_back(box_text(global_box(t)));
      else if (t.from == d) out.push_back(fmt::format("{} to {}", box_text(global_box(t)), t.to));
      else if (t.to == d) in.push_back(fmt::format("{} from {}", box_text(global_box(t)), t.from));
    }
    auto list = [&o](const char* what, const std::vector<std::string>& items) {
      if (items.empty()) return;
      o << "; " << what;
      for (std::size_t i = 0; i < items.size(); ++i) o << (i ? "," : "") << " " << items[i];
    };
    list("keeps", keeps);
    list("sends", out);
    list("receives", in);
    if (in_after)
      o << "; now holds " << box_text(shard_box(after.mesh, after.type, after.mesh.coords_of_device(d))) << " ("
        << coords_text(after.mesh, d) << ")\n";
    else
      o << "; now holds nothing (only in the old mesh)\n";
  }
}

}  // namespace

std::vector<std::string> axis_moves(const Mesh& mesh, const DistType& before, const DistType& after) {
  const auto cut = cuts(mesh, before, after);
  const auto b = places(mesh, before, cut), a = places(mesh, after, cut);
  std::vector<std::string> names;
  for (const auto& [n, _] : b) names.push_back(n);
  for (const auto& [n, _] : a)
    if (!b.count(n)) names.push_back(n);
  std::vector<std::string> out;
  for (const auto& n : names) {
    const Place pb = b.count(n) ? b.at(n) : Place{};
    const Place pa = a.count(n) ? a.at(n) : Place{};
    if (pb.dim == pa.dim && pb.pending == pa.pending) {
      if (pb.dim >= 0 && pb.pos != pa.pos)
        out.push_back(fmt::format("{} stays in dim {} but moves from position {} to {} of its axes (a reorder)", n,
                                  pb.dim, pb.pos, pa.pos));
      continue;
    }
    if (pb.dim >= 0 && pa.dim >= 0) {
      out.push_back(fmt::format("{} moves from dim {} to dim {}", n, pb.dim, pa.dim));
    } else if (pb.dim >= 0) {
      out.push_back(fmt::format(
          "{0} leaves dim {1} (now {2}): the devices along {0} end up holding the same part of that dim", n, pb.dim,
          where(pa)));
    } else if (pa.dim >= 0) {
      out.push_back(fmt::format("{0} enters dim {1} (was {2}): the devices along {0} split that dim between them", n,
                                pa.dim, where(pb)));
    } else {
      out.push_back(fmt::format("{} goes from {} to {}", n, where(pb), where(pa)));
    }
  }
  return out;
}

std::string explain_words(const Plan& plan, const std::vector<TypedState>& states, int max_devices) {
  std::ostringstream o;
  const TypedState source{plan.mesh, plan.source};
  o << "mesh " << to_string(plan.mesh) << "\n";
  const auto figures = plan_figures(plan);
  o << "source " << to_string(plan.source);
  if (figures) o << "  (" << to_decimal(figures->source_local_bytes) << " bytes per device)";
  o << "\n";
  o << "target " << to_string(states.empty() ? plan.source : states.back().type);
  if (figures)
    o << "  (" << to_decimal(figures->target_local_bytes) << " bytes per device; the plan peaks at "
      << to_decimal(figures->peak_local_bytes) << ", bound " << to_decimal(figures->bound_bytes) << ")";
  o << "\n";
  o << "blocks are global index ranges [start:end] per dim.\n";
  if (plan.steps.empty()) o << "\nNothing moves: the source already is the target.\n";
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const TypedState& before = k == 0 ? source : states[k - 1];
    const TypedState& after = states[k];
    const Step& step = plan.steps[k];
    const StepFigures f = step_figures(before, after, step);
    o << "\nstep " << k + 1 << ": " << to_string(step) << "\n";
    o << "  " << to_string(before.type) << "  ->  " << to_string(after.type) << "\n";
    if (std::holds_alternative<Transfer>(step.op)) {
      o << "  why: the array moves from the devices of " << to_string(before.mesh) << " to those of "
        << to_string(after.mesh) << ": each target element is sent once, point to point, from a holder chosen to "
        << "spread the load; what a device already holds stays\n"
        << "  memory: " << to_decimal(f.local_bytes_before) << " -> " << to_decimal(f.local_bytes_after)
        << " bytes per device; each device sends up to " << to_decimal(f.send_bytes_max) << " and receives up to "
        << to_decimal(f.recv_bytes_max) << " bytes\n";
      transfer_words(before, after, step, max_devices, o);
      continue;
    }
    const auto moves = axis_moves(before.mesh, before.type, after.type);
    o << "  why: " << (moves.empty() ? std::string("the device order changes") : moves[0]);
    for (std::size_t i = 1; i < moves.size(); ++i) o << "; " << moves[i];
    o << "\n";
    o << "  memory: " << to_decimal(f.local_bytes_before) << " -> " << to_decimal(f.local_bytes_after)
      << " bytes per device (both alive during the step: "
      << to_decimal(f.local_bytes_before + f.local_bytes_after) << "); each device sends up to "
      << to_decimal(f.send_bytes_max) << " and receives up to " << to_decimal(f.recv_bytes_max) << " bytes";
    if (f.group_size > 1 && !std::holds_alternative<CollectivePermute>(step.op))
      o << " in groups of " << f.group_size;
    o << "\n";
    // Who exchanges with whom: the lowered groups, or the permute's pairs.
    const int64_t n = before.mesh.num_devices();
    std::map<int64_t, std::vector<int64_t>> peers;  // by physical id
    if (std::holds_alternative<CollectivePermute>(step.op)) {
      const DevicePairs pairs = step.pairs ? *step.pairs : permute_pairs(before, after);
      for (const auto& [s, t] : pairs) peers[t].push_back(s), peers[s].push_back(t);
    } else {
      for (const auto& g : step_groups(before, step))
        for (auto d : g) peers[d] = g;
    }
    const int64_t shown = std::min<int64_t>(n, max_devices);
    const std::vector<int64_t> ids = before.mesh.device_ids();  // in id order
    for (int64_t k = 0; k < shown; ++k) {
      const int64_t d = ids[static_cast<std::size_t>(k)];
      const Box b = shard_box(before.mesh, before.type, before.mesh.coords_of_device(d));
      const Box a = shard_box(after.mesh, after.type, after.mesh.coords_of_device(d));
      o << "  device " << d << " (" << coords_text(before.mesh, d) << "): holds " << box_text(b);
      const Box keep = meet(a, b);
      if (empty(keep)) {
        o << ", keeps nothing of it";
      } else if (keep == b) {
        o << ", keeps all of it";
      } else {
        o << ", keeps " << box_text(keep) << ", drops the rest";
      }
      std::vector<std::string> sends, recvs;
      for (auto p : peers[d]) {
        if (p == d) continue;
        const Box pb = shard_box(before.mesh, before.type, before.mesh.coords_of_device(p));
        const Box pa = shard_box(after.mesh, after.type, after.mesh.coords_of_device(p));
        const Box out = meet(b, pa), in = meet(pb, a);
        if (!empty(out) && !contains(pb, out)) sends.push_back(fmt::format("{} to {}", box_text(out), p));
        if (!empty(in) && !contains(b, in)) recvs.push_back(fmt::format("{} from {}", box_text(in), p));
      }
      if (std::holds_alternative<CollectivePermute>(step.op)) {  // a permute moves whole buffers
        sends.clear();
        recvs.clear();
        const DevicePairs pairs = step.pairs ? *step.pairs : permute_pairs(before, after);
        for (const auto& [s, t] : pairs) {
          if (s == t) continue;
          if (s == d) sends.push_back(fmt::format("{} to {}", box_text(b), t));
          if (t == d)
            recvs.push_back(fmt::format(
                "{} from {}", box_text(shard_box(before.mesh, before.type, before.mesh.coords_of_device(s))), s));
        }
      }
      if (!sends.empty()) {
        o << "; sends";
        for (std::size_t i = 0; i < sends.size(); ++i) o << (i ? "," : "") << " " << sends[i];
      }
      if (!recvs.empty()) {
        o << "; receives";
        for (std::size_t i = 0; i < recvs.size(); ++i) o << (i ? "," : "") << " " << recvs[i];
      }
      o << "; now holds " << box_text(a) << "\n";
    }
    if (shown < n) o << "  (" << n - shown << " more devices; --max-devices N shows them)\n";
  }
  return o.str();
}

}  // namespace redist::cli
