// Reading the anchor corpus.

#include "redist/proofs/anchors.hpp"

#include <fmt/format.h>
#include <sstream>

namespace redist {

namespace {

/// `text` without leading and trailing blanks.
std::string trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return "";
  const auto end = text.find_last_not_of(" \t\r");
  return std::string(text.substr(begin, end - begin + 1));
}

/// The '|'-separated fields of `line`, trimmed.
std::vector<std::string> fields_of(std::string_view line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t bar; (bar = line.find('|', start)) != std::string_view::npos; start = bar + 1)
    out.push_back(trim(line.substr(start, bar - start)));
  out.push_back(trim(line.substr(start)));
  return out;
}

/// `error` with "line L: <what>: " in front of its message.
Error on_line(std::size_t line, const std::string& what, Error error) {
  error.message = fmt::format("line {}: {}: {}", line, what, error.message);
  return error;
}

/// The case on line `number` (text without its comment).
Result<Anchor> parse_case(std::size_t number, std::string_view body, std::string tags) {
  const auto f = fields_of(body);
  if (f.size() != 4 && f.size() != 5)
    return invalid_error(fmt::format("line {}: expected 4 or 5 '|'-separated fields, found {}", number, f.size()));
  auto mesh = parse_mesh(f[1]);
  if (!mesh) return on_line(number, "mesh", mesh.error());
  Mesh target_mesh = *mesh;
  if (f.size() == 5) {
    auto other = parse_mesh(f[4]);
    if (!other) return on_line(number, "target mesh", other.error());
    target_mesh = *other;
  }
  auto source = parse_type(f[2], *mesh);
  if (!source) return on_line(number, "source", source.error());
  auto target = parse_type(f[3], target_mesh);
  if (!target) return on_line(number, "target", target.error());
  return Anchor{f[0], *mesh, *source, target_mesh, *target, std::move(tags)};
}

}  // namespace

Result<std::vector<Anchor>> parse_anchors(std::string_view text) {
  std::vector<Anchor> out;
  std::istringstream in{std::string(text)};
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    const std::string body = trim(std::string_view(line).substr(0, hash));
    if (body.empty()) continue;
    auto anchor = parse_case(number, body, hash == std::string::npos ? "" : trim(line.substr(hash + 1)));
    if (!anchor) return anchor.error();
    out.push_back(std::move(*anchor));
  }
  return out;
}

bool divisible_without_reductions(const Anchor& anchor) {
  return !has_padding(anchor.source) && !has_padding(anchor.target) && anchor.source.reduce_axes.empty() &&
         anchor.target.reduce_axes.empty();
}

}  // namespace redist
