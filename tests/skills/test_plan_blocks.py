"""The series-parallel blocks of a plan's dependency graph (skills.planning.plan_blocks)."""

from __future__ import annotations

from typing import Any

from cogtree.skills.planning.plan_blocks import Series, Step, Together, decompose, label
from cogtree.skills.planning.plan_model import PlanStep, ToAPlan, plan_graph, sequential


def step(step_id: int, action: str, after: tuple[int, ...] = (), **args: Any) -> PlanStep:
    return PlanStep(id=step_id, action=action, args=args, depends_on=list(after))


def test_a_chain_is_one_sequence() -> None:
    plan = ToAPlan(steps=sequential([step(1, "LOOK"), step(2, "LOOK"), step(3, "LOOK")]))
    block = decompose(plan_graph(plan), {1: "robot1", 2: "robot1", 3: "robot1"})
    assert block == Series((Step(1), Step(2), Step(3)))
    assert label(block) == "1 > 2 > 3"


def test_fork_join_of_two_robots_runs_the_branches_together() -> None:
    # 1 -> {2 -> 4 by robot1, 3 -> 5 by base1} -> 6
    plan = ToAPlan(
        steps=[
            step(1, "LOOK"),
            step(2, "LOOK", (1,)),
            step(3, "LOOK", (1,)),
            step(4, "LOOK", (2,)),
            step(5, "LOOK", (3,)),
            step(6, "LOOK", (4, 5)),
        ]
    )
    agents = {1: "robot1", 2: "robot1", 3: "base1", 4: "robot1", 5: "base1", 6: "robot1"}
    block = decompose(plan_graph(plan), agents)
    branches = Together((Series((Step(2), Step(4))), Series((Step(3), Step(5)))))
    assert block == Series((Step(1), branches, Step(6)))
    assert label(block) == "1 > ((2 > 4) | (3 > 5)) > 6"


def test_independent_steps_of_one_agent_run_one_after_another() -> None:
    plan = ToAPlan(steps=[step(1, "LOOK"), step(2, "LOOK"), step(3, "LOOK")])
    block = decompose(plan_graph(plan), {1: "robot1", 2: "base1", 3: "robot1"})
    assert block == Together((Series((Step(1), Step(3))), Step(2)))


def test_a_dag_that_is_not_series_parallel_falls_back_to_topological_order() -> None:
    # The "N": 1 -> 3, 2 -> 3, 2 -> 4 has neither a parallel nor a series cut.
    plan = ToAPlan(
        steps=[step(1, "LOOK"), step(2, "LOOK"), step(3, "LOOK", (1, 2)), step(4, "LOOK", (2,))]
    )
    agents = {1: "robot1", 2: "base1", 3: "robot1", 4: "base1"}
    block = decompose(plan_graph(plan), agents)
    assert block == Series((Step(1), Step(2), Step(3), Step(4)), exact=False)


def test_transitive_dependencies_do_not_hide_a_chain() -> None:
    plan = ToAPlan(steps=[step(1, "LOOK"), step(2, "LOOK", (1,)), step(3, "LOOK", (1, 2))])
    assert decompose(plan_graph(plan), {}) == Series((Step(1), Step(2), Step(3)))


def test_an_empty_plan_has_no_blocks() -> None:
    assert decompose(plan_graph(ToAPlan()), {}) is None
