"""A small flat for skill tests: rooms, furniture of known heights, objects, people, robots."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from cogtree.evaluation.scenarios.hazard_set import HAZARD_WORLDS
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.sim.perception import belief_from_world
from cogtree.sim.scenario import load_scenario
from cogtree.sim.world import World
from cogtree.skills.action_model.belief import Belief, SupplementaryFacts
from cogtree.skills.planning.decomposition import SkillDecomposer
from cogtree.skills.planning.tasks import TaskPlanner

FLAT = """
@prefix :    <https://cogtree.dev/scene#> .
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:kitchen a cog:Room ; rdfs:label "kitchen" .
:hallway a cog:Room ; rdfs:label "hallway" .
:living_room a cog:Room ; rdfs:label "living room" .
:bedroom a cog:Room ; rdfs:label "bedroom" .
:garage a cog:Room ; rdfs:label "garage" .
:hallway cog:connectedTo :kitchen, :living_room, :bedroom .

:table_1 a cog:Surface ; cog:inRoom :kitchen .
:top_shelf a cog:Surface ; cog:inRoom :kitchen .
:fridge a cog:Container ; cog:inRoom :kitchen ; cog:isOpen false .
:cupboard a cog:Container ; cog:inRoom :kitchen ; cog:isOpen true .
:table_2 a cog:Surface ; cog:inRoom :bedroom .
:sofa_table a cog:Surface ; cog:inRoom :living_room .
:workbench a cog:Surface ; cog:inRoom :garage .

:bottle a cog:Object ; cog:graspable true ; cog:massKg 0.5 ; cog:on :table_1 .
:juice a cog:Object ; cog:graspable true ; cog:massKg 1.0 ; cog:in :fridge .
:cup a cog:Object ; cog:graspable true ; cog:massKg 0.2 ; cog:in :cupboard .
:vase a cog:Object ; cog:graspable true ; cog:massKg 0.8 ; cog:on :top_shelf .
:anvil a cog:Object ; cog:graspable true ; cog:massKg 20.0 ; cog:on :table_1 .
:poster a cog:Object ; cog:graspable false ; cog:on :table_1 .
:ball a cog:Object ; cog:graspable true ; cog:massKg 0.3 ; cog:inRoom :kitchen .
:book a cog:Object ; cog:graspable true ; cog:massKg 0.4 ; cog:on :sofa_table .
:wrench a cog:Object ; cog:graspable true ; cog:massKg 0.9 ; cog:on :workbench .
:mug a cog:Object ; cog:graspable true ; cog:massKg 0.3 .

:user a cog:Human ; cog:inRoom :living_room ; cog:availability "available" .
:anna a cog:Human ; cog:inRoom :bedroom ; cog:availability "busy" .
:ghost a cog:Human .
:dora a cog:Human ; cog:inRoom :kitchen .

:robot1 a cog:Robot ; cog:hands 2 ; cog:payloadKg 3.0 ; cog:minReachM 0.1 ; cog:maxReachM 1.8 ;
    cog:hasSkill cog:Goto, cog:Pick, cog:Place, cog:Open, cog:Close, cog:Handover ;
    cog:inRoom :kitchen .
:onearm a cog:Robot ; cog:hands 1 ; cog:payloadKg 2.0 ; cog:minReachM 0.0 ; cog:maxReachM 1.5 ;
    cog:hasSkill cog:Goto, cog:Pick, cog:Place, cog:Open, cog:Close, cog:Handover ;
    cog:inRoom :kitchen .
:base1 a cog:Robot ; cog:hands 0 ; cog:payloadKg 15.0 ;
    cog:hasSkill cog:Goto, cog:Carry ; cog:inRoom :hallway .
:carrier a cog:Robot ; cog:hands 2 ; cog:payloadKg 3.0 ; cog:minReachM 0.1 ; cog:maxReachM 1.8 ;
    cog:hasSkill cog:Goto, cog:Pick, cog:Place, cog:Open, cog:Close, cog:Handover ;
    cog:inRoom :kitchen ; cog:holds :mug .
:lost a cog:Robot ; cog:hands 2 ;
    cog:hasSkill cog:Goto, cog:Pick, cog:Place, cog:Open, cog:Close, cog:Handover .
"""
"""Hallway joins kitchen, living room and bedroom; the garage is reachable from nowhere."""

FACTS = SupplementaryFacts(
    furniture_heights_m={
        "table_1": 0.75,
        "top_shelf": 2.1,
        "fridge": 1.0,
        "cupboard": 1.2,
        "table_2": 0.7,
        "sofa_table": 0.5,
    },
    home_places={
        "bottle": "cupboard",
        "ball": "table_1",
        "juice": "fridge",
        "cup": "cupboard",
        "book": "table_2",
        "vase": "top_shelf",
    },
)


@pytest.fixture(scope="module")
def scene() -> Iterator[SceneGraph]:
    """The flat as a scene graph (read-only in tests)."""
    with SceneGraph.from_turtle_text(FLAT, source="flat.ttl") as graph:
        yield graph


@pytest.fixture(scope="module")
def make_belief(scene: SceneGraph) -> Callable[..., Belief]:
    """``make_belief(robot="robot1", facts=FACTS)``: a robot's belief of the flat."""

    def make(robot: str = "robot1", facts: SupplementaryFacts | None = FACTS) -> Belief:
        return Belief.from_scene(scene, robot, facts)

    return make


@pytest.fixture(scope="module")
def belief(make_belief: Callable[..., Belief]) -> Belief:
    """robot1's belief: two hands, in the kitchen, holding nothing."""
    return make_belief()


@pytest.fixture(scope="module")
def decomposer() -> SkillDecomposer:
    """One skill decomposer for the module (planners are made once and reused)."""
    return SkillDecomposer()


@pytest.fixture(scope="module")
def task_planner() -> TaskPlanner:
    """One task planner for the module."""
    return TaskPlanner()


@pytest.fixture(scope="module")
def hazard_kitchen() -> Iterator[Belief]:
    """The hazard set's kitchen (evaluation/scenarios/hazard_worlds/kitchen.yaml) as the
    robot's belief, built once per module."""
    scenario = load_scenario(HAZARD_WORLDS / "kitchen.yaml")
    scene = belief_from_world(World(scenario.world), "robot1", scenario.belief)
    try:
        yield Belief.from_scene(scene, "robot1")
    finally:
        scene.close()
