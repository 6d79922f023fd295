from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, get_args

import pytest

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import CommandName
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.planning.decomposition import COMMAND_ARGS, SkillDecomposer

MakeBelief = Callable[..., Belief]

CASES = [
    ("robot1", [], "GOTO", {"target": "bedroom"}, ["navigate(target=bedroom)"]),
    ("robot1", [], "GOTO", {"target": "table_2"}, ["navigate(target=table_2)"]),
    ("robot1", [], "GOTO", {"target": "book"}, ["navigate(target=sofa_table)"]),
    ("robot1", [], "GOTO", {"target": "ball"}, ["navigate(target=kitchen)"]),
    ("robot1", [], "GOTO", {"target": "user"}, ["navigate(target=living_room)"]),
    ("robot1", [], "PICK", {"object": "bottle", "hand": "right"}, [
        "approach(target=table_1)",
        "open_gripper(hand=right)",
        "grasp(object=bottle, hand=right)",
        "verify_grasp(object=bottle, hand=right)",
        "lift(object=bottle, hand=right)",
    ]),
    ("robot1", [], "PICK", {"object": "cup", "hand": "left"}, [
        "approach(target=cupboard)",
        "open_gripper(hand=left)",
        "grasp(object=cup, hand=left)",
        "verify_grasp(object=cup, hand=left)",
        "lift(object=cup, hand=left)",
    ]),
    ("onearm", [], "PICK", {"object": "ball", "hand": "right"}, [
        "approach(target=ball)",
        "open_gripper(hand=right)",
        "grasp(object=ball, hand=right)",
        "verify_grasp(object=ball, hand=right)",
        "lift(object=ball, hand=right)",
    ]),
    ("robot1", [("bottle", "right")], "PLACE",
     {"object": "bottle", "target": "cupboard", "hand": "right"}, [
        "approach(target=cupboard)",
        "put(object=bottle, target=cupboard, hand=right)",
        "release(hand=right)",
    ]),
    ("robot1", [], "OPEN", {"container": "fridge"},
     ["approach(target=fridge)", "open(container=fridge)"]),
    ("robot1", [], "CLOSE", {"container": "cupboard"},
     ["approach(target=cupboard)", "close(container=cupboard)"]),
    ("robot1", [("bottle", "left")], "HANDOVER",
     {"object": "bottle", "person": "user", "hand": "left"}, [
        "navigate(target=living_room)",
        "approach(target=user)",
        "handover(object=bottle, person=user, hand=left)",
        "release(hand=left)",
    ]),
    ("robot1", [("bottle", "right")], "HANDOVER",
     {"object": "bottle", "person": "dora", "hand": "right"}, [
        "approach(target=dora)",
        "handover(object=bottle, person=dora, hand=right)",
        "release(hand=right)",
    ]),
    ("base1", [], "SAY", {"text": "Coming!"}, ["speak(text=Coming!)"]),
    ("base1", [], "WAIT", {"seconds": 2.5}, ["wait(seconds=2.5)"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("robot", "held", "skill", "args", "expected"),
    CASES,
    ids=[f"{row[2]}-{i}" for i, row in enumerate(CASES)],
)
def test_each_skill_decomposes_into_exactly_these_commands(
    make_belief: MakeBelief,
    decomposer: SkillDecomposer,
    robot: str,
    held: list[tuple[str, Any]],
    skill: str,
    args: dict[str, Any],
    expected: list[str],
) -> None:
    belief = make_belief(robot)
    for thing, hand in held:
        belief = belief.with_picked(thing, hand)
    plan = decomposer.decompose(skill_call(skill, args), belief)
    assert plan.ok, plan.message
    assert [command.describe() for command in plan.commands] == expected
    assert {(command.robot, command.skill) for command in plan.commands} == {(robot, skill)}


def test_an_object_held_in_an_unnamed_hand_is_placed_with_the_hand_asked_for(
    make_belief: MakeBelief, decomposer: SkillDecomposer
) -> None:
    carrier = make_belief("carrier", None)
    plan = decomposer.decompose(
        skill_call("PLACE", object="mug", target="table_1", hand="left"), carrier
    )
    assert [c.describe() for c in plan.commands][1:] == [
        "put(object=mug, target=table_1, hand=left)",
        "release(hand=left)",
    ]


def test_failed_precondition_gives_no_commands_and_says_why(
    belief: Belief, decomposer: SkillDecomposer
) -> None:
    plan = decomposer.decompose(skill_call("PICK", object="juice", hand="right"), belief)
    assert not plan.ok
    assert plan.commands == ()
    assert plan.message == plan.preconditions.message
    assert plan.preconditions.failure is not None
    assert plan.preconditions.failure.code == "container_closed"


def test_a_belief_no_method_can_decompose_fails_as_decomposition(
    belief: Belief, decomposer: SkillDecomposer
) -> None:
    # The bottle rests on a table the belief does not know: no method can approach it.
    phantom = replace(belief.things["bottle"], support="phantom_table")
    broken = replace(belief, things={**belief.things, "bottle": phantom})
    plan = decomposer.decompose(skill_call("PICK", object="bottle", hand="right"), broken)
    assert not plan.ok
    assert plan.commands == ()
    failed = plan.preconditions.failure
    assert failed is not None and failed.name == "decomposition" and failed.code is None
    assert "no HTN method turns PICK(bottle, right) into commands" in plan.message


def test_plan_message_lists_the_command_names(belief: Belief, decomposer: SkillDecomposer) -> None:
    plan = decomposer.decompose(skill_call("OPEN", container="fridge"), belief)
    assert plan.message == "OPEN(fridge) → approach, open"


def test_command_arguments_cover_the_whole_command_vocabulary() -> None:
    assert set(COMMAND_ARGS) == set(get_args(CommandName))
