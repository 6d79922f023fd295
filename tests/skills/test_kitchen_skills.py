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
