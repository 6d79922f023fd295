from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import ValidationError

from cogtree.knowledge.robot_skills import RobotSkill, Skill
from cogtree.skills.action_model.specs import HAND_NAMES, SkillArgumentError
from cogtree.skills.capabilities.calls import (
    SKILL_SPECS,
    SkillCall,
    skill_call,
    skill_call_from_values,
)
from cogtree.skills.capabilities.fetch import PickArgs


def test_registry_has_every_robot_skill_and_they_are_failure_experience_skills() -> None:
    assert tuple(SKILL_SPECS) == get_args(RobotSkill)
    assert set(get_args(RobotSkill)) == set(get_args(Skill)) - {"DELEGATE", "LOOK"}
    assert SKILL_SPECS["PLACE"].signature() == "PLACE(object, target, hand, relation?)"
    assert SKILL_SPECS["HANDOVER"].parameters == ("object", "person", "hand")


def test_skill_call_validates_and_describes_in_parameter_order() -> None:
    call = skill_call("PICK", hand="left", object="bottle")
    assert isinstance(call.args, PickArgs)
    assert call.values == ("bottle", "left")
    assert call.describe() == "PICK(bottle, left)"
    assert str(skill_call("WAIT", {"seconds": 2})) == "WAIT(2.0)"


def test_an_unset_trailing_optional_is_left_out_of_the_values() -> None:
    plain = skill_call("PLACE", object="cup", target="table_2", hand="right")
    beside = skill_call_from_values("PLACE", ("cup", "plate", "right", "next_to"))
    assert plain.values == ("cup", "table_2", "right")
    assert plain.describe() == "PLACE(cup, table_2, right)"
    assert beside.values == ("cup", "plate", "right", "next_to")
    assert skill_call_from_values("PLACE", plain.values) == plain
    with pytest.raises(SkillArgumentError, match="expected 3 to 4 values"):
        skill_call_from_values("PLACE", ("cup", "plate"))


def test_mapping_and_keywords_combine() -> None:
    call = skill_call("PLACE", {"object": "bottle", "target": "table_2"}, hand="right")
    assert call.values == ("bottle", "table_2", "right")


def test_skill_call_from_values_matches_keyword_call() -> None:
    assert skill_call_from_values("HANDOVER", ("cup", "user", "right")) == skill_call(
        "HANDOVER", object="cup", person="user", hand="right"
    )


def test_dump_keeps_the_arguments() -> None:
    dumped = skill_call("GOTO", target="kitchen").model_dump()
    assert dumped == {"skill": "GOTO", "args": {"target": "kitchen"}}


def test_unknown_skill_lists_the_valid_ones_with_their_arguments() -> None:
    with pytest.raises(SkillArgumentError) as raised:
        skill_call("JUMP", target="kitchen")
    message = str(raised.value)
    assert "unknown skill 'JUMP'" in message
    for spec in SKILL_SPECS.values():
        assert spec.signature() in message


def test_delegate_is_not_a_robot_skill() -> None:
    with pytest.raises(SkillArgumentError, match="unknown skill 'DELEGATE'"):
        skill_call("DELEGATE")


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("PICK", {"object": "bottle"}, "field `hand`: Field required"),
        ("PICK", {"object": "bottle", "hand": "middle"}, "field `hand`"),
        ("PICK", {"object": "bottle", "hand": "left", "force": 3}, "field `force`"),
        ("GOTO", {"target": "the kitchen"}, "field `target`: String should match pattern"),
        ("GOTO", {"target": ""}, "field `target`"),
        ("SAY", {"text": "   "}, "field `text`"),
        ("SAY", {"text": "x" * 501}, "field `text`"),
        ("WAIT", {"seconds": -1}, "field `seconds`: Input should be greater than 0"),
        ("WAIT", {"seconds": "soon"}, "field `seconds`"),
        ("OPEN", {}, "field `container`: Field required"),
    ],
)
def test_wrong_arguments_name_the_field_and_what_the_skill_takes(
    name: str, args: dict[str, Any], expected: str
) -> None:
    with pytest.raises(SkillArgumentError) as raised:
        skill_call(name, args)
    message = str(raised.value)
    assert message.startswith(f"{name}: ")
    assert expected in message
    assert f"{SKILL_SPECS[name].signature()} takes" in message  # type: ignore[index]


def test_wrong_number_of_values_says_what_is_expected() -> None:
    with pytest.raises(SkillArgumentError, match=r"expected 2 values for PICK\(object, hand\)"):
        skill_call_from_values("PICK", ("bottle",))
    with pytest.raises(SkillArgumentError, match=r"expected 3 to 4 values for PLACE"):
        skill_call_from_values("PLACE", ("cup", "plate", "right", "next_to", "extra"))


def test_hand_names_put_right_first() -> None:
    assert HAND_NAMES == ("right", "left")


def test_a_call_read_back_from_json_has_typed_arguments() -> None:
    call = skill_call("PICK", object="bottle", hand="left")
    back = SkillCall.model_validate_json(call.model_dump_json())
    assert back == call
    assert isinstance(back.args, PickArgs)
    assert SkillCall.model_validate({"skill": "WAIT", "args": {"seconds": 1}}).values == (1.0,)


def test_a_call_validated_from_a_mapping_checks_its_arguments() -> None:
    with pytest.raises(ValidationError, match="hand"):
        SkillCall.model_validate({"skill": "PICK", "args": {"object": "bottle"}})
    with pytest.raises(ValidationError, match="skill"):
        SkillCall.model_validate({"skill": "FLY", "args": {}})
