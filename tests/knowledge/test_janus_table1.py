"""JANUS's Table 1 for the advisor, field for field, with the paper's execution notes as tests.

AddToDatabase (the four daily targets besides allergies, intolerances, diets, exclusions and
preferences), DishInfo (compatibility with the stored profile), SubstituteDish (day of week,
meal type, weekly-plan flag). The notes: values only from what the user said; a clarification,
never a default, for a missing mandatory field; recursive ingredient checks; excluded never
appear, preferred when possible, only-ingredients only when stated; day and meal never
override allergies. The conversation that completes the daily targets after a question is in
tests/trees/test_memory_conversation.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError
from rdflib import Literal, URIRef

from cogtree.behaviours.gates.task_readiness import check_slots
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.domains.advisor import ADV, AdvisorKG
from cogtree.knowledge.packs.task_schema import missing_user, required_slots
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons
from cogtree.knowledge.understanding.slot_filling import fill_slots
from cogtree.knowledge.understanding.turn_state import IntentFrame
from tests.knowledge.advisor_queries import advisor_runner, run

TARGETS = ["daily_kcal", "daily_protein_g", "daily_carbohydrate_g", "daily_fat_g"]


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


def check(pack: DomainPack, task: str, slots: dict[str, Any], said: str) -> Any:
    frame = IntentFrame(domain="advisor", task=task, slots=slots, said=[said])
    return check_slots(pack.schema_for(task), pack.task(task), frame, {}, [said])


# ---------------------------------------------------------------------- AddToDatabase


def test_add_to_database_has_the_four_daily_targets_beside_the_profile(pack: DomainPack) -> None:
    fields = pack.schema_for("AddToDatabase").model_fields
    assert set(TARGETS) <= set(fields)
    assert {"targets", "relation", "person", "correction", "retract"} <= set(fields)
    # no field has a value the user did not give: every target defaults to "not said"
    assert all(fields[name].default is None for name in TARGETS)


def test_targets_are_read_from_what_the_user_said(
    pack: DomainPack, lexicons: dict[str, Lexicon]
) -> None:
    said = "Please save my targets: 1750 kcal, protein 95 g, 180 g of carbohydrates, fat: 58"
    slots = fill_slots(pack.task("AddToDatabase"), said, lexicons).slots
    assert [slots.get(name) for name in TARGETS] == ["1750", "95", "180", "58"]
    assert fill_slots(pack.task("AddToDatabase"), "I like protein bars", lexicons).slots.get(
        "daily_protein_g"
    ) in (None, "", [])


def test_a_target_the_user_never_said_is_not_taken_from_the_model(pack: DomainPack) -> None:
    said = "My daily targets are 2000 kcal, 90 g of protein and 240 g of carbs."
    model_slots = {
        "daily_kcal": 2000.0,
        "daily_protein_g": 90.0,
        "daily_carbohydrate_g": 240.0,
        "daily_fat_g": 70.0,  # invented: the user named no fat target
    }
    result = check(pack, "AddToDatabase", model_slots, said)
    assert result.task is None
    assert result.issues == {"daily_fat_g": "ungrounded"}


def test_a_missing_target_is_asked_for_never_defaulted(pack: DomainPack) -> None:
    schema = pack.schema_for("AddToDatabase")
    said = "Set my daily target to 2100 kcal and 100 g of protein"
    result = check(pack, "AddToDatabase", {"daily_kcal": 2100.0, "daily_protein_g": 100.0}, said)
    assert result.task is None
    assert result.issues == {"daily_carbohydrate_g": "missing", "daily_fat_g": "missing"}
    assert required_slots(schema, {"daily_kcal": 2100.0}) == TARGETS
    assert required_slots(schema, {"profile": True}) == TARGETS  # "set me up": the four targets
    assert required_slots(schema, {}) == ["targets"]  # nothing said: what to remember
    with pytest.raises(ValidationError, match="daily_carbohydrate_g, daily_fat_g missing"):
        schema.model_validate({"daily_kcal": 2100, "daily_protein_g": 100})
    with pytest.raises(ValidationError, match="targets needs at least one"):
        schema.model_validate({})


def test_all_four_targets_make_four_claims_on_their_own_slots(pack: DomainPack) -> None:
    task = pack.schema_for("AddToDatabase").model_validate(
        dict(zip(TARGETS, (1800, 70, 210, 60), strict=True)) | {"person": "Anna"}
    )
    claims = task.claims()  # type: ignore[attr-defined]
    assert [(c.slot, c.text) for c in claims[1:]] == [
        ("target.energy", "Anna's daily energy target is 1800 kcal"),
        ("target.protein", "Anna's daily protein target is 70 g"),
        ("target.carbohydrate", "Anna's daily carbohydrate target is 210 g"),
        ("target.fat", "Anna's daily fat target is 60 g"),
    ]
    with pytest.raises(ValidationError, match="daily_fat_g"):
        pack.schema_for("AddToDatabase").model_validate(
            dict(zip(TARGETS, (1800, 70, 210, -5), strict=True))
        )


# ---------------------------------------------------------------------- DishInfo


def test_dish_info_reports_compatibility_with_the_stored_profile_at_any_depth(
    pack: DomainPack, runner: ReadOnlyQueryRunner
) -> None:
    def profile(dish: str, **memory: list[URIRef]) -> list[str | None]:
        found = run(pack, runner, "dish_info", dish=ADV[dish], aspect=Literal("kcal"), **memory)
        return [row["statement"] for row in found if row["topic"] == "profile"]

    assert profile("pad_thai") == []  # no profile: nothing to compare with
    # the profile is a veto, with the path that carries what the person must avoid
    assert profile("pad_thai", avoid=[ADV.peanuts]) == [
        "is not safe for you, because of peanuts (pad Thai with prawns → peanuts)"
    ]
    assert profile("fruit_salad", avoid=[ADV.peanuts]) == [
        "holds none of what you must avoid (peanuts), at any depth"
    ]
    vegan = profile("spaghetti_carbonara", diet=[ADV.vegan])
    assert vegan and vegan[0] is not None and vegan[0].startswith("is not safe for you")


# ---------------------------------------------------------------------- SubstituteDish


def test_substitute_dish_has_day_meal_and_the_weekly_plan_flag(
    pack: DomainPack, lexicons: dict[str, Lexicon]
) -> None:
    schema = pack.schema_for("SubstituteDish")
    assert {"day_of_week", "meal_type", "weekly_plan"} <= set(schema.model_fields)
    said = "In my weekly plan, replace Friday's lunch with something made only of chickpeas."
    slots = fill_slots(pack.task("SubstituteDish"), said, lexicons).slots
    assert slots["meal_type"] == "lunch" and slots["only"] == ["chickpeas"]
    assert slots.get("weekly_plan") and str(slots["day_of_week"]).lower().startswith("friday")
    # Table 1: the user is SubstituteDish's one required field; dish, day and meal refine it
    assert required_slots(schema, {"meal_type": "lunch"}) == []
    assert missing_user(schema, {"meal_type": "lunch"}) == "person"  # asked, never assumed
    assert missing_user(schema, {"meal_type": "lunch", "person": "Dev"}) is None


def test_only_is_filled_only_when_the_user_says_only(
    pack: DomainPack, lexicons: dict[str, Lexicon]
) -> None:
    task = pack.task("SubstituteDish")
    preferred = fill_slots(task, "Instead of the lasagne, something with tofu", lexicons).slots
    assert preferred.get("preferred") == ["tofu"] and not preferred.get("only")
    only = fill_slots(task, "Instead of the lasagne, something with just tofu", lexicons).slots
    assert only.get("only") == ["tofu"]


def suggestions(pack: DomainPack, runner: ReadOnlyQueryRunner, **given: Any) -> list[str]:
    return [
        str(row["suggestion"]).removeprefix("adv:")
        for row in run(pack, runner, "substitute_dish", **given)
    ]


def test_the_weekly_plan_names_the_dish_of_a_day_and_meal(
    pack: DomainPack, runner: ReadOnlyQueryRunner
) -> None:
    found = run(
        pack,
        runner,
        "substitute_dish",
        person=Literal("Alice"),
        day_of_week=Literal("wednesday"),
        meal_type=Literal("dinner"),
    )
    assert found and {row["dish"] for row in found} == {"adv:chicken_tikka_masala"}
    # no one's plan: no dish is replaced, dishes for that meal are proposed, named by it
    unplanned = run(
        pack,
        runner,
        "substitute_dish",
        day_of_week=Literal("wednesday"),
        meal_type=Literal("dinner"),
    )
    assert unplanned and {row["dish"] for row in unplanned} == {"adv:nothing"}
    assert {row["dish_label"] for row in unplanned} == {"wednesday dinner"}


def test_the_meal_ranks_its_courses_first(pack: DomainPack, runner: ReadOnlyQueryRunner) -> None:
    kg = AdvisorKG(pack.knowledge_graph())
    for_snack = suggestions(pack, runner, dish=ADV.lasagne, meal_type=Literal("snack"))
    courses = [kg.dish(s).course.id for s in for_snack]  # type: ignore[union-attr]
    assert courses and courses[0] in ("Starter", "Dessert")
    plain = suggestions(pack, runner, dish=ADV.lasagne)
    assert kg.dish(plain[0]).course.id == "Main"  # type: ignore[union-attr]


@pytest.mark.parametrize("day", ["monday", "wednesday", "saturday"])
@pytest.mark.parametrize("meal", ["lunch", "dinner", "snack", "breakfast"])
def test_day_and_meal_never_override_allergies(
    pack: DomainPack, runner: ReadOnlyQueryRunner, day: str, meal: str
) -> None:
    kg = AdvisorKG(pack.knowledge_graph())
    for dish in ("chicken_satay", "pad_thai", "lasagne"):
        found = suggestions(
            pack,
            runner,
            dish=ADV[dish],
            person=Literal("Alice"),
            day_of_week=Literal(day),
            meal_type=Literal(meal),
            preferred=[ADV.peanuts],
        )
        assert found
        assert all(kg.compatibility(s, "alice").compatible for s in found), (dish, found)


def test_excluded_never_appear_and_preferred_rank_first_with_day_and_meal(
    pack: DomainPack, runner: ReadOnlyQueryRunner
) -> None:
    kg = AdvisorKG(pack.knowledge_graph())
    found = suggestions(
        pack,
        runner,
        person=Literal("Dev"),
        day_of_week=Literal("monday"),
        meal_type=Literal("dinner"),
        excluded=[ADV.tomatoes],
        preferred=[ADV.tofu],
    )
    held = [{o.ingredient.id for o in kg.ingredients_of(s)} for s in found]
    assert found and not any("tomatoes" in ids for ids in held)
    assert all(kg.compatibility(s, "dev").compatible for s in found)
