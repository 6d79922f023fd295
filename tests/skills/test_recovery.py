"""Recovery steps from experience for the HTN replan, and the context a failure carries."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogtree.knowledge.memory.experience import RecoveryStep
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.execution.failure_context import skill_context
from cogtree.skills.planning.recovery import belief_after_recovery, usable_recovery
from cogtree.skills.planning.tasks import TaskPlanner, task_call

GOTO_KITCHEN = RecoveryStep(action="GOTO", args={"target": "kitchen"})
LOOK = RecoveryStep(action="LOOK")


def starting_belief(scenario: str) -> Belief:
    """The robot's belief at the start of the shipped ``scenario``."""
    with SimExecutor.from_scenario(load_scenario(scenario)) as sim:
        assert sim.belief is not None
        return Belief.from_scene(sim.belief, "robot1")


@pytest.fixture
def belief() -> Belief:
    """robee_bottle's starting belief: robot1 in the hallway, the bottle on table_1."""
    return starting_belief("robee_bottle")


def test_a_pick_carries_where_its_object_was_last_seen(belief: Belief) -> None:
    context = skill_context(skill_call("PICK", object="bottle", hand="right"), belief)
    assert context == {
        "object": "bottle",
        "object_type": "bottle",
        "place": "table_1",
        "place_type": "table",
        "room": "kitchen",
    }
    goto = skill_context(skill_call("GOTO", target="table_2"), belief)
    assert goto == {"target": "table_2", "room": "bedroom"}


def test_only_moving_looking_waiting_and_asking_go_before_the_htn_plan(belief: Belief) -> None:
    assert usable_recovery([GOTO_KITCHEN, LOOK], belief) == (GOTO_KITCHEN, LOOK)
    opening = RecoveryStep(action="OPEN", args={"container": "fridge"})
    assert usable_recovery([opening, LOOK], belief) is None
    nowhere = RecoveryStep(action="GOTO", args={"target": "garage"})
    assert usable_recovery([nowhere, LOOK], belief) is None
    assert usable_recovery([], belief) is None
    hallway = RecoveryStep(action="GOTO", args={"target": "hallway"})
    assert usable_recovery([hallway, LOOK], belief) == (LOOK,)  # already there


def test_after_looking_the_object_is_planned_as_found_in_that_room(belief: Belief) -> None:
    context = {"object": "bottle", "room": "kitchen"}
    after = belief_after_recovery(belief, [GOTO_KITCHEN, LOOK], context)
    assert after.robot_room == "kitchen"
    found = after.things["bottle"]
    assert (found.room, found.relation, found.support) == ("kitchen", "on", None)
    assert after.place_height("bottle") is None  # its place, so its height, is unknown
    # Without a LOOK nothing is assumed found: only the robot moves.
    moved = belief_after_recovery(belief, [GOTO_KITCHEN], context)
    assert moved.things["bottle"] == belief.things["bottle"]
    # The task planner plans from there: no GOTO to the table the bottle has left.
    plan = TaskPlanner().plan(task_call("bring", object="bottle", to="table_2"), after)
    assert plan.ok and [call.skill for call in plan.skills] == ["PICK", "GOTO", "PLACE"]


@pytest.fixture
def door_belief() -> Belief:
    """door_closed's starting belief: Paul in the hallway can open doors; Elena cannot."""
    return starting_belief("door_closed")


def test_asking_a_person_who_can_goes_before_the_htn_plan(door_belief: Belief) -> None:
    ask_paul = RecoveryStep(action="DELEGATE", args={"person": "paul", "ability": "open_door"})
    assert usable_recovery([ask_paul], door_belief, "door_closed") == (ask_paul,)
    # The HTN does not model what Paul does: only a delegation that removes the failure runs.
    assert usable_recovery([ask_paul], door_belief, "object_not_visible") is None
    ask_elena = RecoveryStep(action="DELEGATE", args={"person": "elena", "ability": "open_door"})
    assert usable_recovery([ask_elena], door_belief, "door_closed") is None  # not her ability
    ask_nobody = RecoveryStep(action="DELEGATE", args={"person": "zoe", "ability": "open_door"})
    assert usable_recovery([ask_nobody], door_belief, "door_closed") is None  # not here
    paul = replace(door_belief.people["paul"], availability="away")
    gone = replace(door_belief, people={**door_belief.people, "paul": paul})
    assert usable_recovery([ask_paul], gone, "door_closed") is None
    # A shared word is not a remedy: closing a door does not open the way.
    closer = replace(door_belief.people["paul"], abilities=frozenset({"close_door"}))
    closing = replace(door_belief, people={**door_belief.people, "paul": closer})
    ask_to_close = RecoveryStep(action="DELEGATE", args={"person": "paul", "ability": "close_door"})
    assert usable_recovery([ask_to_close], closing, "door_closed") is None
    after = belief_after_recovery(door_belief, [ask_paul], {"target": "bed", "room": "bedroom"})
    assert after.robot_room == door_belief.robot_room  # asking moves no one
