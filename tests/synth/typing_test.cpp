// Typing rules of the steps: every rule, every reason a step is refused, and plans.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "tests/synth/plan_gen.hpp"
#include "tests/synth/test_util.hpp"

namespace redist {
namespace {

using testing::mesh_of;
using testing::state_of;
using testing::sub;
using testing::type_of;
using testing::whole;

/// The type after `op` on (mesh, type) in canonical text, or "error: <message>".
std::string after(std::string_view mesh, std::string_view type, StepOp op) {
  auto next = apply_step(state_of(mesh, type), Step{std::move(op), std::nullopt, std::nullopt});
  if (!next) return "error: " + next.error().message;
  return to_string(next->type);
}

/// The error `op` gets on (mesh, type); a test failure when the step applies.
Error refusal(std::string_view mesh, std::string_view type, Step step) {
  auto next = apply_step(state_of(mesh, type), step);
  if (next) {
    ADD_FAILURE() << "step applied, giving " << to_string(next->type);
    return Error{};
  }
  return next.error();
}
Error refusal(std::string_view mesh, std::string_view type, StepOp op) {
  return refusal(mesh, type, Step{std::move(op), std::nullopt, std::nullopt});
}

/// Expects `e` to be of `kind` with `fragment` in its message.
void expect_error(const Error& e, Error::Kind kind, std::string_view fragment) {
  EXPECT_EQ(e.kind, kind) << e.message;
  EXPECT_NE(e.message.find(fragment), std::string::npos) << e.message;
}

constexpr auto kInvalid = Error::Kind::invalid;
constexpr auto kUnsupported = Error::Kind::unsupported;
constexpr std::string_view kXY = "{x:4, y:2}";

// ---- all_slice

TEST(SynthAllSlice, AppendsAtTheMinorEnd) {
  EXPECT_EQ(after(kXY, "f32[{x}16, 8]", AllSlice{0, {whole("y", 2)}}), "f32[{x,y}16, 8]");
  EXPECT_EQ(after(kXY, "f32[{x}16, 8]", AllSlice{1, {whole("y", 2)}}), "f32[{x}16, {y}8]");
  EXPECT_EQ(after(kXY, "f32[16, 8]", AllSlice{1, {whole("y", 2), whole("x", 4)}}), "f32[16, {y,x}8]");
}

TEST(SynthAllSlice, MergesConsecutiveFactors) {
  EXPECT_EQ(after(kXY, "f32[{x:(1)2}16]", AllSlice{0, {sub("x", 2, 2)}}), "f32[{x}16]");
  EXPECT_EQ(after(kXY, "f32[{x:(2)2}16, 8]", AllSlice{1, {sub("x", 1, 2)}}), "f32[{x:(2)2}16, {x:(1)2}8]");
}

TEST(SynthAllSlice, RefusesADimOutOfRange) {
  expect_error(refusal(kXY, "f32[16, 8]", AllSlice{2, {whole("y", 2)}}), kInvalid, "dim 2 is out of range for rank 2");
  expect_error(refusal(kXY, "f32[16, 8]", AllSlice{-1, {whole("y", 2)}}), kInvalid, "dim -1 is out of range");
}

TEST(SynthAllSlice, RefusesNoAxes) { expect_error(refusal(kXY, "f32[16]", AllSlice{0, {}}), kInvalid, "the step names no axes"); }

TEST(SynthAllSlice, RefusesAnUnknownAxis) {
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {whole("w", 2)}}), kInvalid, "unknown axis 'w'");
}

TEST(SynthAllSlice, RefusesAWholeAxisOfTheWrongSize) {
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {whole("x", 2)}}), kInvalid,
               "axis 'x' must have size 4");
}

TEST(SynthAllSlice, RefusesASubAxisThatIsNotAFactor) {
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {sub("x", 1, 3)}}), kInvalid, "sub-axis x:(1)3: 1 * 3 does not divide the size of axis 'x' (4)");
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {sub("x", 4, 2)}}), kInvalid, "sub-axis x:(4)2: 4 * 2 does not divide");
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {sub("x", 2, 1)}}), kInvalid, "sub-axis x:(2)1 has size 1");
}

TEST(SynthAllSlice, RefusesASubAxisCoveringTheWholeAxis) {
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {sub("x", 1, 4)}}), kInvalid, "sub-axis x:(1)4 covers the whole axis; write 'x'");
}

TEST(SynthAllSlice, RefusesAnAxisUsedByADim) {
  expect_error(refusal(kXY, "f32[16, {x}8]", AllSlice{0, {whole("x", 4)}}), kInvalid,
               "axis x overlaps x already used by dim 1");
  expect_error(refusal(kXY, "f32[16, {x:(2)2}8]", AllSlice{0, {whole("x", 4)}}), kInvalid,
               "axis x overlaps x:(2)2 already used by dim 1");
}

TEST(SynthAllSlice, RefusesAnAxisUsedAsAReduction) {
  expect_error(refusal(kXY, "f32[16] sum{y}", AllSlice{0, {whole("y", 2)}}), kInvalid,
               "axis y overlaps y already used as a reduction axis");
}

TEST(SynthAllSlice, RefusesSubAxesThatDoNotNest) {
  expect_error(refusal("{x:12}", "f32[{x:(1)2}24]", AllSlice{0, {sub("x", 3, 2)}}), kInvalid,
               "axis x:(3)2 does not nest with x:(1)2 already used by dim 0");
}

TEST(SynthAllSlice, RefusesOverlappingAxesInOneStep) {
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {whole("y", 2), whole("y", 2)}}), kInvalid,
               "axis y overlaps y in the same step");
  expect_error(refusal(kXY, "f32[16]", AllSlice{0, {whole("x", 4), sub("x", 2, 2)}}), kInvalid,
               "axis x:(2)2 overlaps x in the same step");
}

TEST(SynthAllSlice, RefusesASliceWhosePaddedBlocksDoNotNest) {
  // {x}10 holds 3 per device, {x,y}10 2: x=0 would keep 0-1 / 2 but {x,y}10 puts 2-3 at (0,1).
  expect_error(refusal(kXY, "f32[{x}10]", AllSlice{0, {whole("y", 2)}}), kUnsupported,
               "dim 0 is padded (global 10 over 8 tiles) and its slice between 4 blocks of 3 and 8 blocks of 2 does "
               "not nest (2 x 2 != 3); only moves to or from the whole dim or between nesting tilings are supported");
}

TEST(SynthAllSlice, SlicesIntoAPaddedDimWhereBlocksNest) {
  EXPECT_EQ(after(kXY, "f32[6, 8]", AllSlice{0, {whole("x", 4)}}), "f32[{x}6, 8]");  // from the whole dim
  EXPECT_EQ(after(kXY, "f32[5, 8]", AllSlice{0, {whole("x", 4), whole("y", 2)}}), "f32[{x,y}5, 8]");  // empty shards
  EXPECT_EQ(after(kXY, "f32[{x}13]", AllSlice{0, {whole("y", 2)}}), "f32[{x,y}13]");  // 2 x 2 nest in 4
}

// ---- all_gather

TEST(SynthAllGather, RemovesASuffix) {
  EXPECT_EQ(after(kXY, "f32[{x,y}16, 8]", AllGather{0, {whole("y", 2)}}), "f32[{x}16, 8]");
  EXPECT_EQ(after(kXY, "f32[{x,y}16, 8]", AllGather{0, {whole("x", 4), whole("y", 2)}}), "f32[16, 8]");
  EXPECT_EQ(after(kXY, "f32[8, {x}16] sum{y}", AllGather{1, {whole("x", 4)}}), "f32[8, 16] sum{y}");
}

TEST(SynthAllGather, GathersAMinorFactorOfAnAxis) {
  EXPECT_EQ(after(kXY, "f32[{x}16]", AllGather{0, {sub("x", 2, 2)}}), "f32[{x:(1)2}16]");
  EXPECT_EQ(after(kXY, "f32[{y,x}16]", AllGather{0, {sub("x", 2, 2)}}), "f32[{y,x:(1)2}16]");
}

TEST(SynthAllGather, GathersAWholeAxisWrittenAsFactors) {
  EXPECT_EQ(after(kXY, "f32[{y,x:(1)2,x:(2)2}16]", AllGather{0, {whole("x", 4)}}), "f32[{y}16]");
  EXPECT_EQ(after(kXY, "f32[{y,x:(1)2,x:(2)2}16]", AllGather{0, {whole("y", 2), sub("x", 1, 2), sub("x", 2, 2)}}),
            "f32[16]");
}

TEST(SynthAllGather, RefusesANonSuffix) {
  expect_error(refusal("{x:2, y:4}", "f32[8, {x,y:(1)2}16]", AllGather{1, {whole("y", 4)}}), kInvalid,
               "axes {y} are not a suffix of dim 1 tiled {x,y:(1)2}");
  expect_error(refusal(kXY, "f32[{x,y}16]", AllGather{0, {whole("x", 4)}}), kInvalid,
               "axes {x} are not a suffix of dim 0 tiled {x,y}");
  expect_error(refusal(kXY, "f32[{x}16]", AllGather{0, {sub("x", 1, 2)}}), kInvalid,
               "axes {x:(1)2} are not a suffix of dim 0 tiled {x}");
  expect_error(refusal(kXY, "f32[16]", AllGather{0, {whole("y", 2)}}), kInvalid,
               "axes {y} are not a suffix of dim 0 tiled {}");
}

TEST(SynthAllGather, RefusesBadArguments) {
  expect_error(refusal(kXY, "f32[{x}16]", AllGather{1, {whole("x", 4)}}), kInvalid, "dim 1 is out of range for rank 1");
  expect_error(refusal(kXY, "f32[{x}16]", AllGather{0, {}}), kInvalid, "the step names no axes");
  expect_error(refusal(kXY, "f32[{x}16]", AllGather{0, {sub("x", 2, 0)}}), kInvalid, "sub-axis x:(2)0 needs positive sizes");
}

TEST(SynthAllGather, GathersAPaddedDimWhoseChunksNest) {
  // To an untiled dim: the first 10 of the 4 x 3 padded chunks.
  EXPECT_EQ(after(kXY, "f32[{x}10]", AllGather{0, {whole("x", 4)}}), "f32[10]");
  EXPECT_EQ(after(kXY, "f32[{x,y}5, 3]", AllGather{0, {whole("x", 4), whole("y", 2)}}), "f32[5, 3]");
  // 2 chunks of ceil(13/8) = 2 nest in ceil(13/4) = 4.
  EXPECT_EQ(after(kXY, "f32[{x,y}13]", AllGather{0, {whole("y", 2)}}), "f32[{x}13]");
}

TEST(SynthAllGather, RefusesAPaddedDimWhoseChunksDoNotNest) {
  // {x,y}12 holds 2 per device; x=0 would get 0-3 but {x}12 puts 0-2 there.
  expect_error(refusal(kXY, "f32[{x,y}12]", AllGather{0, {whole("y", 2)}}), kUnsupported,
               "dim 0 is padded (global 12 over 8 tiles) and its gather between 4 blocks of 3 and 8 blocks of 2 "
               "does not nest (2 x 2 != 3)");
}

// ---- all_to_all

TEST(SynthAllToAll, MovesASuffixToTheMinorEnd) {
  EXPECT_EQ(after(kXY, "f32[{x}16, 8]", AllToAll{0, 1, {whole("x", 4)}}), "f32[16, {x}8]");
  EXPECT_EQ(after(kXY, "f32[{x}16, {y}8]", AllToAll{0, 1, {whole("x", 4)}}), "f32[16, {y,x}8]");
  EXPECT_EQ(after(kXY, "f32[{x,y}16, 8, 8]", AllToAll{0, 2, {whole("x", 4), whole("y", 2)}}), "f32[16, 8, {x,y}8]");
}

TEST(SynthAllToAll, MovesASubAxis) {
  EXPECT_EQ(after(kXY, "f32[{x}16, 8]", AllToAll{0, 1, {sub("x", 2, 2)}}), "f32[{x:(1)2}16, {x:(2)2}8]");
  EXPECT_EQ(after(kXY, "f32[{x:(2)2}16, {x:(1)2}8]", AllToAll{0, 1, {sub("x", 2, 2)}}), "f32[16, {x}8]");
}

TEST(SynthAllToAll, RefusesEqualDims) {
  expect_error(refusal(kXY, "f32[{x}16, 8]", AllToAll{0, 0, {whole("x", 4)}}), kInvalid, "src and dst are both dim 0");
}

TEST(SynthAllToAll, RefusesDimsOutOfRange) {
  expect_error(refusal(kXY, "f32[{x}16, 8]", AllToAll{2, 0, {whole("x", 4)}}), kInvalid,
               "src dim 2 is out of range for rank 2");
  expect_error(refusal(kXY, "f32[{x}16, 8]", AllToAll{0, 5, {whole("x", 4)}}), kInvalid,
               "dst dim 5 is out of range for rank 2");
}

TEST(SynthAllToAll, RefusesANonSuffix) {
  expect_error(refusal(kXY, "f32[{x,y}16, 8]", AllToAll{0, 1, {whole("x", 4)}}), kInvalid,
               "axes {x} are not a suffix of dim 0 tiled {x,y}");
  expect_error(refusal(kXY, "f32[{x}16, 8]", AllToAll{0, 1, {}}), kInvalid, "the step names no axes");
}

TEST(SynthAllToAll, MovesPaddedDimsWhereBlocksNest) {
  EXPECT_EQ(after(kXY, "f32[{x}16, 6]", AllToAll{0, 1, {whole("x", 4)}}), "f32[16, {x}6]");    // split padded
  EXPECT_EQ(after(kXY, "f32[{x}14, 8]", AllToAll{0, 1, {whole("x", 4)}}), "f32[14, {x}8]");    // gathered padded
  EXPECT_EQ(after(kXY, "f32[{x}16, {y}7]", AllToAll{0, 1, {whole("x", 4)}}), "f32[16, {y,x}7]");  // 4 x 1 nest in 4
  EXPECT_EQ(after(kXY, "f32[{x}5, 7]", AllToAll{0, 1, {whole("x", 4)}}), "f32[5, {x}7]");      // both padded
}

/// A fused all_to_all of `moves`.
StepOp fused(std::vector<AllToAllMove> moves) { return AllToAll{std::move(moves)}; }

TEST(SynthFusedAllToAll, AppliesItsMovesInOrder) {
  // Two source dims into one destination: x first, then y, at its minor end.
  EXPECT_EQ(after(kXY, "f32[{x}16, {y}8, 8]", fused({{0, 2, {whole("x", 4)}}, {1, 2, {whole("y", 2)}}})),
            "f32[16, 8, {x,y}8]");
  // Disjoint pairs of dims.
  EXPECT_EQ(after(kXY, "f32[{x}16, 8, {y}8, 8]", fused({{0, 1, {whole("x", 4)}}, {2, 3, {whole("y", 2)}}})),
            "f32[16, {x}8, 8, {y}8]");
  // One source dim into two: the first move takes the minor suffix, the next the rest.
  EXPECT_EQ(after(kXY, "f32[{x,y}16, 8, 8]", fused({{0, 1, {whole("y", 2)}}, {0, 2, {whole("x", 4)}}})),
            "f32[16, {y}8, {x}8]");
  // Sub-axes of one axis in two moves.
  EXPECT_EQ(after(kXY, "f32[{x}16, 8, 8]", fused({{0, 1, {sub("x", 2, 2)}}, {0, 2, {sub("x", 1, 2)}}})),
            "f32[16, {x:(2)2}8, {x:(1)2}8]");
}

TEST(SynthFusedAllToAll, RefusesWhatOneExchangeCannotDo) {
  expect_error(refusal(kXY, "f32[{x}16, {y}8, 8]", fused({{0, 1, {whole("x", 4)}}, {1, 2, {whole("y", 2)}}})),
               kInvalid, "move 2: axes {y} are not a suffix of dim 1 tiled {y,x}");
  expect_error(refusal(kXY, "f32[{x}16, {y}8, 8]", fused({{1, 2, {whole("y", 2)}}, {0, 1, {whole("x", 4)}}})),
               kInvalid, "dim 1 is both a source and a destination of the fused all_to_all");
  expect_error(refusal(kXY, "f32[{x}16, 8, 8]", fused({{0, 1, {whole("x", 4)}}, {0, 2, {whole("x", 4)}}})), kInvalid,
               "move 2: axes {x} are not a suffix of dim 0 tiled {}");
  expect_error(refusal(kXY, "f32[{x}16, {y}8, 8]", fused({{0, 2, {whole("x", 4)}}, {1, 2, {whole("y", 2)}}, {2, 0, {}}})),
               kInvalid, "move 3: the step names no axes");
  expect_error(refusal(kXY, "f32[{x}16, {y}5, 8]", fused({{0, 2, {whole("x", 4)}}, {1, 2, {whole("y", 2)}}})),
               kUnsupported, "a fused all_to_all moves unpadded dims only; dim 1 is padded (global 5 over 2 tiles)");
  expect_error(refusal(kXY, "f32[{x}16, 8]", fused({})), kInvalid, "the all_to_all names no moves");
}

/// Returns a fused all_gather of `parts`.
StepOp fused_gather(std::vector<AllGatherPart> parts) { return AllGather{std::move(parts)}; }

TEST(SynthFusedAllGather, RemovesEachPartsSuffix) {
  EXPECT_EQ(after(kXY, "f32[{x}16, {y}8, 8]", fused_gather({{0, {whole("x", 4)}}, {1, {whole("y", 2)}}})),
            "f32[16, 8, 8]");
  // Part order is the member digits' order only: the same type either way.
  EXPECT_EQ(after(kXY, "f32[{x}16, {y}8, 8]", fused_gather({{1, {whole("y", 2)}}, {0, {whole("x", 4)}}})),
            "f32[16, 8, 8]");
  // Suffixes, sub-axes and three parts.
  EXPECT_EQ(after("{x:4, y:2, z:2}", "f32[{y,x:(2)2}16, {z}8, {x:(1)2}8]",
                  fused_gather({{0, {sub("x", 2, 2)}}, {1, {whole("z", 2)}}, {2, {sub("x", 1, 2)}}})),
            "f32[{y}16, 8, 8]");
}

TEST(SynthFusedAllGather, RefusesWhatOneCollectiveCannotDo) {
  expect_error(refusal(kXY, "f32[{x,y}16, 8]", fused_gather({{0, {whole("y", 2)}}, {0, {whole("x", 4)}}})), kInvalid,
               "dim 0 is gathered by parts 1 and 2 of the fused all_gather; each part gathers its own dim");
  // Overlapping axes: the second part's are no suffix of what the first left.
  expect_error(refusal(kXY, "f32[{x}16, {y}8]", fused_gather({{0, {whole("x", 4)}}, {1, {whole("x", 4)}}})), kInvalid,
               "part 2: axes {x} are not a suffix of dim 1 tiled {y}");
  expect_error(refusal(kXY, "f32[{x}16, {y}8]", fused_gather({{0, {whole("x", 4)}}, {1, {}}})), kInvalid,
               "part 2: the step names no axes");
  expect_error(refusal(kXY, "f32[{x}16, {y}8]", fused_gather({{0, {whole("x", 4)}}, {2, {whole("y", 2)}}})), kInvalid,
               "part 2: dim 2 is out of range for rank 2");
  expect_error(refusal(kXY, "f32[{x}16, {y}5]", fused_gather({{0, {whole("x", 4)}}, {1, {whole("y", 2)}}})),
               kUnsupported, "a fused all_gather gathers unpadded dims only; dim 1 is padded (global 5 over 2 tiles)");
  expect_error(refusal(kXY, "f32[{x}16, 8]", fused_gather({})), kInvalid, "the all_gather names no parts");
}

TEST(SynthAllToAll, RefusesPaddedDimsWhoseBlocksDoNotNest) {
  expect_error(refusal(kXY, "f32[{x}16, {y}5]", AllToAll{0, 1, {whole("x", 4)}}), kUnsupported,
               "dim 1 is padded (global 5 over 8 tiles) and its split between 2 blocks of 3 and 8 blocks of 1 does "
               "not nest (4 x 1 != 3)");
  expect_error(refusal(kXY, "f32[{y,x}10, 8]", AllToAll{0, 1, {whole("x", 4)}}), kUnsupported,
               "dim 0 is padded (global 10 over 8 tiles) and its gather between 2 blocks of 5 and 8 blocks of 2 does "
               "not nest (4 x 2 != 5)");
}

// ---- collective_permute

constexpr std::string_view k22 = "{x:2, y:2}";

/// The state after a permute to `to` (and `to_mesh`) from (mesh, type), as text.
std::string permuted(std::string_view mesh, std::string_view type, std::string_view to,
                     std::optional<std::string_view> to_mesh = std::nullopt) {
  const TypedState before = state_of(mesh, type);
  const Mesh target_mesh = to_mesh ? mesh_of(*to_mesh) : before.mesh;
  auto next = apply_step(before, Step{CollectivePermute{type_of(to, target_mesh), to_mesh ? std::optional(target_mesh) : std::nullopt}, {}, {}});
  if (!next) return "error: " + next.error().message;
  return to_string(next->mesh) + " " + to_string(next->type);
}

Error permute_refusal(std::string_view mesh, std::string_view type, DistType to, std::optional<Mesh> to_mesh = std::nullopt) {
  return refusal(mesh, type, CollectivePermute{std::move(to), std::move(to_mesh)});
}

TEST(SynthCollectivePermute, ReordersAxesInADim) {
  EXPECT_EQ(permuted(k22, "f32[{x,y}16]", "f32[{y,x}16]"), "{x:2, y:2} f32[{y,x}16]");
}

TEST(SynthCollectivePermute, SwapsAxesBetweenDims) {
  EXPECT_EQ(permuted(k22, "f32[{x}16, {y}8]", "f32[{y}16, {x}8]"), "{x:2, y:2} f32[{y}16, {x}8]");
}

TEST(SynthCollectivePermute, SwapsATiledAxisForAReplicatedOne) {
  EXPECT_EQ(permuted(k22, "f32[{x}16, 8]", "f32[{y}16, 8]"), "{x:2, y:2} f32[{y}16, 8]");
  EXPECT_EQ(permuted(kXY, "f32[{x:(2)2}16] sum{y}", "f32[{x:(1)2}16] sum{y}"), "{x:4, y:2} f32[{x:(1)2}16] sum{y}");
}

TEST(SynthCollectivePermute, ChangesTheDeviceOrder) {
  const std::string_view order = "{x:2, y:2} devices=[0, 2, 1, 3]";
  EXPECT_EQ(permuted(k22, "f32[{x}16, {y}8]", "f32[{x}16, {y}8]", order),
            to_string(mesh_of(order)) + " f32[{x}16, {y}8]");
}

TEST(SynthCollectivePermute, AllowsPaddedDims) {
  EXPECT_EQ(permuted(k22, "f32[{x}15]", "f32[{y}15]"), "{x:2, y:2} f32[{y}15]");
}

TEST(SynthCollectivePermute, RefusesOtherMeshAxes) {
  const Mesh other = mesh_of("{x:2, z:2}");
  expect_error(permute_refusal(k22, "f32[{x}16]", type_of("f32[{x}16]", other), other), kInvalid,
               "the new mesh {x:2, z:2} does not have the axes of the current mesh {x:2, y:2}");
}

TEST(SynthCollectivePermute, RefusesAnInvalidTargetType) {
  DistType to = type_of("f32[{x}16]", mesh_of(k22));
  to.dims[0].axes[0].name = "w";
  expect_error(permute_refusal(k22, "f32[{x}16]", to), kInvalid, "to type: ");
}

TEST(SynthCollectivePermute, RefusesAnotherElementType) {
  expect_error(permute_refusal(k22, "f32[{x}16]", type_of("bf16[{x}16]", mesh_of(k22))), kInvalid,
               "element type changes from f32 to bf16");
}

TEST(SynthCollectivePermute, RefusesAnotherRank) {
  expect_error(permute_refusal(k22, "f32[{x}16]", type_of("f32[{x}16, 1]", mesh_of(k22))), kInvalid,
               "rank changes from 1 to 2");
}

TEST(SynthCollectivePermute, RefusesAnotherGlobalSize) {
  expect_error(permute_refusal(k22, "f32[{x}16, 8]", type_of("f32[{x}16, 4]", mesh_of(k22))), kInvalid,
               "dim 1 global size changes from 8 to 4");
}

TEST(SynthCollectivePermute, RefusesAnotherTileCount) {
  expect_error(permute_refusal(k22, "f32[{x}16, 8]", type_of("f32[{x}16, {y}8]", mesh_of(k22))), kInvalid,
               "dim 1 has 1 tiles before and 2 after; a permute must keep every local size");
  expect_error(permute_refusal(kXY, "f32[{x}16]", type_of("f32[{y}16]", mesh_of(kXY))), kInvalid,
               "dim 0 has 4 tiles before and 2 after");
}

TEST(SynthCollectivePermute, RefusesOtherReductionAxes) {
  expect_error(permute_refusal(k22, "f32[{x}16] sum{y}", type_of("f32[{y}16] sum{x}", mesh_of(k22))), kInvalid,
               "reduction axes change from {y} to {x}");
  expect_error(permute_refusal(k22, "f32[{x}16] sum{y}", type_of("f32[{x}16]", mesh_of(k22))), kInvalid,
               "reduction axes change from {y} to {}");
}

TEST(SynthCollectivePermute, AcceptsReductionAxesInAnotherOrder) {
  EXPECT_EQ(permuted("{x:2, y:2, z:2}", "f32[{x}16] sum{y,z}", "f32[{x}16] sum{z,y}"), "{x:2, y:2, z:2} f32[{x}16] sum{y,z}");
}

TEST(SynthCollectivePermute, RefusesAnotherReductionOp) {
  expect_error(permute_refusal(k22, "f32[{x}16] sum{y}", type_of("f32[{x}16] max{y}", mesh_of(k22))), kInvalid,
               "reduction op changes from sum to max");
}

// ---- reduce_scatter

TEST(SynthReduceScatter, MovesReductionAxesToADim) {
  EXPECT_EQ(after("{x:2, z:4}", "f32[16, 8] sum{z}", ReduceScatter{0, {whole("z", 4)}}), "f32[{z}16, 8]");
  EXPECT_EQ(after("{x:2, z:4}", "f32[{x}16, 8] sum{z}", ReduceScatter{0, {whole("z", 4)}}), "f32[{x,z}16, 8]");
  EXPECT_EQ(after("{x:2, z:4}", "f32[16, 8] max{x,z}", ReduceScatter{1, {whole("z", 4)}}), "f32[16, {z}8] max{x}");
}

TEST(SynthReduceScatter, RefusesAnAxisThatIsNoReduction) {
  expect_error(refusal("{x:2, z:4}", "f32[16] sum{z}", ReduceScatter{0, {whole("x", 2)}}), kInvalid,
               "axis x is not a reduction axis of the type (reduction axes {z})");
  expect_error(refusal("{x:2, z:4}", "f32[16] sum{z}", ReduceScatter{0, {sub("z", 1, 2)}}), kInvalid,
               "axis z:(1)2 is not a reduction axis");
}

TEST(SynthReduceScatter, RefusesAnAxisListedTwice) {
  expect_error(refusal("{x:2, z:4}", "f32[16] sum{z}", ReduceScatter{0, {whole("z", 4), whole("z", 4)}}), kInvalid,
               "axis z is listed twice");
}

TEST(SynthReduceScatter, RefusesBadArguments) {
  expect_error(refusal("{x:2, z:4}", "f32[16] sum{z}", ReduceScatter{1, {whole("z", 4)}}), kInvalid,
               "dim 1 is out of range for rank 1");
  expect_error(refusal("{x:2, z:4}", "f32[16] sum{z}", ReduceScatter{0, {}}), kInvalid, "the step names no axes");
}

TEST(SynthReduceScatter, RefusesPadding) {
  expect_error(refusal("{x:2, z:4}", "f32[6] sum{z}", ReduceScatter{0, {whole("z", 4)}}), kUnsupported,
               "dim 0 is padded (global 6 over 4 tiles)");
}

// ---- all_reduce

TEST(SynthAllReduce, RemovesReductionAxes) {
  EXPECT_EQ(after("{x:2, z:4}", "f32[{x}16] sum{z}", AllReduce{{whole("z", 4)}}), "f32[{x}16]");
  EXPECT_EQ(after("{x:2, z:4}", "f32[16] min{x,z}", AllReduce{{whole("x", 2)}}), "f32[16] min{z}");
}

TEST(SynthAllReduce, ForgetsTheOpWithTheLastAxis) {
  auto next = apply_step(state_of("{z:4}", "f32[16] max{z}"), Step{AllReduce{{whole("z", 4)}}, {}, {}});
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->type, type_of("f32[16]", mesh_of("{z:4}")));
}

TEST(SynthAllReduce, RefusesAnAxisThatIsNoReduction) {
  expect_error(refusal("{x:2, z:4}", "f32[16]", AllReduce{{whole("z", 4)}}), kInvalid,
               "axis z is not a reduction axis of the type (reduction axes {})");
  expect_error(refusal("{x:2, z:4}", "f32[16] sum{x}", AllReduce{{}}), kInvalid, "the step names no axes");
  expect_error(refusal("{x:2, z:4}", "f32[16] sum{x}", AllReduce{{whole("q", 4)}}), kInvalid, "unknown axis 'q'");
}

// ---- explicit lowering and the state before

TEST(SynthExplicitLowering, RefusesDeviceIdsOutOfRange) {
  expect_error(refusal(k22, "f32[{x}16]", Step{AllGather{0, {whole("x", 2)}}, DeviceGroups{{0, 2}, {1, 4}}, {}}), kInvalid,
               "device 4 in groups is out of range [0, 4)");
  expect_error(refusal(k22, "f32[{x}16]", Step{CollectivePermute{type_of("f32[{y}16]", mesh_of(k22)), {}}, {},
                                             DevicePairs{{0, 0}, {-1, 1}}}),
               kInvalid, "device -1 in pairs is out of range [0, 4)");
}

TEST(SynthExplicitLowering, RefusesGroupsOnAPermuteAndPairsElsewhere) {
  expect_error(refusal(k22, "f32[{x}16]", Step{CollectivePermute{type_of("f32[{y}16]", mesh_of(k22)), {}}, DeviceGroups{}, {}}),
               kInvalid, "collective_permute takes pairs=, not groups=");
  expect_error(refusal(k22, "f32[{x}16]", Step{AllGather{0, {whole("x", 2)}}, {}, DevicePairs{}}), kInvalid,
               "pairs= only applies to collective_permute");
}

TEST(SynthExplicitLowering, AcceptsIdsInRange) {
  auto next = apply_step(state_of(k22, "f32[{x}16]"), Step{AllGather{0, {whole("x", 2)}}, DeviceGroups{{0, 2}, {1, 3}}, {}});
  ASSERT_TRUE(next.ok()) << next.error().message;
  EXPECT_EQ(to_string(next->type), "f32[16]");
}

TEST(SynthApplyStep, RefusesAnInvalidStateBefore) {
  TypedState before = state_of(k22, "f32[{x}16]");
  before.type.dims[0].axes.push_back(whole("x", 2));
  auto next = apply_step(before, Step{AllGather{0, {whole("x", 2)}}, {}, {}});
  ASSERT_FALSE(next.ok());
  expect_error(next.error(), kInvalid, "the type before the step: ");
}

// ---- type_plan

Plan plan_of(std::string_view text) {
  auto plan = parse_plan(text);
  if (!plan) ADD_FAILURE() << plan.error().to_string();
  return plan.ok() ? *plan : Plan{};
}

TEST(SynthTypePlan, GivesTheStateAfterEachStep) {
  const Plan plan = plan_of(
      "mesh {x:4, y:2}\n"
      "source f32[{x}16, {y}8]\n"
      "all_to_all(src=0, dst=1, axes={x:(2)2})\n"
      "collective_permute(to=f32[{x:(1)2}16, {x:(2)2,y}8], mesh={x:4, y:2} devices=[7, 6, 5, 4, 3, 2, 1, 0])\n"
      "all_gather(dim=1, axes={y})\n"
      "target f32[{x:(1)2}16, {x:(2)2}8]\n");
  auto states = type_plan(plan);
  ASSERT_TRUE(states.ok()) << states.error().message;
  ASSERT_EQ(states->size(), 3u);
  EXPECT_EQ(to_string((*states)[0].type), "f32[{x:(1)2}16, {y,x:(2)2}8]");
  EXPECT_EQ((*states)[0].mesh, plan.mesh);
  EXPECT_EQ(to_string((*states)[1].type), "f32[{x:(1)2}16, {x:(2)2,y}8]");
  EXPECT_EQ((*states)[1].mesh, mesh_of("{x:4, y:2} devices=[7, 6, 5, 4, 3, 2, 1, 0]"));
  EXPECT_EQ(to_string((*states)[2].type), "f32[{x:(1)2}16, {x:(2)2}8]");
  EXPECT_EQ((*states)[2].mesh, (*states)[1].mesh);
}

TEST(SynthTypePlan, NamesTheFailingStep) {
  auto states = type_plan(plan_of(
      "mesh {x:4, y:2}\n"
      "source f32[{x}16, {y}8]\n"
      "all_gather(dim=1, axes={y})\n"
      "all_gather(dim=1, axes={y})\n"));
  ASSERT_FALSE(states.ok());
  expect_error(states.error(), kInvalid, "step 2 (all_gather(dim=1, axes={y})): axes {y} are not a suffix of dim 1 tiled {}");
}

TEST(SynthTypePlan, KeepsTheKindOfTheStepError) {
  auto states = type_plan(plan_of("mesh {x:4, y:2}\nsource f32[{x,y}12]\nall_gather(dim=0, axes={y})\n"));
  ASSERT_FALSE(states.ok());
  expect_error(states.error(), kUnsupported, "step 1 (all_gather(dim=0, axes={y})): unsupported: dim 0 is padded");
}

TEST(SynthTypePlan, ChecksTheTarget) {
  auto states = type_plan(plan_of("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_gather(dim=1, axes={y})\ntarget f32[16, {y}8]\n"));
  ASSERT_FALSE(states.ok());
  expect_error(states.error(), kInvalid, "the plan ends at f32[{x}16, 8] but the target is f32[16, {y}8]");
}

TEST(SynthTypePlan, ComparesTheTargetCanonically) {
  auto ok = type_plan(plan_of("mesh {x:4}\nsource f32[{x:(1)2,x:(2)2}16]\ntarget f32[{x}16]\n"));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_TRUE(ok->empty());
}

TEST(SynthTypePlan, ValidatesTheSourceAndTarget) {
  Plan plan = plan_of("mesh {x:4}\nsource f32[{x}16]\n");
  plan.source.dims[0].axes.push_back(whole("x", 4));
  auto bad_source = type_plan(plan);
  ASSERT_FALSE(bad_source.ok());
  expect_error(bad_source.error(), kInvalid, "source: ");

  plan = plan_of("mesh {x:4}\nsource f32[{x}16]\n");
  plan.target = plan.source;
  plan.target->dims[0].axes[0].name = "q";
  auto bad_target = type_plan(plan);
  ASSERT_FALSE(bad_target.ok());
  expect_error(bad_target.error(), kInvalid, "target: ");
}

RC_GTEST_PROP(SynthTypePlan, RandomValidPlansGiveValidCanonicalStates, ()) {
  const Plan plan = *testing::gen_plan();
  auto states = type_plan(plan);
  RC_ASSERT(states.ok());
  RC_ASSERT(states->size() == plan.steps.size());
  for (const auto& s : *states) {
    RC_ASSERT(validate(s.type, s.mesh).ok());
    RC_ASSERT(canonical(s.type, s.mesh) == s.type);
    RC_ASSERT(s.mesh.same_axes(plan.mesh));
  }
}

}  // namespace
}  // namespace redist
