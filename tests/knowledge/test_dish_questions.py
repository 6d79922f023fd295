"""JANUS's DishInfo as Table 1 has it: "does X contain Y" through the composition graph, and
"is X fine for me / for Dev" against the stored profile, each with the path as evidence.

The query side (the ``check`` and ``profile`` rows of ``dish_info``), the schema side (what
the question is about picks the part of the answer) and the understanding side (a question
naming a dish asks DishInfo, however it is put). The whole turn is in
tests/trees/test_dish_questions_turns.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rdflib import RDF, RDFS, Literal

from cogtree.knowledge.language.question_form import asks_whether
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.domains.advisor import ADV, load_advisor_graph
from cogtree.knowledge.packs.domains.advisor.tasks import DishInfo
from cogtree.knowledge.scene.named_queries import Binding
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.understanding.intent_matching import asked_task
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons
from cogtree.knowledge.understanding.slot_filling import fill_slots
from tests.knowledge.advisor_queries import advisor_runner, run


@pytest.fixture(scope="module")
def pack() -> DomainPack:
    return DomainRegistry.discover(only=["advisor"]).get("advisor")


@pytest.fixture(scope="module")
def lexicons(pack: DomainPack) -> dict[str, Lexicon]:
    return build_lexicons(pack, None)


@pytest.fixture(scope="module")
def runner(pack: DomainPack) -> Iterator[ReadOnlyQueryRunner]:
    with advisor_runner(pack) as running:
        yield running


def rows(
    pack: DomainPack, runner: ReadOnlyQueryRunner, dish: str, **given: Binding
) -> dict[str, list[str]]:
    """Topic -> statements of the dish_info rows for ``dish``."""
    found: dict[str, list[str]] = {}
    for row in run(pack, runner, "dish_info", dish=ADV[dish], **given):
        found.setdefault(str(row["topic"]), []).append(str(row["statement"]))
    return found


# ---------------------------------------------------------------------- the query


def test_a_check_follows_the_composition_and_gives_the_path(
    pack: DomainPack, runner: ReadOnlyQueryRunner
) -> None:
    said = rows(pack, runner, "pad_thai", aspect=Literal("check"), check=[ADV.Peanuts])
    assert said == {"check": ["contains peanuts (pad Thai with prawns → peanuts)"]}
    # two levels down: dish → recipe ingredient → its ingredient → the one that carries milk
    deep = rows(pack, runner, "pasta_al_pesto", aspect=Literal("check"), check=[ADV.Milk])
    assert deep["check"] == ["contains milk (pasta al pesto → pesto → parmesan → milk)"]
    absent = rows(pack, runner, "fruit_salad", aspect=Literal("check"), check=[ADV.Peanuts])
    assert absent["check"] == ["has no peanuts in any of its ingredients, at any depth"]
    # a diet is no ingredient to look for: it is not "checked" as one
    assert "check" not in rows(pack, runner, "pad_thai", check=[ADV.Vegetarian])


def test_the_profile_is_a_veto_with_its_path_for_the_user_or_a_named_person(
    pack: DomainPack, runner: ReadOnlyQueryRunner
) -> None:
    profile = Literal("profile")
    mine = rows(pack, runner, "pad_thai", aspect=profile, avoid=[ADV.peanuts])
    assert mine["profile"] == [
        "is not safe for you, because of peanuts (pad Thai with prawns → peanuts)"
    ]
    assert mine["allergens"]  # asked whether it suits: its allergens come with the verdict
    elena = rows(pack, runner, "lasagne", aspect=profile, person=Literal("Elena"))["profile"]
    assert elena[0].startswith("is not safe for Elena, because of ")
    assert "milk (lasagne alla bolognese → béchamel sauce → milk)" in elena[0]
    alice = rows(pack, runner, "fruit_salad", aspect=profile, person=Literal("alice"))
    assert alice["profile"] == ["holds none of what Alice must avoid (peanuts), at any depth"]


def test_the_speaker_s_profile_in_the_graph_counts_a_named_person_s_instead(
    pack: DomainPack, runner: ReadOnlyQueryRunner
) -> None:
    profile = Literal("profile")
    alice = rows(pack, runner, "pad_thai", aspect=profile, speaker=Literal("alice"))["profile"]
    assert alice == ["is not safe for you, because of peanuts (pad Thai with prawns → peanuts)"]
    # asked about Dev, Alice's own allergy is not Dev's
    dev = rows(
        pack, runner, "pad_thai", aspect=profile, speaker=Literal("alice"), person=Literal("Dev")
    )
    assert dev["profile"][0].startswith("is not safe for Dev, because of vegan")
    assert "peanuts" not in dev["profile"][0]
    stranger = rows(pack, runner, "pad_thai", aspect=profile, speaker=Literal("Zoe"))["profile"]
    assert stranger[0].startswith("cannot be checked for you")


def test_with_no_profile_nothing_is_called_safe(
    pack: DomainPack, runner: ReadOnlyQueryRunner
) -> None:
    said = rows(pack, runner, "pad_thai", aspect=Literal("profile"))
    assert said["profile"] == [
        "cannot be checked for you: I know of no allergy, intolerance or diet of yours yet"
    ]
    assert "peanuts" in said["allergens"][0]


def test_a_dish_of_unknown_composition_is_never_called_safe(pack: DomainPack) -> None:
    graph = load_advisor_graph()
    graph.add((ADV.mystery_stew, RDF.type, ADV.Dish))
    graph.add((ADV.mystery_stew, RDFS.label, Literal("mystery stew")))
    with ReadOnlyQueryRunner(graph, pack.manifest.prefixes, timeout_s=10.0) as unknown:
        query = pack.query("dish_info")
        values: dict[str, Binding] = {**dict.fromkeys(query.parameters)}
        values.update(dish=ADV.mystery_stew, aspect=Literal("profile"), avoid=[ADV.peanuts])
        values.update(check=[ADV.Peanuts])
        found = {
            str(row["topic"]): str(row["statement"])
            for row in unknown.run(query.bind(**values), template=True).rows
        }
    assert found["profile"] == "cannot be called safe for you: its ingredients are not recorded"
    assert found["check"] == "has no recorded ingredients, so I cannot say whether it has peanuts"


# ---------------------------------------------------------------------- the schema


def test_what_the_question_is_about_picks_the_part_of_the_answer() -> None:
    assert DishInfo(dish="pad_thai", check=["Peanuts"]).aspect == "check"
    assert DishInfo(dish="pad_thai", for_user="for me").aspect == "profile"
    assert DishInfo(dish="lasagne", person="Elena").aspect == "profile"
    # an aspect the user said stays: the profile row comes with it anyway
    assert DishInfo(dish="pad_thai", aspect="kcal", for_user="for me").aspect == "kcal"
    assert DishInfo(dish="pad_thai").aspect is None  # an overview


# ---------------------------------------------------------------------- understanding


@pytest.mark.parametrize(
    ("said", "slots"),
    [
        ("Does pad thai contain peanuts?", {"dish": "pad thai", "check": ["peanuts"]}),
        ("Is the pad thai safe for me to eat?", {"dish": "pad thai", "for_user": "for me"}),
        ("Is pad thai OK for me?", {"dish": "pad thai", "for_user": "for me"}),
    ],
)
def test_a_question_naming_a_dish_asks_dish_info(
    pack: DomainPack, lexicons: dict[str, Lexicon], said: str, slots: dict[str, object]
) -> None:
    task = asked_task(pack.tasks, said, lexicons)
    assert task is not None and task.name == "DishInfo"
    assert fill_slots(task, said, lexicons).slots == slots


def test_a_swap_or_a_statement_naming_a_dish_is_not_dish_info(
    pack: DomainPack, lexicons: dict[str, Lexicon]
) -> None:
    # a cue of another task that takes a dish (a swap) wins; a statement is no question
    assert asked_task(pack.tasks, "Is there an alternative to the pad thai?", lexicons) is None
    assert asked_task(pack.tasks, "I had pad thai yesterday.", lexicons) is None
    # a question naming no dish is left to the matcher
    assert asked_task(pack.tasks, "Am I allergic to anything?", lexicons) is None


def test_a_yes_no_question_is_a_question_but_a_request_is_not() -> None:
    assert asks_whether("Does pad thai contain peanuts?")
    assert asks_whether("would the risotto be fine")
    assert asks_whether("pad thai, safe for me?")
    assert not asks_whether("Could you swap the lasagne")
    assert not asks_whether("Swap the lasagne for something else.")
