// Reshards between meshes with other axes over the same devices (docs/meshes.md): each
// case of tests/data/mesh_changes.txt is synthesized on the common refinement, proved
// by the checker (G1-G3), its two type rewrites proved by prove_rewrite, and run by the
// interpreter from the ORIGINAL source placement to the ORIGINAL target placement with
// every element compared; the baselines run the same way. The rewrite proof and the
// comparison are shown able to fail: a wrong rewrite is refuted with a device the
// interpreter confirms, and a changed element is caught.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "redist/core/refine.hpp"
#include "redist/proofs/anchors.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/synth/mesh_change.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/interpreter.hpp"
#include "redist/verify/rewrite_proof.hpp"

namespace redist {
namespace {

/// The cases of tests/data/mesh_changes.txt.
std::vector<Anchor> cases() {
  std::ifstream in(REDIST_MESH_CHANGES_FILE);
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = parse_anchors(text.str());
  if (!parsed.ok()) throw std::runtime_error(parsed.error().to_string());
  return *parsed;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& c : cases()) names.push_back(c.name);
  return names;
}

class MeshChange : public ::testing::TestWithParam<std::string> {};

TEST_P(MeshChange, PlansProvesAndRuns) {
  const auto all = cases();
  const auto it = std::find_if(all.begin(), all.end(), [](const Anchor& a) { return a.name == GetParam(); });
  ASSERT_NE(it, all.end());
  const Anchor& c = *it;
  const Mesh &mesh = c.mesh, &target_mesh = c.target_mesh;
  const DistType &src = c.source, &dst = c.target;
  auto r = refine(mesh, src, target_mesh, dst);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ("refined " + to_string(r->source_mesh), c.tags);
  EXPECT_TRUE(r->source_mesh.same_axes(r->target_mesh));

  // The rewrites keep the placements.
  const PropertyResult source_rewrite = prove_rewrite(mesh, src, r->source_mesh, r->source);
  const PropertyResult target_rewrite = prove_rewrite(target_mesh, dst, r->target_mesh, r->target);
  EXPECT_EQ(source_rewrite.verdict, Verdict::proved) << source_rewrite.detail;
  EXPECT_EQ(target_rewrite.verdict, Verdict::proved) << target_rewrite.detail;

  // The plan runs on the refinement and is proved there.
  auto plan = synthesize(mesh, src, target_mesh, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(plan->mesh, r->source_mesh);
  EXPECT_EQ(plan->source, r->source);
  ASSERT_TRUE(plan->target.has_value());
  EXPECT_EQ(canonical(*plan->target, r->target_mesh), canonical(r->target, r->target_mesh));
  auto report = check_plan(*plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
  EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
  EXPECT_TRUE(report->verified());
  EXPECT_LE(report->peak_local_bytes, report->bound_bytes);

  // From the original source placement to the original target placement.
  auto data = run_plan(*plan, distribute(mesh, src));
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  const auto mismatch = compare(target_mesh, dst, *data);
  EXPECT_FALSE(mismatch) << mismatch->to_string();
  // The comparison can fail: one changed element of the last device is caught.
  auto changed = *data;
  for (auto& v : changed.back().values)
    if (v != kPadding) {
      v += 1;
      break;
    }
  EXPECT_TRUE(compare(target_mesh, dst, changed));
  // The baselines go through the same refinement (no baseline plans pending reductions).
  for (Baseline b : {Baseline::gather_then_slice, Baseline::xla_style}) {
    auto baseline = baseline_plan(b, mesh, src, target_mesh, dst);
    if (!src.reduce_axes.empty()) {
      EXPECT_FALSE(baseline.ok());
      continue;
    }
    ASSERT_TRUE(baseline.ok()) << baseline_name(b) << ": " << baseline.error().to_string();
    EXPECT_EQ(baseline->mesh, r->source_mesh);
    auto ran = run_plan(*baseline, distribute(mesh, src));
    ASSERT_TRUE(ran.ok()) << baseline_name(b) << ": " << ran.error().to_string();
    const auto wrong = compare(target_mesh, dst, *ran);
    EXPECT_FALSE(wrong) << baseline_name(b) << ": " << wrong->to_string();
  }
  std::cout << "  " << c.name << ": " << plan->steps.size() << " steps on " << to_string(plan->mesh)
            << ", transfers " << transfers_name(report->transfers) << "\n";
}

INSTANTIATE_TEST_SUITE_P(SameDevices, MeshChange, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return info.param; });

TEST(MeshChange, TheCorpusHasTheCasesOfTheIssue) {
  EXPECT_GE(cases().size(), 12u);
}

TEST(MeshChange, WrongRewriteIsRefutedAndTheInterpreterAgrees) {
  const Mesh mesh = parse_mesh("{a:2, b:4}").value(), target_mesh = parse_mesh("{x:4, y:2}").value();
  const DistType src = parse_type("f32[{a}8, {b}8]", mesh).value();
  auto r = refine(mesh, src, target_mesh, parse_type("f32[{x}8, {y}8]", target_mesh).value());
  ASSERT_TRUE(r.ok());
  DistType wrong = r->source;  // {b_0,y} -> {y,b_0}: the same devices, another block order
  std::swap(wrong.dims[1].axes[0], wrong.dims[1].axes[1]);
  const PropertyResult result = prove_rewrite(mesh, src, r->source_mesh, wrong);
  ASSERT_EQ(result.verdict, Verdict::refuted);
  ASSERT_TRUE(result.counterexample.has_value());
  EXPECT_NE(result.counterexample->reason.find("dim 1 has another block"), std::string::npos)
      << result.counterexample->reason;
  const int64_t device = result.counterexample->device;
  EXPECT_NE(distribute(mesh, src)[device], distribute(r->source_mesh, wrong)[device]);
  EXPECT_EQ(distribute(mesh, src)[device], distribute(r->source_mesh, r->source)[device]);
  // A wrong reduction rewrite is refuted too.
  const DistType summed = parse_type("f32[{a}8, 8] sum{b}", mesh).value();
  DistType wrong_sum = rewrite_type(summed, mesh, r->axes, true);
  std::swap(wrong_sum.reduce_axes[0], wrong_sum.reduce_axes[1]);
  const PropertyResult sum_result = prove_rewrite(mesh, summed, r->source_mesh, wrong_sum);
  ASSERT_EQ(sum_result.verdict, Verdict::refuted);
  EXPECT_NE(sum_result.counterexample->reason.find("another summand"), std::string::npos);
  // Another device order is refuted without a query.
  const Mesh reordered = parse_mesh("{a:2, b_0:2, y:2} devices=[1,0,2,3,4,5,6,7]").value();
  EXPECT_EQ(prove_rewrite(mesh, src, reordered, r->source).verdict, Verdict::refuted);
}

TEST(MeshChange, CostModelClassesFollowTheSourceAxes) {
  const Mesh mesh = parse_mesh("{a:2, b:4}").value(), target_mesh = parse_mesh("{x:4, y:2}").value();
  auto r = refine(mesh, parse_type("f32[{a}8, {b}8]", mesh).value(), target_mesh,
                  parse_type("f32[{x}8, {y}8]", target_mesh).value());
  ASSERT_TRUE(r.ok());
  CostModel model;
  model.axis_class["b"] = LinkClass::inter;
  auto refined = refined_model(model, mesh, *r);
  ASSERT_TRUE(refined.ok()) << refined.error().to_string();
  EXPECT_EQ(refined->class_of("a"), LinkClass::intra);
  EXPECT_EQ(refined->class_of("b_0"), LinkClass::inter);
  EXPECT_EQ(refined->class_of("y"), LinkClass::inter);
  EXPECT_EQ(refined->axis_class.size(), 2u);
  model.axis_class["z"] = LinkClass::inter;
  EXPECT_FALSE(refined_model(model, mesh, *r).ok());
}

TEST(MeshChange, OutOfScopeAndBadPairsAreRefused) {
  auto error_of = [](const std::string& a, const std::string& s, const std::string& b, const std::string& d) {
    const Mesh ma = parse_mesh(a).value(), mb = parse_mesh(b).value();
    auto plan = synthesize(ma, parse_type(s, ma).value(), mb, parse_type(d, mb).value());
    EXPECT_FALSE(plan.ok());
    return plan.ok() ? Error{} : plan.error();
  };
  EXPECT_EQ(error_of("{x:2, y:3}", "f32[{x}6]", "{u:3, v:2}", "f32[{u}6]").kind, Error::Kind::unsupported);
  EXPECT_EQ(error_of("{x:4}", "f32[{x}8]", "{u:2, v:2}", "f32[{u}16]").kind, Error::Kind::invalid);
  EXPECT_EQ(error_of("{x:4}", "f32[{x}8]", "{u:2, v:2}", "s32[{u}8]").kind, Error::Kind::invalid);
  const Mesh other = parse_mesh("{u:4} devices=[4,5,6,7]").value();
  auto same_other = synthesize(other, parse_type("f32[{u}8]", other).value(), parse_type("f32[8]", other).value());
  ASSERT_FALSE(same_other.ok());
  EXPECT_NE(same_other.error().message.find("not both over devices 0..3"), std::string::npos);
  // Other device sets are planned (tests/verify/device_sets_test.cpp), not refused.
  const Mesh four = parse_mesh("{x:4}").value();
  EXPECT_TRUE(synthesize(four, parse_type("f32[{x}8]", four).value(), other, parse_type("f32[{u}8]", other).value()).ok());
}

}  // namespace
}  // namespace redist
