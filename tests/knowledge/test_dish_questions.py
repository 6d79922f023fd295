"""JANUS's DishInfo as Table 1 has it: "does X contain Y" through the composition graph, and
"is X fine for me / for Dev" against the stored profile, each with the path as evidence.

The query side (the ``check`` and ``profile`` rows of ``dish_info``), the schema side (what
the question is about picks the part of the answer) and the understanding side (a question
naming a dish asks DishInfo, however it is put). The whole turn is in
tests/trees/test_dish_questions_turns.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rdflib import RDF, RDFS, Literal, URIRef

from cogtree.knowledge.language.question_form import asks_whether
from cogtree.knowledge.packs.domain_pack import DomainPack, PackError, load_pack
from cogtree.knowledge.packs.domain_registry import SHIPPED_PACKS
from cogtree.knowledge.packs.domains.advisor import ADV, load_advisor_graph
from cogtree.knowledge.packs.domains.advisor.tasks import DishInfo
from cogtree.knowledge.scene.named_queries import Binding
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.understanding.intent_matching import asked_task
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.slot_filling import fill_slots
from tests.knowledge.advisor_queries import run


def rows(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, dish: str, **given: Binding
) -> dict[str, list[str]]:
    """Topic -> statements of the dish_info rows for ``dish``."""
    found: dict[str, list[str]] = {}
    for row in run(advisor_pack, advisor_query_runner, "dish_info", dish=ADV[dish], **given):
        found.setdefault(str(row["topic"]), []).append(str(row["statement"]))
    return found


# ---------------------------------------------------------------------- the query


def test_a_check_follows_the_composition_and_gives_the_path(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    def checked(dish: str, what: URIRef) -> dict[str, list[str]]:
        return rows(advisor_pack, advisor_query_runner, dish, aspect=Literal("check"), check=[what])

    said = checked("pad_thai", ADV.Peanuts)
    assert said == {"check": ["contains peanuts (pad Thai with prawns → peanuts)"]}
    # two levels down: dish → recipe ingredient → its ingredient → the one that carries milk
    deep = checked("pasta_al_pesto", ADV.Milk)
    assert deep["check"] == ["contains milk (pasta al pesto → pesto → parmesan → milk)"]
    absent = checked("fruit_salad", ADV.Peanuts)
    assert absent["check"] == ["has no peanuts in any of its ingredients, at any depth"]
    # a diet is no ingredient to look for: it is not "checked" as one
    assert "check" not in rows(
        advisor_pack, advisor_query_runner, "pad_thai", check=[ADV.Vegetarian]
    )


def test_the_profile_is_a_veto_with_its_path_for_the_user_or_a_named_person(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    profile = Literal("profile")
    mine = rows(advisor_pack, advisor_query_runner, "pad_thai", aspect=profile, avoid=[ADV.peanuts])
    assert mine["profile"] == [
        "is not safe for you, because of peanuts (pad Thai with prawns → peanuts)"
    ]
    assert mine["allergens"]  # asked whether it suits: its allergens come with the verdict
    elena = rows(
        advisor_pack, advisor_query_runner, "lasagne", aspect=profile, person=Literal("Elena")
    )["profile"]
    assert elena[0].startswith("is not safe for Elena, because of ")
    assert "milk (lasagne alla bolognese → béchamel sauce → milk)" in elena[0]
    alice = rows(
        advisor_pack, advisor_query_runner, "fruit_salad", aspect=profile, person=Literal("alice")
    )
    assert alice["profile"] == ["holds none of what Alice must avoid (peanuts), at any depth"]


def test_the_speaker_s_profile_in_the_graph_counts_a_named_person_s_instead(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    profile = Literal("profile")
    alice = rows(
        advisor_pack, advisor_query_runner, "pad_thai", aspect=profile, speaker=Literal("alice")
    )["profile"]
    assert alice == ["is not safe for you, because of peanuts (pad Thai with prawns → peanuts)"]
    # asked about Dev, Alice's own allergy is not Dev's
    dev = rows(
        advisor_pack,
        advisor_query_runner,
        "pad_thai",
        aspect=profile,
        speaker=Literal("alice"),
        person=Literal("Dev"),
    )
    assert dev["profile"][0].startswith("is not safe for Dev, because of vegan")
    assert "peanuts" not in dev["profile"][0]
    stranger = rows(
        advisor_pack, advisor_query_runner, "pad_thai", aspect=profile, speaker=Literal("Zoe")
    )["profile"]
    assert stranger[0].startswith("cannot be checked for you")


def test_with_no_profile_nothing_is_called_safe(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    said = rows(advisor_pack, advisor_query_runner, "pad_thai", aspect=Literal("profile"))
    assert said["profile"] == [
        "cannot be checked for you: I know of no allergy, intolerance or diet of yours yet."
    ]  # a sentence of its own: the allergens follow in the next (wording.clauses)
    assert "peanuts" in said["allergens"][0]


def test_a_dish_of_unknown_composition_is_never_called_safe(advisor_pack: DomainPack) -> None:
    graph = load_advisor_graph()
    graph.add((ADV.mystery_stew, RDF.type, ADV.Dish))
    graph.add((ADV.mystery_stew, RDFS.label, Literal("mystery stew")))
    with ReadOnlyQueryRunner(graph, advisor_pack.manifest.prefixes, timeout_s=10.0) as unknown:
        query = advisor_pack.query("dish_info")
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
    advisor_pack: DomainPack,
    advisor_lexicons: dict[str, Lexicon],
    said: str,
    slots: dict[str, object],
) -> None:
    task = asked_task(advisor_pack.tasks, said, advisor_lexicons)
    assert task is not None and task.name == "DishInfo"
    assert fill_slots(task, said, advisor_lexicons).slots == slots


def test_a_swap_or_a_statement_naming_a_dish_is_not_dish_info(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    # a cue of another task that takes a dish (a swap) wins; a statement is no question
    assert (
        asked_task(advisor_pack.tasks, "Is there an alternative to the pad thai?", advisor_lexicons)
        is None
    )
    assert asked_task(advisor_pack.tasks, "I had pad thai yesterday.", advisor_lexicons) is None
    # a question naming no dish is left to the matcher
    assert asked_task(advisor_pack.tasks, "Am I allergic to anything?", advisor_lexicons) is None


def test_a_yes_no_question_is_a_question_but_a_request_is_not() -> None:
    assert asks_whether("Does pad thai contain peanuts?")
    assert asks_whether("would the risotto be fine")
    assert asks_whether("pad thai, safe for me?")
    assert not asks_whether("Could you swap the lasagne")
    assert not asks_whether("Swap the lasagne for something else.")


# ---------------------------------------------------------------------- the shares (post_process)


def test_the_shares_of_the_daily_targets_are_the_tasks_post_process(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    assert advisor_pack.task("DishInfo").post_process == "target_shares"
    hook = advisor_pack.hooks["DishInfo"]
    found = run(advisor_pack, advisor_query_runner, "dish_info", dish=ADV.pad_thai)
    assert not any("a day" in str(row["statement"]) for row in found)  # the query has no shares
    context = {"daily_target": ["energy=2000", "fat=70"], "avoid": []}
    shared = {str(row["topic"]): row for row in hook(found, context)}
    assert shared["kcal"]["statement"] == (
        "has 879.5 kcal of energy per serving, 44% of your 2000 kcal a day"
    )
    assert shared["kcal"]["share"] == "44" and shared["fat"]["share"] == "43"
    assert "share" not in shared["protein"]  # no protein target: said as it was
    assert hook(hook(found, context), context) == hook(found, context)  # idempotent
    assert hook(found, {}) == found  # no targets: the rows as the query gave them


def test_a_post_process_that_is_no_function_of_the_pack_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "advisor"
    shutil.copytree(SHIPPED_PACKS / "advisor", folder)
    manifest = folder / "pack.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("post_process: target_shares", "post_process: nope"))
    with pytest.raises(PackError, match="post_process 'nope', which is not a function"):
        load_pack(folder)
