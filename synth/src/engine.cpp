// The search engine (engine.hpp): A* over canonical states, each held once per
// relabeling of the digits the target leaves free (engine_symmetry.hpp), with the lower
// bound of engine_bound.cpp (admissible; nodes are reopened when a cheaper path turns up), seeded
// with the cheapest valid constructive plan as the upper bound. Goal states are noted
// when generated, so a bounded run returns the best plan it has seen; when the least
// estimate in the queue reaches the best plan's cost, that plan is proved optimal.

#include "engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <iterator>
#include <queue>
#include <vector>

#include "engine_moves.hpp"
#include "engine_symmetry.hpp"
#include "gather_order.hpp"
#include "held_slices.hpp"
#include "permute_first.hpp"
#include "same_blocks.hpp"
#include "in_place.hpp"
#include "fuse_collectives.hpp"
#include "slice_orders.hpp"
#include "slice_targets.hpp"
#include "split_by_class.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/typing.hpp"

namespace redist::engine_detail {

namespace {

struct Node {
  State state;
  double cost = 0;   // least modeled time found from the source
  double bound = 0;  // lower_bound_us() of the state
  int parent = -1;
  Move move;             // from the parent's state, in its labels
  std::size_t hash = 0;  // StateHash of the state
  DigitMap relabel;      // took the move's result to `state` (engine_symmetry.hpp)
};

/// The nodes, by id: a deque, which grows without moving them (a vector's doubling held
/// old and new copies at once, the peak of a large search's memory).
using Nodes = std::deque<Node>;

/// The index of the nodes by state: node ids in open-addressed slots with their states'
/// hashes (linear probing, at most half full), so that each state is held once, in its
/// node, a lookup mostly reads one slot's cache line, and states are compared only where
/// the hashes are equal. (A node-based set of ids read a bucket, a list node and the
/// node's state per probe: a quarter of a large search's time went to those misses.)
class NodeIndex {
 public:
  explicit NodeIndex(const Nodes& nodes) : nodes_(&nodes), slots_(std::size_t{1} << kInitialBits) {}

  // Returns the id of the node holding `state`, whose StateHash is `hash`; -1 when none.
  int find(const State& state, std::size_t hash) const {
    for (std::size_t i = home(hash);; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (slot.id < 0) return -1;
      if (slot.hash == hash && (*nodes_)[static_cast<std::size_t>(slot.id)].state == state) return slot.id;
    }
  }

  // Adds node `id`, whose state (of StateHash `hash`) is not in the index.
  void insert(int id, std::size_t hash) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place(Slot{hash, id});
    ++size_;
  }

 private:
  struct Slot {
    std::size_t hash = 0;
    int id = -1;
  };
  static constexpr int kInitialBits = 6;

  std::size_t mask() const { return slots_.size() - 1; }
  // Returns the first slot to probe for `hash`: its top bits after a Fibonacci multiply
  // (StateHash's low bits alone cluster).
  std::size_t home(std::size_t hash) const {
    return static_cast<std::size_t>((hash * 0x9E3779B97F4A7C15ull) >> (64 - bits_));
  }
  void place(const Slot& slot) {
    std::size_t i = home(slot.hash);
    while (slots_[i].id >= 0) i = (i + 1) & mask();
    slots_[i] = slot;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    ++bits_;
    slots_.assign(std::size_t{1} << bits_, Slot{});
    for (const Slot& slot : old)
      if (slot.id >= 0) place(slot);
  }

  const Nodes* nodes_;
  int bits_ = kInitialBits;
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

struct Entry {
  double priority;  // cost + lower bound (weighted by EngineLimits::bound_weight)
  int64_t order;    // insertion order
  int node;
  double cost;
  /// Least priority first; on ties the costlier (nearer the target) first, then the
  /// later inserted (deterministic), which walks plateaus of free slices depth first.
  bool operator>(const Entry& o) const {
    if (priority != o.priority) return priority > o.priority;
    if (cost != o.cost) return cost < o.cost;
    return order < o.order;
  }
};

/// The step of `move` into `to` (a permute's target state).
Step step_of(const Frame& frame, const Move& move, const State& to) {
  switch (move.kind) {
    case Move::Kind::slice: return Step(AllSlice{move.dim, refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::gather: {
      AllGather gather{move.dim, refs_of(move.axes, frame.src_mesh)};
      for (const auto& next : move.fused) gather.parts.push_back({next.dim, refs_of(next.axes, frame.src_mesh)});
      return Step(std::move(gather));
    }
    case Move::Kind::all_to_all: {
      AllToAll a2a{move.dim, move.dst, refs_of(move.axes, frame.src_mesh)};
      for (const auto& next : move.fused) a2a.moves.push_back({next.dim, next.dst, refs_of(next.axes, frame.src_mesh)});
      return Step(std::move(a2a));
    }
    case Move::Kind::reduce_scatter: return Step(ReduceScatter{move.dim, refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::all_reduce: return Step(AllReduce{refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::add_pending: return Step(AddPending{refs_of(move.axes, frame.src_mesh), frame.like.reduce_op});
    case Move::Kind::permute: break;
  }
  if (move.stays) return synth_detail::staying_permute(type_of(frame, to), frame.dst_mesh);
  CollectivePermute p{type_of(frame, to), std::nullopt};
  if (frame.mesh_change) p.to_mesh = frame.dst_mesh;
  return Step(std::move(p));
}

/// `move` with its factors' swappable digits moved by `map`.
Move relabeled(const Frame& frame, Move move, const DigitMap& map) {
  move.axes = relabeled(frame, move.axes, map);
  for (auto& next : move.fused) next.axes = relabeled(frame, next.axes, map);
  return move;
}

/// The steps from the source to node `goal`, consecutive slices of one dim fused, in the
/// source's labels: each node's move is in its parent's labels and its state relabeled
/// (engine_symmetry.hpp), so the maps are undone along the path.
std::vector<Step> steps_to(const Frame& frame, const Nodes& nodes, int goal) {
  std::vector<int> path;
  for (int n = goal; nodes[static_cast<std::size_t>(n)].parent >= 0; n = nodes[static_cast<std::size_t>(n)].parent)
    path.push_back(n);
  std::reverse(path.begin(), path.end());
  std::vector<std::pair<Move, State>> moves;  // in the source's labels
  DigitMap to_source;  // the labels of the node reached so far -> the source's
  for (int n : path) {
    const Node& node = nodes[static_cast<std::size_t>(n)];
    Move move = relabeled(frame, node.move, to_source);
    to_source = composed(frame, inverse(frame, node.relabel), to_source);
    moves.emplace_back(std::move(move), relabeled(frame, node.state, to_source));
  }
  std::vector<Step> steps;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    Move move = moves[i].first;
    while (move.kind == Move::Kind::slice && i + 1 < moves.size()) {
      const Move& next = moves[i + 1].first;
      if (next.kind != Move::Kind::slice || next.dim != move.dim) break;
      move.axes.insert(move.axes.end(), next.axes.begin(), next.axes.end());
      ++i;
    }
    steps.push_back(step_of(frame, move, moves[i].second));
  }
  return steps;
}


/// The state of `type` on `mesh` with the path flags.
State flagged(const DistType& type, const Mesh& mesh, bool permuted, bool received) {
  State s = state_of(canonical(type, mesh), mesh, permuted);
  s.received = received;
  return s;
}

/// `s` in canonical form: each dim's consecutive factors of one axis merged, the
/// pending reductions sorted and merged.
void canonicalize(State& s) {
  for (auto& d : s.dims) merge(d);
  sort_and_merge(s.reduce);
}

/// A seed that passed the checks (or a rewritten form of it), its typed states and
/// modeled time.
struct Seed {
  const Plan* given = nullptr;
  std::optional<Plan> rewritten;  // the seed with its slices reordered, all_to_alls or all_gathers fused, or gathers split by link class
  std::optional<Plan> kept;       // the plan with its permutes' pairs keeping the most data in place, where that differs
  std::vector<TypedState> states;
  double time_us = 0;
  std::optional<BigInt> received;  // bytes received over all devices by in_place()
  bool kept_known = false;         // `kept` is computed
  /// The plan this seed stands for.
  const Plan& plan() const { return rewritten ? *rewritten : *given; }
  /// The plan with repaired pairs (in_place.hpp), made once.
  const Plan& in_place() {
    if (!kept_known) kept = synth_detail::kept_in_place(plan(), states);
    kept_known = true;
    return kept ? *kept : plan();
  }
  /// Returns the bytes in_place() receives over all devices (plan_figures()'s
  /// recv_bytes_total, on the states in hand: the repair keeps them), computed once.
  const BigInt& received_total() {
    if (!received) {
      const Plan& kept_plan = in_place();
      BigInt total = 0;
      const TypedState source{kept_plan.mesh, kept_plan.source};
      for (std::size_t k = 0; k < kept_plan.steps.size(); ++k)
        total += step_figures(k == 0 ? source : states[k - 1], states[k], kept_plan.steps[k]).recv_bytes_total;
      received = std::move(total);
    }
    return *received;
  }
};

/// type_plan(plan)'s states, or nullopt where it fails; the states of the steps `plan`
/// shares from its first on with `base` (the same mesh, source and target; typed as
/// `base_states`) taken from there, the others typed.
std::optional<std::vector<TypedState>> typed_after(const Plan& plan, const Plan& base,
                                                   const std::vector<TypedState>& base_states) {
  std::size_t shared = 0;
  if (plan.mesh == base.mesh && plan.source == base.source && plan.target == base.target)
    while (shared < plan.steps.size() && shared < base.steps.size() && plan.steps[shared] == base.steps[shared])
      ++shared;
  // With no shared step, type_plan's check of the source too.
  auto states = shared == 0 ? type_plan(plan)
                            : type_plan(plan, {base_states.begin(), base_states.begin() + static_cast<std::ptrdiff_t>(shared)});
  if (!states) return std::nullopt;
  return std::move(*states);
}

/// The modeled times of the permutes best_seed() has priced: a seed's rewrites mostly
/// keep its permute, whose charged axes come from its lowering (the dearest step to price).
struct PermuteTimes {
  struct Priced {
    TypedState before, after;
    Step step;
    double time_us;
  };
  std::vector<Priced> priced;
  /// Returns step_cost(model, before, after, step).time_us, computed once per permute.
  double time_us(const CostModel& model, const TypedState& before, const TypedState& after, const Step& step) {
    if (!std::holds_alternative<CollectivePermute>(step.op)) return step_cost(model, before, after, step).time_us;
    for (const auto& p : priced)
      if (p.step == step && p.before == before && p.after == after) return p.time_us;
    priced.push_back({before, after, step, step_cost(model, before, after, step).time_us});
    return priced.back().time_us;
  }
};

/// The modeled time of `plan` through its typed `states`.
double time_of(const CostModel& model, const Plan& plan, const std::vector<TypedState>& states,
               PermuteTimes& permutes) {
  double time = 0;
  const TypedState source{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size(); ++k)
    time += permutes.time_us(model, k == 0 ? source : states[k - 1], states[k], plan.steps[k]);
  return time;
}

/// True when some fused all_to_all of `plan` is directly followed by a permute.
bool fused_before_permute(const Plan& plan) {
  for (std::size_t k = 0; k + 1 < plan.steps.size(); ++k) {
    const auto* a2a = std::get_if<AllToAll>(&plan.steps[k].op);
    if (a2a && a2a->moves.size() > 1 && std::holds_alternative<CollectivePermute>(plan.steps[k + 1].op)) return true;
  }
  return false;
}

/// Appends `hint` to `hints` unless it is there.
void add_hint(PermuteHints& hints, std::pair<State, State> hint) {
  if (std::find(hints.begin(), hints.end(), hint) == hints.end()) hints.push_back(std::move(hint));
}

/// Appends the permutes of `plan` (typed as `states`) to `hints` as (state before, state
/// after) pairs, each once: the search offers them as permute edges.
void append_hints(const Plan& plan, const std::vector<TypedState>& states, PermuteHints& hints) {
  if (std::none_of(plan.steps.begin(), plan.steps.end(),
                   [](const Step& step) { return std::holds_alternative<CollectivePermute>(step.op); }))
    return;
  TypedState before{plan.mesh, plan.source};
  bool permuted = false, received = false;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const TypedState& after = states[k];
    const bool permute = std::holds_alternative<CollectivePermute>(plan.steps[k].op);
    if (permute)
      add_hint(hints,
               {flagged(before.type, before.mesh, permuted, received), flagged(after.type, after.mesh, true, true)});
    permuted = permuted || permute;
    received = received || !(std::holds_alternative<AllSlice>(plan.steps[k].op) || moves_nothing(plan.steps[k]));
    before = after;
  }
}

/// The cheapest valid seed (type-checks, ends at the target, within the bound, slices
/// first when `strict`) or rewritten form of one (its slices in another order, its
/// consecutive all_to_alls or all_gathers fused, its gathers split by link class or a
/// slow one moved earlier, a permute moved before an all_to_all), priced step by step
/// on its typed states; between plans of equal time, the one receiving fewer bytes over all devices once its permutes keep
/// the most data in place; then the best plan with held slices, and the permute first
/// in the best plan and in the cheapest one with a fused exchange before a permute. The
/// result's plan is so repaired and re-priced (never dearer: in_place.hpp). With
/// `hints`, the permutes of every valid candidate are appended to it, each once.
std::optional<Seed> best_seed(const CostModel& model, const std::vector<Plan>& seeds, const BigInt& bound,
                              const DistType& dst, const Mesh& dst_mesh, bool strict, PermuteHints* hints) {
  std::optional<Seed> best;
  // The cheapest candidate with a fused all_to_all right before a permute, whose permute
  // may run first (below).
  std::optional<Seed> fused;
  const DistType want = canonical(dst, dst_mesh);
  PermuteTimes permutes;
  // `given`'s states (nullopt where it does not type-check), typed once for its rewrites.
  std::optional<std::vector<TypedState>> given_states;
  // `last`: no rewrite of `given` follows, so its states move into its candidate.
  // `base` (typed as `base_states`): the plan `rewritten` was made from, when not `given`.
  // `ties`: a plan as cheap as the best replaces it when it receives fewer bytes (the
  // in-place repair that counts them is the dearest part of a ranking).
  auto consider = [&](const Plan* given, std::optional<Plan> rewritten, bool last_use = false,
                      const Plan* base = nullptr, const std::vector<TypedState>* base_states = nullptr,
                      bool ties = true) {
    const Plan& plan = rewritten ? *rewritten : *given;
    if (strict && rewritten && !slices_first(plan)) return;  // a rewrite may put a receive first
    auto states = !rewritten     ? (last_use ? std::move(given_states) : given_states)
                  : base         ? typed_after(plan, *base, *base_states)
                  : given_states ? typed_after(plan, *given, *given_states)
                                 : std::nullopt;
    if (!states) return;
    // A rewrite may change the type before a permute that moves nothing.
    if (rewritten && !synth_detail::staying_permutes_hold(plan, *states)) return;
    const TypedState& last = states->empty() ? TypedState{plan.mesh, plan.source} : states->back();
    // (Typed states are canonical: most equal `want` as they are.)
    if (!(last.mesh == dst_mesh) || (!(last.type == want) && canonical(last.type, dst_mesh) != want)) return;
    if (std::any_of(states->begin(), states->end(), [&](const TypedState& t) { return local_bytes(t.type) > bound; }))
      return;
    if (hints) append_hints(plan, *states, *hints);
    Seed candidate{given, std::move(rewritten), std::nullopt, std::move(*states), 0, std::nullopt};
    candidate.time_us = time_of(model, candidate.plan(), candidate.states, permutes);
    if (auto split = synth_detail::split_by_link_class(model, candidate.plan(), candidate.states))
      if (auto split_states = typed_after(*split, candidate.plan(), candidate.states)) {
        candidate.time_us = time_of(model, *split, *split_states, permutes);
        candidate.rewritten = std::move(split);
        candidate.states = std::move(*split_states);
      }
    if (auto slow = synth_detail::slow_gathers_first(model, candidate.plan()))
      if (auto slow_states = typed_after(*slow, candidate.plan(), candidate.states)) {
        const double time = time_of(model, *slow, *slow_states, permutes);
        if (cheaper(time, candidate.time_us)) {
          candidate.time_us = time;
          candidate.rewritten = std::move(slow);
          candidate.states = std::move(*slow_states);
        }
      }
    if (!(model.intra == model.inter) && fused_before_permute(candidate.plan()) &&
        (!fused || cheaper(candidate.time_us, fused->time_us)))
      fused = Seed{candidate.given, candidate.plan(), std::nullopt, candidate.states, candidate.time_us, std::nullopt};
    if (best && !cheaper(candidate.time_us, best->time_us)) {
      if (!ties || cheaper(best->time_us, candidate.time_us)) return;
      if (candidate.plan() == best->plan()) return;  // (another seed's) same plan: the same bytes
      if (candidate.received_total() >= best->received_total()) return;
    }
    best = std::move(candidate);
  };
  for (const auto& seed : seeds) {
    if (strict && !slices_first(seed)) continue;
    given_states.reset();
    if (auto states = type_plan(seed)) given_states = std::move(*states);
    // The rewrites (made from the seed alone) before the seed is ranked, so that its
    // states move into its candidate where no rewrite is typed from them.
    std::vector<Plan> rewrites;
    auto add = [&](std::optional<Plan> plan) {
      if (plan) rewrites.push_back(std::move(*plan));
    };
    auto add_all = [&](std::vector<Plan> plans) { std::move(plans.begin(), plans.end(), std::back_inserter(rewrites)); };
    if (given_states) {  // without states the seed does not type-check, and neither fusion applies
      add(synth_detail::fused_all_to_alls(seed, &*given_states));
      add(synth_detail::fused_all_gathers(model, seed, &*given_states));
    }
    add_all(synth_detail::reordered_slices(seed));
    add_all(synth_detail::slices_at_their_target(seed));
    add_all(synth_detail::slow_gathers_early(model, seed));
    if (!(model.intra == model.inter))  // one link class: the permute costs the same on either side
      add_all(synth_detail::permutes_first(seed));
    consider(&seed, std::nullopt, rewrites.empty());
    for (auto& rewritten : rewrites) consider(&seed, std::move(rewritten));
  }
  // Forms made from one plan each (made from every candidate they took half again the
  // p90 of a default call): the best plan's slices keeping every held block, kept where
  // no dearer and receiving less; the permute before the fused exchange it follows (its
  // moves in either order) in the best plan and in the cheapest plan that has one, kept
  // where cheaper.
  if (best)
    if (auto held = synth_detail::held_slices(best->plan())) {
      const Plan base = best->plan();
      const std::vector<TypedState> base_states = best->states;
      consider(best->given, std::move(held), false, &base, &base_states);
    }
  if (best && !(model.intra == model.inter)) {
    std::vector<Seed> bases;
    if (fused_before_permute(best->plan())) bases.push_back(*best);
    if (fused && !(fused->plan() == best->plan())) bases.push_back(std::move(*fused));
    for (const auto& base : bases)
      for (auto& rewritten : synth_detail::permutes_first(base.plan()))
        consider(base.given, std::move(rewritten), false, &base.plan(), &base.states, false);
  }
  if (best && &best->in_place() != &best->plan())  // repaired pairs: re-priced (never dearer)
    best->time_us = time_of(model, best->in_place(), best->states, permutes);
  return best;
}

/// Sets `result`'s plan to `plan` (of modeled time `time_us`) with its gathers ordered
/// and merged where that is no dearer (gather_order.hpp), then gathers of two dims fused
/// where that is cheaper (fuse_collectives.hpp: the order may have made two fast
/// gathers adjacent), and its time to that plan's. `states`: `plan`'s typed states, where
/// the caller has them.
void finish(const CostModel& model, const Plan& plan, double time_us, EngineResult& result,
            const std::vector<TypedState>* states = nullptr) {
  result.plan = synth_detail::merged_gathers(model, synth_detail::ordered_gathers(model, plan, states));
  const bool same = *result.plan == plan;  // then `states` are its states too
  if (auto fused = synth_detail::fused_all_gathers(model, *result.plan, same ? states : nullptr))
    result.plan = std::move(fused);
  result.time_us = time_us;
  if (!(*result.plan == plan))
    if (auto cost = plan_cost(model, *result.plan)) result.time_us = cost->time_us;
}

}  // namespace

bool slices_first(const Plan& plan) {
  bool received = false;
  for (const auto& step : plan.steps) {
    if (moves_nothing(step)) continue;
    const bool slice = std::holds_alternative<AllSlice>(step.op);
    if (slice && received) return false;
    received = received || !slice;
  }
  return true;
}

Result<EngineResult> run_engine(const CostModel& model, const Mesh& src_mesh, const DistType& src,
                                const Mesh& dst_mesh, const DistType& dst, const BigInt& bound,
                                const std::vector<Plan>& seeds, const EngineLimits& limits) {
  EngineResult result;
  double best = INFINITY;  // the upper bound: the best plan's modeled time
  PermuteHints hints;  // every valid candidate's permutes, where the limits ask for them
  const auto seed = best_seed(model, seeds, bound, dst, dst_mesh, !limits.slice_after_receive,
                              limits.max_expanded > 0 && limits.every_candidates_permutes ? &hints : nullptr);
  if (seed) {
    finish(model, seed->kept ? *seed->kept : seed->plan(), seed->time_us, result,
           &seed->states);  // the repair keeps the states
    best = result.time_us;
    if (limits.max_expanded <= 0) {
      result.stopped = "no expansions allowed";
      return result;
    }
  } else if (limits.require_seed) {
    result.stopped = "no valid seed";
    return result;
  }
  const int64_t budget = bound >= (BigInt(1) << 62) ? INT64_MAX : bound.convert_to<int64_t>();
  Frame frame = make_frame(model, src_mesh, src, dst_mesh, dst, budget);
  frame.slice_after_receive = limits.slice_after_receive;
  frame.fused_steps = limits.fused_steps;
  frame.max_permute_targets = limits.max_permute_targets;
  // The best seed's permutes first (the other candidates' follow them among a state's edges).
  if (seed) append_hints(seed->plan(), seed->states, frame.permute_hints);
  for (auto& hint : hints) add_hint(frame.permute_hints, std::move(hint));
  if (limits.swap_digits) {
    set_swappable_digits(frame);
    // Each hint also from its state relabeled as the search holds it (the source is not).
    for (std::size_t i = 0, n = frame.permute_hints.size(); i < n; ++i) {
      auto hint = frame.permute_hints[i];
      const DigitMap map = canonicalize_digits(frame, hint.first);
      if (map.empty()) continue;
      hint.second = relabeled(frame, hint.second, map);
      add_hint(frame.permute_hints, std::move(hint));
    }
  }

  Nodes nodes;
  NodeIndex index(nodes);
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  int64_t order = 0;
  const double slack = 1.0 + limits.gap;  // how far from the least cost a plan may stop
  int goal = -1;  // the best goal state generated by the search, if it beats the seed
  auto is_goal = [&](const State& s) {
    return s.dims == frame.target.dims && s.reduce == frame.target.reduce && (s.permuted || !frame.mesh_change);
  };
  State written = state_of(src, src_mesh, false);
  nodes.push_back(Node{flagged(src, src_mesh, false, false), 0, 0, -1, {}, 0, {}});
  nodes[0].bound = lower_bound_us(frame, nodes[0].state);
  nodes[0].hash = StateHash{}(nodes[0].state);
  index.insert(0, nodes[0].hash);
  if (is_goal(nodes[0].state)) {
    best = 0;
    goal = 0;
  } else if (cheaper(nodes[0].bound * slack, best)) {
    open.push(Entry{nodes[0].bound, order++, 0, 0});
  }
  // Each state is held once, in its node; its index entry, queue entries and a fused
  // move's parts add about 250 bytes; dims past the inline four spill to the heap.
  const int64_t state_bytes =
      static_cast<int64_t>(sizeof(Node) + (src.rank() > 4 ? src.rank() * sizeof(Factors) : 0)) + 256;
  const int64_t max_states = std::min(limits.max_states, limits.max_memory_bytes / state_bytes);
  std::vector<Edge> edges;
  auto clock = std::chrono::steady_clock::now();
  auto last_report = clock;
  while (!open.empty()) {
    const Entry top = open.top();
    open.pop();
    // Nothing queued can beat the best plan by more than the gap (under a weighted
    // order, this entry alone).
    if (!cheaper((top.cost + nodes[static_cast<std::size_t>(top.node)].bound) * slack, best)) {
      if (limits.bound_weight == 1.0) break;
      continue;
    }
    const auto at = static_cast<std::size_t>(top.node);
    if (top.cost > nodes[at].cost) continue;  // a cheaper path reached it since
    if (limits.bound_weight == 1.0) result.least_us = top.priority;  // the least estimate left
    if (result.expanded >= limits.max_expanded) {
      result.stopped = fmt::format("the search stopped after expanding {} states", limits.max_expanded);
      break;
    }
    if (static_cast<int64_t>(nodes.size()) >= max_states) {
      result.stopped =
          fmt::format("the search stopped at its cap of {} states ({} MiB)", max_states, limits.max_memory_bytes >> 20);
      break;
    }
    if (limits.deadline || limits.progress) {
      clock = std::chrono::steady_clock::now();
      if (limits.deadline && clock >= *limits.deadline) {
        result.stopped = "the search reached its time limit";
        break;
      }
      if (limits.progress && clock - last_report >= std::chrono::seconds(1)) {
        limits.progress(result.expanded, static_cast<int64_t>(nodes.size()), std::isinf(best) ? -1.0 : best);
        last_report = clock;
      }
    }
    ++result.expanded;
    edges.clear();
    const State s = nodes[at].state;
    const double base = nodes[at].cost;
    const EdgeLimit limit{base, best};
    if (at == 0 && !(written == s)) {
      // The source as written: its steps must name suffixes of the written factors
      // (x:(2)3 is no suffix of {x:(1)3,x:(3)2}); every type after a step is canonical.
      append_collectives(frame, written, limit, edges);
      for (auto& e : edges) canonicalize(e.to);
      // A permute to the source's own tiling moves nothing and re-spells it canonically,
      // where the written factors hide a step of the canonical ones, and only there:
      // elsewhere its state repeats the search's every state with the permute spent
      // (`random141` of seed 60606, `{y:(1)2,y:(2)4,w}`, gave up at its memory cap
      // after 46,867 expansions; spelt {y,w} it is proved after 31,496).
      if (!s.permuted && !frame.mesh_change) {
        std::vector<Edge> canonical_edges;
        append_collectives(frame, s, limit, canonical_edges);
        const bool hidden = std::any_of(canonical_edges.begin(), canonical_edges.end(), [&](const Edge& c) {
          return std::none_of(edges.begin(), edges.end(), [&](const Edge& e) { return e.to == c.to; });
        });
        if (hidden) {
          Edge respell;
          respell.move.kind = Move::Kind::permute;
          respell.to = s;
          respell.to.permuted = true;
          edges.push_back(std::move(respell));
        }
      }
    } else {
      append_collectives(frame, s, limit, edges);
    }
    append_permutes(frame, s, edges);
    for (auto& e : edges) {
      const double cost = base + e.time_us;
      const bool goal_state = is_goal(e.to);  // the target uses no swappable digit: either labeling
      // Nothing reached at this cost beats the best plan (by more than the gap): neither
      // looked up nor bounded.
      if (!cheaper(goal_state ? cost : cost * slack, best)) continue;
      DigitMap relabel = canonicalize_digits(frame, e.to);
      const std::size_t hash = StateHash{}(e.to);
      const int found = index.find(e.to, hash);
      const bool fresh = found < 0;
      const int id = fresh ? static_cast<int>(nodes.size()) : found;
      if (fresh) {
        // A state that cannot beat the best plan (by more than the gap) is not kept: the
        // best plan only gets cheaper, and a cheaper path to it later finds it fresh (most
        // states a search generates are such; keeping them filled its memory cap). The
        // bound stops once it shows that (`enough`: about where it does); a partial bound
        // that does not prune is completed.
        const double enough =
            goal_state || std::isinf(best) ? INFINITY : (best - 1e-9 * std::max(1.0, best)) / slack - cost;
        double bound_us = lower_bound_us(frame, e.to, enough);
        const auto pruned = [&] {
          return goal_state ? !cheaper(cost, best) : !cheaper((cost + bound_us) * slack, best);
        };
        if (bound_us >= enough && !pruned()) bound_us = lower_bound_us(frame, e.to);
        if (pruned()) continue;
        nodes.push_back(Node{std::move(e.to), cost, bound_us, top.node, std::move(e.move), hash, std::move(relabel)});
        index.insert(id, hash);
      } else {
        Node& old = nodes[static_cast<std::size_t>(id)];
        if (!cheaper(cost, old.cost)) continue;
        old.cost = cost;
        old.parent = top.node;
        old.move = std::move(e.move);
        old.relabel = std::move(relabel);
      }
      const Node& node = nodes[static_cast<std::size_t>(id)];
      if (goal_state) {
        if (cheaper(cost, best)) {
          best = cost;
          goal = id;
        }
        continue;
      }
      if (cheaper((cost + node.bound) * slack, best))
        open.push(Entry{cost + limits.bound_weight * node.bound, order++, id, cost});
    }
  }
  result.generated = static_cast<int64_t>(nodes.size());
  result.proved = result.stopped.empty();
  if (result.proved) result.least_us = 0;
  if (goal >= 0) {
    Plan plan{src_mesh, src, steps_to(frame, nodes, goal), dst};
    auto cost = plan_cost(model, plan);
    if (!cost)
      return Error{Error::Kind::runtime, "internal: the searched plan does not type-check: " + cost.error().to_string(),
                   Error::npos};
    // The search prices states its own way; the plan's price must agree, or be lower:
    // under a weighted order a cheaper path may reach an ancestor of the goal after the
    // goal was priced, and the plan follows the cheaper path.
    if (cost->time_us - best > 1e-9 * std::max(1.0, best) ||
        (limits.bound_weight == 1.0 && best - cost->time_us > 1e-9 * std::max(1.0, best)))
      return Error{Error::Kind::runtime,
                   fmt::format("internal: the search priced the plan at {:f} us, the model at {:f} us", best,
                               cost->time_us),
                   Error::npos};
    // The permutes' pairs repaired to keep the most data in place: never dearer.
    auto states = type_plan(plan);
    if (!states)
      return Error{Error::Kind::runtime, "internal: the searched plan does not type-check: " + states.error().to_string(),
                   Error::npos};
    if (auto kept = synth_detail::kept_in_place(plan, *states)) {
      auto kept_cost = plan_cost(model, *kept);
      if (!kept_cost)
        return Error{Error::Kind::runtime, "internal: the repaired plan does not type-check: " +
                                               kept_cost.error().to_string(), Error::npos};
      if (!cheaper(cost->time_us, kept_cost->time_us)) {
        plan = std::move(*kept);
        cost = std::move(kept_cost);
      }
    }
    finish(model, std::move(plan), cost->time_us, result);
  }
  return result;
}

}  // namespace redist::engine_detail
