"""The advisor pack's query templates on the real graph, bound as GenerateQuery binds them and
run by the read-only runner: DishInfo's numbers equal AdvisorKG's, JANUS's Figure 4 reply, and
SubstituteDish's semantics (exclusions at any depth, allergies winning, preferred, only)."""

from __future__ import annotations

from typing import Any

import pytest
from rdflib import Literal, URIRef

from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domains.advisor import ADV, AdvisorKG
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from tests.knowledge.advisor_queries import run

NUTRIENTS = {
    "kcal": "kcal",
    "protein": "protein_g",
    "carbohydrate": "carbohydrate_g",
    "fat": "fat_g",
}


@pytest.fixture(scope="module")
def kg(advisor_pack: DomainPack) -> AdvisorKG:
    return AdvisorKG(advisor_pack.knowledge_graph())


def ids(*local: str) -> list[URIRef]:
    return [ADV[name] for name in local]


def info(
    advisor_pack: DomainPack,
    advisor_query_runner: ReadOnlyQueryRunner,
    dish: str | None,
    aspect: str | None = None,
) -> list[dict[str, str | None]]:
    return run(
        advisor_pack,
        advisor_query_runner,
        "dish_info",
        dish=ADV[dish] if dish else None,
        aspect=Literal(aspect) if aspect else None,
    )


def by_dish(rows: list[dict[str, str | None]]) -> dict[str, list[dict[str, str | None]]]:
    grouped: dict[str, list[dict[str, str | None]]] = {}
    for row in rows:
        grouped.setdefault(str(row["dish"]).removeprefix("adv:"), []).append(row)
    return grouped


def suggest(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, dish: str, **given: Any
) -> list[str]:
    rows = run(advisor_pack, advisor_query_runner, "substitute_dish", dish=ADV[dish], **given)
    assert all(row["dish"] == f"adv:{dish}" for row in rows)
    return [str(row["suggestion"]).removeprefix("adv:") for row in rows]


def holds(kg: AdvisorKG, dish: str, thing: str) -> bool:
    """Whether ``dish`` contains the ingredient, or carries the allergen, at any depth."""
    return thing in {o.ingredient.id for o in kg.ingredients_of(dish)} or thing in {
        trace.component.id for trace in kg.allergens_of(dish)
    }


# ---------------------------------------------------------------------- DishInfo


def test_nutrients_per_serving_equal_advisor_kg_for_every_dish(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    every = by_dish(
        info(advisor_pack, advisor_query_runner, None, "nutrition")
    )  # one query, every dish
    assert set(every) == {dish.id for dish in kg.dishes()}
    for dish in kg.dishes():
        expected = kg.nutrition_of(dish.id).model_dump()
        rows = every[dish.id]
        got = {row["topic"]: float(str(row["value"])) for row in rows}
        assert got == {topic: expected[field] for topic, field in NUTRIENTS.items()}, dish.id
        assert {row["unit"] for row in rows} == {"kcal", "g"}


def test_janus_figure_4_carbohydrates_in_tiramisu(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    rows = info(advisor_pack, advisor_query_runner, "tiramisu", "carbohydrate")
    assert len(rows) == 1
    (row,) = rows
    carbohydrate = kg.nutrition_of("tiramisu").carbohydrate_g
    assert (row["dish_label"], row["topic"], row["unit"]) == ("tiramisu", "carbohydrate", "g")
    assert float(str(row["value"])) == carbohydrate
    reply = advisor_pack.task("DishInfo").reply
    assert reply is not None
    assert reply.format_map(row) == (f"tiramisu has {row['value']} g of carbohydrate per serving.")
    assert str(carbohydrate) in reply.format_map(row)


def test_ingredients_allergens_and_diets_agree_with_advisor_kg(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    every = by_dish(info(advisor_pack, advisor_query_runner, None))
    for dish in kg.dishes():
        rows = {row["topic"]: row for row in every[dish.id]}
        assert set(rows) == {*NUTRIENTS, "ingredients", "allergens", "diets"}
        recipe = {line.ingredient.label for line in dish.ingredients}
        assert set(str(rows["ingredients"]["value"]).split(", ")) == recipe
        allergens = {trace.component.label for trace in kg.allergens_of(dish.id)}
        statement = str(rows["allergens"]["statement"])
        if allergens:
            assert all(f"{name} (in " in statement for name in allergens), dish.id
            assert statement.count(" (in ") == len(allergens)
        else:
            assert rows["allergens"]["value"] == "none"
        diets = {term.label for term in dish.diets}
        value = str(rows["diets"]["value"])
        assert (set(value.split(", ")) if diets else {value}) == (diets or {"none"}), dish.id


def test_allergen_traces_name_the_recipe_ingredient_that_carries_them(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    (row,) = info(advisor_pack, advisor_query_runner, "pasta_al_pesto", "allergens")
    assert "milk (in pesto)" in str(row["value"])  # pesto -> parmesan -> milk
    assert "cereals containing gluten (in spaghetti)" in str(row["value"])
    (row,) = info(advisor_pack, advisor_query_runner, "fruit_salad", "allergens")
    assert row["statement"] == "contains none of the 14 declared allergens"


def test_an_unknown_dish_or_aspect_gives_no_rows(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    assert info(advisor_pack, advisor_query_runner, "no_such_dish", "kcal") == []
    assert info(advisor_pack, advisor_query_runner, "tiramisu", "sugar") == []


# ---------------------------------------------------------------------- SubstituteDish


def test_suggestions_are_other_dishes_of_the_same_course_first(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    for dish in kg.dishes()[::5]:  # a sample across courses: one query per dish
        found = suggest(advisor_pack, advisor_query_runner, dish.id)
        assert 0 < len(found) <= 5 and dish.id not in found
        courses = [kg.dish(s).course for s in found]  # type: ignore[union-attr]
        same = [course == dish.course for course in courses]
        assert same == sorted(same, reverse=True), dish.id  # same course before others
    assert {
        kg.dish(s).course.id for s in suggest(advisor_pack, advisor_query_runner, "tiramisu")
    } == {"Dessert"}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("dish", "excluded"),
    [
        ("spaghetti_carbonara", ["Milk"]),
        ("lasagne", ["Milk", "CerealsContainingGluten"]),
        ("pizza_margherita", ["basil"]),  # in pesto, one level down
        ("spaghetti_bolognese", ["cows_milk"]),  # butter -> cream -> milk, three down
        ("chicken_caesar_salad", ["Eggs", "Fish"]),
        ("tiramisu", ["sugar"]),
    ],
)
def test_excluded_ingredients_never_appear_at_any_depth(
    advisor_pack: DomainPack,
    advisor_query_runner: ReadOnlyQueryRunner,
    kg: AdvisorKG,
    dish: str,
    excluded: list[str],
) -> None:
    found = suggest(advisor_pack, advisor_query_runner, dish, excluded=ids(*excluded))
    unrestricted = suggest(advisor_pack, advisor_query_runner, dish)
    assert found
    for suggestion in found:
        assert not any(holds(kg, suggestion, thing) for thing in excluded), suggestion
    if any(holds(kg, s, thing) for s in unrestricted for thing in excluded):
        assert found != unrestricted


@pytest.mark.parametrize("person", ["alice", "bruno", "chiara", "dev", "elena"])
def test_a_named_person_or_the_speaker_only_gets_compatible_dishes(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG, person: str
) -> None:
    name = kg.person(person).name  # type: ignore[union-attr]
    for dish in ("spaghetti_carbonara", "tiramisu", "scrambled_eggs_on_toast"):
        by_name = suggest(advisor_pack, advisor_query_runner, dish, person=Literal(name))
        for suggestion in by_name:
            assert kg.compatibility(suggestion, person).compatible, (person, suggestion)
    assert suggest(advisor_pack, advisor_query_runner, "tiramisu", speaker=ADV[person]) == suggest(
        advisor_pack, advisor_query_runner, "tiramisu", person=Literal(name.upper())
    )


def test_allergies_win_over_preferred_and_only(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    preferred = suggest(
        advisor_pack, advisor_query_runner, "chicken_tikka_masala", preferred=ids("Peanuts")
    )
    assert preferred[0] == "chicken_satay"  # the satay has the peanuts asked for
    alice = suggest(
        advisor_pack,
        advisor_query_runner,
        "chicken_tikka_masala",
        preferred=ids("Peanuts"),
        person=Literal("Alice"),
    )
    assert alice and not any(holds(kg, s, "Peanuts") for s in alice)
    only = suggest(advisor_pack, advisor_query_runner, "chicken_tikka_masala", only=ids("peanuts"))
    assert only and all(holds(kg, s, "peanuts") for s in only)
    assert (
        suggest(
            advisor_pack,
            advisor_query_runner,
            "chicken_tikka_masala",
            only=ids("peanuts"),
            person=Literal("alice"),
        )
        == []
    )


def test_memory_avoid_and_diet_win_and_match_lower_case_ids(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    # memory slots are case-folded (food.treenuts, diet.vegan): the template still finds them
    avoided = suggest(
        advisor_pack,
        advisor_query_runner,
        "chocolate_walnut_brownies",
        avoid=ids("treenuts"),
        preferred=ids("walnuts"),
    )
    assert avoided and not any(holds(kg, s, "TreeNuts") for s in avoided)
    coeliac = suggest(
        advisor_pack, advisor_query_runner, "pancakes_with_maple_syrup", avoid=ids("coeliacdisease")
    )
    assert coeliac and not any(holds(kg, s, "CerealsContainingGluten") for s in coeliac)
    vegan = suggest(advisor_pack, advisor_query_runner, "spaghetti_carbonara", diet=ids("vegan"))
    assert vegan and all("Vegan" in {d.id for d in kg.dish(s).diets} for s in vegan)  # type: ignore[union-attr]


def test_a_food_category_forbids_every_food_it_covers(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    # "nuts" covers peanuts and tree nuts; "shellfish" crustaceans and molluscs: an allergy to
    # the category forbids every dish holding any of them, never fewer
    for category, covered in (
        ("nuts", ("Peanuts", "TreeNuts")),
        ("shellfish", ("Crustaceans", "Molluscs")),
    ):
        holding = {d.id for d in kg.dishes() if any(holds(kg, d.id, c) for c in covered)}
        assert holding and all(any(holds(kg, d, c) for d in holding) for c in covered)
        rows = run(advisor_pack, advisor_query_runner, "forbidden_dishes", avoid=ids(category))
        assert {str(row["dish"]).removeprefix("adv:") for row in rows} == holding, category
    profile = info(advisor_pack, advisor_query_runner, "chicken_satay", "kcal")[
        0
    ]  # avoid unbound: no profile row
    assert profile["topic"] != "profile"
    rows = run(
        advisor_pack,
        advisor_query_runner,
        "dish_info",
        dish=ADV["chicken_satay"],
        avoid=ids("nuts"),
    )
    assert any(
        row["statement"].startswith("is not safe") for row in rows if row["topic"] == "profile"
    )


def test_preferred_ingredients_rank_first_when_possible(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    plain = suggest(advisor_pack, advisor_query_runner, "cheeseburger")
    found = suggest(advisor_pack, advisor_query_runner, "cheeseburger", preferred=ids("chickpeas"))
    has = [holds(kg, s, "chickpeas") for s in found]
    assert has[0] and has == sorted(has, reverse=True)
    assert not all(holds(kg, s, "chickpeas") for s in plain)
    # a preference the menu cannot meet changes nothing: it ranks, it never filters
    assert (
        suggest(advisor_pack, advisor_query_runner, "cheeseburger", preferred=ids("espresso"))
        == plain
    )
    liked = suggest(advisor_pack, advisor_query_runner, "cheeseburger", favour=ids("salmon"))
    assert holds(kg, liked[0], "salmon")


def test_only_restricts_and_ranks_dishes_holding_more_of_them(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner, kg: AdvisorKG
) -> None:
    assert not all(
        holds(kg, s, "tofu") for s in suggest(advisor_pack, advisor_query_runner, "fish_and_chips")
    )
    only = suggest(advisor_pack, advisor_query_runner, "fish_and_chips", only=ids("tofu"))
    assert only and all(holds(kg, s, "tofu") for s in only)
    both = suggest(
        advisor_pack, advisor_query_runner, "fish_and_chips", only=ids("tofu", "basmati_rice")
    )
    assert all(holds(kg, s, "tofu") or holds(kg, s, "basmati_rice") for s in both)


def test_the_reply_template_lists_the_suggestions(
    advisor_pack: DomainPack, advisor_query_runner: ReadOnlyQueryRunner
) -> None:
    rows = run(
        advisor_pack,
        advisor_query_runner,
        "substitute_dish",
        dish=ADV.tiramisu,
        excluded=ids("Eggs"),
    )
    order = [(row["same_course"] == "true", int(str(row["score"]))) for row in rows]
    assert rows and order == sorted(order, reverse=True)
    reply = advisor_pack.task("SubstituteDish").reply
    assert reply is not None
    first = reply.format_map(rows[0])
    assert first.startswith("Instead of tiramisu, you could have ")
    assert str(rows[0]["suggestion_label"]) in first
