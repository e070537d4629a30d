"""The notation converters through the binding (redist.notation): each notation read
and written with its values asserted, round trips, and errors with the position and
the reason as ValueError."""

import pytest

import redist
from redist import notation

MESH = redist.parse_mesh("{x:4, y:2}")


def test_array_shape():
    assert notation.parse_array_shape("bf16[512,128]") == ("bf16", [512, 128])
    assert notation.parse_array_shape("tensor<8x4xf32>") == ("f32", [8, 4])


@pytest.mark.parametrize("name, text, type_text", [
    ("jax", "f32[16,8] P('x', 'y')", "f32[{x}16, {y}8]"),
    ("jax", "f32[16,8] P(('y', 'x'))", "f32[{y,x}16, 8]"),
    ("jax", "f32[16,8] P(None, 'x', unreduced={'y'})", "f32[16, {x}8] sum{y}"),
    ("sdy", 'f32[16,8] #sdy.sharding<@mesh, [{"x"}, {"y"}]>', "f32[{x}16, {y}8]"),
    ("sdy", 'f32[16,8] #sdy.sharding<@mesh, [{"x":(1)2}, {}]>', "f32[{x:(1)2}16, 8]"),
    ("dtensor", "f32[16,8] [Shard(0), Shard(1)]", "f32[{x}16, {y}8]"),
    ("dtensor", "f32[16,8] [Replicate(), Partial(sum)]", "f32[16, 8] sum{y}"),
    ("hlo", "f32[16,8] {devices=[4,2]<=[8]}", "f32[{x}16, {y}8]"),
    ("redist", "f32[{y}16, {x}8]", "f32[{y}16, {x}8]"),
])
def test_read_and_write_round_trip(name, text, type_text):
    mesh, t = notation.read_type(name, text, MESH)
    assert mesh == MESH
    assert t == redist.parse_type(type_text, MESH)
    written = notation.write_type(name, t, mesh)
    assert notation.read_type(name, written, MESH) == (mesh, t)


def test_each_writer():
    t = redist.parse_type("f32[{x}16, {y}8]", MESH)
    assert notation.to_partition_spec(t, MESH) == "P('x', 'y')"
    assert notation.to_hlo_sharding(t, MESH) == "{devices=[4,2]<=[8]}"
    assert notation.to_sdy_sharding(t, MESH) == '#sdy.sharding<@mesh, [{"x"}, {"y"}]>'
    assert notation.to_placements(t, MESH) == "[Shard(dim=0), Shard(dim=1)]"
    assert notation.to_sdy_mesh(MESH) == 'sdy.mesh @mesh = <["x"=4, "y"=2]>'
    assert notation.parse_sdy_mesh('sdy.mesh @m = <["x"=4, "y"=2]>') == ("m", MESH)
    assert notation.parse_jax_mesh(notation.to_jax_mesh(MESH)) == MESH
    assert notation.parse_device_mesh(notation.to_device_mesh(MESH)) == MESH


def test_hlo_invents_a_mesh():
    mesh, t = notation.from_hlo_sharding("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", "f32[8,4]")
    assert mesh.num_devices == 8
    assert t.dims[0].tiles == 2 and t.dims[1].tiles == 1 and t.replication_factor(mesh) == 4
    mesh, t = notation.from_hlo_sharding("{devices=[4,2]<=[8]}", "f32[8,4]", axis_names=["p", "q"])
    assert str(mesh) == "{p:4, q:2}" and str(t) == "f32[{p}8, {q}4]"


def test_split_sub_axes():
    t = redist.parse_type("f32[{x:(1)2}16, {y,x:(2)2}8]", MESH)
    mesh, (u,) = notation.split_sub_axes(MESH, [t], ["a", "b", "c"])
    assert str(mesh) == "{a:2, b:2, c:2}" and str(u) == "f32[{a}16, {c,b}8]"


@pytest.mark.parametrize("call, reason", [
    (lambda: notation.from_partition_spec("P('x', ('y',)", "f32[16,8]", MESH), "expected ')'"),
    (lambda: notation.from_partition_spec("P('q')", "f32[16,8]", MESH), "'q'"),
    (lambda: notation.from_hlo_sharding("{maximal device=3}", "f32[8]"), "maximal"),
    (lambda: notation.from_placements("[Shard(0), Partial(avg)]", "f32[16,8]", MESH), "avg"),
    (lambda: notation.read_type("nope", "f32[8]", MESH), "nope"),
])
def test_errors_name_position_and_reason(call, reason):
    with pytest.raises(ValueError) as info:
        call()
    assert reason in str(info.value)


def test_error_position():
    with pytest.raises(ValueError) as info:
        notation.from_partition_spec("P('x', ('y',)", "f32[16,8]", MESH)
    assert info.value.position == 13 and str(info.value).startswith("at column 14:")


def test_unexpressible_is_refused():
    sub = redist.parse_type("f32[{x:(1)2}16, 8]", MESH)
    with pytest.raises(ValueError, match="sub-axes|sub-axis"):
        notation.to_partition_spec(sub, MESH)
    with pytest.raises(ValueError, match="reduc|sum|pending"):
        notation.to_hlo_sharding(redist.parse_type("f32[16, 8] sum{y}", MESH), MESH)
