"""The redist module's objects: parsing and its errors, planning (synthesis, optimal,
baselines, budgets), figures, cost, the lowered form, and the checker's verdicts on
right and wrong plans, each field asserted."""

import pathlib

import pytest

import redist

MESH = "{x:4, y:2}"
SRC = "f32[{x}16, {y}8]"
DST = "f32[{y}16, {x}8]"


def test_installed_package_not_source_tree():
    assert "site-packages" in pathlib.Path(redist._redist.__file__).parts


def test_solver_version():
    major, minor, *_ = redist.solver_version().split(".")
    assert int(major) >= 4 and int(minor) >= 0


def test_mesh_and_type_fields():
    mesh = redist.parse_mesh("{x:2, y:2} devices=[3,2,1,0]")
    assert mesh.axes == [("x", 2), ("y", 2)]
    assert mesh.num_devices == 4
    assert mesh.device_order == [3, 2, 1, 0]
    assert mesh.coords_of_device(3) == [0, 0]
    assert mesh.device_at_coords([1, 0]) == 1
    assert str(mesh) == "{x:2, y:2} devices=[3,2,1,0]"
    assert redist.Mesh([("x", 2), ("y", 2)], [3, 2, 1, 0]) == mesh
    t = redist.parse_type("bf16[8{x:(1)2,y}32, 6] sum{x:(2)2}", redist.parse_mesh(MESH))
    assert t.elem == "bf16" and t.elem_bytes == 2
    assert t.shape == [32, 6] and t.local_shape == [8, 6]
    assert t.local_bytes == 96
    assert [str(a) for a in t.dims[0].axes] == ["x:(1)2", "y"]
    assert (t.dims[0].axes[0].name, t.dims[0].axes[0].pre, t.dims[0].axes[0].size) == ("x", 1, 2)
    assert t.dims[0].tiles == 4 and t.dims[1].tiles == 1
    assert t.reduce_op == "sum" and [str(a) for a in t.reduce_axes] == ["x:(2)2"]
    assert str(t) == "bf16[{x:(1)2,y}32, 6] sum{x:(2)2}"
    assert repr(t) == "DistType('bf16[{x:(1)2,y}32, 6] sum{x:(2)2}')"
    assert t.replication_factor(redist.parse_mesh(MESH)) == 1


def test_big_sizes_are_exact_ints():
    mesh = redist.parse_mesh("{a:16, b:16, c:16, d:16}")
    t = redist.parse_type("f64[{a}4611686018427387904, 1024]", mesh)
    assert t.local_bytes == (4611686018427387904 // 16) * 1024 * 8  # past 2^64


@pytest.mark.parametrize("text, column, reason", [
    ("{x:4, x:2}", 7, "axis 'x' is declared twice"),
    ("{x:0}", 4, "size"),
    ("{x:4", 5, ""),
])
def test_mesh_errors_name_column_and_reason(text, column, reason):
    with pytest.raises(ValueError) as info:
        redist.parse_mesh(text)
    e = info.value
    assert str(e).startswith(f"at column {column}:"), str(e)
    assert e.position == column - 1
    assert e.kind in ("parse", "invalid")
    assert reason in e.reason


def test_type_error_names_column_and_reason():
    mesh = redist.parse_mesh(MESH)
    with pytest.raises(ValueError) as info:
        redist.parse_type("f32[{x}16, {x}8]", mesh)
    assert str(info.value) == "at column 13: axis 'x' is used twice (first at column 6)"
    assert info.value.position == 12
    assert info.value.reason == "axis 'x' is used twice (first at column 6)"
    with pytest.raises(ValueError, match="unknown mesh axis 'q'|'q'"):
        redist.parse_type("f32[{q}16]", mesh)


def test_plan_and_cost_model_errors_name_line_and_column():
    with pytest.raises(ValueError) as info:
        redist.parse_plan("mesh {x:4}\nsource f32[{x}16]\nall_gathr(dim=0, axes={x})\n")
    assert str(info.value).startswith("at line 3, column 1: unknown step 'all_gathr'"), str(info.value)
    assert info.value.position == 29
    with pytest.raises(ValueError) as info:
        redist.parse_cost_model("x = inter\ninter.bandwidth_gbps = -3\n")
    assert str(info.value) == "at line 2, column 24: expected a positive number, got '-3'"
    assert info.value.position == 33


def test_a_slow_all_to_all_makes_the_plan_take_a_permute():
    model = redist.CostModel.parse("all_to_all.efficiency = 0.3\n")
    assert model.efficiency.all_to_all == 0.3 and model.efficiency.collective_permute == 1
    assert repr(model) == "CostModel(all_to_all.efficiency=0.3)"
    src, dst = "f32[{y}262144, 2, {x}2]", "f32[{x}262144, {y}2, 2]"
    kinds = [s.kind for s in redist.plan("{x:2, y:2}", src, dst, cost_model=model).steps]
    assert kinds == ["all_to_all", "collective_permute"], kinds
    kinds = [s.kind for s in redist.plan("{x:2, y:2}", src, dst, cost_model=redist.CostModel()).steps]
    assert kinds == ["all_to_all", "all_to_all"], kinds
    with pytest.raises(ValueError, match="share of the bandwidth in"):
        redist.parse_cost_model("all_to_all.efficiency = 2\n")


def test_plan_steps_states_and_text_round_trip():
    plan = redist.plan(MESH, SRC, DST)
    assert [s.kind for s in plan.steps] == ["all_to_all", "collective_permute"]
    a2a = plan.steps[0]
    assert (a2a.src_dim, a2a.dst_dim, [str(a) for a in a2a.axes]) == (0, 1, ["x:(2)2"])
    assert a2a.dim is None and a2a.to is None and a2a.groups is None
    assert str(plan.steps[1].to) == DST and plan.steps[1].axes is None
    assert [str(s.type) for s in plan.states()] == ["f32[{x:(1)2}16, {y,x:(2)2}8]", DST]
    assert str(plan.target) == DST and str(plan.source) == SRC and str(plan.mesh) == MESH
    assert redist.parse_plan(str(plan)) == plan
    assert len(plan) == 2


def test_figures_and_cost():
    plan = redist.plan(MESH, SRC, DST)
    f = plan.figures()
    assert (f.source_local_bytes, f.target_local_bytes, f.peak_local_bytes, f.bound_bytes) == (64, 64, 64, 64)
    assert (f.recv_bytes_max, f.recv_bytes_total) == (96, 512)
    assert (f.lower_bound_max, f.lower_bound_total) == (64, 384)
    assert [(s.kind, s.group_size, s.recv_bytes_max) for s in f.steps] == [
        ("all_to_all", 2, 32), ("collective_permute", 2, 64)]
    assert plan.figures(budget=1000).bound_bytes == 1000
    cost = plan.cost()
    assert cost.collectives == 2 and cost.wire_bytes == 32 + 64
    assert cost.time_us == pytest.approx(sum(s.time_us for s in cost.steps))
    slow = plan.cost(redist.CostModel.parse("x = inter\n"))
    assert slow.time_us > cost.time_us and slow.steps[0].link == "inter"


def test_lowered_groups_pairs_offsets():
    lowered = redist.lower(redist.plan(MESH, SRC, DST))
    a2a, perm = lowered.steps
    assert (a2a.kind, a2a.split_dim, a2a.concat_dim, a2a.group_size) == ("all_to_all", 1, 0, 2)
    assert a2a.groups == [[0, 2], [1, 3], [4, 6], [5, 7]]
    assert perm.kind == "collective_permute" and perm.groups is None
    assert perm.pairs == [(0, 0), (4, 1), (2, 2), (6, 3), (1, 4), (5, 5), (3, 6), (7, 7)]
    sliced = redist.lower(redist.plan("{x:4}", "f32[8, 4]", "f32[{x}8, 4]")).steps[0]
    assert (sliced.kind, sliced.dim, sliced.chunk) == ("all_slice", 0, 2)
    assert sliced.offsets == [0, 2, 4, 6]
    gathered = redist.lower(redist.plan("{x:4}", "f32[{x}8, 4]", "f32[8, 4]")).steps[0]
    assert (gathered.kind, gathered.dim, gathered.groups) == ("all_gather", 0, [[0, 1, 2, 3]])


def test_fused_all_gather_parts_lowering_and_proof():
    plan = redist.parse_plan("mesh {x:2, y:4}\nsource f32[{x}8, 6, {y}8]\n"
                             "all_gather(dim=2, axes={y}; dim=0, axes={x})\ntarget f32[8, 6, 8]\n")
    (step,) = plan.steps
    assert step.kind == "all_gather" and step.dim is None
    assert [(dim, [str(a) for a in axes]) for dim, axes in step.parts] == [(2, ["y"]), (0, ["x"])]
    assert [str(a) for a in step.axes] == ["y", "x"]
    assert plan.steps[0].moves is None and redist.parse_plan(str(plan)) == plan
    (low,) = redist.lower(plan).steps
    assert (low.kind, low.dim, low.gather_parts, low.group_size) == ("all_gather", None, [(2, 4), (0, 2)], 8)
    assert low.groups == [[0, 4, 1, 5, 2, 6, 3, 7]]  # y most significant
    report = redist.check(plan)
    assert report.verified and report.transfers == "tight" and report.received_over_lower_bound == "1.0000"
    assert (report.recv_bytes_max, report.lower_bound_bytes_max, report.peak_local_bytes) == (7 * 192, 7 * 192, 1536)
    assert redist.simulate(plan) is None
    single = redist.lower(redist.plan("{x:4}", "f32[{x}8, 4]", "f32[8, 4]")).steps[0]
    assert (single.dim, single.gather_parts) == (0, [(0, 4)])
    with pytest.raises(ValueError, match="part 2 of the all_gather is missing the key axes="):
        redist.parse_plan("mesh {x:2, y:4}\nsource f32[{x}8, {y}8]\nall_gather(dim=0, axes={x}; dim=1; dim=0)\n")


def test_check_proves_synthesized_plan():
    plan, report = redist.prove(MESH, SRC, DST)
    assert report.verified and bool(report)
    for prop in (report.correct, report.memory, report.no_peak):
        assert prop.verdict == "proved" and prop.counterexample is None
    assert report.transfers == "excess" and report.received_over_lower_bound == "1.5000"
    assert report.tight.verdict == "refuted"
    assert (report.bound_bytes, report.peak_local_bytes, report.recv_bytes_max, report.lower_bound_bytes_max) == (
        64, 64, 96, 64)
    assert redist.simulate(plan) is None


def test_check_refutes_wrong_pairs_with_counterexample_the_interpreter_confirms():
    # The right plan with two permute pairs crossed: devices 1 and 4 get each other's data.
    wrong = redist.parse_plan("""
        mesh {x:4, y:2}
        source f32[{x}16, {y}8]
        all_to_all(src=0, dst=1, axes={x:(2)2})
        collective_permute(to=f32[{y}16, {x}8], pairs=[(0,0),(1,1),(2,2),(6,3),(4,4),(5,5),(3,6),(7,7)])
        target f32[{y}16, {x}8]
    """)
    report = redist.check(wrong)
    assert not report.verified
    assert report.correct.verdict == "refuted"
    cex = report.correct.counterexample
    assert cex is not None and cex.device in (1, 4) and cex.step == 2
    assert cex.coords == [cex.device // 2, cex.device % 2]
    assert cex.actual_global != cex.expected_global
    mismatch = redist.simulate(wrong)
    assert mismatch is not None and mismatch.device in (1, 4) and mismatch.expected != mismatch.actual


def test_check_refutes_memory_over_budget():
    plan = redist.plan(MESH, SRC, DST, method="gather_then_slice")
    report = redist.check(plan)
    assert report.correct.verdict == "proved" and report.memory.verdict == "refuted"
    assert report.peak_local_bytes == 512 and not report.verified
    assert report.memory.counterexample is not None


def test_optimal_and_baselines():
    best = redist.optimal(MESH, SRC, DST)
    assert best.time_us == pytest.approx(best.plan.cost().time_us)
    assert best.expanded > 0 and best.generated >= best.expanded and best.proved
    quick = redist.optimal(MESH, SRC, DST, timeout_s=60.0)
    assert quick.proved and quick.time_us == pytest.approx(best.time_us)
    # The default synthesis ranks by the bytes model unless given another; both verify.
    bytes_model = redist.CostModel.bytes()
    assert redist.plan(MESH, SRC, DST) == redist.plan(MESH, SRC, DST, cost_model=bytes_model)
    assert redist.check(redist.plan(MESH, SRC, DST, cost_model="x = inter\n")).verified
    assert best.time_us <= redist.plan(MESH, SRC, DST).cost().time_us + 1e-9
    assert redist.check(redist.plan(MESH, SRC, DST, method="optimal")).verified
    xla = redist.plan(MESH, SRC, DST, method="xla_style")
    assert redist.simulate(xla) is None and str(xla.target) == DST
    with pytest.raises(ValueError, match="unknown baseline"):
        redist._redist.baseline("nope", redist.parse_mesh(MESH), redist.parse_type(SRC, redist.parse_mesh(MESH)),
                                redist.parse_mesh(MESH), redist.parse_type(DST, redist.parse_mesh(MESH)))


def test_search_from_the_seeds_finds_the_optimal_plan():
    # The seeds exchange y, then x and z:(1)2, and gather; 100 states of search find a
    # slice of the free z:(2)2, one permute and a gather, the plan the optimal search
    # proves least (docs/synthesis.md). 9,437,184 bytes a device hold, 300 GB/s, 1 us.
    args = ("{x:2, y:2, z:4}", "bf16[{y}32, 48, 128, {x,z:(1)2}192]", "bf16[{x}32, 48, {y}128, 192]")
    seed = redist.plan(*args)
    searched = redist.plan(*args, search=100)
    best = redist.optimal(*args)
    shard = 9437184
    assert [s.kind for s in seed.steps] == ["all_to_all", "all_to_all", "all_gather"]
    assert [s.kind for s in searched.steps] == ["all_slice", "collective_permute", "all_gather"]
    assert searched.cost().time_us == pytest.approx((1 + shard / 2 / 300e3) + (1 + 3 / 4 * 2 * shard / 300e3))
    assert searched.cost().time_us == pytest.approx(best.time_us)
    assert seed.cost().time_us == pytest.approx((1 + shard / 2 / 300e3) + (1 + 3 / 4 * shard / 300e3) +
                                                (1 + shard / 300e3))
    p, report = redist.prove(*args, search=100)
    assert p == searched and report.verified
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="search: a whole number of states >= 0"):
            redist.plan(*args, search=bad)
    with pytest.raises(ValueError, match="only the default synthesis"):
        redist.plan(*args, method="optimal", search=5)


def test_transfer_senders_on_the_receivers_node():
    # {dp:2, fsdp:2} on ranks 0,1 | 4,5 to {tp:4} on 2,3 | 6,7, nodes of 4 devices: every
    # receiver reads from the replica on its own node, priced on the intra class.
    args = ("{dp:2, fsdp:2} devices=[0,1,4,5]", "f32[{fsdp}8, 12]", "f32[8, {tp}12]")
    nodes = redist.CostModel.parse("transfer.node_size = 4\n")
    assert nodes.transfer_node_size == 4
    near = redist.plan(*args, target_mesh="{tp:4} devices=[2,3,6,7]", cost_model=nodes)
    spread = redist.plan(*args, target_mesh="{tp:4} devices=[2,3,6,7]")
    assert "sends=" in str(near) and "sends=" not in str(spread)
    cost = near.cost(nodes)
    assert [(s.kind, s.link) for s in cost.steps] == [("transfer", "intra")]
    assert cost.time_us == pytest.approx(1 + 96 / 300e3)
    assert spread.cost(nodes).time_us == pytest.approx((5 + 96 / 25e3) + (1 + 96 / 300e3))
    assert redist.check(near).verified


def test_staged_transfer_to_a_replicated_target():
    # Two inference replicas ({dp:2, tp:2} on 4-7) under the default link classes: each
    # element crosses once, to one replica, and is gathered over dp (docs/meshes.md).
    args = ("{x:4}", "f32[{x}512, 256]", "f32[512, {tp}256]")
    links = redist.CostModel.parse("transfer.link = inter\n")
    staged = redist.plan(*args, target_mesh="{dp:2, tp:2} devices=[4,5,6,7]", cost_model=links)
    assert [s.kind for s in staged.steps] == ["transfer", "all_gather"]
    direct = redist.plan(*args, target_mesh="{dp:2, tp:2} devices=[4,5,6,7]")
    assert [s.kind for s in direct.steps] == ["transfer"]
    assert staged.cost(links).time_us < direct.cost(links).time_us
    report = redist.check(staged)
    assert report.verified and report.transfers == "tight"


def test_budget_errors_and_scope():
    with pytest.raises(redist.NoPlanError) as info:
        redist.plan(MESH, SRC, DST, budget=32)
    assert info.value.kind == "no_plan" and isinstance(info.value, ValueError)
    wide = redist.plan("{x:4}", "f32[{x}16, 8]", "f32[16, {x}8]", budget=1 << 20)
    assert redist.check(wide, budget=1 << 20).verified
    # Padded dims whose blocks nest plan; meshes whose axes do not nest do not.
    assert redist.plan("{x:2, y:2}", "f32[{x,y}5, 3]", "f32[5, 3]").steps[0].kind == "all_gather"
    with pytest.raises(redist.UnsupportedError) as info:
        redist.plan("{x:2, y:3}", "f32[{x}24, 8]", "f32[{u}24, 8]", target_mesh="{u:3, v:2}")
    assert info.value.kind == "unsupported"
    with pytest.raises(ValueError, match="different arrays|shape|size"):
        redist.plan(MESH, SRC, "f32[{y}16, {x}16]")


def test_cost_model_errors_name_position():
    with pytest.raises(ValueError) as info:
        redist.CostModel.parse("x = warp\n")
    assert info.value.position is not None and "warp" in str(info.value)
    model = redist.CostModel.parse("x = inter\ninter.bandwidth_gbps = 10\n")
    assert model.inter_axes == ["x"] and model.inter.bandwidth_gbps == 10
    assert model.link_class("x") == "inter" and model.link_class("y") == "intra"


def test_threads_plan_and_prove_concurrently():
    # The searches and proofs release the GIL; concurrent calls give the serial results.
    from concurrent.futures import ThreadPoolExecutor

    cases = [(MESH, SRC, DST), ("{x:4, y:2}", "f32[{y}16, 16, {x}16]", "f32[16, {x,y}16, 16]"),
             ("{a:2, b:2}", "f32[{a}16, {b}16]", "f32[{b}16, {a}16]"), ("{x:8}", "f32[{x}16, 8]", "f32[16, {x}8]")] * 2
    serial = [(str(p), repr(r)) for p, r in (redist.prove(*c) for c in cases)]
    with ThreadPoolExecutor(4) as pool:
        parallel = [(str(p), repr(r)) for p, r in pool.map(lambda c: redist.prove(*c), cases)]
    assert parallel == serial and all("verified=True" in r for _, r in serial)
