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

from typing import Any

import pytest
from pydantic import ValidationError
from rdflib import Literal, URIRef

from cogtree.knowledge.language.subject import names_someone, someone_else
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domains.advisor import ADV, AdvisorKG
from cogtree.knowledge.packs.task_schema import missing_user, required_slots
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.slot_filling import fill_slots
from cogtree.knowledge.understanding.slot_readiness import check_slots
from cogtree.knowledge.understanding.turn_state import IntentFrame
from tests.knowledge.advisor_queries import run

NUTRIENTS = ["energy", "protein", "carbohydrate", "fat"]

TARGETS = ["daily_kcal", "daily_protein_g", "daily_carbohydrate_g", "daily_fat_g"]


def check(advisor_pack: DomainPack, task: str, slots: dict[str, Any], said: str) -> Any:
    frame = IntentFrame(domain="advisor", task=task, slots=slots, said=[said])
    return check_slots(advisor_pack.schema_for(task), advisor_pack.task(task), frame, {}, [said])


# ---------------------------------------------------------------------- AddToDatabase


def test_add_to_database_has_the_four_daily_targets_beside_the_profile(
    advisor_pack: DomainPack,
) -> None:
    fields = advisor_pack.schema_for("AddToDatabase").model_fields
    assert set(TARGETS) <= set(fields)
    assert {"targets", "relation", "person", "correction", "retract"} <= set(fields)
    # no field has a value the user did not give: every target defaults to "not said"
    assert all(fields[name].default is None for name in TARGETS)


def test_targets_are_read_from_what_the_user_said(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    said = "Please save my targets: 1750 kcal, protein 95 g, 180 g of carbohydrates, fat: 58"
    slots = fill_slots(advisor_pack.task("AddToDatabase"), said, advisor_lexicons).slots
    assert [slots.get(name) for name in TARGETS] == ["1750", "95", "180", "58"]
    assert fill_slots(
        advisor_pack.task("AddToDatabase"), "I like protein bars", advisor_lexicons
    ).slots.get("daily_protein_g") in (None, "", [])


def test_a_target_the_user_never_said_is_not_taken_from_the_model(advisor_pack: DomainPack) -> None:
    said = "My daily targets are 2000 kcal, 90 g of protein and 240 g of carbs."
    model_slots = {
        "daily_kcal": 2000.0,
        "daily_protein_g": 90.0,
        "daily_carbohydrate_g": 240.0,
        "daily_fat_g": 70.0,  # invented: the user named no fat target
    }
    result = check(advisor_pack, "AddToDatabase", model_slots, said)
    assert result.task is None
    assert result.issues == {"daily_fat_g": "ungrounded"}


def test_a_missing_target_is_asked_for_never_defaulted(advisor_pack: DomainPack) -> None:
    schema = advisor_pack.schema_for("AddToDatabase")
    said = "Set my daily target to 2100 kcal and 100 g of protein"
    result = check(
        advisor_pack, "AddToDatabase", {"daily_kcal": 2100.0, "daily_protein_g": 100.0}, said
    )
    assert result.task is None
    assert result.issues == {"daily_carbohydrate_g": "missing", "daily_fat_g": "missing"}
    assert required_slots(schema, {"daily_kcal": 2100.0}) == TARGETS
    assert required_slots(schema, {"profile": True}) == TARGETS  # "set me up": the four targets
    assert required_slots(schema, {}) == ["targets"]  # nothing said: what to remember
    with pytest.raises(ValidationError, match="daily_carbohydrate_g, daily_fat_g missing"):
        schema.model_validate({"daily_kcal": 2100, "daily_protein_g": 100})
    with pytest.raises(ValidationError, match="targets needs at least one"):
        schema.model_validate({})


def test_all_four_targets_make_four_claims_on_their_own_slots(advisor_pack: DomainPack) -> None:
    task = advisor_pack.schema_for("AddToDatabase").model_validate(
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
        advisor_pack.schema_for("AddToDatabase").model_validate(
            dict(zip(TARGETS, (1800, 70, 210, -5), strict=True))
        )


# ---------------------------------------------------------------------- DishInfo


def test_dish_info_reports_compatibility_with_the_stored_profile_at_any_depth(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    def profile(dish: str, **memory: list[URIRef]) -> list[str | None]:
        found = run(
            advisor_pack,
            advisor_query_runner,
            "dish_info",
            dish=ADV[dish],
            aspect=Literal("kcal"),
            **memory,
        )
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
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    schema = advisor_pack.schema_for("SubstituteDish")
    assert {"day_of_week", "meal_type", "weekly_plan"} <= set(schema.model_fields)
    said = "In my weekly plan, replace Friday's lunch with something made only of chickpeas."
    slots = fill_slots(advisor_pack.task("SubstituteDish"), said, advisor_lexicons).slots
    assert slots["meal_type"] == "lunch" and slots["only"] == ["chickpeas"]
    assert slots.get("weekly_plan") and str(slots["day_of_week"]).lower().startswith("friday")
    # Table 1: the user is SubstituteDish's one required field; dish, day and meal refine it
    assert required_slots(schema, {"meal_type": "lunch"}) == []
    assert missing_user(schema, {"meal_type": "lunch"}) == "person"  # asked, never assumed
    assert missing_user(schema, {"meal_type": "lunch", "person": "Dev"}) is None


def test_only_is_filled_only_when_the_user_says_only(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    task = advisor_pack.task("SubstituteDish")
    preferred = fill_slots(
        task, "Instead of the lasagne, something with tofu", advisor_lexicons
    ).slots
    assert preferred.get("preferred") == ["tofu"] and not preferred.get("only")
    only = fill_slots(
        task, "Instead of the lasagne, something with just tofu", advisor_lexicons
    ).slots
    assert only.get("only") == ["tofu"]


def suggestions(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, **given: Any
) -> list[str]:
    return [
        str(row["suggestion"]).removeprefix("adv:")
        for row in run(advisor_pack, advisor_query_runner, "substitute_dish", **given)
    ]


def test_the_weekly_plan_names_the_dish_of_a_day_and_meal(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    found = run(
        advisor_pack,
        advisor_query_runner,
        "substitute_dish",
        person=Literal("Alice"),
        day_of_week=Literal("wednesday"),
        meal_type=Literal("dinner"),
    )
    assert found and {row["dish"] for row in found} == {"adv:chicken_tikka_masala"}
    # no one's plan: no dish is replaced, dishes for that meal are proposed, named by it
    unplanned = run(
        advisor_pack,
        advisor_query_runner,
        "substitute_dish",
        day_of_week=Literal("wednesday"),
        meal_type=Literal("dinner"),
    )
    assert unplanned and {row["dish"] for row in unplanned} == {"adv:nothing"}
    assert {row["dish_label"] for row in unplanned} == {"wednesday dinner"}


def test_the_meal_ranks_its_courses_first(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    kg = AdvisorKG(advisor_pack.knowledge_graph())
    for_snack = suggestions(
        advisor_pack, advisor_query_runner, dish=ADV.lasagne, meal_type=Literal("snack")
    )
    courses = [kg.dish(s).course.id for s in for_snack]  # type: ignore[union-attr]
    assert courses and courses[0] in ("Starter", "Dessert")
    plain = suggestions(advisor_pack, advisor_query_runner, dish=ADV.lasagne)
    assert kg.dish(plain[0]).course.id == "Main"  # type: ignore[union-attr]


@pytest.mark.parametrize("day", ["monday", "wednesday", "saturday"])
@pytest.mark.parametrize("meal", ["lunch", "dinner", "snack", "breakfast"])
def test_day_and_meal_never_override_allergies(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, day: str, meal: str
) -> None:
    kg = AdvisorKG(advisor_pack.knowledge_graph())
    for dish in ("chicken_satay", "pad_thai", "lasagne"):
        found = suggestions(
            advisor_pack,
            advisor_query_runner,
            dish=ADV[dish],
            person=Literal("Alice"),
            day_of_week=Literal(day),
            meal_type=Literal(meal),
            preferred=[ADV.peanuts],
        )
        assert found
        assert all(kg.compatibility(s, "alice").compatible for s in found), (dish, found)


def test_excluded_never_appear_and_preferred_rank_first_with_day_and_meal(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    kg = AdvisorKG(advisor_pack.knowledge_graph())
    found = suggestions(
        advisor_pack,
        advisor_query_runner,
        person=Literal("Dev"),
        day_of_week=Literal("monday"),
        meal_type=Literal("dinner"),
        excluded=[ADV.tomatoes],
        preferred=[ADV.tofu],
    )
    held = [{o.ingredient.id for o in kg.ingredients_of(s)} for s in found]
    assert found and not any("tomatoes" in ids for ids in held)
    assert all(kg.compatibility(s, "dev").compatible for s in found)


@pytest.mark.parametrize(
    "said",
    [
        "My daily targets are 2000 kcal, 90 g of protein, 240 g of carbs and 70 g of fat.",
        "My daily goals are 1800 kcal, 70 g protein, 200 g carbs and 60 g fat.",
    ],
)
def test_my_daily_targets_are_the_users_own(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon], said: str
) -> None:
    """'My daily ...' names no one: 'daily' is no word for a person (the language layer's
    people words), so the targets are the user's, and the robot asks whose when it does not
    know the speaker."""
    slots = fill_slots(advisor_pack.task("AddToDatabase"), said, advisor_lexicons).slots
    schema = advisor_pack.schema_for("AddToDatabase")
    task = schema.model_validate(slots)
    claims = task.claims()  # type: ignore[attr-defined]
    assert claims[0].text.startswith("The user's daily energy target is "), claims
    assert [claim.slot for claim in claims] == [f"target.{n}" for n in NUTRIENTS]
    assert missing_user(schema, slots) == "person"


def test_my_son_is_still_someone_else() -> None:
    assert someone_else("my son is allergic to sesame") == "my son"
    assert someone_else("Our guests are vegan") == "our guests"
    assert someone_else("My daily targets are 2000 kcal") is None
    assert someone_else("My diet is vegan") is None
    assert names_someone("my mother-in-law") and not names_someone("my daily")
