"""Robot-side observations lower a hazard the belief holds only from the robot's own senses."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import AttributeValue, Observation
from cogtree.skills.ros.observation_trust import UNKNOWN_MATERIAL, ObservationTrust, lowerings

KITCHEN = """\
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix scene: <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

scene:tray_1 a cog:Object ; cog:objectType cog:Tray ; rdfs:label "foil tray" ;
    cog:material "aluminium foil" .
scene:bottle_2 a cog:Object ; cog:objectType cog:Bottle ; rdfs:label "drain cleaner" ;
    cog:chemical true .
scene:pan_3 a cog:Object ; cog:objectType cog:Pan ; rdfs:label "pan" ; cog:hot true .
scene:bowl_4 a cog:Object ; cog:objectType cog:Bowl ; rdfs:label "bowl" ; cog:material "ceramic" .
"""

OWN = "sim:robot1"
NOW = datetime(2025, 6, 11, 8, 15, tzinfo=UTC)


def seen(
    thing: str, predicate: str, value: AttributeValue, source: str = "x", at: datetime = NOW
) -> Observation:
    return Observation(subject=thing, predicate=predicate, object=value, source=source, time=at)


@pytest.fixture
def scene() -> Iterator[SceneGraph]:
    graph = SceneGraph.from_turtle_text(KITCHEN, source="kitchen")
    yield graph
    graph.close()


def trust() -> ObservationTrust:
    return ObservationTrust({"robot1": OWN})


CERAMIC_DISH = (("material", "ceramic"), ("label", "ceramic dish"))
"""What a forger says of the foil tray: every description of it, not metal any more."""


def test_the_foil_tray_made_ceramic_by_another_source_is_refused(scene: SceneGraph) -> None:
    forged = [seen("tray_1", predicate, value) for predicate, value in CERAMIC_DISH]
    assert lowerings(scene, forged) == {"tray_1": {"metal"}}
    why = trust().refusal(scene, "robot1", forged)
    assert why is not None
    assert "tray_1 less hazardous (no longer metal)" in why
    assert "it comes from x, not robot1's own perception (sim:robot1)" in why


def test_the_robot_s_own_fresh_sighting_may_lower_a_hazard(scene: SceneGraph) -> None:
    sighted = [seen("tray_1", predicate, value, OWN) for predicate, value in CERAMIC_DISH]
    assert trust().refusal(scene, "robot1", sighted) is None


def test_one_description_left_saying_hazardous_is_no_lowering(scene: SceneGraph) -> None:
    # the label still says foil: the union keeps the tray metal, so nothing is lowered
    assert lowerings(scene, [seen("tray_1", "material", "ceramic")]) == {}
    # the flag still says chemical however the bottle is relabelled, but "water" would make
    # it a drink, which exempts a thing from rules: that is a lowering too
    assert lowerings(scene, [seen("bottle_2", "label", "water")]) == {"bottle_2": {"not drink"}}
    assert lowerings(scene, [seen("bottle_2", "label", "blue bottle")]) == {}
    cleared = [seen("bottle_2", "label", "water"), seen("bottle_2", "chemical", False)]
    assert lowerings(scene, cleared) == {"bottle_2": {"chemical", "not drink"}}


def test_a_material_made_known_or_an_exemption_gained_is_a_lowering(scene: SceneGraph) -> None:
    unknown = [seen("thing_9", "type", "Object"), seen("thing_9", "label", "zorb")]
    scene.observe(unknown)
    assert lowerings(scene, [seen("thing_9", "material", "ceramic")]) == {
        "thing_9": {UNKNOWN_MATERIAL}
    }
    assert lowerings(scene, [seen("thing_9", "objectType", "Pan")]) == {
        "thing_9": {UNKNOWN_MATERIAL, "not Cookware"}
    }


def test_a_hot_pan_said_cold_is_a_lowering_and_a_raise_is_not(scene: SceneGraph) -> None:
    assert lowerings(scene, [seen("pan_3", "hot", False)]) == {"pan_3": {"hot"}}
    raised = [seen("bowl_4", "hot", True), seen("bowl_4", "fragile", True)]
    assert lowerings(scene, [*raised, seen("pan_3", "colour", "red")]) == {}
    assert trust().refusal(scene, "robot1", raised) is None  # applied, whoever says it
    # a steel bowl no longer breaks: losing any hazard counts, even for another one gained
    assert lowerings(scene, [seen("bowl_4", "material", "steel")]) == {"bowl_4": {"breakable"}}


def test_an_own_sighting_older_than_what_the_belief_holds_is_refused(scene: SceneGraph) -> None:
    scene.observe([seen("pan_3", "on", "stove", OWN)])
    older = [seen("pan_3", "hot", False, OWN, NOW - timedelta(seconds=1))]
    why = trust().refusal(scene, "robot1", older)
    assert why is not None and "before the belief last saw pan_3" in why


def test_an_own_sighting_long_before_the_robot_s_newest_is_refused(scene: SceneGraph) -> None:
    judge = trust()
    judge.applied("robot1", [seen("bowl_4", "on", "counter", OWN, NOW + timedelta(minutes=5))])
    stale = [seen("pan_3", "hot", False, OWN)]
    why = judge.refusal(scene, "robot1", stale)
    assert why is not None and "more than 0:01:00 before robot1's newest observation" in why
