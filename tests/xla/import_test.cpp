// The HLO importer (backends/hlo import.hpp) on hand-written modules in the shapes XLA
// prints: every replica-group spelling, tuple all-to-all, dynamic-slice by a
// partition-id table, bad input named by line or instruction, and a wrong plan that
// the checker refutes with a counterexample the module's own run confirms.

#include <gtest/gtest.h>

#include <string>

#include "redist/backends/hlo/import.hpp"
#include "redist/verify/checker.hpp"

namespace redist {
namespace {

/// A module of 4 partitions: parameter f32[2,8] sharded {devices=[4,1]<=[4]}, then `body`
/// (instructions using %param), root annotated with `root_sharding`.
std::string module(const std::string& body, const std::string& root_sharding) {
  return "HloModule m, num_partitions=4\n\nENTRY %main (param: f32[2,8]) -> f32[8,8] {\n"
         "  %param = f32[2,8]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n" +
         body + ", sharding=" + root_sharding + "\n}\n";
}

std::string gather(const std::string& groups) {
  return "  ROOT %ag = f32[8,8]{1,0} all-gather(%param), channel_id=1, replica_groups=" + groups +
         ", dimensions={0}, use_global_device_ids=true";
}

TEST(HloImport, ReplicaGroupSpellings) {
  const DeviceGroups all{{0, 1, 2, 3}};
  for (const std::string groups : {"{{0,1,2,3}}", "{}", "[1,4]<=[4]", "mesh['x'=4] {'x'}",
                                   "mesh['x'=2,'y'=2], device_ids=([2,2]T(0,1)) {'x','y'}"}) {
    auto imported = import_hlo(module(gather(groups), "{replicated}"));
    ASSERT_TRUE(imported.ok()) << groups << ": " << imported.error().to_string();
    ASSERT_EQ(imported->plan.steps.size(), 1u) << groups;
    const auto& g = std::get<LoweredGather>(imported->plan.steps[0].op);
    EXPECT_EQ(g.parts, (std::vector<GatherPart>{{0, 4, {}}}));
    EXPECT_EQ(g.group.table, all) << groups;
    auto report = check_lowered(imported->plan, imported->target);
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report->correct.verdict, Verdict::proved) << groups;
  }
}

TEST(HloImport, TransposedGroupsGiveTheirMemberOrder) {
  // [2,2]<=[2,2]T(1,0): groups {0,2} and {1,3}. Gathering in that order is wrong for
  // a source tiled 0,1,2,3 along dim 0 onto pairs: the checker must refute it.
  const std::string text =
      "HloModule m, num_partitions=4\n\nENTRY %main (param: f32[2,8]) -> f32[4,8] {\n"
      "  %param = f32[2,8]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n"
      "  ROOT %ag = f32[4,8]{1,0} all-gather(%param), channel_id=1, replica_groups=[2,2]<=[2,2]T(1,0), "
      "dimensions={0}, use_global_device_ids=true, sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}\n}\n";
  auto imported = import_hlo(text);
  ASSERT_TRUE(imported.ok()) << imported.error().to_string();
  const auto& g = std::get<LoweredGather>(imported->plan.steps[0].op);
  EXPECT_EQ(g.group.table, (DeviceGroups{{0, 2}, {1, 3}}));
  auto report = check_lowered(imported->plan, imported->target);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->correct.verdict, Verdict::refuted);
  const auto& ce = *report->correct.counterexample;
  // Replay on the module's own run: the element there is the one the checker says.
  const auto got = imported_global_at(*imported, ce.device, ce.local_index);
  ASSERT_TRUE(got.has_value());
  ASSERT_TRUE(ce.actual_global.has_value());
  EXPECT_EQ(*got, *ce.actual_global);
  EXPECT_NE(*got, ce.expected_global);
}

TEST(HloImport, DynamicSliceByPartitionTable) {
  const std::string text =
      "HloModule m, num_partitions=4\n\n"
      "%slice_it (p0: f32[8,8], p1: s32[4], p2: u32[]) -> f32[8,2] {\n"
      "  %p0 = f32[8,8]{1,0} parameter(0)\n  %p1 = s32[4]{0} parameter(1)\n  %p2 = u32[] parameter(2)\n"
      "  %ds = s32[1]{0} dynamic-slice(%p1, %p2), dynamic_slice_sizes={1}\n"
      "  %b = s32[] bitcast(%ds)\n  %z = s32[] constant(0)\n"
      "  ROOT %r = f32[8,2]{1,0} dynamic-slice(%p0, %z, %b), dynamic_slice_sizes={8,2}\n}\n\n"
      "ENTRY %main (param: f32[8,8]) -> f32[8,2] {\n"
      "  %pid = u32[] partition-id()\n"
      "  %param = f32[8,8]{1,0} parameter(0), sharding={replicated}\n"
      "  %table = s32[4]{0} constant({0, 2, 4, 6})\n"
      "  ROOT %f = f32[8,2]{1,0} fusion(%param, %table, %pid), kind=kLoop, calls=%slice_it, "
      "sharding={devices=[1,4]<=[4]}\n}\n";
  auto imported = import_hlo(text);
  ASSERT_TRUE(imported.ok()) << imported.error().to_string();
  ASSERT_EQ(imported->plan.steps.size(), 1u);
  const auto& s = std::get<LoweredSlice>(imported->plan.steps[0].op);
  EXPECT_EQ(s.dim, 1);
  EXPECT_EQ(s.chunk, 2);
  EXPECT_EQ(s.offsets, (std::vector<int64_t>{0, 2, 4, 6}));
  auto report = check_lowered(imported->plan, imported->target);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->verified());
  EXPECT_EQ(report->transfers, Transfers::tight);
}

TEST(HloImport, TupleAllToAllWithConcatenate) {
  // f32[{x}8, 4] -> f32[8, {x}4] on 4 devices: chunks of dim 1 sent, concatenated on dim 0.
  std::string text =
      "HloModule m, num_partitions=4\n\n"
      "%cat (a: f32[2,1], b: f32[2,1], c: f32[2,1], d: f32[2,1]) -> f32[8,1] {\n"
      "  %a = f32[2,1]{1,0} parameter(0)\n  %b = f32[2,1]{1,0} parameter(1)\n"
      "  %c = f32[2,1]{1,0} parameter(2)\n  %d = f32[2,1]{1,0} parameter(3)\n"
      "  ROOT %r = f32[8,1]{1,0} concatenate(%a, %b, %c, %d), dimensions={0}\n}\n\n"
      "ENTRY %main (param: f32[2,4]) -> f32[8,1] {\n"
      "  %param = f32[2,4]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n";
  for (int i = 0; i < 4; ++i)
    text += "  %s" + std::to_string(i) + " = f32[2,1]{1,0} slice(%param), slice={[0:2], [" + std::to_string(i) + ":" +
            std::to_string(i + 1) + "]}\n";
  text +=
      "  %a2a = (f32[2,1]{1,0}, f32[2,1]{1,0}, f32[2,1]{1,0}, /*index=3*/f32[2,1]{1,0}) all-to-all(%s0, %s1, %s2, %s3), "
      "channel_id=1, replica_groups=[1,4]<=[4]\n";
  for (int i = 0; i < 4; ++i)
    text += "  %g" + std::to_string(i) + " = f32[2,1]{1,0} get-tuple-element(%a2a), index=" + std::to_string(i) + "\n";
  text += "  ROOT %f = f32[8,1]{1,0} fusion(%g0, %g1, %g2, %g3), kind=kLoop, calls=%cat, sharding={devices=[1,4]<=[4]}\n}\n";
  auto imported = import_hlo(text);
  ASSERT_TRUE(imported.ok()) << imported.error().to_string();
  ASSERT_EQ(imported->plan.steps.size(), 1u);
  const auto& a = std::get<LoweredAllToAll>(imported->plan.steps[0].op);
  EXPECT_EQ(a.parts.at(0).split_dim, 1);
  EXPECT_EQ(a.parts.at(0).concat_dim, 0);
  auto report = check_lowered(imported->plan, imported->target);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->verified());
}

TEST(HloImport, PendingSumThroughAllReduceThenSlice) {
  // f32[8] sum{x} on 4 devices: a leading summand dim, all-reduce, then each device
  // keeps its quarter by a partition-id table.
  const std::string text =
      "HloModule m, num_partitions=4\n\n"
      "%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(%a, %b)\n}\n\n"
      "ENTRY %main (param: f32[1,8]) -> f32[2] {\n"
      "  %pid = u32[] partition-id()\n"
      "  %param = f32[1,8]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n"
      "  %flat = f32[8]{0} bitcast(%param)\n"
      "  %ar = f32[8]{0} all-reduce(%flat), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, "
      "to_apply=%add\n"
      "  %table = s32[4]{0} constant({0, 2, 4, 6})\n"
      "  %off = s32[1]{0} dynamic-slice(%table, %pid), dynamic_slice_sizes={1}\n"
      "  %o = s32[] bitcast(%off)\n"
      "  ROOT %r = f32[2]{0} dynamic-slice(%ar, %o), dynamic_slice_sizes={2}, sharding={devices=[4]<=[4]}\n}\n";
  auto imported = import_hlo(text);
  ASSERT_TRUE(imported.ok()) << imported.error().to_string();
  EXPECT_EQ(to_string(imported->plan.source.type), "f32[8] sum{a}");
  EXPECT_EQ(to_string(imported->target.type), "f32[{a}8]");
  ASSERT_EQ(imported->plan.steps.size(), 2u);
  const auto& ar = std::get<LoweredAllReduce>(imported->plan.steps[0].op);
  EXPECT_EQ(ar.group.table, (DeviceGroups{{0, 1, 2, 3}}));
  EXPECT_EQ(ar.op, ReduceOp::sum);
  EXPECT_TRUE(imported->plan.steps[0].after.type.reduce_axes.empty());
  EXPECT_EQ(std::get<LoweredSlice>(imported->plan.steps[1].op).offsets, (std::vector<int64_t>{0, 2, 4, 6}));
  auto report = check_lowered(imported->plan, imported->target);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->memory.verdict, Verdict::proved);
  EXPECT_EQ(report->correct.verdict, Verdict::proved);
}

TEST(HloImport, SyntaxErrorNamesTheLine) {
  auto r = import_hlo("HloModule m, num_partitions=4\n\nENTRY %main (p: f32[4]) -> f32[4] {\n"
                      "  %p = f32[4]{0} parameter(0), sharding={replicated}\n  %x = f32[4 copy(%p)\n}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 5"), std::string::npos) << r.error().message;
  auto undefined = import_hlo(module("  ROOT %c = f32[2,8]{1,0} copy(%nothing)", "{devices=[4,1]<=[4]}"));
  ASSERT_FALSE(undefined.ok());
  EXPECT_NE(undefined.error().message.find("line 5"), std::string::npos) << undefined.error().message;
  EXPECT_FALSE(import_hlo("").ok());
  EXPECT_FALSE(import_hlo("HloModule m\n").ok());
}

TEST(HloImport, HugeIotaDimsAreAnErrorNotAnOverflow) {
  // Found by fuzz_hlo_import: the iota's dims multiplied past 2^63 (UB) before the
  // comparison with the device count.
  for (const char* iota : {"<=[33333333333333333333]", "<=[4294967296,4294967296]", "<=[0,4]"}) {
    auto r = import_hlo(module("  ROOT %c = f32[2,8]{1,0} copy(%param)", std::string("{devices=[4,1]") + iota + "}"));
    ASSERT_FALSE(r.ok()) << iota;
    EXPECT_NE(r.error().message.find("do not multiply to 4 devices"), std::string::npos) << r.error().message;
  }
}

TEST(HloImport, TransposeListingTooFewDimsIsAnError) {
  // Found by fuzz_hlo_import (1,000,000-execution run): `T(fal)` lists no dim, and the
  // permutation check looped over the listed ones only, so the iota read past its end.
  for (const char* transpose : {"T(fal)", "T()", "T(0)", "T(1,1)", "T(0,1,2)"}) {
    auto r = import_hlo(module(gather(std::string("[2,2]<=[2,2]") + transpose), "{replicated}"));
    ASSERT_FALSE(r.ok()) << transpose;
    EXPECT_NE(r.error().message.find("not a permutation of its dims"), std::string::npos) << r.error().message;
  }
}

TEST(HloImport, OperandsOfOtherSizesBesideTheJoinedDimAreAnError) {
  // Found by fuzz_hlo_import (stop 23): an all-gather of f32[2,8] into f32[8,4] passed
  // the check of the gathered dim alone, and the concatenation wrote past the result's
  // rows (ASan: heap-buffer-overflow; a Release build crashed). Likewise a concatenate,
  // a reduce-scatter whose other sizes grow, and negative dimensions. Each is an instruction beside a valid reshard.
  const std::pair<std::string, std::string> cases[] = {
      {"%bad = f32[8,4]{1,0} all-gather(%param), channel_id=1, replica_groups=[1,4]<=[4], dimensions={0}, "
       "use_global_device_ids=true",
       "the result shape is not the group's buffers concatenated"},
      {"%bad = f32[8,8]{1,0} all-gather(%param), channel_id=1, replica_groups=[1,4]<=[4], dimensions={-1}, "
       "use_global_device_ids=true",
       "the result shape is not the group's buffers concatenated"},
      {"%bad = f32[4,4]{1,0} concatenate(%param, %param), dimensions={0}",
       "operands of another rank or other sizes beside the concatenated dimension"},
      {"%bad = f32[4,8]{1,0} concatenate(%param, %param), dimensions={-1}", "bad dimensions="},
      {"%bad = f32[4,2]{1,0} reduce-scatter(%param), channel_id=1, replica_groups=[1,4]<=[4], dimensions={1}, "
       "use_global_device_ids=true, to_apply=%add",
       "the result is not one chunk of the operand per member"},
  };
  for (const auto& [bad, reason] : cases) {
    auto r = import_hlo(module("  " + bad + "\n" + gather("[1,4]<=[4]"), "{replicated}"));
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("%bad (line 5): " + reason), std::string::npos) << r.error().message;
  }
}

TEST(HloImport, NotOneReshardNamesTheInstruction) {
  auto two = import_hlo(
      "HloModule m, num_partitions=4\n\nENTRY %main (p: f32[2,8], q: f32[2,8]) -> f32[2,8] {\n"
      "  %p = f32[2,8]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n"
      "  %q = f32[2,8]{1,0} parameter(1), sharding={devices=[4,1]<=[4]}\n"
      "  ROOT %c = f32[2,8]{1,0} copy(%p), sharding={devices=[4,1]<=[4]}\n}\n");
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.error().message.find("%q"), std::string::npos) << two.error().message;
  auto math = import_hlo(module("  ROOT %m = f32[2,8]{1,0} multiply(%param, %param)", "{devices=[4,1]<=[4]}"));
  ASSERT_FALSE(math.ok());
  EXPECT_NE(math.error().message.find("%m"), std::string::npos) << math.error().message;
  auto unknown = import_hlo(module("  ROOT %s = f32[2,8]{1,0} sort(%param), dimensions={0}", "{devices=[4,1]<=[4]}"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("%s"), std::string::npos) << unknown.error().message;
  auto reorder = import_hlo(module("  ROOT %r = f32[2,8]{1,0} reverse(%param), dimensions={1}", "{devices=[4,1]<=[4]}"));
  ASSERT_FALSE(reorder.ok());
  auto no_root_sharding = import_hlo(
      "HloModule m, num_partitions=4\n\nENTRY %main (p: f32[2,8]) -> f32[2,8] {\n"
      "  %p = f32[2,8]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n  ROOT %c = f32[2,8]{1,0} copy(%p)\n}\n");
  ASSERT_FALSE(no_root_sharding.ok());
  EXPECT_NE(no_root_sharding.error().message.find("%c"), std::string::npos);
  auto bad_groups = import_hlo(module(gather("{{0,1},{1,2,3}}"), "{replicated}"));
  ASSERT_FALSE(bad_groups.ok());
  EXPECT_NE(bad_groups.error().message.find("%ag"), std::string::npos) << bad_groups.error().message;
}

TEST(HloImport, BitcastReadsLayouts) {
  // A bitcast from a column-major buffer is a transpose of the logical array: the
  // importer must see it and refuse to call the module a plain reshard step.
  auto r = import_hlo(module("  %t = f32[8,2]{0,1} bitcast(%param)\n  ROOT %c = f32[2,8]{1,0} bitcast(%t)",
                             "{devices=[4,1]<=[4]}"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();  // two bitcasts cancel: same buffer
  EXPECT_TRUE(r->plan.steps.empty());
  auto t = import_hlo(module("  ROOT %t = f32[2,8]{0,1} bitcast(%param)", "{devices=[4,1]<=[4]}"));
  ASSERT_FALSE(t.ok());  // reinterpreting row-major data as column-major reorders it
}

}  // namespace
}  // namespace redist
