// search_senders(): the local search over a transfer's senders (transfer_senders.hpp).

#include "transfer_senders.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"

namespace redist::synth_detail {

namespace {

/// Full sweeps over the pieces before the search stops (each sweep that moves nothing
/// ends it sooner), and the most device loads it reads in all (each candidate move
/// reads every device's): about 30 ms, so that a table of 2^14 pieces with replicas
/// stays quick; the result is then the best table found.
constexpr int kSweeps = 32;
constexpr double kMaxWork = double(1 << 25);

/// Per device (dense index), the bytes it sends and receives on the two links of a
/// transfer: across nodes (the transfer link; every send without nodes) and within one.
struct Loads {
  std::vector<double> sent[2], recv[2];
  explicit Loads(std::size_t n) {
    for (int c = 0; c < 2; ++c) sent[c].assign(n, 0), recv[c].assign(n, 0);
  }
  /// Returns the busiest device's bytes on link `c`.
  double busiest(int c) const {
    double most = 0;
    for (std::size_t d = 0; d < sent[c].size(); ++d) most = std::max({most, sent[c][d], recv[c][d]});
    return most;
  }
  /// Returns the sum of the squared loads (smaller: more even).
  double spread() const {
    double sum = 0;
    for (int c = 0; c < 2; ++c)
      for (std::size_t d = 0; d < sent[c].size(); ++d) sum += sent[c][d] * sent[c][d] + recv[c][d] * recv[c][d];
    return sum;
  }
};

/// The search's view of the transfer: its pieces, devices by dense index, the model.
class Search {
 public:
  Search(const TypedState& before, const TypedState& after, const CostModel& model)
      : model_(model), pieces_(transfer_pieces(before, after)), elem_bytes_(elem_bytes(before.type.elem)) {
    for (const auto& p : pieces_) {
      index_of(p.box.to);
      for (int64_t h : p.holders) index_of(h);
    }
  }

  /// Returns the modeled time of loads `l` (as transfer_cost prices a table).
  double time(const Loads& l) const { return transfer_time_us(model_, l.busiest(0), l.busiest(1)); }

  /// Returns the link (0 across, 1 within) of a send from `from` to `to`.
  int link(int64_t from, int64_t to) const { return same_node(model_, from, to) ? 1 : 0; }

  /// Adds (sign +1) or removes (-1) piece `p` sent by `from` to `l`.
  void account(Loads& l, const TransferPiece& p, int64_t from, double sign) const {
    const int c = link(from, p.box.to);
    const double bytes = sign * static_cast<double>(p.elements) * static_cast<double>(elem_bytes_);
    l.sent[c][dense_.at(from)] += bytes;
    l.recv[c][dense_.at(p.box.to)] += bytes;
  }

  /// Returns the searched table, its time and the bound.
  SenderSearch run(const TransferTable& start) {
    std::vector<int64_t> from;
    Loads loads(dense_.size());
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      from.push_back(start[i].from);
      if (start[i].from != start[i].to) account(loads, pieces_[i], from[i], 1);
    }
    std::pair<double, double> current{time(loads), loads.spread()};
    double work = 0;
    for (int sweep = 0; sweep < kSweeps && work < kMaxWork; ++sweep) {
      bool moved = false;
      for (std::size_t i = 0; i < pieces_.size(); ++i) {
        const TransferPiece& p = pieces_[i];
        if (p.box.from >= 0 || p.holders.size() < 2) continue;  // stays, or one holder
        int64_t best = from[i];
        account(loads, p, from[i], -1);
        for (int64_t h : p.holders) {
          if (h == from[i]) continue;
          account(loads, p, h, 1);
          work += static_cast<double>(dense_.size());
          const std::pair<double, double> key{time(loads), loads.spread()};
          if (key < current) current = key, best = h;
          account(loads, p, h, -1);
        }
        account(loads, p, best, 1);
        moved = moved || best != from[i];
        from[i] = best;
      }
      if (!moved) break;
    }
    SenderSearch out;
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      TransferBox box = pieces_[i].box;
      box.from = from[i];
      out.table.push_back(std::move(box));
    }
    out.time_us = current.first;
    out.bound_us = bound();
    return out;
  }

  /// Returns a lower bound on the time of any table: bytes that must cross nodes (a
  /// piece with no holder on its receiver's node; every piece without nodes) load its
  /// receiver, and spread at best evenly over the holders of their block; bytes that
  /// may stay on the node cost a receiver either the intra term or more of the inter.
  double bound() const {
    std::map<int64_t, double> forced, flexible;                  // by receiver
    std::map<std::vector<int64_t>, double> forced_by_holders;  // by holder set
    for (const auto& p : pieces_) {
      if (p.box.from >= 0) continue;
      const double bytes = static_cast<double>(p.elements) * static_cast<double>(elem_bytes_);
      const bool near = std::any_of(p.holders.begin(), p.holders.end(),
                                    [&](int64_t h) { return link(h, p.box.to) == 1; });
      (near ? flexible : forced)[p.box.to] += bytes;
      if (!near) forced_by_holders[p.holders] += bytes;
    }
    double across = 0;
    for (const auto& [receiver, bytes] : forced) across = std::max(across, bytes);
    for (const auto& [holders, bytes] : forced_by_holders)
      across = std::max(across, bytes / static_cast<double>(holders.size()));
    auto inter = [&](double bytes) { return transfer_time_us(model_, bytes, 0); };
    auto intra = [&](double bytes) { return transfer_time_us(model_, 0, bytes); };
    // A receiver with `flexible` bytes takes u of them across and the rest within: its
    // time is convex in u but for the intra latency, which drops at u = flexible, so the
    // least is where the across load reaches the bound (u = across - forced) or at the end.
    double lb = inter(across);
    for (const auto& [receiver, bytes] : flexible) {
      const double forced_here = forced.count(receiver) ? forced.at(receiver) : 0;
      const double slack = std::min(bytes, across - forced_here);
      const double all_across = inter(std::max(across, forced_here + bytes));
      lb = std::max(lb, slack < bytes ? std::min(all_across, inter(across) + intra(bytes - slack)) : all_across);
    }
    return lb;
  }

 private:
  void index_of(int64_t device) { dense_.try_emplace(device, dense_.size()); }

  const CostModel& model_;
  std::vector<TransferPiece> pieces_;
  int64_t elem_bytes_;
  std::map<int64_t, std::size_t> dense_;
};

}  // namespace

SenderSearch search_senders(const TypedState& before, const TypedState& after, const CostModel& model) {
  Search search(before, after, model);
  return search.run(transfer_table(before, after, model.transfer_node_size));
}

double senders_bound_us(const TypedState& before, const TypedState& after, const CostModel& model) {
  return Search(before, after, model).bound();
}

}  // namespace redist::synth_detail
