"""Scenario files: the shipped ones validate; bad ones name the file, the field and the problem."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from rdflib import RDF, Graph

from cogtree.knowledge.scene.scene_graph import COG, SceneGraph
from cogtree.knowledge.scene.taxonomy import ONTOLOGY_PATH
from cogtree.sim.scenario import (
    SCENARIOS_DIR,
    Scenario,
    ScenarioError,
    list_scenarios,
    load_scenario,
    ontology_types,
    parse_scenario,
)
from cogtree.sim.world_spec import SKILL_INDIVIDUALS

MINIMAL: dict[str, Any] = {
    "id": "tiny",
    "title": "Bring the bottle to the bedroom table",
    "tier": "simple",
    "world": {
        "rooms": ["kitchen", "bedroom"],
        "doors": {"door": {"between": ["kitchen", "bedroom"]}},
        "furniture": {
            "table_1": {"kind": "surface", "type": "Table", "room": "kitchen"},
            "table_2": {"kind": "surface", "type": "Table", "room": "bedroom"},
            "fridge": {"kind": "container", "type": "Fridge", "room": "kitchen"},
        },
        "objects": {"bottle": {"type": "Bottle", "on": "table_1"}},
        "robots": {"robot1": {"profile": "humanoid", "room": "kitchen"}},
        "people": {"alex": {"room": "bedroom"}},
    },
    "request": {"speaker": "alex", "text": "put the bottle on the bedroom table"},
    "goal": "on(bottle, table_2)",
}


@pytest.fixture
def data() -> dict[str, Any]:
    return copy.deepcopy(MINIMAL)


def write(tmp_path: Path, data: dict[str, Any], name: str = "tiny") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def problems_of(tmp_path: Path, data: dict[str, Any]) -> tuple[str, list[str]]:
    path = write(tmp_path, data)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert caught.value.source == str(path)
    assert str(caught.value).startswith(f"{path}: ")
    return str(caught.value), [str(problem) for problem in caught.value.problems]


# -- good files -------------------------------------------------------------------------------


def test_every_shipped_scenario_validates() -> None:
    paths = list_scenarios()
    assert SCENARIOS_DIR / "robee_bottle.yaml" in paths
    types = ontology_types()
    for path in paths:
        scenario = load_scenario(path, types=types)
        assert scenario.id == path.stem


def test_the_robee_example(tmp_path: Path) -> None:
    scenario = load_scenario("robee_bottle")
    assert (scenario.tier, scenario.main_robot) == ("dynamic", "robot1")
    assert [str(p) for p in scenario.goal.all] == ["on(bottle, table_2)"]
    assert scenario.events[0].after_commands == 1
    assert scenario.request.speaker == "alex" and "kitchen" in scenario.request.text
    assert scenario.hidden_intent["destination"].value == "the table in the bedroom"
    assert len(scenario.oracle["planner"]) == 2
    assert load_scenario(SCENARIOS_DIR / "robee_bottle.yaml") == scenario


def test_shorthands_and_defaults(tmp_path: Path, data: dict[str, Any]) -> None:
    data["request"] = "put the bottle away"
    data["goal"] = ["on(bottle, table_2)", "not is_open(fridge)"]
    scenario = load_scenario(write(tmp_path, data))
    assert scenario.request.text == "put the bottle away" and scenario.request.speaker is None
    assert [str(p) for p in scenario.goal.all] == ["on(bottle, table_2)", "not is_open(fridge)"]
    assert list(scenario.world.rooms) == ["kitchen", "bedroom"]
    assert scenario.limits.max_ticks == 300 and scenario.seed == 0
    assert scenario.belief.objects is None


def test_running_helpers_build_a_fresh_run(tmp_path: Path, data: dict[str, Any]) -> None:
    scenario = load_scenario(write(tmp_path, data))
    world = scenario.new_world()
    assert world.seed == 0 and scenario.new_world(seed=5).seed == 5
    assert not scenario.goal.achieved(world)
    assert [str(p) for p in scenario.goal.unmet(world)] == ["on(bottle, table_2)"]
    with scenario.new_belief(world) as belief:
        location = belief.locate_object("bottle")
        assert location is not None and location.support == "table_1"
    assert scenario.new_events().pending == []
    assert scenario.new_people(world).speaker == "alex"


def test_yaml_words_on_and_yes_stay_words() -> None:
    text = yaml.safe_dump(MINIMAL, sort_keys=False).replace("'on'", "on")
    assert "\n      on: table_1" in text
    scenario = parse_scenario(text.replace("put the bottle", "yes"))
    assert scenario.world.objects["bottle"].on == "table_1"
    assert parse_scenario(text.replace("title: Bring", "title: no")).title.startswith("no ")


# -- bad files --------------------------------------------------------------------------------


def test_unknown_object_in_the_goal(tmp_path: Path, data: dict[str, Any]) -> None:
    data["goal"] = "on(cake, table_2)"
    _, problems = problems_of(tmp_path, data)
    assert problems == [
        "field `goal.all[0]`: in on(cake, table_2): no object 'cake' (objects: bottle)"
    ]


def test_impossible_relation(tmp_path: Path, data: dict[str, Any]) -> None:
    data["world"]["objects"]["bottle"] = {"type": "Bottle", "in": "table_1"}
    _, problems = problems_of(tmp_path, data)
    assert problems == [
        "field `world.objects.bottle.in`: table_1 is a surface, not a container "
        "(containers: fridge)"
    ]


def test_bad_predicate(tmp_path: Path, data: dict[str, Any]) -> None:
    data["goal"] = {"all": ["on(bottle table_2)"]}
    message, problems = problems_of(tmp_path, data)
    assert len(problems) == 1
    assert problems[0].startswith(
        "field `goal.all[0]`: bad predicate 'on(bottle table_2)': separate the arguments"
    )
    assert "tiny.yaml" in message


def test_unknown_field_suggests_the_right_one(tmp_path: Path, data: dict[str, Any]) -> None:
    data["world"]["objects"]["bottle"]["color"] = "blue"
    _, problems = problems_of(tmp_path, data)
    assert problems == [
        "field `world.objects.bottle.color`: unknown field `color`: did you mean `colour`?"
    ]


def test_every_problem_is_listed(tmp_path: Path, data: dict[str, Any]) -> None:
    del data["title"]
    data["tier"] = "easy"
    data["world"]["robots"]["robot1"]["room"] = "Kitchen"
    message, problems = problems_of(tmp_path, data)
    assert "3 problems" in message
    assert "field `title`: missing: add it" in problems
    assert any(p.startswith("field `tier`: Input should be 'simple'") for p in problems)
    assert any(
        p.startswith("field `world.robots.robot1.room`: 'Kitchen' is not an id") for p in problems
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["world"]["objects"]["bottle"].update(type="Botle"),
         "field `world.objects.bottle.type`: unknown type 'Botle'"),
        (lambda d: d["world"]["furniture"]["table_2"].update(room="garage"),
         "field `world.furniture.table_2.room`: no room 'garage'"),
        (lambda d: d["request"].update(speaker="zed"), "field `request.speaker`: no person 'zed'"),
        (lambda d: d.update(robot="base9"), "field `robot`: no robot 'base9'"),
        (lambda d: d.update(tier="infeasible"),
         "field `goal.expect`: an infeasible scenario expects refuse"),
        (lambda d: d.update(tier="dynamic"),
         "field `events`: a dynamic scenario needs at least one event"),
        (lambda d: d.update(tier="ambiguous"), "field `hidden_intent`: an ambiguous scenario"),
        (lambda d: d.update(goal={"expect": "refuse"}), "expect: refuse needs a `reason`"),
        (lambda d: d.update(goal={"never": ["on(bottle, table_1)"]}),
         "a goal to achieve needs at least one predicate"),
        (lambda d: d.update(hidden_intent={"object": "the bottle"}, request="bring it"),
         "field `request.speaker`: name the person whose hidden_intent this is"),
        (lambda d: d.update(events=[{"at_tick": 2, "close": "table_1"}]),
         "field `events[0].close`: table_1 is a surface, not a container or door"),
        (lambda d: d.update(events=[{"id": "e", "at_tick": 1, "open": "fridge"},
                                    {"id": "e", "at_tick": 2, "close": "fridge"}]),
         "field `events[1].id`: 'e' is used twice"),
        (lambda d: d.update(events=[{"at_tick": 1}]),
         "field `events[0]`: an event needs exactly one action"),
        (lambda d: d.update(belief={"misplaced": {"bottle": {"on": "fridge"}}}),
         "field `belief.misplaced.bottle.on`: fridge is a container, not a surface"),
        (lambda d: d["world"].update(types={"Bottle": {}}),
         "field `world.types.Bottle`: Bottle is already an ontology type"),
        (lambda d: d["world"]["robots"].clear(), "field `world.robots`: a scenario needs"),
        (lambda d: d["world"].update(people={"bottle": {}}), "id 'bottle' is already used"),
    ],
)  # fmt: skip
def test_cross_checks(tmp_path: Path, data: dict[str, Any], change: Any, expected: str) -> None:
    change(data)
    _, problems = problems_of(tmp_path, data)
    assert any(expected in problem for problem in problems), problems


def test_declared_types_are_accepted(tmp_path: Path, data: dict[str, Any]) -> None:
    data["world"]["types"] = {"Document": {"label": "document", "broader": "ReadingMaterial"}}
    data["world"]["objects"]["form"] = {"type": "Document", "on": "table_1"}
    assert load_scenario(write(tmp_path, data)).world.types["Document"].label == "document"


def test_id_must_match_the_file_name(tmp_path: Path, data: dict[str, Any]) -> None:
    path = write(tmp_path, data, name="other")
    with pytest.raises(ScenarioError, match="'tiny' does not match the file name other.yaml"):
        load_scenario(path)


def test_yaml_problems(tmp_path: Path) -> None:
    duplicate = "id: a\nid: b\n"
    with pytest.raises(ScenarioError, match="field `line 2`: malformed YAML: key 'id' is written"):
        parse_scenario(duplicate, source="dup.yaml")
    with pytest.raises(ScenarioError, match="malformed YAML"):
        parse_scenario("id: [unclosed\n")
    # what the parser met is named (libyaml's own message leaves it out)
    with pytest.raises(ScenarioError, match=r"line 2`: malformed YAML: found character '\\t'"):
        parse_scenario("id: x\n\tfoo: 1\n")
    with pytest.raises(ScenarioError, match="expected a mapping of scenario fields"):
        parse_scenario("- a list\n")
    with pytest.raises(ScenarioError, match=r"no such file or shipped scenario; \(`cogtree"):
        load_scenario("no_such_scenario")
    with pytest.raises(
        ScenarioError, match=r"^tidy_for_guest: no such .* did you mean tidy_for_guests\?"
    ):
        load_scenario("tidy_for_guest")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ScenarioError, match="cannot read it: not UTF-8 text"):
        load_scenario(binary)


def test_robot_skills_are_the_ontology_skills() -> None:
    graph = Graph().parse(ONTOLOGY_PATH, format="turtle")
    skills = {SceneGraph.short_id(s) for s in graph.subjects(RDF.type, COG.Skill)}
    assert set(SKILL_INDIVIDUALS) == skills


def test_schema_round_trip(data: dict[str, Any]) -> None:
    scenario = Scenario.model_validate(data)
    again = Scenario.model_validate(scenario.model_dump(by_alias=True))
    assert again == scenario
