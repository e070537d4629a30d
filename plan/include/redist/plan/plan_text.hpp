#pragma once
// The textual plan format, one item per line:
//   mesh {x:4, y:2}
//   source f32[{x}16, {y}8]
//   all_to_all(src=0, dst=1, axes={x})
//   all_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y})    (fused: moves split by ';')
//   all_gather(dim=1, axes={y}, groups=[[0,1],[2,3],[4,5],[6,7]])
//   collective_permute(to=f32[{y}16, {x}8], mesh={x:4, y:2} devices=[...], pairs=[(0,1),(1,0)])
//   all_slice(dim=0, axes={z})
//   reduce_scatter(dim=0, axes={z})
//   all_reduce(axes={z})
//   add_pending(axes={z}, op=sum)
//   transfer(mesh={y:4} devices=[4,5,6,7], to=f32[{y}16, 8], sends=[(0, 4, [0, 0], [0, 0], [4, 8]), ...])
//     (mesh= first: the type is on it; sends= optional, the lowering's choice otherwise)
//   target f32[...]
// Blank lines and `#` comments are ignored.

#include <string>
#include <string_view>

#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist {

/// Parses a plan. Error positions are character offsets into `text`; the message
/// starts with "line L:".
Result<Plan> parse_plan(std::string_view text);
/// The step as one line of plan text (no newline).
std::string to_string(const Step& step);
/// The whole plan; parse_plan(to_string(p)) == p.
std::string to_string(const Plan& plan);

}  // namespace redist
