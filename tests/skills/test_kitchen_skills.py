"""The kitchen repertoire on a belief: preconditions, decomposition, effects and failure codes
of PLACE beside a landmark, DISPOSE, SWITCH_ON/OFF, FILL, POUR and a sharp HANDOVER (WIPE has
its own test, as every capability will: tests/skills/capabilities/)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, get_args

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.belief import FLAG_ATTRIBUTES, Belief, HazardFlag
from cogtree.skills.capabilities.calls import check_preconditions, project, skill_call
from cogtree.skills.capabilities.fetch import SHARP_WARNING
from cogtree.skills.capabilities.fill import DEFAULT_FILL_ML
from cogtree.skills.planning.decomposition import SkillDecomposer

KITCHEN = """
@prefix :    <https://cogtree.dev/scene#> .
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:kitchen a cog:Room ; rdfs:label "kitchen" .
:hallway a cog:Room ; rdfs:label "hallway" .
:hallway cog:connectedTo :kitchen .

:counter a cog:Surface ; cog:inRoom :kitchen ; cog:heightM 0.9 ; cog:clean false .
:table a cog:Surface ; cog:inRoom :kitchen ; cog:heightM 0.75 ; cog:slots 2 .
:shelf a cog:Surface ; cog:inRoom :kitchen ; cog:heightM 1.2 ; cog:slots 3 .
:sink a cog:Surface ; cog:inRoom :kitchen ; cog:heightM 0.85 ; cog:waterSource true ;
    cog:appliance true ; cog:powered false .
:microwave a cog:Container ; cog:inRoom :kitchen ; cog:isOpen false ; cog:appliance true ;
    cog:electrical true ; cog:powered false ; cog:heightM 1.1 .
:recycling a cog:Container ; cog:inRoom :kitchen ; cog:isOpen true ; cog:binKind "recycling" ;
    cog:heightM 0.6 .
:landfill a cog:Container ; cog:inRoom :kitchen ; cog:isOpen true ; cog:binKind "landfill" ;
    cog:heightM 0.6 .
:hall_bin a cog:Container ; cog:inRoom :hallway ; cog:isOpen true ; cog:binKind "compost" .

:cup a cog:Object ; cog:graspable true ; cog:on :counter ; cog:capacityMl 250 .
:plate a cog:Object ; cog:graspable true ; cog:on :table .
:fork a cog:Object ; cog:graspable true ; cog:on :table .
:salt a cog:Object ; cog:graspable true ; cog:on :shelf .
:can a cog:Object ; cog:graspable true ; cog:material "aluminium" ; cog:on :counter .
:kettle a cog:Object ; cog:graspable true ; cog:appliance true ; cog:powered false ;
    cog:on :counter .
:jug a cog:Object ; cog:graspable true ; cog:liquid "milk" ; cog:liquidMl 400 ;
    cog:capacityMl 500 ; cog:on :counter .
:bowl a cog:Object ; cog:graspable true ; cog:capacityMl 300 ; cog:on :shelf .
:sponge a cog:Object ; cog:graspable true ; cog:cleaningTool true ; cog:on :counter .
:knife a cog:Object ; cog:graspable true ; cog:sharp true ; cog:on :counter .

:sam a cog:Human ; cog:inRoom :kitchen ; cog:availability "available" .

:robot1 a cog:Robot ; cog:hands 2 ; cog:payloadKg 3.0 ; cog:minReachM 0.1 ; cog:maxReachM 1.8 ;
    cog:hasSkill cog:Goto, cog:Pick, cog:Place, cog:Open, cog:Close, cog:Handover,
        cog:Dispose, cog:SwitchOn, cog:SwitchOff, cog:Fill, cog:Pour, cog:Wipe ;
    cog:inRoom :kitchen .
:old a cog:Robot ; cog:hands 2 ; cog:minReachM 0.1 ; cog:maxReachM 1.8 ;
    cog:hasSkill cog:Goto, cog:Pick, cog:Place ; cog:inRoom :kitchen .
"""


@pytest.fixture(scope="module")
def kitchen() -> Iterator[Belief]:
    with SceneGraph.from_turtle_text(KITCHEN) as scene:
        yield Belief.from_scene(scene, "robot1")


def holding(belief: Belief, *things: str) -> Belief:
    for thing, hand in zip(things, ("right", "left"), strict=False):
        belief = belief.with_picked(thing, hand)  # type: ignore[arg-type]
    return belief


def failure(belief: Belief, skill: str, **args: Any) -> tuple[str | None, str | None, str]:
    report = check_preconditions(skill_call(skill, args), belief)
    failed = report.failure
    assert failed is not None, report.message
    return failed.name, failed.code, failed.reason


def commands(belief: Belief, skill: str, **args: Any) -> list[str]:
    plan = SkillDecomposer().decompose(skill_call(skill, args), belief)
    assert plan.ok, plan.message
    return [command.describe() for command in plan.commands]


def test_every_hazard_flag_but_bin_has_an_ontology_attribute() -> None:
    assert set(FLAG_ATTRIBUTES.values()) | {"bin"} == set(get_args(HazardFlag))


def test_the_belief_reads_the_kitchen_properties(kitchen: Belief) -> None:
    things = kitchen.things
    assert things["sink"].flags == {"water_source", "appliance"}
    assert things["sink"].powered is False
    assert things["recycling"].flags == {"bin"} and things["recycling"].bin_kind == "recycling"
    assert things["jug"].liquid == "milk" and things["jug"].liquid_ml == 400
    assert things["jug"].capacity_ml == 500 and things["jug"].free_ml == 100
    assert things["counter"].clean is False
    assert things["table"].slots == 2 and kitchen.free_places("table") == 0
    assert things["can"].material == "aluminium" and things["can"].is_empty
    assert things["knife"].flags == {"sharp"}
    assert "DISPOSE" in kitchen.robot.skills and "WIPE" in kitchen.robot.skills


# -- PLACE beside a landmark -------------------------------------------------------------------


def test_place_beside_goes_on_the_landmarks_surface_and_records_the_relation(
    kitchen: Belief,
) -> None:
    belief = holding(kitchen, "cup")
    call = skill_call("PLACE", object="cup", target="salt", hand="right", relation="left_of")
    assert check_preconditions(call, belief).ok
    assert commands(
        belief, "PLACE", object="cup", target="salt", hand="right", relation="left_of"
    ) == [
        "approach(target=shelf)",
        "put_beside(object=cup, landmark=salt, relation=left_of, hand=right)",
        "release(hand=right)",
    ]
    after = project(call, belief)
    assert after.things["cup"].support == "shelf" and after.things["cup"].relation == "on"
    assert after.things["cup"].beside == (("left_of", "salt"),)
    assert "cup" not in after.held


def test_place_without_relation_behaves_as_before(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup")
    assert commands(belief, "PLACE", object="cup", target="shelf", hand="right") == [
        "approach(target=shelf)",
        "put(object=cup, target=shelf, hand=right)",
        "release(hand=right)",
    ]
    after = project(skill_call("PLACE", object="cup", target="shelf", hand="right"), belief)
    assert after.things["cup"].beside == ()


def test_no_free_space_next_to_a_landmark_names_the_surface_and_what_is_on_it(
    kitchen: Belief,
) -> None:
    name, code, reason = failure(
        holding(kitchen, "cup"),
        "PLACE",
        object="cup",
        target="plate",
        hand="right",
        relation="next_to",
    )
    assert (name, code) == ("free_space", "no_free_space")
    assert "no free space next to plate on table" in reason and "fork, plate" in reason


@pytest.mark.parametrize(
    ("target", "relation", "name", "words"),
    [
        ("teapot", "next_to", "landmark_known", "teapot is not found in the belief"),
        ("microwave", "behind", "landmark_known", "microwave is a container"),
        ("shelf", "in", "relation_fits", "shelf is a surface: things go on it, not in it"),
    ],
)
def test_a_relation_that_cannot_be_satisfied_fails_with_a_reason(
    kitchen: Belief, target: str, relation: str, name: str, words: str
) -> None:
    failed = failure(
        holding(kitchen, "cup"),
        "PLACE",
        object="cup",
        target=target,
        hand="right",
        relation=relation,
    )
    assert failed[:2] == (name, "object_not_found") and words in failed[2]


# -- DISPOSE -------------------------------------------------------------------------------------


def test_dispose_drops_the_object_into_the_bin(kitchen: Belief) -> None:
    belief = holding(kitchen, "can")
    assert commands(belief, "DISPOSE", object="can", bin="recycling", hand="right") == [
        "approach(target=recycling)",
        "drop_in(object=can, bin=recycling, hand=right)",
        "release(hand=right)",
    ]
    after = project(skill_call("DISPOSE", object="can", bin="recycling", hand="right"), belief)
    assert after.things["can"].support == "recycling" and after.things["can"].relation == "in"


@pytest.mark.parametrize(
    ("thing", "bin_id", "name", "code"),
    [
        ("can", "landfill", "right_bin", "wrong_bin"),
        ("can", "counter", "is_bin", "object_not_found"),
        ("can", "hall_bin", "in_robot_room", "out_of_reach"),
        ("plate", "recycling", "holding", "not_holding"),
    ],
)
def test_dispose_failures(kitchen: Belief, thing: str, bin_id: str, name: str, code: str) -> None:
    belief = holding(kitchen, "can")
    assert failure(belief, "DISPOSE", object=thing, bin=bin_id, hand="right")[:2] == (name, code)


def test_a_full_can_is_not_recycled(kitchen: Belief) -> None:
    belief = holding(kitchen, "can").with_liquid("can", "cola", 100)
    _, code, reason = failure(belief, "DISPOSE", object="can", bin="recycling", hand="right")
    assert code == "wrong_bin" and "not empty" in reason and "landfill" in reason


def test_an_older_robot_without_the_skill_cannot_dispose() -> None:
    with SceneGraph.from_turtle_text(KITCHEN) as scene:
        belief = holding(Belief.from_scene(scene, "old"), "can")
    assert failure(belief, "DISPOSE", object="can", bin="recycling", hand="right")[:2] == (
        "has_skill",
        "capability_missing",
    )


# -- SWITCH_ON / SWITCH_OFF ------------------------------------------------------------------------


@pytest.mark.parametrize(("skill", "powered"), [("SWITCH_ON", True), ("SWITCH_OFF", False)])
def test_switch_sets_power(kitchen: Belief, skill: str, powered: bool) -> None:
    assert commands(kitchen, skill, appliance="kettle") == [
        "approach(target=kettle)",
        f"{skill.lower()}(appliance=kettle)",
    ]
    assert (
        project(skill_call(skill, appliance="kettle"), kitchen).things["kettle"].powered is powered
    )


def test_switch_failures(kitchen: Belief) -> None:
    assert failure(kitchen, "SWITCH_ON", appliance="plate")[:2] == (
        "is_appliance",
        "not_an_appliance",
    )
    assert failure(kitchen, "SWITCH_ON", appliance="toaster")[:2] == (
        "is_appliance",
        "object_not_found",
    )
    full = holding(kitchen, "cup", "can")
    assert failure(full, "SWITCH_ON", appliance="microwave")[:2] == ("hand_free", "hand_full")


# -- FILL and POUR ---------------------------------------------------------------------------------


def test_fill_with_no_amount_runs_to_the_usual_level_short_of_the_brim(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup")  # 250 ml: filled to 80%
    assert commands(belief, "FILL", container="cup", source="sink", hand="right") == [
        "approach(target=sink)",
        "fill(container=cup, source=sink, hand=right, amount_ml=200.0)",
    ]
    after = project(skill_call("FILL", container="cup", source="sink", hand="right"), belief)
    cup = after.things["cup"]
    assert cup.liquid == "water" and cup.liquid_ml == 200 and cup.free_ml == 50
    topped = project(skill_call("FILL", container="cup", source="sink", hand="right"), after)
    assert topped.things["cup"].liquid_ml == 200  # already at its usual level: nothing runs


def test_fill_more_than_fits_shows_as_an_overfill(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup")
    call = skill_call("FILL", container="cup", source="sink", hand="right", amount_ml=400)
    after = project(call, belief)
    cup = after.things["cup"]
    assert cup.capacity_ml is not None and cup.liquid_ml > cup.capacity_ml


def test_fill_without_a_known_capacity_runs_a_glassful(kitchen: Belief) -> None:
    belief = holding(kitchen, "plate")
    after = project(skill_call("FILL", container="plate", source="sink", hand="right"), belief)
    assert after.things["plate"].liquid_ml == DEFAULT_FILL_ML


def test_fill_failures(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup")
    assert failure(belief, "FILL", container="cup", source="counter", hand="right")[:2] == (
        "is_water_source",
        "wrong_tool",
    )
    full = belief.with_liquid("cup", "water", 250)
    assert failure(full, "FILL", container="cup", source="sink", hand="right")[:2] == (
        "not_full",
        "container_full",
    )


def test_pour_moves_the_liquid_and_an_overflow_is_visible(kitchen: Belief) -> None:
    belief = holding(kitchen, "jug")
    assert commands(belief, "POUR", source="jug", target="bowl", hand="right") == [
        "approach(target=shelf)",
        "pour(source=jug, target=bowl, hand=right, amount_ml=400.0)",
    ]
    after = project(skill_call("POUR", source="jug", target="bowl", hand="right"), belief)
    assert after.things["jug"].liquid_ml == 0 and after.things["jug"].liquid is None
    bowl = after.things["bowl"]
    assert bowl.liquid == "milk" and bowl.liquid_ml == 400 and bowl.capacity_ml == 300
    some = project(
        skill_call("POUR", source="jug", target="bowl", hand="right", amount_ml=100), belief
    )
    assert some.things["jug"].liquid_ml == 300 and some.things["bowl"].liquid_ml == 100


def test_pour_failures(kitchen: Belief) -> None:
    empty = holding(kitchen, "cup")
    assert failure(empty, "POUR", source="cup", target="bowl", hand="right")[:2] == (
        "has_liquid",
        "container_empty",
    )
    belief = holding(kitchen, "jug")
    assert failure(belief, "POUR", source="jug", target="teapot", hand="right")[:2] == (
        "target_known",
        "object_not_found",
    )
    full = belief.with_liquid("bowl", "water", 300)
    assert failure(full, "POUR", source="jug", target="bowl", hand="right")[:2] == (
        "not_full",
        "container_full",
    )


# -- HANDOVER of a sharp object -----------------------------------------------------------------


def test_a_sharp_object_is_announced_and_handed_handle_first(kitchen: Belief) -> None:
    belief = holding(kitchen, "knife")
    assert commands(belief, "HANDOVER", object="knife", person="sam", hand="right") == [
        "approach(target=sam)",
        f"speak(text={SHARP_WARNING.format(object='knife')})",
        "present_handle(object=knife, hand=right)",
        "handover(object=knife, person=sam, hand=right)",
        "release(hand=right)",
    ]
    assert commands(
        holding(kitchen, "cup"), "HANDOVER", object="cup", person="sam", hand="right"
    ) == [
        "approach(target=sam)",
        "handover(object=cup, person=sam, hand=right)",
        "release(hand=right)",
    ]
