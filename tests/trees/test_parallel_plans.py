"""Team scenarios whose oracle plans have independent branches run them at the same time.

The compiled plan subtree puts steps of different agents with no dependency between them
under a Parallel. Two robots: the simulator's command log (when each command started and
finished, in world ticks) shows both robots acting at once. A person and a robot: the tree
ticks show the person's step and the robot's step running in the same tick (the world's
clock is no witness there: while a person works it steps with every tree tick, so how much
of the task the robot's first command overlaps depends on how long its skill took to
decompose, in wall time).
"""

from __future__ import annotations

from dataclasses import dataclass

import py_trees
import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.planning.execute_plan import ReflectedStep
from cogtree.evaluation.scenarios.scenario_run import ScenarioResult, oracle_client, run_scenario
from cogtree.sim.executor import CommandRecord, SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.planning.plan_blocks import Together, decompose, label
from cogtree.skills.planning.plan_model import plan_graph
from cogtree.skills.planning.plan_validation import oracle_plan
from cogtree.trees.recording.tick_log import TickEntry

Span = tuple[int, int]


@dataclass
class Run:
    """A scenario run on its oracle: the result, the simulator, who ran a step in each tick."""

    result: ScenarioResult
    simulator: SimExecutor
    running: list[set[str]]


def run_logged(scenario_id: str) -> Run:
    """Run a scenario on its oracle, keeping its simulator and the steps running per tick."""
    scenario = load_scenario(scenario_id)
    kept: list[SimExecutor] = []
    running: list[set[str]] = []

    def record(root: py_trees.behaviour.Behaviour, _: TickEntry) -> None:
        running.append(
            {
                node.agent
                for node in root.iterate()
                if isinstance(node, ReflectedStep) and node.status == Status.RUNNING
            }
        )

    with oracle_client(scenario) as llm:
        # 100 Hz: a tick outlasts the off-thread checks, so which tick a command starts on
        # does not depend on how busy the machine is (at 2 kHz it did)
        result = run_scenario(
            scenario, llm=llm, on_start=kept.append, on_tick=record, rate_hz=100.0
        )
    return Run(result, kept[0], running)


def spans(log: list[CommandRecord], robot: str) -> list[Span]:
    """The ticks during which ``robot`` ran each of its commands that ended."""
    return [
        (record.started_at, record.finished_at)
        for record in log
        if record.command.robot == robot
        and record.started_at is not None
        and record.finished_at is not None
    ]


def overlap(first: list[Span], second: list[Span]) -> bool:
    return any(a < d and c < b for a, b in first for c, d in second)


@pytest.mark.parametrize(
    ("scenario_id", "plan", "expected"),
    [
        ("parcel_into_base", 0, "((1 > 2) | 3) > 4 > 5 > 6 > 7"),
        ("print_agenda", 0, "(1 | 2) > 3 > 4 > 5 > 6"),
        ("prepare_meeting_room", 0, "(1 | (2 > 3)) > 4 > 5 > 6 > 7 > 8 > 9"),
        ("prepare_meeting_room", 1, "(1 | (2 > 3)) > 4 > 5 > 6 > 7 > 8 > 9"),
    ],
)
def test_the_oracle_plans_of_team_scenarios_have_independent_branches(
    scenario_id: str, plan: int, expected: str
) -> None:
    entry = load_scenario(scenario_id).oracle["planner"][plan]
    built = oracle_plan(entry["steps"])
    agents = {step.id: step.assignee or "robot1" for step in built.steps}
    block = decompose(plan_graph(built), agents)
    assert block is not None and label(block) == expected
    assert any(isinstance(part, Together) for part in getattr(block, "parts", ()))


def test_oracle_steps_without_after_run_one_after_another() -> None:
    plan = oracle_plan([{"skill": "LOOK"}, {"skill": "WAIT", "seconds": 1}, {"skill": "LOOK"}])
    assert [step.depends_on for step in plan.steps] == [[], [1], [2]]
    plan = oracle_plan([{"skill": "LOOK"}, {"skill": "LOOK", "robot": "r2", "after": []}])
    assert [step.depends_on for step in plan.steps] == [[], []]


def test_parcel_into_base_runs_both_robots_at_once() -> None:
    run = run_logged("parcel_into_base")
    assert run.result.success, run.result.transcript()
    humanoid, base = spans(run.simulator.log, "robot1"), spans(run.simulator.log, "base1")
    assert humanoid and base
    # the base drives over from its charger while the humanoid goes to the desk and picks
    assert overlap(humanoid, base), (humanoid, base)
    assert any({"robot1", "base1"} <= agents for agents in run.running)


@pytest.mark.parametrize(
    ("scenario_id", "person", "ability"),
    [("print_agenda", "priya", "print"), ("prepare_meeting_room", "marco", "print")],
)
def test_a_robot_step_runs_while_a_person_does_a_delegated_task(
    scenario_id: str, person: str, ability: str
) -> None:
    run = run_logged(scenario_id)
    assert run.result.success, run.result.transcript()
    assert (person, ability) in {
        (t.person, t.ability) for t in run.simulator.world.state.tasks_done
    }
    together = [agents for agents in run.running if {person, "robot1"} <= agents]
    assert together, run.running
