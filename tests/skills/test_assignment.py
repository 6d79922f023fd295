"""The team (PlanWorld), the assignment rule and the robot subtask rate, on shipped scenarios."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.action_model.belief import BeliefError
from cogtree.skills.action_model.people import Person
from cogtree.skills.planning.assignment import PlanWorld, assign, robot_subtask_rate
from cogtree.skills.planning.plan_model import PlanStep, ToAPlan
from cogtree.skills.planning.plan_validation import dry_run, oracle_plan, rehearse


@pytest.fixture(scope="module")
def office() -> Iterator[SceneGraph]:
    """The starting belief of print_agenda (Priya and Marco can print, Marco is busy)."""
    with SimExecutor.from_scenario(load_scenario("print_agenda")) as sim:
        assert sim.belief is not None
        yield sim.belief


def team(scenario_id: str) -> PlanWorld:
    with SimExecutor.from_scenario(load_scenario(scenario_id)) as sim:
        assert sim.belief is not None
        return PlanWorld.from_scene(sim.belief)


def flat_plan(scenario_id: str) -> ToAPlan:
    return oracle_plan(load_scenario(scenario_id).oracle["planner"][0]["steps"])


# -- the team ----------------------------------------------------------------------------------


def test_people_and_their_abilities_reach_the_team(office: SceneGraph) -> None:
    world = PlanWorld.from_scene(office)
    assert world.robots == ("robot1",)
    assert world.people["priya"] == Person(
        "priya", "open_office", "available", frozenset({"print"}), label="priya"
    )
    assert world.people["marco"].abilities == {"print"} and not world.people["marco"].is_available
    assert world.people["tom"].abilities == frozenset()
    assert world.beliefs["robot1"].people["priya"].abilities == {"print"}
    assert [h.abilities for h in office.humans("priya")] == [["print"]]


def test_the_team_takes_the_robots_asked_for_in_that_order() -> None:
    with SimExecutor.from_scenario(load_scenario("too_heavy")) as sim:
        assert sim.belief is not None
        assert PlanWorld.from_scene(sim.belief).robots == ("base1", "robot1")
        assert PlanWorld.from_scene(sim.belief, ["robot1"]).robots == ("robot1",)
        with pytest.raises(BeliefError, match="robots: base1, robot1"):
            PlanWorld.from_scene(sim.belief, ["robot7"])


def test_an_ability_is_named_like_a_skill() -> None:
    helper = Person("kim", "hallway", None, frozenset({"pick_up", "print"}))
    assert helper.is_available
    assert helper.ability_for("PICK") == "pick_up"
    assert helper.ability_for("PLACE") is None


# -- the rule ----------------------------------------------------------------------------------


def test_delegations_go_to_their_person_and_skills_to_the_robot() -> None:
    assert assign(flat_plan("print_agenda"), team("print_agenda")) == {
        1: "priya",
        2: "robot1",
        3: "robot1",
        4: "robot1",
        5: "robot1",
        6: "robot1",
    }


def test_a_chain_goes_to_the_robot_that_can_do_all_of_it() -> None:
    # base1 comes first in the team and can GOTO, but only robot1 can also PICK
    fetch = oracle_plan(
        [
            {"skill": "GOTO", "target": "storeroom_shelf"},
            {"skill": "PICK", "object": "paper_cups", "hand": "right"},
        ]
    )
    assert assign(fetch, team("too_heavy")) == {1: "robot1", 2: "robot1"}


def test_an_assignee_that_cannot_do_the_step_is_replaced() -> None:
    fetch = oracle_plan(
        [
            {"skill": "GOTO", "target": "tom_desk", "robot": "base1"},
            {"skill": "PICK", "object": "parcel", "hand": "right", "robot": "base1"},
        ]
    )
    world = team("parcel_into_base")
    assert assign(fetch, world) == {1: "base1", 2: "robot1"}
    assert dry_run(fetch, world).ok


@pytest.mark.parametrize("assignee", ["base1", "robot7"])
def test_an_assignee_off_the_team_keeps_its_step_and_the_dry_run_rejects_it(
    assignee: str,
) -> None:
    send = oracle_plan([{"skill": "GOTO", "target": "reception", "robot": assignee}])
    with SimExecutor.from_scenario(load_scenario("parcel_into_base")) as sim:
        assert sim.belief is not None
        humanoid_only = PlanWorld.from_scene(sim.belief, ["robot1"])  # base1 is not commandable
    assert assign(send, humanoid_only) == {1: assignee}
    report = dry_run(send, humanoid_only)
    assert not report.ok
    assert [problem.code for problem in report.problems] == ["unknown_agent"]
    assert f"'{assignee}' is assigned, but the team is robot1" in report.problems[0].reason


def test_the_assigned_robot_keeps_a_step_nobody_can_do() -> None:
    fetch = oracle_plan(
        [
            {"skill": "GOTO", "target": "top_shelf"},
            {"skill": "PICK", "object": "wedding_album", "hand": "right"},
        ]
    )
    world = team("top_shelf")
    assert assign(fetch, world) == {1: "robot1", 2: "robot1"}


def test_a_person_with_the_ability_takes_what_no_robot_can() -> None:
    world = team("top_shelf")
    tall = Person("ole", "living_room", "available", frozenset({"pick"}))
    helped = replace(world, people={**world.people, "ole": tall})
    fetch = oracle_plan(
        [
            {"skill": "GOTO", "target": "top_shelf"},
            {"skill": "PICK", "object": "wedding_album", "hand": "right"},
        ]
    )
    assignments = assign(fetch, helped)
    assert assignments == {1: "robot1", 2: "ole"}
    run = rehearse(fetch, helped)
    assert run.report.ok
    assert run.requests == {2: "pick"}
    assert robot_subtask_rate(fetch, assignments, helped.robots) == 0.5


def test_a_busy_person_is_not_given_a_robot_step() -> None:
    world = team("top_shelf")
    busy = Person("ole", "living_room", "busy", frozenset({"pick"}))
    fetch = oracle_plan([{"skill": "PICK", "object": "wedding_album", "hand": "right"}])
    assert assign(fetch, replace(world, people={**world.people, "ole": busy})) == {1: "robot1"}


def test_assign_never_raises_on_a_bad_plan() -> None:
    world = team("print_agenda")
    bad = ToAPlan(
        steps=[
            PlanStep(id=1, action="DELEGATE", args={"ability": "print"}, depends_on=[2]),
            PlanStep(id=2, action="PICK", args={"object": "nothing"}, depends_on=[1]),
            PlanStep(id=3, action="LOOK", depends_on=[9]),
        ]
    )
    assert assign(bad, world) == {1: "robot1", 2: "robot1", 3: "robot1"}


# -- the robot subtask rate --------------------------------------------------------------------


def test_robot_subtask_rate_counts_the_steps_robots_do() -> None:
    plan = flat_plan("print_agenda")
    world = team("print_agenda")
    assignments = assign(plan, world)
    assert robot_subtask_rate(plan, assignments, world.robots) == pytest.approx(5 / 6)
    assert robot_subtask_rate(plan, assignments) == pytest.approx(5 / 6)
    assert robot_subtask_rate(plan, {}, world.robots) == 0.0
    assert robot_subtask_rate(ToAPlan(), {}) == 0.0
    assert robot_subtask_rate(flat_plan("thirsty"), {}) == 1.0
