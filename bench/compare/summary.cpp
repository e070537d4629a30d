// Summary text and CSV of a comparison run (summary.hpp).

#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iomanip>
#include <map>

namespace redist::compare {

namespace {

/// Relative tolerance for "equal" modeled times.
constexpr double kTolerance = 1e-9;

bool less(double a, double b) { return a < b - kTolerance * std::max(1.0, b); }

double to_double(const BigInt& v) { return v.convert_to<double>(); }

std::string fixed(double v, int digits = 2) {
  return fmt::format("{:.{}f}", v, digits);
}

std::string percent(int64_t part, int64_t whole) {
  return whole ? fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) + "%" : "-";
}

struct Ratios {
  std::vector<double> values;
  double max = 0, min = 0;
  std::string max_case;

  void add(double v, const std::string& name) {
    if (values.empty() || v > max) {
      max = v;
      max_case = name;
    }
    if (values.empty() || v < min) min = v;
    values.push_back(v);
  }
  double geomean() const {
    double sum = 0;
    for (double v : values) sum += std::log(v);
    return values.empty() ? 0 : std::exp(sum / static_cast<double>(values.size()));
  }
  std::string line() const {
    if (values.empty()) return "no cases";
    return fmt::format("geomean {:.2f}x  max {:.2f}x ({})  min {:.2f}x  over {} cases", geomean(), max, max_case, min,
                       values.size());
  }
};

/// Why `b` costs less than `g` under the model, in words.
std::string reason(const Measured& b, const Measured& g) {
  std::vector<std::string> parts;
  if (b.collectives < g.collectives)
    parts.push_back(fmt::format("{} collectives against {} (less latency)", b.collectives, g.collectives));
  if (b.wire_bytes < g.wire_bytes)
    parts.push_back(
        fmt::format("fewer bytes on the wire ({} against {})", to_decimal(b.wire_bytes), to_decimal(g.wire_bytes)));
  if (b.inter_bytes < g.inter_bytes)
    parts.push_back(fmt::format("less inter-node traffic ({} against {} bytes)", to_decimal(b.inter_bytes),
                                to_decimal(g.inter_bytes)));
  if (parts.empty()) parts.push_back("a cheaper mix of links");
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::string name_of(const CaseResult& r) { return r.source->suite + "/" + r.source->name; }

void write_ratio_block(std::ostream& out, const std::vector<CaseResult>& results) {
  out << "\nModeled time, planner / redist greedy (cases where both have plans and redist's time > 0):\n";
  std::map<std::string, Ratios> time, peak;
  int zero_time = 0;
  for (const auto& r : results) {
    const Measured* g = r.find("greedy");
    if (!g || !g->ok()) continue;
    zero_time += g->time_us == 0;
    for (const auto& m : r.plans) {
      if (m.planner == "greedy" || !m.ok()) continue;
      if (g->time_us > 0) time[m.planner].add(m.time_us / g->time_us, name_of(r));
      peak[m.planner].add(to_double(m.peak_bytes) / to_double(g->peak_bytes), name_of(r));
    }
  }
  for (const auto& p : kPlanners)
    if (time.count(p)) out << "  " << std::left << std::setw(18) << p << time[p].line() << "\n";
  out << "  (" << zero_time << " cases where redist needs no communication are left out)\n";
  out << "\nPeak local memory, planner / redist greedy:\n";
  for (const auto& p : kPlanners)
    if (peak.count(p)) out << "  " << std::left << std::setw(18) << p << peak[p].line() << "\n";
}

void write_tightness(std::ostream& out, const std::vector<CaseResult>& results) {
  out << "\nLB-tight (every device receives exactly LB(d): received total == LB total):\n";
  for (const std::string p : {"greedy", "optimal", "shardy", "xla_style", "gather_then_slice"}) {
    int64_t tight = 0, known = 0;
    for (const auto& r : results) {
      const Measured* m = r.find(p);
      if (!m || !m->ok() || !r.lower_bound) continue;
      ++known;
      tight += m->recv_total == r.lower_bound->total;
    }
    out << "  " << std::left << std::setw(18) << p << tight << " of " << known << " (" << percent(tight, known) << ")\n";
  }
}

void write_greedy_vs_optimal(std::ostream& out, const std::vector<CaseResult>& results, const std::string& suite) {
  int64_t equal = 0, compared = 0, capped = 0;
  Ratios ratio;
  std::vector<std::pair<double, const CaseResult*>> losses;
  for (const auto& r : results) {
    if (!suite.empty() && r.source->suite != suite) continue;
    const Measured *g = r.find("greedy"), *o = r.find("optimal");
    if (!g || !o || !g->ok()) continue;
    if (!o->ok()) {
      capped += o->status.find("stopped after") != std::string::npos;
      continue;
    }
    ++compared;
    if (!less(o->time_us, g->time_us)) {
      ++equal;
      ratio.add(1, name_of(r));
      continue;
    }
    const double q = o->time_us > 0 ? g->time_us / o->time_us : 0;
    ratio.add(q, name_of(r));
    losses.emplace_back(q, &r);
  }
  out << "\nGreedy against optimal" << (suite.empty() ? "" : " (" + suite + " suite)") << ": equal cost in " << equal
      << " of " << compared << " (" << percent(equal, compared) << "); worst ratio greedy/optimal "
      << (compared ? fixed(ratio.max, 3) + " (" + ratio.max_case + ")" : "-") << "; geomean "
      << (compared ? fixed(ratio.geomean(), 4) : "-") << "; search capped in " << capped << " cases\n";
  std::sort(losses.begin(), losses.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const std::size_t shown = std::min<std::size_t>(losses.size(), 25);
  for (std::size_t i = 0; i < shown; ++i) {
    const CaseResult& r = *losses[i].second;
    const corpus::Case& c = *r.source;
    out << "  " << name_of(r) << "  x" << fixed(losses[i].first, 3) << "  " << to_string(c.mesh) << "  "
        << to_string(c.src) << " -> " << to_string(c.dst) << "\n      greedy  [" << r.find("greedy")->shape << "] "
        << fixed(r.find("greedy")->time_us, 3) << " us\n      optimal [" << r.find("optimal")->shape << "] "
        << fixed(r.find("optimal")->time_us, 3) << " us: " << reason(*r.find("optimal"), *r.find("greedy")) << "\n";
  }
  if (losses.size() > shown) out << "  ... and " << losses.size() - shown << " more in the CSV\n";
}

/// The `q` quantile (0..1) of `v` (nearest rank), 0 when empty.
double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) ;
  return v[std::min(v.size() - 1, i == 0 ? 0 : i - 1)];
}

/// The targets on the random suite: greedy/optimal modeled time p90 and max,
/// search and synthesis times, search caps below 5 axes.
void write_targets(std::ostream& out, const std::vector<CaseResult>& results) {
  std::vector<double> ratio, optimal_small, greedy_all;
  int capped_small = 0, compared = 0, small = 0;
  for (const auto& r : results) {
    if (r.source->suite != "random") continue;
    const Measured *g = r.find("greedy"), *o = r.find("optimal");
    const bool in_small = r.source->mesh.rank() <= 4 && r.source->src.rank() <= 4;
    greedy_all.push_back(r.greedy_us);
    if (in_small) {
      ++small;
      optimal_small.push_back(r.optimal_us);
    }
    if (!g || !o || !g->ok()) continue;
    if (!o->ok()) {
      capped_small += r.source->mesh.rank() < 5;
      continue;
    }
    ++compared;
    ratio.push_back(o->time_us > 0 ? g->time_us / o->time_us : 1.0);
  }
  out << "\nTargets (random suite): greedy/optimal modeled time p90 " << fixed(quantile(ratio, 0.9), 3) << ", max "
      << fixed(quantile(ratio, 1.0), 3) << " over " << compared << " cases; optimal search gave up in " << capped_small
      << " cases below 5 axes\n";
  out << "  optimal search wall time at <= 4 axes and rank <= 4 (" << small << " cases): median "
      << fixed(quantile(optimal_small, 0.5) / 1000, 3) << " ms, p99 " << fixed(quantile(optimal_small, 0.99) / 1000, 3)
      << " ms, max " << fixed(quantile(optimal_small, 1.0) / 1000, 3) << " ms\n";
  out << "  default synthesis wall time (median of 5 calls per case, " << greedy_all.size() << " cases): median "
      << fixed(quantile(greedy_all, 0.5), 1) << " us, p90 " << fixed(quantile(greedy_all, 0.9), 1) << " us, max "
      << fixed(quantile(greedy_all, 1.0), 1) << " us\n";
}

void write_wins(std::ostream& out, const std::vector<CaseResult>& results) {
  out << "\nBaselines that beat redist greedy on modeled time within redist's peak memory (must be none):\n";
  std::vector<std::string> within, over, peak;
  for (const auto& r : results) {
    const Measured* g = r.find("greedy");
    if (!g || !g->ok()) continue;
    for (const std::string p : {"shardy", "xla_style", "gather_then_slice"}) {
      const Measured* b = r.find(p);
      if (!b || !b->ok()) continue;
      const std::string line = fmt::format("{}  {} {:.3f} us [{}] against {:.3f} us [{}]: {}", name_of(r), p,
                                           b->time_us, b->shape, g->time_us, g->shape, reason(*b, *g));
      if (less(b->time_us, g->time_us)) {
        if (b->peak_bytes <= g->peak_bytes) within.push_back(line);
        else over.push_back(fmt::format("{}, at {:.2f}x redist's peak memory", line,
                                        to_double(b->peak_bytes) / to_double(g->peak_bytes)));
      }
      if (b->peak_bytes < g->peak_bytes)
        peak.push_back(fmt::format("{}  {} {} bytes against {}", name_of(r), p, to_decimal(b->peak_bytes),
                                   to_decimal(g->peak_bytes)));
    }
  }
  for (const auto& l : within) out << "  " << l << "\n";
  if (within.empty()) out << "  none\n";
  out << "\nBaselines with a lower peak than redist greedy (must be none):\n";
  for (const auto& l : peak) out << "  " << l << "\n";
  if (peak.empty()) out << "  none\n";
  out << "\nBaselines faster than redist greedy only by exceeding its memory (replicating first saves\n"
         "collectives where latency dominates): "
      << over.size() << " (case, baseline) pairs\n";
  for (const auto& l : over) out << "  " << l << "\n";
}

}  // namespace

void write_summary(std::ostream& out, const std::vector<CaseResult>& results) {
  std::map<std::string, int> suites, planned;
  for (const auto& r : results) {
    ++suites[r.source->suite];
    if (const Measured* g = r.find("greedy"); g && g->ok()) ++planned[r.source->suite];
  }
  out << "redist comparison: " << results.size() << " cases in scope";
  for (const auto& [suite, n] : suites) out << "; " << suite << " " << n << " (redist plans " << planned[suite] << ")";
  out << "\n";
  write_ratio_block(out, results);
  write_tightness(out, results);
  write_greedy_vs_optimal(out, results, "random");
  write_greedy_vs_optimal(out, results, "");
  write_targets(out, results);
  write_wins(out, results);
}

void write_csv(std::ostream& out, const std::vector<CaseResult>& results) {
  using corpus::csv_field;
  out << "suite,case,devices,axes,mesh,src,dst,planner,status,steps,collectives,time_us,wire_bytes,inter_bytes,"
         "peak_bytes,recv_max,recv_total,lb_max,lb_total,expanded,wall_us,shape,profile\n";
  for (const auto& r : results) {
    const corpus::Case& c = *r.source;
    for (const auto& m : r.plans) {
      std::string profile;
      for (const auto& b : m.profile) profile += (profile.empty() ? "" : ";") + to_decimal(b);
      out << c.suite << "," << csv_field(c.name) << "," << c.mesh.num_devices() << "," << c.mesh.rank() << ","
          << csv_field(corpus::mesh_text(c)) << ","
          << csv_field(to_string(c.src))
          << "," << csv_field(to_string(c.dst)) << "," << m.planner << "," << csv_field(m.status) << "," << m.steps << ","
          << m.collectives << "," << std::setprecision(10) << m.time_us << "," << to_decimal(m.wire_bytes) << ","
          << to_decimal(m.inter_bytes) << "," << to_decimal(m.peak_bytes) << "," << to_decimal(m.recv_max) << ","
          << to_decimal(m.recv_total) << "," << (r.lower_bound ? to_decimal(r.lower_bound->max) : "") << ","
          << (r.lower_bound ? to_decimal(r.lower_bound->total) : "") << ","
          << (m.planner == "optimal" ? std::to_string(r.optimal_expanded) : "") << ","
          << (m.planner == "greedy" ? fixed(r.greedy_us, 1) : m.planner == "optimal" ? fixed(r.optimal_us, 1) : "") << ","
          << csv_field(m.shape) << ","
          << profile << "\n";
    }
  }
}

}  // namespace redist::compare
