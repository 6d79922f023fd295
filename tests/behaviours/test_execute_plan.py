"""ExecutePlan: the plan DAG compiled into a subtree, run in the simulator, with reflections."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.planning.execute_plan import ExecutePlan, ReflectedStep
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, load_scenario
from cogtree.skills.execution.controller import RunStatus
from cogtree.skills.execution.reflection import needs_belief, reflect
from cogtree.skills.planning.plan_model import (
    PlanAttempt,
    PlanStep,
    Reflection,
    ToAPlan,
    ValidationReport,
    sequential,
)
from cogtree.skills.planning.plan_validation import oracle_plan as flat_plan
from cogtree.trees.recording.display import render_text
from cogtree.trees.runner import TreeRunner
from cogtree.trees.testing import BlackboardView, TreeHarness


def step(step_id: int, action: str, after: tuple[int, ...] = (), **args: Any) -> PlanStep:
    return PlanStep(id=step_id, action=action, args=args, depends_on=list(after))


def oracle_plan(scenario: Scenario, index: int = 0) -> ToAPlan:
    """The scenario's oracle plan as a ToAPlan, its steps one after another."""
    steps = flat_plan(scenario.oracle["planner"][index]["steps"]).steps
    return ToAPlan(steps=sequential(steps), source="oracle")


def assignments(plan: ToAPlan, robot: str = "robot1") -> dict[int, str]:
    return {
        s.id: str(s.args["person"]) if s.action == "DELEGATE" else s.assignee or robot
        for s in plan.steps
    }


def valid(plan: ToAPlan, robot: str = "robot1") -> ValidationReport:
    return ValidationReport(ok=True, assignments=assignments(plan, robot))


def shape(node: py_trees.behaviour.Behaviour) -> Any:
    """The compiled structure: a step's leaf name, or (kind, [children])."""
    if isinstance(node, ReflectedStep):
        return node.decorated.name
    kind = "par" if isinstance(node, py_trees.composites.Parallel) else "seq"
    return (kind, [shape(child) for child in node.children])


class Run:
    """A scenario in the simulator and an ExecutePlan tree over it."""

    def __init__(self, scenario: str, make_llm: Any, **node_args: Any) -> None:
        self.scenario = load_scenario(scenario)
        self.sim = SimExecutor.from_scenario(self.scenario)
        assert self.sim.belief is not None
        self.root = ExecutePlan(**node_args)
        self.harness = TreeHarness(
            self.root,
            llm=make_llm().client,
            handles={
                "scene_graph": self.sim.belief,
                "workers": self.sim.workers,
                "executor": self.sim,
                "people": self.sim.people,
            },
        )

    def tick(self) -> Status:
        assert self.sim.belief is not None
        self.sim.step()
        self.sim.workers.wait_idle(5.0)
        self.harness.tick()
        return self.root.status

    def until_done(self, max_ticks: int = 200) -> Status:
        for _ in range(max_ticks):
            if self.tick() != Status.RUNNING:
                break
        return self.root.status

    def close(self) -> None:
        if self.root.status == Status.RUNNING:
            self.root.stop(Status.INVALID)
        self.sim.close()


@pytest.fixture
def runs(make_llm: Any) -> Iterator[Any]:
    made: list[Run] = []

    def make(scenario: str, **node_args: Any) -> Run:
        made.append(Run(scenario, make_llm, **node_args))
        return made[-1]

    yield make
    for run in made:
        run.close()


def test_compiled_subtree_becomes_the_children_and_renders(
    blackboard: BlackboardView, runs: Any
) -> None:
    plan = ToAPlan(
        steps=[
            step(1, "GOTO", target="tom_desk"),
            step(2, "GOTO", target="kitchenette"),
            step(3, "PICK", (1,), object="parcel", hand="right"),
            step(4, "GOTO", (2, 3), target="open_office"),
        ]
    )
    agents = {1: "robot1", 2: "base1", 3: "robot1", 4: "base1"}
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", ValidationReport(ok=True, assignments=agents))
    run = runs("parcel_into_base")
    assert run.root.children == []
    run.tick()  # compiles; the steps are set up on the workers
    run.tick()
    assert shape(run.root) == (
        "seq",
        [("par", [("seq", ["1:GOTO", "3:PICK"]), "2:GOTO"]), "4:GOTO"],
    )
    text = render_text(run.root)
    assert "together (1 > 3) | 2" in text and "steps 1 > 3" in text
    names = [node.name for node in run.root.iterate()]
    assert names.index("1:GOTO") < names.index("3:PICK") < names.index("4:GOTO")


def test_fork_join_runs_both_robots_at_the_same_time(blackboard: BlackboardView, runs: Any) -> None:
    plan = ToAPlan(
        steps=[
            step(1, "GOTO", target="tom_desk"),
            step(2, "GOTO", target="kitchenette"),
            step(3, "PICK", (1,), object="parcel", hand="right"),
            step(4, "GOTO", (2, 3), target="open_office"),
        ]
    )
    agents = {1: "robot1", 2: "base1", 3: "robot1", 4: "base1"}
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", ValidationReport(ok=True, assignments=agents))
    run = runs("parcel_into_base")
    assert run.until_done() == Status.SUCCESS, run.root.feedback_message
    log = run.sim.log
    first_base = next(r for r in log if r.command.robot == "base1")
    last_robot1 = [r for r in log if r.command.robot == "robot1"][-1]
    assert first_base.started_at is not None and last_robot1.finished_at is not None
    assert first_base.started_at < last_robot1.finished_at, "the base waited for the humanoid"
    assert run.sim.world.state.robots["base1"].room == "open_office"
    reflections = blackboard.get("/plan/reflections")
    assert sorted(r.step for r in reflections) == [1, 2, 3, 4]
    assert all(r.achieved for r in reflections), reflections


# -- running plans in the simulator ------------------------------------------------------------


def test_print_agenda_plan_reaches_the_goal_with_reflections(
    blackboard: BlackboardView, runs: Any
) -> None:
    scenario = load_scenario("print_agenda")
    plan = oracle_plan(scenario)
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", valid(plan))
    blackboard.set("/plan/attempts", [PlanAttempt(number=1, plan=plan)])
    run = runs("print_agenda")
    assert run.until_done() == Status.SUCCESS, run.root.feedback_message
    assert scenario.goal.unmet(run.sim.world) == []
    assert run.root.feedback_message == "all 6 steps done"
    reflections: list[Reflection] = blackboard.get("/plan/reflections")
    assert [r.step for r in reflections] == [1, 2, 3, 4, 5, 6]
    assert all(r.achieved for r in reflections), reflections
    assert "priya did print" in reflections[0].observed
    assert reflections[3].observed == "robot1 holds agenda"
    assert reflections[5].observed == "agenda is on meeting_table"
    attempt = blackboard.get("/plan/attempts")[-1]
    assert attempt.outcome == "succeeded" and attempt.reflections == reflections


def test_a_busy_signer_fails_the_plan_with_the_reason(
    blackboard: BlackboardView, runs: Any
) -> None:
    scenario = load_scenario("signer_busy")
    plan = oracle_plan(scenario)
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", valid(plan))
    blackboard.set("/plan/attempts", [PlanAttempt(number=1, plan=plan)])
    run = runs("signer_busy")
    assert run.until_done() == Status.FAILURE
    assert run.root.feedback_message == (
        "step 3:DELEGATE failed: weber did not sign: weber is busy"
    )
    reflections: list[Reflection] = blackboard.get("/plan/reflections")
    assert [(r.step, r.achieved) for r in reflections] == [(1, True), (2, True), (3, False)]
    assert "weber is busy" in reflections[2].observed
    attempt = blackboard.get("/plan/attempts")[-1]
    assert attempt.outcome == "failed" and "weber is busy" in attempt.failure
    assert not any(r.command.skill in ("PICK", "HANDOVER") for r in run.sim.log)
    assert scenario.goal.unmet(run.sim.world)


def test_a_failed_skill_leaves_its_outcome_and_a_failed_reflection(
    blackboard: BlackboardView, runs: Any
) -> None:
    # The agenda is still Priya's file: nothing lies on the printer tray to pick.
    plan = ToAPlan(
        steps=sequential(
            [step(1, "GOTO", target="printer_tray"), step(2, "PICK", object="agenda", hand="right")]
        )
    )
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", valid(plan))
    run = runs("print_agenda")
    assert run.until_done() == Status.FAILURE
    outcome = blackboard.get("/skill/outcome")
    assert outcome.status == RunStatus.FAILED and outcome.call.skill == "PICK"
    assert run.root.feedback_message.startswith("step 2:PICK failed: ")
    assert outcome.message in run.root.feedback_message
    reflections = blackboard.get("/plan/reflections")
    assert reflections[-1] == Reflection(step=2, achieved=False, observed="robot1 holds nothing")


def test_interrupting_cancels_the_running_steps(blackboard: BlackboardView, runs: Any) -> None:
    # Priya prints (DELEGATE) while robot1 drives to the print room: both are running.
    plan = ToAPlan(
        steps=[
            step(1, "DELEGATE", person="priya", ability="print"),
            step(2, "GOTO", target="printer_tray"),
        ]
    )
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", valid(plan))
    run = runs("print_agenda")
    for _ in range(2):
        run.tick()
    assert shape(run.root) == ("seq", [("par", ["1:DELEGATE", "2:GOTO"])])
    assert run.sim.people.working and not run.sim.idle
    run.root.stop(Status.INVALID)
    assert run.sim.people.working == []
    assert run.sim.idle
    assert any(record.cancelled for record in run.sim.log)
    assert run.sim.world.state.people["priya"].busy_until is None


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("presets", "problem"),
    [
        ({}, "no plan to run: /plan/current is not set"),
        ({"/plan/current": ToAPlan(steps=[step(1, "LOOK")])}, "the plan was not validated"),
        (
            {
                "/plan/current": ToAPlan(steps=[step(1, "LOOK")]),
                "/plan/validation": ValidationReport(ok=False, problems=[]),
            },
            "the plan failed validation, so it is not run",
        ),
        (
            {
                "/plan/current": ToAPlan(steps=[step(1, "LOOK")]),
                "/plan/validation": ValidationReport(ok=True, assignments={1: "r", 7: "r"}),
            },
            "/plan/validation is for another plan: it assigns steps [7]",
        ),
        (
            {
                "/plan/current": ToAPlan(steps=[step(1, "PICK", object="agenda")]),
                "/plan/validation": ValidationReport(ok=True),
            },
            "step 1: ",
        ),
        (
            {
                "/plan/current": ToAPlan(steps=[step(1, "DELEGATE", person="priya")]),
                "/plan/validation": ValidationReport(ok=True),
            },
            "step 1: DELEGATE needs an ability",
        ),
    ],
    ids=["no_plan", "not_validated", "invalid", "stale_validation", "bad_args", "no_ability"],
)
def test_a_plan_that_cannot_run_fails_and_runs_nothing(
    blackboard: BlackboardView, runs: Any, presets: dict[str, Any], problem: str
) -> None:
    for key, value in presets.items():
        blackboard.set(key, value)
    run = runs("print_agenda")
    assert run.tick() == Status.FAILURE
    assert problem in run.root.feedback_message
    assert run.root.children == []
    assert run.sim.log == [] and run.sim.people.working == []


def test_a_delegation_without_the_people_handle_fails_with_the_fix(
    blackboard: BlackboardView, make_llm: Any
) -> None:
    plan = ToAPlan(steps=[step(1, "DELEGATE", person="priya", ability="print")])
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", valid(plan))
    with SimExecutor.from_scenario(load_scenario("print_agenda")) as sim:
        root = ExecutePlan()
        harness = TreeHarness(
            root,
            llm=make_llm().client,
            handles={"scene_graph": sim.belief, "workers": sim.workers, "executor": sim},
        )
        harness.tick_until(max_ticks=10)
        assert root.status == Status.FAILURE
        assert "needs the `people` handle" in root.feedback_message
        assert root.children == []


def test_an_empty_plan_succeeds_with_nothing_to_do(blackboard: BlackboardView, runs: Any) -> None:
    blackboard.set("/plan/current", ToAPlan())
    blackboard.set("/plan/validation", ValidationReport(ok=True))
    run = runs("print_agenda")
    assert run.tick() == Status.SUCCESS
    assert run.root.feedback_message == "nothing to do"


def test_a_robot_skill_assigned_to_a_person_is_delegated(
    blackboard: BlackboardView, runs: Any
) -> None:
    plan = ToAPlan(steps=[step(1, "PICK", object="paper_ream", hand="right")])
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", ValidationReport(ok=True, assignments={1: "tom"}))
    run = runs("print_agenda")
    assert run.until_done() == Status.FAILURE
    assert run.root.feedback_message.startswith("step 1:PICK failed: tom did not pick: ")
    assert run.sim.log == []
    (reflection,) = blackboard.get("/plan/reflections")
    assert not reflection.achieved and "tom cannot pick" in reflection.observed


# -- reflections -------------------------------------------------------------------------------


def test_open_and_close_are_checked_against_the_believed_container_state() -> None:
    with SimExecutor.from_scenario(load_scenario("open_fridge")) as sim:
        assert sim.belief is not None
        fridge = next(s for s in load_scenario("open_fridge").world.furniture if "fridge" in s)
        opened = reflect(
            step(1, "OPEN", container=fridge), "robot1", sim.belief, succeeded=True, report=""
        )
        closed = reflect(
            step(2, "CLOSE", container=fridge), "robot1", sim.belief, succeeded=True, report=""
        )
    assert opened.achieved != closed.achieved
    assert opened.observed == closed.observed == f"{fridge} is closed"


def test_steps_without_a_belief_effect_reflect_how_they_ended() -> None:
    look = step(1, "LOOK")
    delegate = step(2, "DELEGATE", person="priya", ability="print")
    assert not needs_belief(look) and not needs_belief(delegate)
    assert needs_belief(step(3, "PICK", object="cup", hand="right"))
    assert not needs_belief(step(3, "PICK", object="cup", hand="right"), by_person=True)
    with SimExecutor.from_scenario(load_scenario("print_agenda")) as sim:
        assert sim.belief is not None
        refused = reflect(
            delegate, "priya", sim.belief, succeeded=False, report="priya refuses to print"
        )
        unknown = reflect(
            step(4, "GOTO", target="nowhere"), "robot9", sim.belief, succeeded=True, report=""
        )
    assert refused == Reflection(
        step=2, achieved=False, observed="did not finish: priya refuses to print"
    )
    assert unknown == Reflection(
        step=4, achieved=False, observed="the belief does not say where robot9 is"
    )


def test_the_tick_log_records_the_compiled_structure(
    blackboard: BlackboardView, make_llm: Any
) -> None:
    scenario = load_scenario("print_agenda")
    plan = oracle_plan(scenario)
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/validation", valid(plan))
    with SimExecutor.from_scenario(scenario) as sim:
        runner = TreeRunner(
            ExecutePlan(),
            llm=make_llm().client,
            handles={
                "scene_graph": sim.belief,
                "workers": sim.workers,
                "executor": sim,
                "people": sim.people,
            },
            before_tick=sim.step,
        )
        runner.setup()
        entries = []
        try:
            for _ in range(3):
                assert sim.belief is not None and sim.workers.wait_idle(5.0)
                entries.append(runner.tick())
        finally:
            runner.close()
    changed = [entry.structure for entry in entries if entry.structure is not None]
    assert len(changed) == 1, "the compiled subtree is logged once, when it appears"
    names = [node.name for node in changed[0]]
    assert names[0] == "ExecutePlan"
    assert [name for name in names if ":" in name] == [
        "1:DELEGATE",
        "2:GOTO",
        "3:LOOK",
        "4:PICK",
        "5:GOTO",
        "6:PLACE",
    ]
