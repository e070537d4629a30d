"""redist: verified array redistributions for SPMD programs (docs/python.md).

The C++ library as Python objects: parse meshes and types, plan a reshard (the default
synthesis, the exact optimal search under a cost model, or a baseline), prove it with
Z3 (correctness, memory bound, transfers), and read its lowered form and figures.
Searches and proofs release the GIL. Strings are accepted wherever a Mesh or DistType
is expected; bad input raises ValueError naming the column and the reason.

    >>> import redist
    >>> plan = redist.plan("{x:4, y:2}", "f32[{x}16, {y}8]", "f32[{y}16, {x}8]")
    >>> redist.check(plan).verified
    True

`redist.notation` reads and writes XLA HloSharding, Shardy, JAX PartitionSpec and DTensor
placements; `redist.jax.reshard(x, sharding)` runs verified plans inside jax.jit.
"""

from __future__ import annotations

from typing import Literal

from ._redist import (
    AxisRef,
    CheckReport,
    CostModel,
    Counterexample,
    Dim,
    DistType,
    Efficiency,
    Link,
    LoweredPlan,
    LoweredStep,
    Mesh,
    Mismatch,
    NoPlanError,
    OptimalPlan,
    PermuteMove,
    Plan,
    PlanCost,
    PlanFigures,
    PropertyResult,
    Step,
    StepCost,
    StepFigures,
    TypedState,
    UnsupportedError,
    lower,
    parse_cost_model,
    parse_mesh,
    parse_plan,
    parse_type,
    simulate,
    solver_version,
)
from . import _redist
from . import notation

__all__ = [
    "AxisRef", "CheckReport", "CostModel", "Counterexample", "Dim", "DistType", "Efficiency", "Link",
    "LoweredPlan", "LoweredStep", "Mesh", "Mismatch", "NoPlanError", "OptimalPlan",
    "PermuteMove", "Plan", "PlanCost", "PlanFigures", "PropertyResult", "Step", "StepCost",
    "StepFigures", "TypedState", "UnsupportedError", "check", "lower", "optimal",
    "notation", "parse_cost_model", "parse_mesh", "parse_plan", "parse_type", "plan", "prove", "simulate", "solver_version",
]

__version__ = "0.1.0"

Method = Literal["synthesize", "optimal", "gather_then_slice", "xla_style"]


def _mesh(mesh: Mesh | str) -> Mesh:
    return parse_mesh(mesh) if isinstance(mesh, str) else mesh


def _type(t: DistType | str, mesh: Mesh) -> DistType:
    return parse_type(t, mesh) if isinstance(t, str) else t


def _cost_model(model: CostModel | str | None) -> CostModel | None:
    return parse_cost_model(model) if isinstance(model, str) else model


def plan(
    mesh: Mesh | str,
    src: DistType | str,
    dst: DistType | str,
    *,
    target_mesh: Mesh | str | None = None,
    budget: int | None = None,
    method: Method = "synthesize",
    cost_model: CostModel | str | None = None,
    search: int | None = None,
) -> Plan:
    """A plan from `src` to `dst` (types on `mesh`; `dst` on `target_mesh` when the
    device order changes), with the target asserted.

    method: "synthesize" (default, docs/synthesis.md; plans ranked by `cost_model`, a
    CostModel or its config text, default CostModel.bytes()), "optimal" (least modeled
    time under `cost_model`, default CostModel(); docs/cost_model.md), or a baseline
    ("gather_then_slice", "xla_style"). `budget` bounds the bytes per device. `search`
    lets "synthesize" expand up to that many states from its constructive plans for a
    cheaper one; where it cannot prove its plan within 10% of the optimal one, as many
    again deeper towards the target, ten times as many where the plan is above 1.1x of
    the least time left; then, where the plan is still above 1.5x, fifty times as many in
    the optimal search's order with its step set (default
    None: 100 where `cost_model` gives the mesh's axes two link speeds, else 0: the
    cheapest constructive plan).
    Raises ValueError on bad input, UnsupportedError outside the
    scope, NoPlanError when nothing fits the budget.
    """
    m = _mesh(mesh)
    tm = m if target_mesh is None else _mesh(target_mesh)
    s, d = _type(src, m), _type(dst, tm)
    if search is not None and (isinstance(search, bool) or not isinstance(search, int) or search < 0):
        raise ValueError(f"search: a whole number of states >= 0, got {search!r}")
    if search and method != "synthesize":
        raise ValueError(f"search: only the default synthesis searches from its seeds, not {method}")
    if method == "synthesize":
        return _redist.synthesize(m, s, tm, d, budget, _cost_model(cost_model), search)
    if method == "optimal":
        return _redist.optimal_plan(m, s, tm, d, budget, _cost_model(cost_model)).plan
    if budget is not None:
        raise ValueError(f"budget: baselines ({method}) take no memory budget")
    return _redist.baseline(method, m, s, tm, d)


def optimal(
    mesh: Mesh | str,
    src: DistType | str,
    dst: DistType | str,
    *,
    target_mesh: Mesh | str | None = None,
    budget: int | None = None,
    cost_model: CostModel | str | None = None,
    max_expanded: int = 200_000,
    timeout_s: float | None = None,
) -> OptimalPlan:
    """The plan of least modeled time with what the search did (expanded states); after
    `timeout_s` seconds the best plan so far, with `proved` False."""
    m = _mesh(mesh)
    tm = m if target_mesh is None else _mesh(target_mesh)
    return _redist.optimal_plan(m, _type(src, m), tm, _type(dst, tm), budget, _cost_model(cost_model),
                                max_expanded, timeout_s)


def check(plan: Plan | str, *, budget: int | None = None, timeout_ms: int = 10_000,
          keep_smt2: bool = False) -> CheckReport:
    """Proves or refutes G1-G3 of `plan` (a Plan or plan text) with Z3 (docs/checker.md).
    A refuted property carries a Counterexample; `report.verified` says it all held."""
    p = parse_plan(plan) if isinstance(plan, str) else plan
    return _redist.check(p, budget, timeout_ms, keep_smt2)


def prove(
    mesh: Mesh | str,
    src: DistType | str,
    dst: DistType | str,
    *,
    target_mesh: Mesh | str | None = None,
    budget: int | None = None,
    method: Method = "synthesize",
    cost_model: CostModel | str | None = None,
    search: int | None = None,
    timeout_ms: int = 10_000,
) -> tuple[Plan, CheckReport]:
    """plan() then check(): the plan and its verdicts."""
    p = plan(mesh, src, dst, target_mesh=target_mesh, budget=budget, method=method, cost_model=cost_model,
             search=search)
    return p, check(p, budget=budget, timeout_ms=timeout_ms)
