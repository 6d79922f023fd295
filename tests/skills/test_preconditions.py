from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.people import Person
from cogtree.skills.capabilities.calls import check_preconditions, skill_call

MakeBelief = Callable[..., Belief]


def _robot1(make: MakeBelief) -> Belief:
    return make("robot1")


def _holding_bottle(make: MakeBelief) -> Belief:
    return make("robot1").with_picked("bottle", "right")


def _both_hands_full(make: MakeBelief) -> Belief:
    return make("robot1").with_picked("bottle", "right").with_picked("cup", "left")


def _no_hands_but_skills(make: MakeBelief) -> Belief:
    belief = make("robot1")
    return replace(belief, robot=replace(belief.robot, hands=()))


def _light_payload_holding_juice(make: MakeBelief) -> Belief:
    belief = make("robot1")
    light = replace(belief, robot=replace(belief.robot, payload_kg=1.2))
    return light.with_container("fridge", True).with_picked("juice", "left")


def _carrier_holding_mug_and_bottle(make: MakeBelief) -> Belief:
    return make("carrier", None).with_picked("bottle", "right")


def _in_hallway(make: MakeBelief) -> Belief:
    return make("robot1").with_robot_in("hallway")


def _lost_holding_cup(make: MakeBelief) -> Belief:
    return make("lost").with_picked("cup", "right")


def _dora_in_the_garage(make: MakeBelief) -> Belief:
    belief = make("robot1").with_picked("bottle", "right")
    return replace(belief, people={**belief.people, "dora": Person("dora", "garage", "available")})


def _robot(robot: str, facts: Any = "default") -> Callable[[MakeBelief], Belief]:
    def make(make_belief: MakeBelief) -> Belief:
        return make_belief(robot) if facts == "default" else make_belief(robot, facts)

    return make


# (belief builder, skill, args, failed check, code, words of the reason)
FAILURES = [
    (_robot("lost"), "GOTO", {"target": "kitchen"}, "robot_located", "path_blocked", "localise"),
    (_robot1, "GOTO", {"target": "attic"}, "target_known", "object_not_found", "attic is not"),
    (_robot1, "GOTO", {"target": "robot1"}, "target_known", "object_not_found", "robot1 is not"),
    (_robot1, "GOTO", {"target": "ghost"}, "target_located", "object_not_found", "ghost"),
    (_robot1, "GOTO", {"target": "wrench"}, "route", "path_blocked", "kitchen to wrench in garage"),
    (_robot("base1"), "PICK", {"object": "bottle", "hand": "right"}, "has_skill",
     "capability_missing", "base1 does not have PICK (its skills: GOTO, SAY, WAIT)"),
    (_no_hands_but_skills, "PICK", {"object": "bottle", "hand": "right"}, "has_hands",
     "capability_missing", "robot1 has no arm or hand"),
    (_robot("onearm"), "PICK", {"object": "bottle", "hand": "left"}, "hand_exists",
     "capability_missing", "onearm has no left hand (hands: right)"),
    (_robot1, "PICK", {"object": "table_1", "hand": "right"}, "object_known",
     "object_not_found", "table_1 is a surface, not a portable object"),
    (_robot1, "PICK", {"object": "unicorn", "hand": "right"}, "object_known",
     "object_not_found", "unicorn is not in the belief"),
    (_robot1, "PICK", {"object": "poster", "hand": "right"}, "graspable", "capability_missing",
     "poster is not graspable"),
    (_robot("carrier", None), "PICK", {"object": "mug", "hand": "right"}, "object_resting",
     "object_not_found", "mug is held by carrier"),
    (_robot1, "PICK", {"object": "book", "hand": "right"}, "in_robot_room", "out_of_reach",
     "book is in living_room and robot1 is in kitchen: GOTO book first"),
    (_robot1, "PICK", {"object": "juice", "hand": "right"}, "container_open",
     "container_closed", "juice is in fridge, which is believed closed: OPEN fridge first"),
    (_robot1, "PICK", {"object": "vase", "hand": "right"}, "reachable", "out_of_reach",
     "vase on top_shelf is at 2.1 m, above robot1's highest reach of 1.8 m"),
    (_robot1, "PICK", {"object": "ball", "hand": "right"}, "reachable", "out_of_reach",
     "ball on the floor is at 0 m, below robot1's lowest reach of 0.1 m"),
    (_robot1, "PICK", {"object": "anvil", "hand": "right"}, "payload", "payload_exceeded",
     "anvil weighs 20 kg"),
    (_light_payload_holding_juice, "PICK", {"object": "bottle", "hand": "right"}, "payload",
     "payload_exceeded", "would carry 1.5 kg, over its payload of 1.2 kg"),
    (_holding_bottle, "PICK", {"object": "cup", "hand": "right"}, "hand_free", "hand_full",
     "the right hand is not free (robot1 holds bottle)"),
    (_carrier_holding_mug_and_bottle, "PICK", {"object": "cup", "hand": "left"}, "hand_free",
     "hand_full", "the left hand is not free (carrier holds mug, bottle)"),
    (_robot1, "PLACE", {"object": "bottle", "target": "table_1", "hand": "right"}, "holding",
     "not_holding", "robot1 does not hold bottle"),
    (_holding_bottle, "PLACE", {"object": "bottle", "target": "table_1", "hand": "left"},
     "holding", "not_holding", "bottle is in the right hand, not the left hand"),
    (_holding_bottle, "PLACE", {"object": "bottle", "target": "user", "hand": "right"},
     "target_is_place", "object_not_found", "user is a person; expected a surface or container"),
    (_holding_bottle, "PLACE", {"object": "bottle", "target": "table_2", "hand": "right"},
     "in_robot_room", "out_of_reach", "table_2 is in bedroom"),
    (_holding_bottle, "PLACE", {"object": "bottle", "target": "fridge", "hand": "right"},
     "container_open", "container_closed", "bottle must go into fridge"),
    (_holding_bottle, "PLACE", {"object": "bottle", "target": "top_shelf", "hand": "right"},
     "reachable", "out_of_reach", "top_shelf is at 2.1 m"),
    (_robot("base1"), "OPEN", {"container": "fridge"}, "has_skill", "capability_missing",
     "base1 does not have OPEN"),
    (_robot1, "OPEN", {"container": "table_1"}, "is_container", "object_not_found",
     "table_1 is a surface; expected a container"),
    (_in_hallway, "OPEN", {"container": "fridge"}, "in_robot_room", "out_of_reach",
     "robot1 is in hallway"),
    (_both_hands_full, "OPEN", {"container": "fridge"}, "hand_free", "hand_full",
     "no hand is free (robot1 holds bottle, cup)"),
    (_both_hands_full, "CLOSE", {"container": "cupboard"}, "hand_free", "hand_full",
     "no hand is free"),
    (_robot1, "HANDOVER", {"object": "bottle", "person": "user", "hand": "right"}, "holding",
     "not_holding", "robot1 does not hold bottle"),
    (_holding_bottle, "HANDOVER", {"object": "bottle", "person": "zed", "hand": "right"},
     "person_known", "object_not_found", "people: anna, dora, ghost, user"),
    (_holding_bottle, "HANDOVER", {"object": "bottle", "person": "ghost", "hand": "right"},
     "person_located", "person_unavailable", "where ghost is is unknown"),
    (_holding_bottle, "HANDOVER", {"object": "bottle", "person": "anna", "hand": "right"},
     "person_available", "person_unavailable", "anna is busy"),
    (_lost_holding_cup, "HANDOVER", {"object": "cup", "person": "user", "hand": "right"},
     "robot_located", "path_blocked", "no room for lost"),
    (_dora_in_the_garage, "HANDOVER", {"object": "bottle", "person": "dora", "hand": "right"},
     "route", "path_blocked", "from kitchen to dora in garage"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("make", "skill", "args", "check", "code", "words"),
    FAILURES,
    ids=[f"{row[1]}-{row[3]}-{i}" for i, row in enumerate(FAILURES)],
)
def test_each_failing_precondition_is_named_with_its_code_and_reason(
    make_belief: MakeBelief,
    make: Callable[[MakeBelief], Belief],
    skill: str,
    args: dict[str, Any],
    check: str,
    code: str,
    words: str,
) -> None:
    report = check_preconditions(skill_call(skill, args), make(make_belief))
    assert not report.ok
    failed = report.failure
    assert failed is not None
    assert (failed.name, failed.code) == (check, code)
    assert words in failed.reason
    assert report.checks[-1] is failed  # checking stops at the first failure
    assert all(c.ok for c in report.checks[:-1])


PASSES = [
    (_robot1, "GOTO", {"target": "bedroom"},
     ["has_skill", "robot_located", "target_known", "target_located", "route"]),
    (_robot("base1"), "GOTO", {"target": "user"},
     ["has_skill", "robot_located", "target_known", "target_located", "route"]),
    (_robot1, "PICK", {"object": "bottle", "hand": "right"},
     ["has_skill", "has_hands", "hand_exists", "object_known", "graspable", "not_hot",
      "object_resting",
      "in_robot_room", "reachable", "payload", "hand_free"]),
    (_robot1, "PICK", {"object": "cup", "hand": "left"},
     ["has_skill", "has_hands", "hand_exists", "object_known", "graspable", "not_hot",
      "object_resting",
      "in_robot_room", "container_open", "reachable", "payload", "hand_free"]),
    (_robot("onearm"), "PICK", {"object": "ball", "hand": "right"},
     ["has_skill", "has_hands", "hand_exists", "object_known", "graspable", "not_hot",
      "object_resting",
      "in_robot_room", "reachable", "payload", "hand_free"]),
    (_holding_bottle, "PLACE", {"object": "bottle", "target": "cupboard", "hand": "right"},
     ["has_skill", "has_hands", "hand_exists", "holding", "target_is_place", "in_robot_room",
      "container_open", "reachable"]),
    (_robot1, "OPEN", {"container": "fridge"},
     ["has_skill", "has_hands", "is_container", "in_robot_room", "reachable", "hand_free"]),
    (_holding_bottle, "CLOSE", {"container": "cupboard"},
     ["has_skill", "has_hands", "is_container", "in_robot_room", "reachable", "hand_free"]),
    (_holding_bottle, "HANDOVER", {"object": "bottle", "person": "user", "hand": "right"},
     ["has_skill", "has_hands", "hand_exists", "holding", "not_brimful", "person_known",
      "person_located", "person_available", "robot_located", "route"]),
    (_robot("base1"), "SAY", {"text": "hello"}, ["has_skill"]),
    (_robot("base1"), "WAIT", {"seconds": 3}, ["has_skill"]),
]  # fmt: skip


@pytest.mark.parametrize(("make", "skill", "args", "checks"), PASSES)
def test_preconditions_that_hold_list_every_check(
    make_belief: MakeBelief,
    make: Callable[[MakeBelief], Belief],
    skill: str,
    args: dict[str, Any],
    checks: list[str],
) -> None:
    report = check_preconditions(skill_call(skill, args), make(make_belief))
    assert report.ok
    assert report.failure is None
    assert [check.name for check in report.checks] == checks
    assert report.message == f"{report.call} preconditions hold ({len(checks)} checks)"


def test_unknown_quantities_pass_and_say_what_was_not_checked(make_belief: MakeBelief) -> None:
    report = check_preconditions(
        skill_call("PICK", object="bottle", hand="right"), make_belief("robot1", None)
    )
    assert report.ok
    reasons = {check.name: check.reason for check in report.checks}
    assert reasons["reachable"] == "height of bottle on table_1 unknown: reach not checked"


def test_the_failure_message_names_skill_precondition_code_and_reason(
    belief: Belief,
) -> None:
    report = check_preconditions(skill_call("PICK", object="juice", hand="right"), belief)
    assert report.message == (
        "PICK(juice, right) failed precondition container_open: container_closed — juice is in "
        "fridge, which is believed closed: OPEN fridge first"
    )


def test_a_held_object_in_an_unnamed_hand_may_be_in_either_free_hand(
    make_belief: MakeBelief,
) -> None:
    carrier = make_belief("carrier", None)
    for hand in ("right", "left"):
        call = skill_call("PLACE", object="mug", target="table_1", hand=hand)
        assert check_preconditions(call, carrier).ok
