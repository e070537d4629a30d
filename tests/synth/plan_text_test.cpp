// The plan text format: parsing, printing, round trips and parse errors.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "tests/synth/plan_gen.hpp"
#include "tests/synth/test_util.hpp"

namespace redist {
namespace {

using testing::mesh_of;
using testing::sub;
using testing::type_of;
using testing::whole;

constexpr std::string_view kHeader = "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\n";

/// The parse error of `text`; a test failure when it parses.
Error parse_failure(const std::string& text) {
  auto plan = parse_plan(text);
  if (plan) {
    ADD_FAILURE() << "parsed: " << to_string(*plan);
    return Error{};
  }
  return plan.error();
}

/// Expects the parse of `text` to fail on line `line` at offset `position`, with
/// `fragment` in the message.
void expect_parse_error(const std::string& text, int line, std::size_t position, std::string_view fragment) {
  const Error e = parse_failure(text);
  const std::string prefix = "line " + std::to_string(line) + ": ";
  EXPECT_EQ(e.message.substr(0, prefix.size()), prefix) << e.message;
  EXPECT_NE(e.message.find(fragment), std::string::npos) << e.message;
  EXPECT_EQ(e.position, position) << e.message;
}
/// The same, at the first occurrence of `at` in `text`.
void expect_parse_error(const std::string& text, int line, std::string_view at, std::string_view fragment) {
  expect_parse_error(text, line, text.find(at), fragment);
}
/// The end of the last line of `text`, which ends in a newline.
std::size_t last_line_end(const std::string& text) { return text.size() - 1; }

TEST(SynthParsePlan, ReadsEveryStepKind) {
  const std::string text = std::string(
      "# a plan\n"
      "mesh {x:4, y:2, z:2}\n"
      "\n"
      "source f32[{x}16, {y}8] sum{z}   # the source\n"
      "reduce_scatter(dim=0, axes={z})\n"
      "all_to_all(src=0, dst=1, axes={z})\n"
      "all_gather(dim=1, axes={y, z}, groups=[[0, 1], [2, 3]])\n"
      "all_slice(dim=1, axes={x:(2)2})\n"
      "all_reduce( axes = {z} )\n"
      "collective_permute(to=f32[{y}16, {x}8], mesh={x:4, y:2, z:2} devices=[1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], pairs=[(0, 1), (1, 0)])\n"
      "target f32[{y}16, {x}8]\n");
  auto plan = parse_plan(text);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(plan->mesh, mesh_of("{x:4, y:2, z:2}"));
  EXPECT_EQ(plan->source, type_of("f32[{x}16, {y}8] sum{z}", plan->mesh));
  ASSERT_EQ(plan->steps.size(), 6u);
  const auto y = whole("y", 2), z = whole("z", 2);
  EXPECT_EQ(plan->steps[0], (Step{ReduceScatter{0, {z}}, {}, {}}));
  EXPECT_EQ(plan->steps[1], (Step{AllToAll{0, 1, {z}}, {}, {}}));
  EXPECT_EQ(plan->steps[2], (Step{AllGather{1, {y, z}}, DeviceGroups{{0, 1}, {2, 3}}, {}}));
  EXPECT_EQ(plan->steps[3], (Step{AllSlice{1, {sub("x", 2, 2)}}, {}, {}}));
  EXPECT_EQ(plan->steps[4], (Step{AllReduce{{z}}, {}, {}}));
  const Mesh order = mesh_of("{x:4, y:2, z:2} devices=[1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]");
  EXPECT_EQ(plan->steps[5],
            (Step{CollectivePermute{type_of("f32[{y}16, {x}8]", order), order}, {}, DevicePairs{{0, 1}, {1, 0}}}));
  ASSERT_TRUE(plan->target.has_value());
  EXPECT_EQ(*plan->target, type_of("f32[{y}16, {x}8]", order));
}

TEST(SynthParsePlan, AcceptsAPlanWithoutStepsOrTarget) {
  auto plan = parse_plan("mesh {x:2}\r\nsource f32[{x}4]\r\n");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_TRUE(plan->steps.empty());
  EXPECT_FALSE(plan->target.has_value());
}

TEST(SynthParsePlan, ReadsLaterLinesOnThePermutedMesh) {
  // The permute to other axes is refused by type_plan, not by the parser; the parser
  // resolves the later axis `a` on the permute's mesh.
  auto plan = parse_plan("mesh {x:4}\nsource f32[{x}8]\ncollective_permute(to=f32[{x}8], mesh={a:4})\nall_gather(dim=0, axes={a})\n");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(plan->steps[1], (Step{AllGather{0, {whole("a", 4)}}, {}, {}}));
  EXPECT_FALSE(parse_plan("mesh {x:4}\nsource f32[{x}8]\nall_gather(dim=0, axes={a})\n").ok());
}

TEST(SynthParsePlan, KeepsStepsUnchecked) {
  auto plan = parse_plan(std::string(kHeader) + "all_gather(dim=7, axes={x:(3)5}, pairs=[(9, 9)])\n");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(plan->steps[0], (Step{AllGather{7, {sub("x", 3, 5)}}, {}, DevicePairs{{9, 9}}}));
}

TEST(SynthPrintStep, WritesEveryStepKind) {
  const Mesh m = mesh_of("{x:2, y:2}");
  const Mesh order = mesh_of("{x:2, y:2} devices=[0, 2, 1, 3]");
  EXPECT_EQ(to_string(Step{AllGather{1, {whole("y", 2)}}, {}, {}}), "all_gather(dim=1, axes={y})");
  EXPECT_EQ(to_string(Step{AllToAll{0, 1, {whole("x", 2)}}, {}, {}}), "all_to_all(src=0, dst=1, axes={x})");
  EXPECT_EQ(to_string(Step{CollectivePermute{type_of("f32[{y}16, {x}8]", m), {}}, {}, {}}),
            "collective_permute(to=f32[{y}16, {x}8])");
  EXPECT_EQ(to_string(Step{CollectivePermute{type_of("f32[{y}16, {x}8]", m), order}, {}, {}}),
            "collective_permute(to=f32[{y}16, {x}8], mesh=" + to_string(order) + ")");
  EXPECT_EQ(to_string(Step{ReduceScatter{0, {whole("z", 2)}}, {}, {}}), "reduce_scatter(dim=0, axes={z})");
  EXPECT_EQ(to_string(Step{AllReduce{{whole("z", 2)}}, {}, {}}), "all_reduce(axes={z})");
  EXPECT_EQ(to_string(Step{AllSlice{0, {whole("z", 2), sub("x", 1, 2)}}, {}, {}}), "all_slice(dim=0, axes={z,x:(1)2})");
  EXPECT_EQ(to_string(Step{AllGather{1, {whole("y", 2)}}, DeviceGroups{{0, 1}, {2, 3}}, {}}),
            "all_gather(dim=1, axes={y}, groups=[[0, 1], [2, 3]])");
  EXPECT_EQ(to_string(Step{CollectivePermute{type_of("f32[{y}16, {x}8]", m), {}}, {}, DevicePairs{{0, 1}, {1, 0}}}),
            "collective_permute(to=f32[{y}16, {x}8], pairs=[(0, 1), (1, 0)])");
}

TEST(SynthPrintPlan, WritesOneItemPerLine) {
  Plan plan;
  plan.mesh = mesh_of("{x:4, y:2}");
  plan.source = type_of("f32[{x}16, {y}8]", plan.mesh);
  plan.steps.push_back(Step{AllToAll{0, 1, {whole("x", 4)}}, {}, {}});
  plan.target = type_of("f32[16, {y,x}8]", plan.mesh);
  EXPECT_EQ(to_string(plan),
            "mesh {x:4, y:2}\n"
            "source f32[{x}16, {y}8]\n"
            "all_to_all(src=0, dst=1, axes={x})\n"
            "target f32[16, {y,x}8]\n");
}

/// Expects parse_plan(to_string(plan)) == plan.
void expect_round_trip(const Plan& plan) {
  const std::string text = to_string(plan);
  auto back = parse_plan(text);
  ASSERT_TRUE(back.ok()) << text << back.error().to_string();
  EXPECT_EQ(*back, plan) << text << "---\n" << to_string(*back);
}

TEST(SynthRoundTrip, ExamplePlans) {
  for (const char* text : {
           "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x})\n"
           "all_gather(dim=1, axes={x}, groups=[[0,2,4,6],[1,3,5,7]])\ntarget f32[16, {y}8]\n",
           "mesh {x:2, y:2}\nsource bf16[{x}16, {y}8]\ncollective_permute(to=bf16[{y}16, {x}8], mesh={x:2, y:2} "
           "devices=[0,2,1,3], pairs=[(0,0),(2,1),(1,2),(3,3)])\n",
           "mesh {x:4, z:2}\nsource s8[16, 8] sum{z}\nreduce_scatter(dim=0, axes={z})\nall_slice(dim=1, axes={x:(1)2})\n"
           "all_slice(dim=1, axes={x:(2)2})\n",
           "mesh {x:4, z:2}\nsource f64[16, 8] min{z, x}\nall_reduce(axes={x, z}, groups=[])\n",
           "mesh {x:2, y:2}\nsource f32[{x}8, {y}8, 8]\nall_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y})\n"
           "target f32[8, 8, {x,y}8]\n",
           "mesh {x:2, y:2}\nsource f32[{x}8, {y}8, 8]\nall_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y}, "
           "groups=[[0,2,1,3]])\n",
           "mesh {x:2, y:2}\nsource f32[{x}8, {y}8, 8]\nall_gather(dim=0, axes={x}; dim=1, axes={y})\n"
           "target f32[8, 8, 8]\n",
           "mesh {x:2, y:2, z:2}\nsource f32[{x}8, {z,y}8, 8]\nall_gather(dim=1, axes={y}; dim=0, axes={x}, "
           "groups=[[0,4,2,6],[1,5,3,7]])\n",
       }) {
    auto plan = parse_plan(text);
    ASSERT_TRUE(plan.ok()) << text << plan.error().to_string();
    expect_round_trip(*plan);
  }
}

RC_GTEST_PROP(SynthRoundTrip, RandomPlans, ()) {
  const Plan plan = *testing::gen_plan();
  const std::string text = to_string(plan);
  auto back = parse_plan(text);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == plan);
  RC_ASSERT(to_string(*back) == text);
}

// ---- parse errors

TEST(SynthParseErrors, UnknownStep) {
  expect_parse_error(std::string(kHeader) + "all_gathr(dim=0, axes={x})\n", 3, "all_gathr", "unknown step 'all_gathr'");
}

TEST(SynthParseErrors, MissingKey) {
  const std::string text = std::string(kHeader) + "all_gather(axes={x})\n";
  expect_parse_error(text, 3, ")\n", "all_gather is missing the key dim=");
  expect_parse_error(std::string(kHeader) + "all_to_all(src=0, axes={x})\n", 3, ")\n", "all_to_all is missing the key dst=");
  expect_parse_error(std::string(kHeader) + "collective_permute()\n", 3, ")\n", "collective_permute is missing the key to=");
  expect_parse_error(std::string(kHeader) + "all_to_all(src=0, axes={x}; src=1, dst=0, axes={y})\n", 3,
                     "; src=1", "move 1 of the all_to_all is missing the key dst=");
  expect_parse_error(std::string(kHeader) + "all_to_all(src=0, dst=1, axes={x}; src=1, dst=0)\n", 3, ")\n",
                     "all_to_all is missing the key axes=");
  expect_parse_error(std::string(kHeader) + "all_to_all(src=0, dst=1, axes={x}; src=1, src=0)\n", 3, "src=0)",
                     "key 'src' given twice");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0; axes={x})\n", 3, "; axes",
                     "part 1 of the all_gather is missing the key axes=");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x}; axes={y})\n", 3, ")\n",
                     "all_gather is missing the key dim=");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x}; dim=1, dim=0)\n", 3, "dim=0)",
                     "key 'dim' given twice");
  expect_parse_error(std::string(kHeader) + "all_slice(dim=0, axes={x}; dim=1, axes={y})\n", 3, "; dim=1",
                     "expected ')'");
}

TEST(SynthPrintStep, WritesAFusedAllGatherPartByPart) {
  const Step step{AllGather{std::vector<AllGatherPart>{{0, {whole("x", 4)}}, {2, {whole("y", 2)}}}}, {}, {}};
  EXPECT_EQ(to_string(step), "all_gather(dim=0, axes={x}; dim=2, axes={y})");
}

TEST(SynthPrintStep, WritesAFusedAllToAllMoveByMove) {
  const Step step{AllToAll{std::vector<AllToAllMove>{{0, 2, {whole("x", 4)}}, {1, 2, {whole("y", 2)}}}}, {}, {}};
  EXPECT_EQ(to_string(step), "all_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y})");
}

TEST(SynthParseErrors, UnknownOrRepeatedKey) {
  expect_parse_error(std::string(kHeader) + "all_reduce(dim=0, axes={x})\n", 3, "dim=",
                     "unknown key 'dim' for all_reduce (expected axes, groups, pairs)");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x}, mesh={x:4, y:2})\n", 3, "mesh={",
                     "unknown key 'mesh' for all_gather");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, dim=1, axes={x})\n", 3, "dim=1", "key 'dim' given twice");
  expect_parse_error(std::string(kHeader) + "all_gather(=0)\n", 3, "=0", "expected a key such as dim=");
}

TEST(SynthParseErrors, BadAxis) {
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x, w})\n", 3, "w}", "unknown axis 'w'");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x:(0)2})\n", 3, "0)2", "expected an integer >= 1, got 0");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x:2})\n", 3, "2})", "expected '(' but found '2'");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x y})\n", 3, "y})", "expected '}' but found 'y'");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={,})\n", 3, ",})", "expected an axis name but found ','");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes=x)\n", 3, "x)", "expected '{' but found 'x'");
}

TEST(SynthParseErrors, BadInteger) {
  expect_parse_error(std::string(kHeader) + "all_gather(dim=a, axes={x})\n", 3, "a, axes", "expected an integer but found 'a'");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=99999999999, axes={x})\n", 3, "99999999999",
                     "dim 99999999999 is out of range");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=99999999999999999999, axes={x})\n", 3, "99999999999999999999",
                     "integer too large");
}

TEST(SynthParseErrors, BadTypeInsideTo) {
  const std::string text = std::string(kHeader) + "collective_permute(to=f32[{w}16, {y}8])\n";
  const Error e = parse_failure(text);
  EXPECT_EQ(e.message.rfind("line 3: ", 0), 0u) << e.message;
  EXPECT_NE(e.message.find("unknown axis 'w'"), std::string::npos) << e.message;
  EXPECT_EQ(e.position, text.find("w}16"));
}

TEST(SynthParseErrors, BadMeshInsidePermute) {
  const std::string text = std::string(kHeader) + "collective_permute(to=f32[{x}16, {y}8], mesh={x:4, y:2} devices=[0, 0])\n";
  const Error e = parse_failure(text);
  EXPECT_EQ(e.message.rfind("line 3: ", 0), 0u) << e.message;
  EXPECT_GE(e.position, text.find("devices=")) << e.message;
  EXPECT_LT(e.position, text.size()) << e.message;
}

TEST(SynthParseErrors, BadGroupsAndPairs) {
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x}, groups=[0, 1])\n", 3, "0, 1])",
                     "expected '[' but found '0'");
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x}, pairs=[(0 1)])\n", 3, "1)]",
                     "expected ',' but found '1'");
  const std::string open = std::string(kHeader) + "all_gather(dim=0, axes={x}, groups=[[0, 1]\n";
  expect_parse_error(open, 3, last_line_end(open), "expected ']' at the end of the line");
}

TEST(SynthParseErrors, TrailingJunk) {
  expect_parse_error(std::string(kHeader) + "all_gather(dim=0, axes={x}) junk\n", 3, "junk", "unexpected 'junk' after the step");
  expect_parse_error("mesh {x:4} junk\nsource f32[8]\n", 1, "junk", "unexpected 'junk' after the mesh");
  expect_parse_error(std::string(kHeader) + "target f32[16, 8], 1\n", 3, ", 1", "unexpected ', 1' after the target type");
  const std::string open = std::string(kHeader) + "all_gather(dim=0, axes={x}\n";
  expect_parse_error(open, 3, last_line_end(open), "expected ')' at the end of the line");
}

TEST(SynthParseErrors, ShiftsCorePositions) {
  expect_parse_error("mesh {x:0}\n", 1, "0}", "");
  const std::string text = std::string(kHeader) + "target f32[{x}16, {x}8]\n";
  const Error e = parse_failure(text);
  EXPECT_EQ(e.message.rfind("line 3: ", 0), 0u) << e.message;
  EXPECT_EQ(e.position, text.rfind("x}8"));
}

TEST(SynthParseErrors, OrderOfItems) {
  expect_parse_error("", 1, "", "the plan is empty");
  expect_parse_error("# nothing\n\n", 3, 11, "the plan is empty");
  expect_parse_error("source f32[8]\n", 1, "source", "expected 'mesh {...}' first, got 'source'");
  expect_parse_error("mesh {x:4}\n", 2, 11, "expected 'source <type>' after the mesh");
  expect_parse_error("mesh {x:4}\nall_reduce(axes={x})\n", 2, "all_reduce",
                     "expected 'source <type>' after the mesh, got 'all_reduce'");
  expect_parse_error(std::string(kHeader) + "mesh {x:4}\n", 3, "mesh {x:4}\n", "'mesh' may only be given once");
  expect_parse_error(std::string(kHeader) + "source f32[8]\n", 3, "source f32[8]", "'source' may only be given once");
  expect_parse_error(std::string(kHeader) + "target f32[16, 8]\nall_reduce(axes={x})\n", 4, "all_reduce",
                     "nothing may follow the target");
  expect_parse_error(std::string(kHeader) + "(dim=0)\n", 3, "(dim", "expected a step or 'target'");
}

}  // namespace
}  // namespace redist
