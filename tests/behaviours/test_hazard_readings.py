"""The hazards of every reading of an unclear request: refuse instead of asking about them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from behaviours.hazard_readings import (
    forbidden_in_every_reading,
    frame_readings,
    one_sentence,
    scene_belief,
    slot_readings,
)
from behaviours.turn_state import SlotResolution
from knowledge.domain_pack import DomainPack
from knowledge.domain_registry import DomainRegistry
from knowledge.frame_tasks import TalkedAbout
from knowledge.hazard_rules import shipped_hazard_rules
from knowledge.lexicon import Lexicon, build_lexicons
from knowledge.scene_graph import SceneGraph
from sim.perception import belief_from_world
from sim.scenario import load_scenario
from sim.world import World
from skills.belief import Belief
from trees.evaluation.hazard_set import HAZARD_WORLDS

RULES = shipped_hazard_rules()


@pytest.fixture(scope="module")
def scene() -> Iterator[SceneGraph]:
    scenario = load_scenario(HAZARD_WORLDS / "kitchen.yaml")
    graph = belief_from_world(World(scenario.world), "robot1", scenario.belief)
    try:
        yield graph
    finally:
        graph.close()


@pytest.fixture(scope="module")
def household() -> DomainPack:
    return DomainRegistry.discover(active="household").get("household")


@pytest.fixture(scope="module")
def belief(scene: SceneGraph) -> Belief:
    found = scene_belief(scene)
    assert found is not None
    return found


def scene_slot(slot: str, *ids: str) -> SlotResolution:
    return SlotResolution(slot=slot, said=slot, kind="scene", ids=list(ids))


def test_an_ambiguous_slot_gives_one_reading_per_thing(
    household: DomainPack, belief: Belief
) -> None:
    resolved = {"source": scene_slot("source", "kettle", "water_jug"),
                "target": scene_slot("target", "toaster")}  # fmt: skip
    readings = slot_readings(household.task("Pour"), resolved, "ana", belief)
    assert readings == [
        [("pour", {"source": "kettle", "target": "toaster"})],
        [("pour", {"source": "water_jug", "target": "toaster"})],
    ]
    assert forbidden_in_every_reading(RULES, readings, belief, ["pour the water on it"]) == [
        "Pouring onto the toaster could cause an electric shock or a short circuit."
    ]


def test_an_unsaid_slot_is_read_as_each_thing_that_fits(
    household: DomainPack, belief: Belief
) -> None:
    resolved = {"object": scene_slot("object", "foil_tray")}
    readings = slot_readings(household.task("Heat"), resolved, "ana", belief)
    assert readings == [[("heat", {"object": "foil_tray", "appliance": "microwave"})]]
    assert forbidden_in_every_reading(RULES, readings, belief, ["nuke it"])
    bowl = {"object": scene_slot("object", "ceramic_bowl")}
    safe = slot_readings(household.task("Heat"), bowl, "ana", belief)
    assert forbidden_in_every_reading(RULES, safe, belief, ["nuke it"]) == []


def test_one_safe_reading_leaves_the_question(household: DomainPack, belief: Belief) -> None:
    resolved = {"object": scene_slot("object", "foil_tray", "ceramic_bowl")}
    readings = slot_readings(household.task("Heat"), resolved, "ana", belief)
    assert len(readings) == 2
    assert forbidden_in_every_reading(RULES, readings, belief, []) == []
    assert forbidden_in_every_reading(RULES, [], belief, []) == []


def test_the_steps_of_a_request_are_one_reading(
    household: DomainPack, scene: SceneGraph, belief: Belief
) -> None:
    lexicons: dict[str, Lexicon] = dict(build_lexicons(household, scene))
    text = "put the foil tray in the microwave and start it"
    readings = frame_readings(text, household, lexicons, belief)
    assert readings == [[("bring", {"object": "foil_tray", "to": "microwave"}),
                         ("switch_on", {"appliance": "microwave"})]]  # fmt: skip
    assert forbidden_in_every_reading(RULES, readings, belief, [text])
    earlier = TalkedAbout(said=["that's the foil tray"], things=["foil tray"])
    text = "put it in the microwave and start it"
    assert frame_readings(text, household, lexicons, belief) == []  # "it": nothing known
    assert frame_readings(text, household, lexicons, belief, earlier) == readings


def test_several_hazards_are_said_as_one_sentence() -> None:
    said = one_sentence(
        ["The jug is full.", "The glass is next to the kettle; a spill could reach it."]
    )
    assert said == "The jug is full; and the glass is next to the kettle; a spill could reach it."
    assert one_sentence([]) == ""
