// The cost model's config text: `axis = intra|inter`, `class.field = number`,
// `transfer.link = intra|inter`, `transfer.node_size = n` and `kind.efficiency = share`
// lines.

#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "redist/synth/cost_model.hpp"

namespace redist {

namespace {

constexpr std::string_view kSpace = " \t\r";

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

/// A positive finite number, or nullopt.
std::optional<double> positive_number(std::string_view s) {
  double value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || !(value > 0) || value > 1e300) return std::nullopt;
  return value;
}

/// Reads one `key = value` line (comment already removed) into `model`.
class LineReader {
 public:
  LineReader(CostModel& model, std::size_t line_number, std::size_t line_offset)
      : model_(model), line_(line_number), offset_(line_offset) {}

  Status read(std::string_view raw) {
    const auto eq = raw.find('=');
    if (eq == std::string_view::npos) return error(raw.find_first_not_of(kSpace), "expected 'key = value'");
    const std::string_view key = trim(raw.substr(0, eq));
    const std::string_view value = trim(raw.substr(eq + 1));
    const std::size_t key_at = raw.find_first_not_of(kSpace);
    const std::size_t value_at = value.empty() ? eq + 1 : raw.find(value, eq + 1);
    if (key.empty()) return error(key_at, "missing key before '='");
    if (value.empty()) return error(value_at, "missing value after '='");
    if (const auto dot = key.find('.'); dot != std::string_view::npos)
      return read_speed(key.substr(0, dot), key.substr(dot + 1), value, key_at, value_at);
    if (!is_identifier(key)) return error(key_at, fmt::format("'{}' is not an axis name", key));
    LinkClass link_class;
    if (value == "intra") link_class = LinkClass::intra;
    else if (value == "inter") link_class = LinkClass::inter;
    else return error(value_at, fmt::format("expected 'intra' or 'inter', got '{}'", value));
    if (!model_.axis_class.emplace(std::string(key), link_class).second)
      return error(key_at, fmt::format("axis '{}' is given twice", key));
    return Ok{};
  }

 private:
  Status read_speed(std::string_view cls, std::string_view field, std::string_view value, std::size_t key_at,
                    std::size_t value_at) {
    if (field == "efficiency")
      if (double* share = efficiency_of(cls)) {
        const auto number = positive_number(value);
        if (!number || *number > 1)
          return error(value_at, fmt::format("expected a share of the bandwidth in (0, 1], got '{}'", value));
        *share = *number;
        return Ok{};
      }
    if (cls == "transfer") {  // the links between the meshes of a transfer, and nodes
      if (field == "node_size") {
        const auto number = positive_number(value);
        // Range before the cast: a double past int64's range does not convert (UB).
        if (!number || *number > 9.0e18 || *number != std::floor(*number))
          return error(value_at, fmt::format("expected a positive whole number of devices, got '{}'", value));
        model_.transfer_node_size = static_cast<int64_t>(*number);
        return Ok{};
      }
      if (field != "link")
        return error(key_at + cls.size() + 1, fmt::format("unknown field '{}' (link, node_size or efficiency)", field));
      if (value == "intra") model_.transfer_link = LinkClass::intra;
      else if (value == "inter") model_.transfer_link = LinkClass::inter;
      else return error(value_at, fmt::format("expected 'intra' or 'inter', got '{}'", value));
      return Ok{};
    }
    Link* link = cls == "intra" ? &model_.intra : cls == "inter" ? &model_.inter : nullptr;
    if (!link)
      return error(key_at, fmt::format("unknown link class or collective '{}' (intra, inter, transfer, or all_gather, "
                                       "reduce_scatter, all_to_all, all_reduce, collective_permute with .efficiency)",
                                       cls));
    double* target = field == "bandwidth_gbps" ? &link->bandwidth_gbps
                     : field == "latency_us"   ? &link->latency_us
                                               : nullptr;
    if (!target)
      return error(key_at + cls.size() + 1, fmt::format("unknown field '{}' (bandwidth_gbps or latency_us)", field));
    const auto number = positive_number(value);
    if (!number) return error(value_at, fmt::format("expected a positive number, got '{}'", value));
    *target = *number;
    return Ok{};
  }

  /// The efficiency field of collective kind `name` (as written in plans), or nullptr.
  double* efficiency_of(std::string_view name) {
    Efficiency& e = model_.efficiency;
    if (name == "all_gather") return &e.all_gather;
    if (name == "reduce_scatter") return &e.reduce_scatter;
    if (name == "all_to_all") return &e.all_to_all;
    if (name == "all_reduce") return &e.all_reduce;
    if (name == "collective_permute") return &e.permute;
    if (name == "transfer") return &e.transfer;
    return nullptr;
  }

  Error error(std::size_t column, const std::string& message) const {
    return parse_error(offset_ + (column == std::string_view::npos ? 0 : column),
                       fmt::format("line {}: {}", line_, message));
  }

  CostModel& model_;
  std::size_t line_;
  std::size_t offset_;
};

}  // namespace

std::string_view link_class_name(LinkClass link_class) {
  return link_class == LinkClass::inter ? "inter" : "intra";
}

LinkClass CostModel::class_of(std::string_view axis) const {
  const auto it = axis_class.find(axis);
  return it == axis_class.end() ? LinkClass::intra : it->second;
}

Result<CostModel> parse_cost_model(std::string_view text) {
  CostModel model;
  std::size_t offset = 0;
  for (std::size_t line = 1; offset <= text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', offset), text.size());
    std::string_view raw = text.substr(offset, end - offset);
    if (const auto hash = raw.find('#'); hash != std::string_view::npos) raw = raw.substr(0, hash);
    if (!trim(raw).empty())
      if (auto s = LineReader(model, line, offset).read(raw); !s) return s.error();
    offset = end + 1;
  }
  return model;
}

Result<CostModel> read_cost_model(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{Error::Kind::runtime, fmt::format("cannot read the cost model file '{}'", path), Error::npos};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_cost_model(text.str());
}

Status validate(const CostModel& model, const Mesh& mesh) {
  for (const auto& [axis, link_class] : model.axis_class)
    if (!mesh.axis_index(axis))
      return invalid_error(
          fmt::format("the cost model names axis '{}', which the mesh {} does not have", axis, to_string(mesh)));
  return Ok{};
}

}  // namespace redist
