from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime, timezone

import pytest

from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph
from cogtree.knowledge.scene.scene_models import Observation
from cogtree.knowledge.scene.taxonomy import COG
from cogtree.skills.action_model.belief import Belief, BeliefError, SupplementaryFacts
from cogtree.skills.capabilities.calls import project, skill_call


def test_robot_profile_from_the_scene(belief: Belief) -> None:
    robot = belief.robot
    assert robot.id == "robot1"
    assert robot.hands == ("right", "left")
    assert (robot.payload_kg, robot.min_reach_m, robot.max_reach_m) == (3.0, 0.1, 1.8)
    assert robot.skills == {"GOTO", "PICK", "PLACE", "OPEN", "CLOSE", "HANDOVER", "SAY", "WAIT"}
    assert belief.robot_room == "kitchen"
    assert belief.held == {}


def test_mobile_base_has_no_hands_and_only_goto_plus_built_in_skills(
    make_belief: Callable[..., Belief],
) -> None:
    base = make_belief("base1")
    assert base.robot.hands == ()
    assert base.robot.skills == {"GOTO", "SAY", "WAIT"}


def test_things_people_and_rooms(belief: Belief) -> None:
    juice = belief.things["juice"]
    assert (juice.kind, juice.relation, juice.support, juice.room) == (
        "object",
        "in",
        "fridge",
        "kitchen",
    )
    assert belief.things["fridge"].is_open is False
    assert belief.things["ball"].relation == "inRoom"
    assert belief.people["anna"].availability == "busy"
    assert belief.people["ghost"].room is None
    assert belief.rooms["hallway"] == ("bedroom", "kitchen", "living_room")
    assert belief.rooms["garage"] == ()


def test_held_objects_get_their_hand_from_supplementary_facts(
    make_belief: Callable[..., Belief],
) -> None:
    assert make_belief("carrier", None).held == {"mug": None}
    carrier = make_belief("carrier", SupplementaryFacts(hand_holding={"mug": "left"}))
    assert carrier.held == {"mug": "left"}
    assert carrier.things["mug"].relation == "heldBy"
    assert carrier.hand_is_free("right")
    assert not carrier.hand_is_free("left")


HOLDING_SCENE = (
    "@prefix : <https://cogtree.dev/scene#> . @prefix cog: <https://cogtree.dev/ontology#> .\n"
    ":r a cog:Robot ; cog:hands 2 ; cog:inRoom :kitchen . :kitchen a cog:Room .\n"
    ":table a cog:Surface ; cog:inRoom :kitchen . :cup a cog:Object ; cog:on :table ."
)


def test_the_hand_a_held_thing_is_in_comes_from_the_scene_graph() -> None:
    with SceneGraph.from_turtle_text(HOLDING_SCENE) as scene:
        seen = datetime.now(timezone.utc)
        scene.observe(
            [
                Observation(subject="r", predicate="holds", object="cup", source="arm", time=seen),
                Observation(
                    subject="cup", predicate="heldIn", object="right", source="arm", time=seen
                ),
            ]
        )
        assert scene.robot_state("r")[0].held_in == {"cup": "right"}
        belief = Belief.from_scene(scene, "r")
        assert belief.held == {"cup": "right"}
        assert not belief.hand_is_free("right") and belief.hand_is_free("left")
        assert Belief.from_scene(
            scene, "r", SupplementaryFacts(hand_holding={"cup": "left"})
        ).held == {"cup": "left"}
        scene.observe(
            [Observation(subject="cup", predicate="on", object="table", source="arm", time=seen)]
        )
        assert scene.robot_state("r")[0].held_in == {}
        assert (scene.iri("cup"), COG.heldIn, None) not in scene.graph


def test_a_hand_the_robot_lacks_is_no_hand_in_the_belief() -> None:
    with SceneGraph.from_turtle_text(
        HOLDING_SCENE.replace("cog:hands 2", "cog:hands 1")
        + ' :r cog:holds :cup . :cup cog:heldIn "left" .'
    ) as scene:
        assert Belief.from_scene(scene, "r").held == {"cup": None}


def test_unknown_robot_lists_the_known_ones(scene: SceneGraph) -> None:
    with pytest.raises(
        BeliefError, match=r"no robot 'robot9'.*robots: base1, carrier, lost, onearm, robot1"
    ):
        Belief.from_scene(scene, "robot9")


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (SupplementaryFacts(furniture_heights_m={"bottle": 1.0}), "not furniture of the belief"),
        (SupplementaryFacts(furniture_heights_m={"table_1": -0.2}), "use metres >= 0"),
        (SupplementaryFacts(home_places={"table_1": "table_2"}), "not an object of the belief"),
        (SupplementaryFacts(home_places={"bottle": "kitchen"}), "use a surface or container"),
        (SupplementaryFacts(hand_holding={"bottle": "left"}), "robot1 holds nothing"),
    ],
)
def test_bad_supplementary_facts_name_the_problem(
    scene: SceneGraph, facts: SupplementaryFacts, expected: str
) -> None:
    with pytest.raises(BeliefError, match=expected):
        Belief.from_scene(scene, "robot1", facts)


def test_hand_a_one_handed_robot_lacks_is_refused(scene: SceneGraph) -> None:
    scene_with_holding = SceneGraph.from_turtle_text(
        "@prefix : <https://cogtree.dev/scene#> . @prefix cog: <https://cogtree.dev/ontology#> .\n"
        ":r a cog:Robot ; cog:hands 1 ; cog:holds :x . :x a cog:Object .",
    )
    with scene_with_holding, pytest.raises(BeliefError, match="has 1 hand"):
        Belief.from_scene(scene_with_holding, "r", SupplementaryFacts(hand_holding={"x": "left"}))


def test_route_through_connected_rooms(belief: Belief) -> None:
    assert belief.route("kitchen", "bedroom") == ["kitchen", "hallway", "bedroom"]
    assert belief.route("kitchen", "kitchen") == ["kitchen"]
    assert belief.route("kitchen", "garage") is None


def test_place_heights(belief: Belief) -> None:
    assert belief.place_height("bottle") == 0.75
    assert belief.place_height("juice") == 1.0
    assert belief.place_height("ball") == 0.0
    assert belief.place_height("top_shelf") == 2.1
    assert belief.place_height("wrench") is None  # the workbench's height is not known


def test_kind_and_room_of_every_kind_of_node(belief: Belief) -> None:
    assert [belief.kind_of(n) for n in ("kitchen", "user", "robot1", "fridge", "bottle", "x")] == [
        "room",
        "person",
        "robot",
        "container",
        "object",
        None,
    ]
    assert [belief.room_of(n) for n in ("kitchen", "user", "robot1", "juice", "ghost", "x")] == [
        "kitchen",
        "living_room",
        "kitchen",
        "kitchen",
        None,
        None,
    ]


def test_effects_project_the_belief_forward_without_changing_it(belief: Belief) -> None:
    picked = project(skill_call("PICK", object="bottle", hand="right"), belief)
    moved = project(skill_call("GOTO", target="table_2"), picked)
    placed = project(skill_call("PLACE", object="bottle", target="table_2", hand="right"), moved)
    assert picked.held == {"bottle": "right"}
    assert picked.things["bottle"].relation == "heldBy"
    assert moved.robot_room == "bedroom"
    assert moved.things["bottle"].room == "bedroom"  # held objects travel with the robot
    assert placed.held == {}
    assert (placed.things["bottle"].relation, placed.things["bottle"].support) == ("on", "table_2")
    assert belief.things["bottle"].support == "table_1"
    assert belief.robot_room == "kitchen"


def test_open_close_and_handover_effects(belief: Belief) -> None:
    opened = project(skill_call("OPEN", container="fridge"), belief)
    assert opened.things["fridge"].is_open is True
    closed = project(skill_call("CLOSE", container="fridge"), opened)
    assert closed.things["fridge"].is_open is False
    holding = belief.with_picked("cup", "left")
    given = project(skill_call("HANDOVER", object="cup", person="user", hand="left"), holding)
    assert given.robot_room == "living_room"
    assert (given.things["cup"].support, given.things["cup"].room) == ("user", "living_room")
    assert given.held == {}


def test_a_belief_is_its_own_deep_copy(belief: Belief) -> None:
    assert copy.deepcopy(belief) is belief


def test_reads_the_shipped_home_scene() -> None:
    with SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl") as scene:
        home = Belief.from_scene(scene, "robot1")
    assert home.things["bottle_blue"].support == "fridge"
    assert home.people["user"].room == "living_room"
    assert home.place_height("bottle_blue") == 0.5  # the fridge's cog:heightM
    assert home.homes["book"] == "bookshelf"  # cog:homePlace
    assert not home.is_at_home("book")  # it lies on the coffee table


def test_a_belief_is_read_once_per_version_of_the_scene() -> None:
    with SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl") as scene:
        robot = scene.robot_state()[0].id
        first = Belief.from_scene(scene, robot)
        assert Belief.from_scene(scene, robot) is first
        thing = next(iter(first.things))
        room = next(r for r in first.rooms if r != first.things[thing].room)
        scene.observe(
            [
                Observation(
                    subject=thing,
                    predicate="inRoom",
                    object=room,
                    source="test",
                    time=datetime.now(timezone.utc),
                )
            ]
        )
        moved = Belief.from_scene(scene, robot)
        assert moved is not first
        assert moved.things[thing].room == room
        assert first.things[thing].room != room  # the first one is unchanged
