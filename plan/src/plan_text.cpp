// The textual plan format (see plan_text.hpp): a line parser that embeds core's type
// and mesh parsers, and the printer whose output it reads back exactly.

#include "redist/plan/plan_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <limits>
#include <span>

#include <fmt/format.h>

namespace redist {

namespace {

using Axes = std::vector<AxisRef>;

/// Step kinds by name, with the keys each takes besides groups= and pairs=.
struct StepKind {
  std::string_view name;
  std::array<std::string_view, 3> keys;  // required keys, empty entries unused
};
constexpr std::array<StepKind, 8> kStepKinds = {{
    {"all_slice", {"dim", "axes", ""}},
    {"all_gather", {"dim", "axes", ""}},
    {"all_to_all", {"src", "dst", "axes"}},
    {"collective_permute", {"to", "", ""}},
    {"reduce_scatter", {"dim", "axes", ""}},
    {"all_reduce", {"axes", "", ""}},
    {"add_pending", {"axes", "op", ""}},
    {"transfer", {"mesh", "to", ""}},
}};

/// The values of a step's keys as parsed, before they are assembled into a Step.
struct StepFields {
  std::optional<int64_t> dim, src, dst;
  std::optional<Axes> axes;
  std::optional<ReduceOp> op;
  std::optional<DistType> to;
  std::optional<Mesh> mesh;
  std::optional<DeviceGroups> groups;
  std::optional<DevicePairs> pairs;
  std::optional<TransferTable> sends;
  std::vector<AllToAllMove> moves;  // an all_to_all's moves before the last (`;`-separated)
  std::vector<AllGatherPart> parts;  // an all_gather's parts before the last (`;`-separated)

  /// True when the key `key` has a value.
  bool has(std::string_view key) const {
    if (key == "dim") return dim.has_value();
    if (key == "src") return src.has_value();
    if (key == "dst") return dst.has_value();
    if (key == "axes") return axes.has_value();
    if (key == "op") return op.has_value();
    if (key == "to") return to.has_value();
    if (key == "mesh") return mesh.has_value();
    if (key == "groups") return groups.has_value();
    if (key == "sends") return sends.has_value();
    return pairs.has_value();
  }
};

/// A cursor over one line of the plan text (comment excluded). Positions are offsets
/// into the whole text; every error it makes starts with "line L: ".
class LineParser {
 public:
  LineParser(std::string_view text, std::size_t begin, std::size_t end, int line)
      : text_(text), pos_(begin), end_(end), line_(line) {}

  std::size_t pos() const { return pos_; }

  /// A parse error at `position` with the line prefix.
  Error error(std::size_t position, const std::string& message) const {
    return parse_error(position, fmt::format("line {}: {}", line_, message));
  }

  /// Skips spaces and tabs; returns true when the line has nothing more.
  bool at_end() {
    while (pos_ < end_ && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    return pos_ >= end_;
  }

  /// Consumes `c` (after spaces) if it is next; returns whether it was.
  bool consume(char c) {
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  /// Ok after consuming `c`, else an error saying what was expected.
  Status expect(char c) {
    if (consume(c)) return Ok{};
    return error(pos_, fmt::format("expected '{}' {}", c, found()));
  }

  /// Ok when only spaces remain on the line; `after` names what came before.
  Status expect_end(const std::string& after) {
    if (at_end()) return Ok{};
    return error(pos_, fmt::format("unexpected '{}' after {}", text_.substr(pos_, end_ - pos_), after));
  }

  /// An identifier ([A-Za-z_][A-Za-z0-9_]*) at the cursor; empty when there is none.
  std::string_view identifier() {
    at_end();
    const std::size_t start = pos_;
    auto is_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
    auto is_part = [&](char c) { return is_start(c) || std::isdigit(static_cast<unsigned char>(c)); };
    if (pos_ < end_ && is_start(text_[pos_]))
      while (pos_ < end_ && is_part(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  /// A decimal integer with an optional minus sign, at least `min`.
  Result<int64_t> integer(int64_t min = std::numeric_limits<int64_t>::min()) {
    at_end();
    const std::size_t start = pos_;
    const bool negative = pos_ < end_ && text_[pos_] == '-';
    if (negative) ++pos_;
    if (pos_ >= end_ || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
      return error(start, fmt::format("expected an integer {}", found()));
    int64_t value = 0;
    while (pos_ < end_ && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) return error(start, "integer too large");
      value = value * 10 + digit;
      ++pos_;
    }
    if (negative) value = -value;
    if (value < min)
      return error(start, fmt::format("expected an integer >= {}, got {}", min, value));
    return value;
  }

  /// A mesh, parsed by core; its error positions shifted into the whole text.
  Result<Mesh> mesh() {
    at_end();
    auto parsed = parse_mesh_prefix(rest());
    if (!parsed) return shifted(parsed.error());
    pos_ += parsed->second;
    return std::move(parsed->first);
  }

  /// A distributed type over `mesh`, parsed by core; error positions shifted.
  Result<DistType> type(const Mesh& mesh) {
    at_end();
    auto parsed = parse_type_prefix(rest(), mesh);
    if (!parsed) return shifted(parsed.error());
    pos_ += parsed->consumed;
    return std::move(parsed->value);
  }

  /// `{x, y:(m)k, ...}`, each reference resolved against `mesh` (whole axes get their
  /// size; sub-axes keep the written pre and size).
  Result<Axes> axes(const Mesh& mesh) {
    if (auto s = expect('{'); !s) return s.error();
    Axes axes;
    if (consume('}')) return axes;
    do {
      auto ref = axis_ref(mesh);
      if (!ref) return ref.error();
      axes.push_back(std::move(*ref));
    } while (consume(','));
    if (auto s = expect('}'); !s) return s.error();
    return axes;
  }

  /// `[[0, 1], [2, 3]]`.
  Result<DeviceGroups> groups() {
    if (auto s = expect('['); !s) return s.error();
    DeviceGroups groups;
    if (consume(']')) return groups;
    do {
      if (auto s = expect('['); !s) return s.error();
      std::vector<int64_t> group;
      if (!consume(']')) {
        do {
          auto id = integer();
          if (!id) return id.error();
          group.push_back(*id);
        } while (consume(','));
        if (auto s = expect(']'); !s) return s.error();
      }
      groups.push_back(std::move(group));
    } while (consume(','));
    if (auto s = expect(']'); !s) return s.error();
    return groups;
  }

  /// `[0, 1, 2]` (possibly empty).
  Result<std::vector<int64_t>> int_list() {
    if (auto s = expect('['); !s) return s.error();
    std::vector<int64_t> out;
    if (consume(']')) return out;
    do {
      auto v = integer();
      if (!v) return v.error();
      out.push_back(*v);
    } while (consume(','));
    if (auto s = expect(']'); !s) return s.error();
    return out;
  }

  /// `[(from, to, [src_start], [dst_start], [extent]), ...]`: a transfer's sends.
  Result<TransferTable> sends() {
    if (auto s = expect('['); !s) return s.error();
    TransferTable table;
    if (consume(']')) return table;
    do {
      if (auto s = expect('('); !s) return s.error();
      TransferBox box;
      auto from = integer();
      if (!from) return from.error();
      if (auto s = expect(','); !s) return s.error();
      auto to = integer();
      if (!to) return to.error();
      box.from = *from;
      box.to = *to;
      for (auto* list : {&box.src_start, &box.dst_start, &box.extent}) {
        if (auto s = expect(','); !s) return s.error();
        auto v = int_list();
        if (!v) return v.error();
        *list = std::move(*v);
      }
      if (auto s = expect(')'); !s) return s.error();
      table.push_back(std::move(box));
    } while (consume(','));
    if (auto s = expect(']'); !s) return s.error();
    return table;
  }

  /// `[(0, 1), (1, 0)]`.
  Result<DevicePairs> pairs() {
    if (auto s = expect('['); !s) return s.error();
    DevicePairs pairs;
    if (consume(']')) return pairs;
    do {
      if (auto s = expect('('); !s) return s.error();
      auto source = integer();
      if (!source) return source.error();
      if (auto s = expect(','); !s) return s.error();
      auto target = integer();
      if (!target) return target.error();
      if (auto s = expect(')'); !s) return s.error();
      pairs.emplace_back(*source, *target);
    } while (consume(','));
    if (auto s = expect(']'); !s) return s.error();
    return pairs;
  }

 private:
  std::string_view rest() const { return text_.substr(pos_, end_ - pos_); }

  /// "but found 'c'" or "at the end of the line", for messages.
  std::string found() {
    if (at_end()) return "at the end of the line";
    return fmt::format("but found '{}'", text_[pos_]);
  }

  /// A core error about rest() made relative to the whole text, with the line prefix.
  Error shifted(Error e) const {
    e.position = e.position == Error::npos ? pos_ : pos_ + e.position;
    e.message = fmt::format("line {}: {}", line_, e.message);
    return e;
  }

  /// `x` or `x:(m)k`, the axis known to `mesh`.
  Result<AxisRef> axis_ref(const Mesh& mesh) {
    at_end();
    const std::size_t start = pos_;
    const std::string name(identifier());
    if (name.empty()) return error(start, fmt::format("expected an axis name {}", found()));
    const auto index = mesh.axis_index(name);
    if (!index) return error(start, fmt::format("unknown axis '{}' (the mesh is {})", name, to_string(mesh)));
    if (!consume(':')) return AxisRef{name, 1, mesh.axis_size(*index), false};
    if (auto s = expect('('); !s) return s.error();
    auto pre = integer(1);
    if (!pre) return pre.error();
    if (auto s = expect(')'); !s) return s.error();
    auto size = integer(1);
    if (!size) return size.error();
    return AxisRef{name, *pre, *size, true};
  }

  std::string_view text_;
  std::size_t pos_;
  std::size_t end_;
  int line_;
};

/// Parses the value of `key` into `fields` (types on `mesh`); Ok or the parse error.
Status parse_value(LineParser& p, std::string_view key, const Mesh& mesh, StepFields& fields) {
  if (key == "dim" || key == "src" || key == "dst") {
    const std::size_t start = p.pos();
    auto value = p.integer();
    if (!value) return value.error();
    if (*value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max())
      return p.error(start, fmt::format("{} {} is out of range", key, *value));
    (key == "dim" ? fields.dim : key == "src" ? fields.src : fields.dst) = *value;
  } else if (key == "axes") {
    auto axes = p.axes(mesh);
    if (!axes) return axes.error();
    fields.axes = std::move(*axes);
  } else if (key == "op") {
    const std::size_t start = p.pos();
    const std::string_view name = p.identifier();
    if (name == "sum") fields.op = ReduceOp::sum;
    else if (name == "max") fields.op = ReduceOp::max;
    else if (name == "min") fields.op = ReduceOp::min;
    else return p.error(start, fmt::format("unknown reduction op '{}' (expected sum, max or min)", name));
  } else if (key == "to") {
    auto type = p.type(mesh);
    if (!type) return type.error();
    fields.to = std::move(*type);
  } else if (key == "mesh") {
    auto m = p.mesh();
    if (!m) return m.error();
    fields.mesh = std::move(*m);
  } else if (key == "sends") {
    auto sends = p.sends();
    if (!sends) return sends.error();
    fields.sends = std::move(*sends);
  } else if (key == "groups") {
    auto groups = p.groups();
    if (!groups) return groups.error();
    fields.groups = std::move(*groups);
  } else {
    auto pairs = p.pairs();
    if (!pairs) return pairs.error();
    fields.pairs = std::move(*pairs);
  }
  return Ok{};
}

/// The step kind's op built from complete `fields`.
StepOp make_op(std::string_view name, StepFields& f) {
  auto as_int = [](const std::optional<int64_t>& v) { return static_cast<int>(*v); };
  if (name == "all_slice") return AllSlice{as_int(f.dim), std::move(*f.axes)};
  if (name == "all_gather") {
    f.parts.push_back({as_int(f.dim), std::move(*f.axes)});
    return AllGather{std::move(f.parts)};
  }
  if (name == "all_to_all") {
    f.moves.push_back({as_int(f.src), as_int(f.dst), std::move(*f.axes)});
    return AllToAll{std::move(f.moves)};
  }
  if (name == "collective_permute") return CollectivePermute{std::move(*f.to), std::move(f.mesh)};
  if (name == "reduce_scatter") return ReduceScatter{as_int(f.dim), std::move(*f.axes)};
  if (name == "add_pending") return AddPending{std::move(*f.axes), *f.op};
  if (name == "transfer") return Transfer{std::move(*f.to), std::move(*f.mesh), std::move(f.sends)};
  return AllReduce{std::move(*f.axes)};
}

/// A step line after its name (`name` read at `name_pos`), on `mesh`.
Result<Step> parse_step(LineParser& p, std::string_view name, std::size_t name_pos, const Mesh& mesh) {
  const auto kind =
      std::find_if(kStepKinds.begin(), kStepKinds.end(), [&](const StepKind& k) { return k.name == name; });
  if (kind == kStepKinds.end())
    return p.error(name_pos, fmt::format("unknown step '{}' (expected all_slice, all_gather, all_to_all, "
                                         "collective_permute, reduce_scatter, all_reduce, add_pending, transfer, or "
                                         "target)",
                                         name));
  std::vector<std::string_view> allowed;
  for (auto k : kind->keys)
    if (!k.empty()) allowed.push_back(k);
  if (kind->name == "collective_permute") allowed.push_back("mesh");
  if (kind->name == "transfer") {
    allowed.push_back("sends");  // a transfer's lowering is its sends, not groups or pairs
  } else {
    allowed.push_back("groups");
    allowed.push_back("pairs");
  }

  if (auto s = p.expect('('); !s) return s.error();
  StepFields fields;
  // Ok after an all_to_all's or all_gather's `;`: the move (part) so far is complete
  // and the next one starts.
  const bool gather = kind->name == "all_gather";
  auto next_move = [&]() -> Status {
    for (auto k : kind->keys)
      if (!k.empty() && !fields.has(k))
        return p.error(p.pos() - 1, fmt::format("{} {} of the {} is missing the key {}=", gather ? "part" : "move",
                                                (gather ? fields.parts.size() : fields.moves.size()) + 1, name, k));
    if (gather)
      fields.parts.push_back({static_cast<int>(*fields.dim), std::move(*fields.axes)});
    else
      fields.moves.push_back({static_cast<int>(*fields.src), static_cast<int>(*fields.dst), std::move(*fields.axes)});
    fields.dim.reset();
    fields.src.reset();
    fields.dst.reset();
    fields.axes.reset();
    return Ok{};
  };
  if (!p.consume(')')) {
    for (bool more = true; more;) {
      p.at_end();
      const std::size_t key_pos = p.pos();
      const std::string_view key = p.identifier();
      if (key.empty()) return p.error(key_pos, fmt::format("expected a key such as {}=", allowed.front()));
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        return p.error(key_pos,
                       fmt::format("unknown key '{}' for {} (expected {})", key, name, fmt::join(allowed, ", ")));
      if (fields.has(key)) return p.error(key_pos, fmt::format("key '{}' given twice", key));
      if (auto s = p.expect('='); !s) return s.error();
      // A transfer's type is on its new mesh, which must come first.
      const bool on_new_mesh = kind->name == "transfer" && key == "to";
      if (on_new_mesh && !fields.mesh) return p.error(key_pos, "transfer takes mesh= before to= (the type is on that mesh)");
      if (auto s = parse_value(p, key, on_new_mesh ? *fields.mesh : mesh, fields); !s) return s.error();
      if (p.consume(',')) continue;
      more = (kind->name == "all_to_all" || gather) && p.consume(';');
      if (more)
        if (auto s = next_move(); !s) return s.error();
    }
    if (auto s = p.expect(')'); !s) return s.error();
  }
  const std::size_t close = p.pos() - 1;
  for (auto k : kind->keys)
    if (!k.empty() && !fields.has(k))
      return p.error(close, fmt::format("{} is missing the key {}=", name, k));
  if (auto s = p.expect_end("the step"); !s) return s.error();
  Step step{make_op(name, fields), std::move(fields.groups), std::move(fields.pairs)};
  return step;
}

/// Where a plan's parse stands: what the next item must be.
enum class Stage { mesh, source, steps, done };

/// Parses one non-blank line into `plan`, advancing `stage` and the mesh in force.
Status parse_line(LineParser& p, Stage& stage, Plan& plan, Mesh& mesh) {
  const std::size_t start = p.pos();
  const std::string_view word = p.identifier();
  if (stage == Stage::mesh) {
    if (word != "mesh") return p.error(start, fmt::format("expected 'mesh {{...}}' first, got '{}'", word));
    auto m = p.mesh();
    if (!m) return m.error();
    if (auto s = p.expect_end("the mesh"); !s) return s;
    plan.mesh = mesh = std::move(*m);
    stage = Stage::source;
    return Ok{};
  }
  if (stage == Stage::source) {
    if (word != "source") return p.error(start, fmt::format("expected 'source <type>' after the mesh, got '{}'", word));
    auto t = p.type(mesh);
    if (!t) return t.error();
    if (auto s = p.expect_end("the source type"); !s) return s;
    plan.source = std::move(*t);
    stage = Stage::steps;
    return Ok{};
  }
  if (stage == Stage::done) return p.error(start, "nothing may follow the target");
  if (word.empty()) return p.error(start, "expected a step or 'target'");
  if (word == "mesh" || word == "source")
    return p.error(start, fmt::format("'{}' may only be given once, at the start", word));
  if (word == "target") {
    auto t = p.type(mesh);
    if (!t) return t.error();
    if (auto s = p.expect_end("the target type"); !s) return s;
    plan.target = std::move(*t);
    stage = Stage::done;
    return Ok{};
  }
  auto step = parse_step(p, word, start, mesh);
  if (!step) return step.error();
  if (const auto* permute = std::get_if<CollectivePermute>(&step->op); permute && permute->to_mesh)
    mesh = *permute->to_mesh;
  if (const auto* transfer = std::get_if<Transfer>(&step->op)) mesh = transfer->to_mesh;
  plan.steps.push_back(std::move(*step));
  return Ok{};
}

/// `[0, 1, 2]`.
std::string int_list(std::span<const int64_t> ids) {
  return fmt::format("[{}]", fmt::join(ids, ", "));
}

/// The keys of a step's op, as written between its parentheses.
struct OpFields {
  std::string operator()(const AllSlice& s) const { return dim_axes(s.dim, s.axes); }
  std::string operator()(const AllGather& s) const {
    std::string out;
    for (const auto& p : s.parts) fmt::format_to(std::back_inserter(out), "{}{}", out.empty() ? "" : "; ", dim_axes(p.dim, p.axes));
    return out;
  }
  std::string operator()(const AllToAll& s) const {
    std::string out;
    for (const auto& m : s.moves)
      fmt::format_to(std::back_inserter(out), "{}src={}, dst={}, axes={}", out.empty() ? "" : "; ", m.src_dim,
                     m.dst_dim, axes_text(m.axes));
    return out;
  }
  std::string operator()(const CollectivePermute& s) const {
    std::string out = fmt::format("to={}", to_string(s.to));
    if (s.to_mesh) fmt::format_to(std::back_inserter(out), ", mesh={}", to_string(*s.to_mesh));
    return out;
  }
  std::string operator()(const ReduceScatter& s) const { return dim_axes(s.dim, s.axes); }
  std::string operator()(const AllReduce& s) const { return fmt::format("axes={}", axes_text(s.axes)); }
  std::string operator()(const AddPending& s) const {
    return fmt::format("axes={}, op={}", axes_text(s.axes), reduce_op_name(s.op));
  }
  std::string operator()(const Transfer& s) const {
    std::string out = fmt::format("mesh={}, to={}", to_string(s.to_mesh), to_string(s.to));
    if (s.table) fmt::format_to(std::back_inserter(out), ", sends={}", sends_text(*s.table));
    return out;
  }

  /// `[(from, to, [src_start], [dst_start], [extent]), ...]`.
  static std::string sends_text(const TransferTable& table) {
    std::string out = "[";
    for (std::size_t i = 0; i < table.size(); ++i) {
      const auto& t = table[i];
      fmt::format_to(std::back_inserter(out), "{}({}, {}, {}, {}, {})", i ? ", " : "", t.from, t.to,
                     int_list(t.src_start), int_list(t.dst_start), int_list(t.extent));
    }
    return out + "]";
  }

  static std::string dim_axes(int dim, const Axes& axes) {
    return fmt::format("dim={}, axes={}", dim, axes_text(axes));
  }
  static std::string axes_text(const Axes& axes) { return to_string(std::span<const AxisRef>(axes));
  }
};

}  // namespace

Result<Plan> parse_plan(std::string_view text) {
  Plan plan;
  Mesh mesh;
  Stage stage = Stage::mesh;
  int line = 1;
  std::size_t begin = 0;
  for (;; ++line) {
    const std::size_t newline = text.find('\n', begin);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
    const std::size_t hash = text.substr(begin, end - begin).find('#');
    std::size_t content_end = hash == std::string_view::npos ? end : begin + hash;
    if (content_end == end && end > begin && text[end - 1] == '\r') --content_end;
    LineParser p(text, begin, content_end, line);
    if (!p.at_end())
      if (auto s = parse_line(p, stage, plan, mesh); !s) return s.error();
    if (newline == std::string_view::npos) break;
    begin = newline + 1;
  }
  if (stage == Stage::mesh)
    return parse_error(text.size(), fmt::format("line {}: the plan is empty; expected 'mesh {{...}}' first", line));
  if (stage == Stage::source)
    return parse_error(text.size(), fmt::format("line {}: expected 'source <type>' after the mesh", line));
  return plan;
}

std::string to_string(const Step& step) {
  std::string out = fmt::format("{}({}", step_name(step.op), std::visit(OpFields{}, step.op));
  if (step.groups) {
    out += ", groups=[";
    for (std::size_t i = 0; i < step.groups->size(); ++i)
      fmt::format_to(std::back_inserter(out), "{}{}", i ? ", " : "", int_list((*step.groups)[i]));
    out += "]";
  }
  if (step.pairs) {
    out += ", pairs=[";
    for (std::size_t i = 0; i < step.pairs->size(); ++i) {
      const auto& [source, target] = (*step.pairs)[i];
      fmt::format_to(std::back_inserter(out), "{}({}, {})", i ? ", " : "", source, target);
    }
    out += "]";
  }
  return out + ")";
}

std::string to_string(const Plan& plan) {
  std::string out = fmt::format("mesh {}\nsource {}\n", to_string(plan.mesh), to_string(plan.source));
  for (const auto& step : plan.steps) fmt::format_to(std::back_inserter(out), "{}\n", to_string(step));
  if (plan.target) fmt::format_to(std::back_inserter(out), "target {}\n", to_string(*plan.target));
  return out;
}

}  // namespace redist
