"""Who is asked to do a step the robot cannot do, and the plan and sentence that ask them."""

from __future__ import annotations

from cogtree.knowledge.language.missing_steps import left_undone
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.language.unsupported_skills import skill_named
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.skills.action_model.people import Person
from cogtree.skills.planning.delegation import (
    asked_sentence,
    delegation_plan,
    delegations,
    helper_for,
    may_do,
    refused_for_want_of_skill,
    task_words,
)
from cogtree.skills.planning.handover import helpers_for
from cogtree.skills.planning.plan_model import DELEGATE

CAN = frozenset({"cut", "cook", "fold"})


def _person(ident: str, age: str = "adult", **more: object) -> Person:
    fields: dict[str, object] = {"room": "kitchen", "availability": "available", "abilities": CAN}
    fields.update(more)
    return Person(id=ident, age_group=age, **fields)  # type: ignore[arg-type]


def test_another_adult_is_asked_the_available_before_the_busy() -> None:
    people = [_person("ann"), _person("bob", availability="busy"), _person("cat")]
    assert helper_for(people, "cut", speaker="ann") == people[2]
    assert helper_for(people[:2], "cut", speaker="ann") == people[1]


def test_the_speaker_is_asked_only_last_and_only_once_the_robot_did_its_part() -> None:
    people = [_person("ann"), _person("kid", "child"), _person("tot", "toddler")]
    assert helper_for(people, "cut", speaker="ann", handles=("sharp",)) is None
    assert helper_for(people, "cut", "ann", ("sharp",), did_part=True) == people[0]
    busy = _person("bob", availability="busy")
    assert helper_for([*people, busy], "cut", "ann", ("sharp",), did_part=True) == busy
    frail = _person("ann", "elderly", vulnerabilities=frozenset({"frail"}))
    assert helper_for([frail, people[1]], "cut", "ann", ("sharp",), did_part=True) is None
    away = _person("ann", availability="away")
    assert helper_for([away], "fold", speaker="ann", did_part=True) is None


def test_a_child_is_never_asked_even_with_the_ability() -> None:
    kid = _person("kid", "child")
    assert not may_do(kid, "fold")
    assert helper_for([kid], "cut", speaker="kid") is None


def test_a_vulnerable_person_is_not_asked_to_handle_a_blade_or_heat() -> None:
    frail = _person("gran", "elderly", vulnerabilities=frozenset({"dementia"}))
    assert not may_do(frail, "cut", ("sharp",))
    assert not may_do(frail, "cook", ("heat_source",))
    assert may_do(frail, "fold", ())
    climbing = skill_named("climb")  # a height: nobody frail climbs for the robot
    assert climbing is not None and climbing.handles
    climber = _person("gran", "elderly", vulnerabilities=frozenset({"frail"}), abilities={"climb"})
    assert not may_do(climber, "climb", climbing.handles)
    assert may_do(_person("gran", "elderly", abilities={"climb"}), "climb", climbing.handles)
    assert may_do(_person("gran", "elderly"), "cut", ("sharp",))


def test_what_the_user_says_of_people_counts_as_for_the_hazard_check() -> None:
    undone = left_undone(parse_request("slice the bread"))
    ann, bob = _person("ann"), _person("bob")
    young = ["I'm only eight, can you slice the bread?"]
    assert delegations(undone, [ann], "ann", young) == []
    shaky = ["my hands are shaking, please slice the bread"]
    assert [item.person.id for item in delegations(undone, [ann, bob], "bob", shaky)] == ["ann"]
    assert delegations(undone, [bob], "bob", shaky) == []
    assert [item.person.id for item in delegations(undone, [ann], "bob", ["slice it"])] == ["ann"]
    assert delegations(undone, [ann], "ann", ["slice it"]) == []
    assert [item.person.id for item in delegations(undone, [ann], "ann", ["slice it"], True)] == [
        "ann"
    ]
    assert delegations(undone, [ann], "ann", young, did_part=True) == []


def test_nobody_away_asleep_or_without_the_ability_is_asked() -> None:
    people = [
        _person("ann", availability="away"),
        _person("bob", availability="asleep"),
        _person("cat", abilities=frozenset({"sign"})),
    ]
    assert helper_for(people, "cut", speaker=None) is None


def test_the_plan_asks_one_person_per_missing_skill_with_the_step_as_the_task() -> None:
    undone = left_undone(parse_request("chop the carrots"))
    chosen = delegations(undone, [_person("ann"), _person("kid", "child")], speaker="kid")
    plan = delegation_plan(chosen)
    assert plan.source == "delegation"
    assert [(s.action, s.assignee, s.args["ability"]) for s in plan.steps] == [
        (DELEGATE, "ann", "cut")
    ]
    assert plan.steps[0].args["description"] == "chop the carrots"
    nobody = delegation_plan(delegations(undone, [_person("kid", "child")], speaker="kid"))
    assert nobody.steps == []


def test_what_is_said_after_asking_names_whom_and_whether_it_was_done() -> None:
    plan = delegation_plan(
        delegations(left_undone(parse_request("slice the loaf")), [_person("bob")], "ann")
    )
    assert asked_sentence(plan, {1}, {"bob": "Bob"}, speaker="ann") == (
        "I asked Bob to do that part (slice the loaf), and Bob has done it."
    )
    assert asked_sentence(plan, set(), {"bob": "Bob"}, speaker="bob") == (
        "I asked you to do that part (slice the loaf), but it was not done."
    )


def test_only_a_refusal_for_want_of_a_skill_is_passed_on() -> None:
    frame = parse_request("slice the bread")

    def why(rationale: str, source: str = "fast_path") -> GateRationale:
        return GateRationale(
            node="TaskReadinessGate",
            module="inner_speech",
            source=source,  # type: ignore[arg-type]
            decision={"control": "Reject"},
            rationale=rationale,
        )

    assert refused_for_want_of_skill(why("I can't cut things yet"), frame)
    assert not refused_for_want_of_skill(why("forbidden: a blade carried at speed"), frame)
    assert not refused_for_want_of_skill(why("I can't cut things yet", "model"), frame)
    assert not refused_for_want_of_skill(None, frame)
    harmful = parse_request("slice the bread and hurt him")
    assert not refused_for_want_of_skill(why("I can't cut things yet"), harmful)


HOUSE = """
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:kitchen a cog:Room ; rdfs:label "kitchen" .
:sam a cog:Human ; rdfs:label "Sam" ; cog:inRoom :kitchen ; cog:ability "cut" ;
    cog:ageGroup "child" .
:ada a cog:Human ; rdfs:label "Ada" ; cog:inRoom :kitchen ; cog:ability "cut" .
"""


def test_a_child_is_never_offered_either() -> None:
    undone = left_undone(parse_request("slice the bread"))
    with SceneGraph.from_turtle_text(HOUSE, source="house") as scene:
        assert helpers_for(scene, undone, speaker=None) == {"cut": ["Ada"]}


def test_an_ability_named_like_the_verb_asked_counts_for_that_step_only() -> None:
    """Someone who "can sew" is asked to sew a button on, a repair (failed before: only an
    ability named "repair" counted); not to solder a wire, another repair."""
    tailor = _person("una", abilities=frozenset({"sew"}))
    (sewing,) = parse_request("sew the button back on my coat").steps
    (soldering,) = parse_request("solder the loose wire").steps
    assert sewing.unsupported.endswith("repair") and soldering.unsupported.endswith("repair")
    (asked,) = delegations([sewing], [tailor], speaker="me")
    assert asked.person == tailor and asked.ability == "sew"
    assert delegations([soldering], [tailor], speaker="me") == []
    maker = _person("una", abilities=frozenset({"make beds"}))
    (cooking,) = parse_request("can you make the dinner").steps
    assert delegations([cooking], [maker], speaker="me") == []  # "make" is no cooking verb


def test_a_task_handed_on_is_said_from_its_verb() -> None:
    """ "can you sew it back on" is handed on as "sew it back on" (failed before: with "can
    you")."""
    (step,) = parse_request("can you sew it back on").steps
    assert task_words(step) == "sew it back on"
    (named,) = parse_request("could you chop the leeks").steps
    assert task_words(named) == "chop the leeks"
