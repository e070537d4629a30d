// `redist explain --svg`: the device grid before and after each step (explain.hpp).
//
// The global array is cut into cells (per dim, the smallest local size any state has,
// halved until a device shows 4 cells or coarsened until it shows at most 8 per dim);
// each cell has a colour from its global position (hue along the row-major cell
// index). A device is a box laid out at its mesh position (last axis across, the others down); inside it the cells
// it holds are drawn at their local position (dim 0 down, the other dims across).
// Padding is left white.

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <sstream>

#include "explain.hpp"
#include "redist/core/semantics.hpp"
#include "redist/plan/plan_text.hpp"

namespace redist::cli {
namespace {

constexpr int kCell = 10;    // pixels per cell
constexpr int kGap = 8;      // between devices
constexpr int kPanelGap = 60;
constexpr int64_t kMaxDrawn = 64;  // devices drawn per state

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

struct Layout {
  std::vector<int64_t> cell;   // cell size per dim (global elements)
  std::vector<int64_t> cells;  // cells per dim of the global array
  int64_t total = 1;
};

Layout layout(const Plan& plan, const std::vector<TypedState>& states) {
  Layout l;
  const auto& src = plan.source;
  for (std::size_t i = 0; i < src.rank(); ++i) {
    int64_t c = local_size(src.dims[i]);
    for (const auto& s : states) c = std::min(c, local_size(s.type.dims[i]));
    int64_t max_local = local_size(src.dims[i]);
    for (const auto& s : states) max_local = std::max(max_local, local_size(s.type.dims[i]));
    while ((max_local + c - 1) / c < 4 && c % 2 == 0) c /= 2;  // finer, to show where blocks go
    while ((max_local + c - 1) / c > 8) c *= 2;
    c = std::max<int64_t>(1, c);
    l.cell.push_back(c);
    l.cells.push_back((src.dims[i].global + c - 1) / c);
    l.total *= l.cells.back();
  }
  return l;
}

/// Pixel size (w, h) of one device's box for local shape `shape`.
std::pair<int, int> device_size(const Layout& l, const std::vector<int64_t>& shape) {
  int64_t rows = shape.empty() ? 1 : (shape[0] + l.cell[0] - 1) / l.cell[0];
  int64_t cols = 1;
  for (std::size_t i = 1; i < shape.size(); ++i) cols *= (shape[i] + l.cell[i] - 1) / l.cell[i];
  return {static_cast<int>(cols * kCell + 4), static_cast<int>(rows * kCell + 4)};
}

/// Grid (columns, rows) of devices for `mesh`.
std::pair<int64_t, int64_t> grid(const Mesh& mesh) {
  const int64_t n = mesh.num_devices();
  const int64_t cols = mesh.rank() ? mesh.axis_size(mesh.rank() - 1) : 1;
  return {cols, (n + cols - 1) / cols};
}

/// Draws the state `s` at (x, y); returns its width and height.
std::pair<int, int> draw_state(std::ostringstream& o, const Layout& l, const TypedState& s,
                               const std::pair<int, int>& box, int x, int y) {
  const auto [dw, dh] = box;
  const auto [gc, gr] = grid(s.mesh);
  const auto shape = local_shape(s.type);
  const int64_t n = std::min<int64_t>(s.mesh.num_devices(), kMaxDrawn);
  if (n < s.mesh.num_devices())
    o << "<text x=\"" << x << "\" y=\"" << y + 14 + ((n + gc - 1) / gc) * (dh + kGap + 12) + 10
      << "\" font-size=\"9\">(the first " << n << " of " << s.mesh.num_devices() << " devices)</text>\n";
  for (int64_t pos = 0; pos < n; ++pos) {
    const int64_t d = s.mesh.device_at(pos);
    const int bx = x + static_cast<int>(pos % gc) * (dw + kGap);
    const int by = y + 14 + static_cast<int>(pos / gc) * (dh + kGap + 12);
    o << "<text x=\"" << bx << "\" y=\"" << by - 2 << "\" font-size=\"9\">dev " << d << "</text>\n";
    const auto [w, h] = device_size(l, shape);
    o << "<rect x=\"" << bx << "\" y=\"" << by << "\" width=\"" << w << "\" height=\"" << h
      << "\" fill=\"white\" stroke=\"black\"/>\n";
    const auto coords = s.mesh.coords_of_device(d);
    // Every cell-sized local block: its first element's global index gives the colour.
    std::vector<int64_t> per_dim;
    for (std::size_t i = 0; i < shape.size(); ++i) per_dim.push_back((shape[i] + l.cell[i] - 1) / l.cell[i]);
    int64_t blocks = 1;
    for (auto b : per_dim) blocks *= b;
    for (int64_t k = 0; k < blocks; ++k) {
      std::vector<int64_t> bi(shape.size()), local(shape.size());
      for (std::size_t i = shape.size(), rest = k; i-- > 0;) {
        bi[i] = static_cast<int64_t>(rest) % per_dim[i];
        rest /= per_dim[i];
        local[i] = bi[i] * l.cell[i];
      }
      const auto g = local_to_global(s.mesh, s.type, coords, local);
      if (!g) continue;  // padding
      int64_t cell = 0;
      for (std::size_t i = 0; i < g->size(); ++i) cell = cell * l.cells[i] + (*g)[i] / l.cell[i];
      int64_t col = 0;
      for (std::size_t i = 1; i < shape.size(); ++i) col = col * per_dim[i] + bi[i];
      const int64_t row = shape.empty() ? 0 : bi[0];
      const double hue = 300.0 * static_cast<double>(cell) / static_cast<double>(std::max<int64_t>(1, l.total - 1));
      o << "<rect x=\"" << bx + 2 + col * kCell << "\" y=\"" << by + 2 + row * kCell << "\" width=\"" << kCell
        << "\" height=\"" << kCell << "\" fill=\"hsl(" << static_cast<int>(hue) << ",75%,55%)\" stroke=\"white\" "
        << "stroke-width=\"0.5\"><title>global block " << cell << "</title></rect>\n";
    }
  }
  const int64_t rows = std::min<int64_t>(gr, (n + gc - 1) / gc);
  return {static_cast<int>(std::min<int64_t>(gc, n) * (dw + kGap)), static_cast<int>(14 + rows * (dh + kGap + 12) + 14)};
}

}  // namespace

std::string explain_svg(const Plan& plan, const std::vector<TypedState>& states) {
  const Layout l = layout(plan, states);
  std::vector<TypedState> all{{plan.mesh, plan.source}};
  all.insert(all.end(), states.begin(), states.end());
  std::pair<int, int> box{0, 0};  // the largest device box of any state
  for (const auto& s : all) {
    const auto [w, h] = device_size(l, local_shape(s.type));
    box = {std::max(box.first, w), std::max(box.second, h)};
  }
  std::ostringstream body;
  int y = 10, width = 0;
  body << "<text x=\"10\" y=\"" << y + 12 << "\" font-size=\"13\" font-weight=\"bold\">"
       << escape(fmt::format("redist explain: {} -> {} on {}", to_string(plan.source), to_string(all.back().type),
                             to_string(plan.mesh)))
       << "</text>\n";
  y += 24;
  const std::size_t rows = std::max<std::size_t>(1, plan.steps.size());
  for (std::size_t k = 0; k < rows; ++k) {
    const std::string title = plan.steps.empty() ? "no steps: the source is the target"
                                                 : fmt::format("step {}: {}", k + 1, to_string(plan.steps[k]));
    body << "<text x=\"10\" y=\"" << y + 12 << "\" font-size=\"11\">" << escape(title) << "</text>\n";
    y += 18;
    const TypedState& before = all[k];
    const TypedState& after = all[std::min(k + 1, all.size() - 1)];
    body << "<text x=\"10\" y=\"" << y + 10 << "\" font-size=\"9\">before: " << escape(to_string(before.type))
         << "</text>\n";
    const auto [w1, h1] = draw_state(body, l, before, box, 10, y + 12);
    const int label1 = static_cast<int>(to_string(before.type).size() + 8) * 6;
    const int x2 = 10 + std::max(w1, label1) + kPanelGap;
    body << "<text x=\"" << x2 - kPanelGap + 10 << "\" y=\"" << y + 12 + h1 / 2 << "\" font-size=\"20\">&#8594;</text>\n";
    body << "<text x=\"" << x2 << "\" y=\"" << y + 10 << "\" font-size=\"9\">after: " << escape(to_string(after.type))
         << "</text>\n";
    const auto [w2, h2] = draw_state(body, l, after, box, x2, y + 12);
    const int label2 = static_cast<int>(to_string(after.type).size() + 7) * 6;
    width = std::max({width, x2 + std::max(w2, label2) + 10, static_cast<int>(title.size()) * 7 + 20});
    y += 12 + std::max(h1, h2) + 16;
  }
  const std::string heading = fmt::format("redist explain: {} -> {} on {}", to_string(plan.source),
                                          to_string(all.back().type), to_string(plan.mesh));
  width = std::max(width, static_cast<int>(heading.size()) * 8 + 20);
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << std::max(width, 400) << "\" height=\"" << y + 10
    << "\" font-family=\"monospace\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n";
  o << body.str() << "</svg>\n";
  return o.str();
}

}  // namespace redist::cli
