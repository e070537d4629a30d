// Parsing HLO module text into computations and instructions (import_parse.hpp).
// The grammar is the one HloModule::ToString prints: a header line, optional metadata
// sections (FileNames, StackFrames, ...), then computations
//   [ENTRY] %name (params) -> shape {
//     [ROOT] %name = SHAPE opcode(operands), key=value, ...
//   }

#include "import_parse.hpp"

#include <cctype>
#include <fmt/format.h>
#include <string>

namespace redist::hlo_import {
namespace {

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

/// `text` without /* ... */ comments.
std::string strip_comments(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "/*") == 0) {
      const auto end = text.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      i = end + 1;
      continue;
    }
    out += text[i];
  }
  return out;
}

/// Index just past the bracket closing the one at `open`, or npos.
std::size_t match_close(std::string_view s, std::size_t open) {
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

Error at_line(int line, const std::string& why) {
  return parse_error(Error::npos, fmt::format("line {}: {}", line, why));
}

std::string strip_percent(std::string s) {
  s = trim(s);
  if (!s.empty() && s[0] == '%') s.erase(0, 1);
  return s;
}

/// Parses one instruction line.
Result<Instruction> parse_instruction(std::string_view raw, int line) {
  std::string text = trim(raw);
  Instruction ins;
  ins.line = line;
  if (text.rfind("ROOT ", 0) == 0) {
    ins.root = true;
    text = trim(std::string_view(text).substr(5));
  }
  const auto eq = text.find(" = ");
  if (eq == std::string::npos) return at_line(line, "expected 'name = shape opcode(...)' in '" + text + "'");
  ins.name = strip_percent(text.substr(0, eq));
  std::string_view rest = std::string_view(text).substr(eq + 3);
  // The shape: a tuple in parentheses, or elem[dims]{layout}.
  std::size_t shape_end = 0;
  if (!rest.empty() && rest[0] == '(') {
    shape_end = match_close(rest, 0);
  } else {
    const auto bracket = rest.find('[');
    if (bracket == std::string_view::npos) return at_line(line, "expected a shape after '='");
    shape_end = match_close(rest, bracket);
    if (shape_end != std::string_view::npos && shape_end < rest.size() && rest[shape_end] == '{')
      shape_end = match_close(rest, shape_end);
  }
  if (shape_end == std::string_view::npos) return at_line(line, "unbalanced brackets in the shape");
  auto shape = parse_shape(rest.substr(0, shape_end));
  if (!shape) return at_line(line, shape.error().message);
  ins.shape = std::move(*shape);
  rest = rest.substr(shape_end);
  while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  const auto paren = rest.find('(');
  if (paren == std::string_view::npos || paren == 0) return at_line(line, "expected 'opcode(' after the shape");
  ins.opcode = std::string(rest.substr(0, paren));
  for (char c : ins.opcode)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      return at_line(line, "'" + ins.opcode + "' is not an opcode");
  const auto close = match_close(rest, paren);
  if (close == std::string_view::npos) return at_line(line, "unbalanced parentheses after " + ins.opcode);
  const std::string_view args = rest.substr(paren + 1, close - paren - 2);
  if (ins.opcode == "constant" || ins.opcode == "parameter") {
    ins.literal = std::string(args);
  } else {
    for (const auto& a : split_top_level(args)) {
      const auto pct = a.rfind('%');
      std::string name = pct == std::string::npos ? a.substr(a.rfind(' ') == std::string::npos ? 0 : a.rfind(' ') + 1)
                                                  : a.substr(pct + 1);
      if (!name.empty()) ins.operands.push_back(name);
    }
  }
  rest = rest.substr(close);
  for (const auto& item : split_top_level(rest)) {
    if (item.empty()) continue;
    const auto e = item.find('=');
    if (e == std::string::npos) {
      ins.attrs[item] = "";
      continue;
    }
    ins.attrs[trim(std::string_view(item).substr(0, e))] = trim(std::string_view(item).substr(e + 1));
  }
  return ins;
}

}  // namespace

int64_t Shape::elements() const {
  int64_t n = 1;  // saturates at 2^62: never overflows
  for (auto d : dims) n = (d != 0 && n > (int64_t{1} << 62) / d) ? (int64_t{1} << 62) : n * d;
  return n;
}

std::vector<int64_t> integers_in(std::string_view text) {
  std::vector<int64_t> out;
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 4, "true") == 0) { out.push_back(1); i += 4; continue; }
    if (text.compare(i, 5, "false") == 0) { out.push_back(0); i += 5; continue; }
    const bool neg = text[i] == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (neg || std::isdigit(static_cast<unsigned char>(text[i]))) {
      std::size_t j = i + (neg ? 1 : 0);
      int64_t v = 0;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
        if (v > (int64_t{1} << 58)) v = int64_t{1} << 58;  // saturate: never overflow
        v = v * 10 + (text[j] - '0');
        ++j;
      }
      out.push_back(neg ? -v : v);
      i = j;
      continue;
    }
    ++i;
  }
  return out;
}

std::vector<std::string> split_top_level(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  bool quoted = false;
  std::string cur;
  for (char c : text) {
    if (c == '"') quoted = !quoted;
    if (!quoted) {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (c == ',' && depth == 0) {
        out.push_back(trim(cur));
        cur.clear();
        continue;
      }
    }
    cur += c;
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

Result<Shape> parse_shape(std::string_view text) {
  const std::string t = trim(text);
  Shape s;
  if (!t.empty() && t[0] == '(') {
    s.is_tuple = true;
    for (const auto& part : split_top_level(std::string_view(t).substr(1, t.size() - 2))) {
      auto e = parse_shape(part);
      if (!e) return e.error();
      s.tuple.push_back(std::move(*e));
    }
    return s;
  }
  const auto open = t.find('[');
  const auto close = t.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return parse_error(Error::npos, "'" + t + "' is not a shape");
  s.elem = t.substr(0, open);
  if (s.elem.empty()) return parse_error(Error::npos, "'" + t + "' has no element type");
  const std::string dims = t.substr(open + 1, close - open - 1);
  if (dims.find_first_not_of("0123456789, ") != std::string::npos)
    return parse_error(Error::npos, "dynamic or malformed dimensions in '" + t + "'");
  s.dims = integers_in(dims);
  for (auto d : s.dims)
    if (d > (int64_t{1} << 40)) return parse_error(Error::npos, "a dimension of '" + t + "' is too large");
  if (close + 1 < t.size() && t[close + 1] == '{') {
    std::string layout = t.substr(close + 2);
    layout = layout.substr(0, layout.find_first_of(":}"));
    s.minor_to_major = integers_in(layout);
  } else {
    for (std::size_t i = s.dims.size(); i-- > 0;) s.minor_to_major.push_back(static_cast<int64_t>(i));
  }
  if (s.minor_to_major.size() != s.dims.size()) return parse_error(Error::npos, "the layout of '" + t + "' does not match its rank");
  std::vector<bool> seen(s.dims.size());
  for (auto d : s.minor_to_major) {
    if (d < 0 || d >= static_cast<int64_t>(s.dims.size()) || seen[d])
      return parse_error(Error::npos, "the layout of '" + t + "' is not a permutation");
    seen[d] = true;
  }
  return s;
}

const Instruction* Computation::find(std::string_view n) const {
  for (const auto& i : instructions)
    if (i.name == n) return &i;
  return nullptr;
}

const Instruction& Computation::root() const {
  for (const auto& i : instructions)
    if (i.root) return i;
  return instructions.back();
}

const Computation* Module::find(std::string_view n) const {
  for (const auto& c : computations)
    if (c.name == n) return &c;
  return nullptr;
}

Result<Module> parse_module(std::string_view raw) {
  const std::string text = strip_comments(raw);
  Module m;
  Computation* current = nullptr;
  int line_no = 0;
  bool seen_header = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = trim(std::string_view(text).substr(pos, nl - pos));
    pos = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    if (current) {
      if (line == "}") {
        if (current->instructions.empty()) return at_line(line_no, "computation %" + current->name + " is empty");
        current = nullptr;
        continue;
      }
      auto ins = parse_instruction(line, line_no);
      if (!ins) return ins.error();
      if (current->find(ins->name)) return at_line(line_no, "%" + ins->name + " is defined twice");
      current->instructions.push_back(std::move(*ins));
      continue;
    }
    if (line.rfind("HloModule", 0) == 0) {
      seen_header = true;
      if (const auto k = line.find("num_partitions="); k != std::string::npos) {
        const auto v = integers_in(std::string_view(line).substr(k + 15, 12));
        if (v.empty() || v[0] < 1 || v[0] > (int64_t{1} << 20)) return at_line(line_no, "bad num_partitions");
        m.num_partitions = v[0];
      }
      continue;
    }
    if (line.back() == '{' && (line[0] == '%' || line.rfind("ENTRY", 0) == 0)) {
      Computation c;
      c.line = line_no;
      std::string head = line;
      if (head.rfind("ENTRY", 0) == 0) {
        c.entry = true;
        head = trim(std::string_view(head).substr(5));
      }
      const auto space = head.find_first_of(" (");
      c.name = strip_percent(head.substr(0, space));
      if (c.name.empty()) return at_line(line_no, "a computation without a name");
      m.computations.push_back(std::move(c));
      current = &m.computations.back();
      continue;
    }
    // Metadata sections (FileNames, StackFrames, ...) and their entries.
    if (!seen_header) return at_line(line_no, "expected 'HloModule name, ...' before '" + line + "'");
    if (line[0] == '%' || line.find(" = ") != std::string::npos)
      return at_line(line_no, "an instruction outside any computation: '" + line + "'");
  }
  if (current) return at_line(line_no, "computation %" + current->name + " is not closed with '}'");
  if (!seen_header) return at_line(1, "not an HLO module: no 'HloModule' line");
  bool has_entry = false;
  for (std::size_t k = 0; k < m.computations.size(); ++k) {
    if (!m.computations[k].entry) continue;
    if (has_entry) return at_line(m.computations[k].line, "a second ENTRY computation");
    has_entry = true;
    m.entry_index = k;
  }
  if (!has_entry) return at_line(line_no, "the module has no ENTRY computation");
  for (const auto& c : m.computations)
    for (const auto& i : c.instructions)
      for (const auto& o : i.operands)
        if (!c.find(o)) return at_line(i.line, "%" + i.name + " uses %" + o + ", which is not defined in %" + c.name);
  return m;
}

}  // namespace redist::hlo_import
