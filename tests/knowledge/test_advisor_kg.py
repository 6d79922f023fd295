"""The Advisor domain knowledge graph: its data, recursive allergen detection, compatibility,
nutrition arithmetic, unknown ids and ids that carry SPARQL syntax."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rdflib import Literal

from cogtree.knowledge.packs.domains.advisor import (
    ADV,
    AdvisorDataError,
    AdvisorKG,
    Compatibility,
    UnknownEntityError,
    load_advisor_graph,
)
from cogtree.knowledge.packs.domains.advisor.knowledge_graph import QUERY_DIR
from cogtree.knowledge.scene.named_queries import QueryLibrary
from cogtree.knowledge.scene.rdf_store import TurtleError, load_turtle

EU_ALLERGENS = {
    "CerealsContainingGluten",
    "Crustaceans",
    "Eggs",
    "Fish",
    "Peanuts",
    "Soybeans",
    "Milk",
    "TreeNuts",
    "Celery",
    "Mustard",
    "Sesame",
    "SulphurDioxideAndSulphites",
    "Lupin",
    "Molluscs",
}

HOSTILE_IDS = [
    "x> } ; DROP ALL #",
    "tiramisu> . ?s ?p ?o } #",
    'tiramisu" } ; DELETE WHERE { ?s ?p ?o } #',
    "tiramisu' OR '1'='1",
    "https://cogtree.dev/advisor#tiramisu> } UNION { ?s ?p ?o",
    "tiramisu\n} ; CLEAR DEFAULT",
    "",
    "a" * 5000,
]


@pytest.fixture(scope="module")
def kg() -> AdvisorKG:
    """The shipped graph, shared by the tests that only read it."""
    return AdvisorKG()


@pytest.fixture
def kg_with(tmp_path: Path) -> Callable[[str], AdvisorKG]:
    """A fresh graph holding the shipped data plus the given Turtle (prefixes declared)."""

    def make(turtle: str) -> AdvisorKG:
        extra = tmp_path / "extra.ttl"
        extra.write_text(
            "@prefix adv: <https://cogtree.dev/advisor#> .\n"
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n" + turtle,
            encoding="utf-8",
        )
        return AdvisorKG(load_advisor_graph(extra))

    return make


def paths(compatibility: Compatibility) -> set[tuple[str, str, str]]:
    """(kind, cause id, rendered path) for each reason."""
    return {(r.kind, r.cause.id, r.describe().split(": ", 1)[1]) for r in compatibility.reasons}


# ---------------------------------------------------------------------- data completeness


def test_at_least_30_dishes_each_with_ingredients_servings_and_nutrition(kg: AdvisorKG) -> None:
    dishes = kg.dishes()
    assert len(dishes) >= 30
    assert len({dish.id for dish in dishes}) == len(dishes)
    for dish in dishes:
        assert dish.ingredients, dish.id
        assert all(line.grams > 0 for line in dish.ingredients), dish.id
        assert dish.servings is not None and dish.servings > 0, dish.id
        assert dish.cuisine and dish.course is not None, dish.id
        nutrition = kg.nutrition_of(dish.id)
        assert 50 < nutrition.kcal < 1500, (dish.id, nutrition)


def test_nutrition_is_plausible_energy_matches_macronutrients(kg: AdvisorKG) -> None:
    # Atwater factors: 4 kcal/g protein and carbohydrate, 9 kcal/g fat. Alcohol, acids and
    # fibre make real food deviate a little; a typo in a value makes it deviate a lot.
    for dish in kg.dishes():
        n = kg.nutrition_of(dish.id)
        atwater = 4 * n.protein_g + 4 * n.carbohydrate_g + 9 * n.fat_g
        assert n.kcal == pytest.approx(atwater, rel=0.15), (dish.id, n)


def test_dishes_span_courses_cuisines_and_diets(kg: AdvisorKG) -> None:
    dishes = kg.dishes()
    courses = {dish.course.id for dish in dishes if dish.course is not None}
    assert {"Breakfast", "Main", "Dessert"} <= courses
    assert len({dish.cuisine for dish in dishes}) >= 8

    def fitting(diet: str) -> int:
        return sum(1 for dish in dishes if diet in {term.id for term in dish.diets})

    assert fitting("Vegan") >= 5
    assert fitting("Vegetarian") - fitting("Vegan") >= 5
    fish = [d for d in dishes if {t.id for t in d.diets} == {"Pescatarian"}]
    meat = [d for d in dishes if not d.diets]
    assert len(fish) >= 5
    assert len(meat) >= 5
    assert sum(1 for dish in dishes if dish.course and dish.course.id == "Breakfast") >= 5
    assert sum(1 for dish in dishes if dish.course and dish.course.id == "Dessert") >= 5


def test_the_14_eu_allergens_are_declared_and_each_occurs_in_some_dish(kg: AdvisorKG) -> None:
    assert {term.id for term in kg.allergens()} == EU_ALLERGENS
    found = {trace.component.id for dish in kg.dishes() for trace in kg.allergens_of(dish.id)}
    assert found == EU_ALLERGENS


def test_people_have_targets_and_the_required_constraints(kg: AdvisorKG) -> None:
    people = {person.id: person for person in kg.people()}
    assert len(people) >= 3
    for person in people.values():
        targets = person.daily_targets
        assert None not in (targets.kcal, targets.protein_g, targets.carbohydrate_g, targets.fat_g)
    assert any("Peanuts" in {t.id for t in p.allergies} for p in people.values())
    assert any("LactoseIntolerance" in {t.id for t in p.intolerances} for p in people.values())
    assert any("CoeliacDisease" in {t.id for t in p.intolerances} for p in people.values())
    bruno = kg.person("bruno")
    assert bruno is not None
    assert bruno.name == "Bruno"
    assert bruno.daily_targets.kcal == 2600
    assert [t.id for t in bruno.excluded_ingredients] == ["coriander"]


# ---------------------------------------------------------------------- composition and allergens


def test_allergen_found_at_depth_3_with_its_path(kg: AdvisorKG) -> None:
    traces = kg.allergens_of("pasta_al_pesto")
    milk = [trace for trace in traces if trace.component.id == "Milk"]
    assert [trace.describe() for trace in milk] == ["pesto → parmesan → milk"]
    assert [term.id for term in milk[0].path] == ["pesto", "parmesan", "cows_milk"]
    gluten = [
        trace.describe() for trace in traces if trace.component.id == "CerealsContainingGluten"
    ]
    assert gluten == ["spaghetti → durum wheat semolina"]


def test_allergens_found_at_depth_4_through_every_recipe_ingredient(kg: AdvisorKG) -> None:
    traces = {(t.component.id, t.describe()) for t in kg.allergens_of("chicken_caesar_salad")}
    assert ("Mustard", "Caesar dressing → mayonnaise → Dijon mustard → mustard seed") in traces
    assert (
        "CerealsContainingGluten",
        "Caesar dressing → Worcestershire sauce → malt vinegar → barley",
    ) in traces
    assert ("CerealsContainingGluten", "croutons → white bread → wheat flour") in traces
    # milk comes in twice, through two different recipe ingredients
    assert ("Milk", "Caesar dressing → parmesan → milk") in traces
    assert ("Milk", "parmesan → milk") in traces


def test_a_dish_of_plain_fruit_has_no_allergens(kg: AdvisorKG) -> None:
    assert kg.allergens_of("fruit_salad") == []


def test_ingredients_of_lists_every_depth_once_with_shortest_paths(kg: AdvisorKG) -> None:
    direct = kg.ingredients_of("pasta_al_pesto", transitive=False)
    assert [item.ingredient.id for item in direct] == [
        "green_beans",
        "pesto",
        "potatoes",
        "spaghetti",
    ]
    assert all(item.depth == 1 for item in direct)
    every = {item.ingredient.id: item for item in kg.ingredients_of("pasta_al_pesto")}
    assert {"pine_nuts", "parmesan", "cows_milk", "durum_semolina"} <= set(every)
    assert every["cows_milk"].describe() == "pesto → parmesan → milk"
    assert every["cows_milk"].depth == 3
    depths = [item.depth for item in kg.ingredients_of("pasta_al_pesto")]
    assert depths == sorted(depths)


def test_composition_is_followed_to_any_depth_and_cycles_terminate(
    kg_with: Callable[[str], AdvisorKG],
) -> None:
    kg = kg_with(
        """
        adv:layered a adv:Dish ; rdfs:label "layered dish" ; adv:servings 1 ;
            adv:hasIngredient [ adv:ingredient adv:l1 ; adv:grams 100 ] .
        adv:l1 rdfs:label "one" ; adv:contains adv:l2 .
        adv:l2 rdfs:label "two" ; adv:contains adv:l3 .
        adv:l3 rdfs:label "three" ; adv:contains adv:l4 .
        adv:l4 rdfs:label "four" ; adv:contains adv:l5 , adv:l1 .
        adv:l5 rdfs:label "five" ; adv:contains adv:l6 .
        adv:l6 rdfs:label "six" ; adv:carries adv:Sesame .
        """
    )
    (trace,) = kg.allergens_of("layered")
    assert trace.component.id == "Sesame"
    assert trace.describe() == "one → two → three → four → five → six"
    assert [item.depth for item in kg.ingredients_of("layered")] == [1, 2, 3, 4, 5, 6]
    verdict = kg.compatibility("layered", "dev")
    assert not verdict.compatible
    assert ("allergy", "Sesame", "one → two → three → four → five → six") in paths(verdict)


# ---------------------------------------------------------------------- compatibility


def test_a_dish_compatible_with_one_person_and_not_another(kg: AdvisorKG) -> None:
    for_bruno = kg.compatibility("pad_thai", "bruno")
    assert for_bruno.compatible
    assert for_bruno.reasons == ()
    for_alice = kg.compatibility("pad_thai", "alice")
    assert not for_alice.compatible
    assert paths(for_alice) == {("allergy", "Peanuts", "peanuts")}
    satay = kg.compatibility("chicken_satay", "alice")
    assert paths(satay) == {("allergy", "Peanuts", "satay sauce → peanut butter → peanuts")}
    assert kg.compatibility("chicken_satay", "bruno").compatible


def test_lactose_intolerance_is_followed_through_composition(kg: AdvisorKG) -> None:
    verdict = kg.compatibility("tiramisu", "bruno")
    assert not verdict.compatible
    (reason,) = verdict.reasons
    assert (reason.kind, reason.cause.id, reason.component.id) == (
        "intolerance",
        "LactoseIntolerance",
        "Lactose",
    )
    assert reason.describe() == "lactose intolerance (lactose): mascarpone → cream → milk"


def test_lactose_intolerance_differs_from_a_milk_allergy(kg: AdvisorKG) -> None:
    # Lactose-free milk still is milk: fine for the intolerant, not for the allergic.
    assert kg.compatibility("lactose_free_bircher_muesli", "bruno").compatible
    verdict = kg.compatibility("lactose_free_bircher_muesli", "elena")
    assert paths(verdict) == {
        ("allergy", "Milk", "lactose-free milk"),
        ("allergy", "Milk", "lactose-free natural yogurt → lactose-free milk"),
    }


def test_coeliac_disease_and_a_diet_are_both_reported(kg: AdvisorKG) -> None:
    verdict = kg.compatibility("fish_and_chips", "chiara")
    assert paths(verdict) == {
        ("intolerance", "CoeliacDisease", "beer batter → beer → barley"),
        ("intolerance", "CoeliacDisease", "beer batter → wheat flour"),
        ("diet", "Vegetarian", "cod"),
    }
    assert [reason.kind for reason in verdict.reasons] == ["intolerance", "intolerance", "diet"]
    assert kg.compatibility("mushroom_risotto", "chiara").compatible


def test_exclusions_always_win_over_preferences(kg: AdvisorKG) -> None:
    verdict = kg.compatibility("chicken_tikka_masala", "bruno")
    assert [term.id for term in verdict.preferred] == ["chicken_breast"]
    assert not verdict.compatible
    assert ("exclusion", "coriander", "coriander") in paths(verdict)
    assert ("intolerance", "LactoseIntolerance", "natural yogurt → milk") in paths(verdict)
    salsa = kg.compatibility("black_bean_tacos", "bruno")
    assert paths(salsa) == {
        ("exclusion", "coriander", "coriander"),
        ("exclusion", "coriander", "tomato salsa → coriander"),
    }


def test_compatible_dishes_agree_with_pairwise_compatibility(kg: AdvisorKG) -> None:
    dishes = [dish.id for dish in kg.dishes()]
    for person in kg.people():
        listed = [dish.id for dish in kg.compatible_dishes(person.id)]
        expected = [d for d in dishes if kg.compatibility(d, person.id).compatible]
        assert listed == expected, person.id
        assert 0 < len(listed) < len(dishes), person.id
    chiara = {dish.id for dish in kg.compatible_dishes("chiara")}
    assert "mushroom_risotto" in chiara
    assert "pasta_al_pesto" not in chiara


def test_compatibility_serialises_with_its_verdict(kg: AdvisorKG) -> None:
    verdict = kg.compatibility("tiramisu", "bruno")
    data = verdict.model_dump(mode="json")
    assert data["compatible"] is False
    assert data["reasons"][0]["path"][0] == {"id": "mascarpone", "label": "mascarpone"}
    assert Compatibility.model_validate_json(verdict.model_dump_json()).reasons == verdict.reasons


# ---------------------------------------------------------------------- nutrition


def test_nutrition_per_serving_checked_by_hand(kg: AdvisorKG) -> None:
    # Greek salad, 2 servings; grams x per-100 g values / 100:
    #   tomato 300 g      54.0 kcal   2.70 P   11.70 C    0.60 F
    #   cucumber 200 g    30.0        1.40      7.20      0.20
    #   onion 60 g        24.0        0.66      5.58      0.06
    #   feta 150 g       396.0       21.30      6.15     31.95
    #   olives 60 g       69.0        0.48      3.78      6.42
    #   olive oil 30 g   265.2        0.00      0.00     30.00
    #   total            838.2       26.54     34.41     69.23  -> / 2 servings
    n = kg.nutrition_of("greek_salad")
    assert (n.kcal, n.protein_g, n.carbohydrate_g, n.fat_g) == (419.1, 13.3, 17.2, 34.6)


def test_nutrition_with_missing_values_names_what_is_missing(
    kg_with: Callable[[str], AdvisorKG],
) -> None:
    kg = kg_with(
        """
        adv:mystery a adv:Ingredient ; rdfs:label "mystery" ;
            adv:kcalPer100g 100 ; adv:proteinPer100g 1 ; adv:carbohydratePer100g 2 .
        adv:odd_dish a adv:Dish ; rdfs:label "odd dish" ; adv:servings 1 ;
            adv:hasIngredient [ adv:ingredient adv:mystery ; adv:grams 50 ] .
        adv:no_servings a adv:Dish ; rdfs:label "no servings" ;
            adv:hasIngredient [ adv:ingredient adv:egg ; adv:grams 50 ] .
        """
    )
    with pytest.raises(AdvisorDataError, match=r"'mystery' of dish 'odd_dish'.*adv:fatPer100g"):
        kg.nutrition_of("odd_dish")
    with pytest.raises(AdvisorDataError, match="adv:servings"):
        kg.nutrition_of("no_servings")


# ---------------------------------------------------------------------- unknown and hostile ids


def test_unknown_ids_give_none_from_lookups_and_a_clear_error_elsewhere(kg: AdvisorKG) -> None:
    assert kg.dish("moussaka") is None
    assert kg.person("zoe") is None
    assert kg.dish("alice") is None  # a person is not a dish
    assert kg.person("tiramisu") is None
    with pytest.raises(UnknownEntityError, match=r"no dish with id 'moussaka'.*dishes\(\)"):
        kg.compatibility("moussaka", "alice")
    with pytest.raises(UnknownEntityError, match=r"no person with id 'zoe'.*people\(\)"):
        kg.compatibility("tiramisu", "zoe")
    for method in (kg.nutrition_of, kg.allergens_of, kg.ingredients_of):
        with pytest.raises(UnknownEntityError, match="no dish"):
            method("moussaka")
    with pytest.raises(UnknownEntityError, match="no person"):
        kg.compatible_dishes("zoe")


def test_full_iris_are_accepted_as_ids(kg: AdvisorKG) -> None:
    dish = kg.dish(str(ADV.tiramisu))
    assert dish is not None
    assert dish.id == "tiramisu"


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_ids_with_sparql_syntax_are_unknown_and_change_nothing(hostile: str) -> None:
    kg = AdvisorKG()
    triples = len(kg.graph)
    assert kg.dish(hostile) is None
    assert kg.person(hostile) is None
    with pytest.raises(UnknownEntityError, match="not a valid dish id"):
        kg.compatibility(hostile, "alice")
    with pytest.raises(UnknownEntityError, match="not a valid person id"):
        kg.compatible_dishes(hostile)
    with pytest.raises(UnknownEntityError):
        kg.allergens_of(hostile)
    assert len(kg.graph) == triples
    assert kg.dish("tiramisu") is not None
    assert len(kg.dishes()) >= 30


def test_sparql_syntax_in_a_label_is_just_text(kg_with: Callable[[str], AdvisorKG]) -> None:
    label = "x\" } ; DROP ALL # \\\\ ' ?s ?p ?o"
    kg = kg_with(
        f"""
        adv:odd_label a adv:Dish ; rdfs:label {Literal(label).n3()} ; adv:servings 1 ;
            adv:hasIngredient [ adv:ingredient adv:apple ; adv:grams 100 ] .
        """
    )
    triples = len(kg.graph)
    dish = kg.dish("odd_label")
    assert dish is not None
    assert dish.label == label
    assert kg.compatibility("odd_label", "alice").compatible
    assert len(kg.graph) == triples


# ---------------------------------------------------------------------- queries and diets


def test_every_shipped_query_parses_and_runs_unbound(kg: AdvisorKG) -> None:
    queries = QueryLibrary.load(QUERY_DIR)
    assert {"conflicts", "composition", "allergens_of", "recipe_nutrition"} <= set(queries)
    for query in queries.values():
        text = query.bind(**dict.fromkeys(query.parameters))
        list(kg.graph.query(text))  # raises on a syntax error


def test_diets_follow_composition(kg: AdvisorKG) -> None:
    def diets(dish_id: str) -> set[str]:
        dish = kg.dish(dish_id)
        assert dish is not None
        return {term.id for term in dish.diets}

    assert diets("fruit_salad") == {"Vegan", "Vegetarian", "Pescatarian"}
    assert diets("pasta_al_pesto") == {"Vegetarian", "Pescatarian"}  # parmesan → milk
    assert diets("chicken_caesar_salad") == set()
    assert diets("panna_cotta") == set()  # gelatine
    assert diets("seafood_paella") == {"Pescatarian"}


# ---------------------------------------------------------------------- the graph is live


def test_facts_added_to_the_graph_are_seen_by_the_next_question() -> None:
    kg = AdvisorKG()
    assert kg.person("fatima") is None
    load_turtle(
        kg.graph,
        "added",
        text="""
        @prefix adv: <https://cogtree.dev/advisor#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        adv:fatima a adv:Person ; rdfs:label "Fatima" ; adv:dailyKcal 2100 ;
            adv:allergicTo adv:Fish .
        """,
    )
    fatima = kg.person("fatima")
    assert fatima is not None
    assert fatima.daily_targets.kcal == 2100
    assert fatima.daily_targets.protein_g is None
    assert not kg.compatibility("salmon_maki", "fatima").compatible
    assert ("allergy", "Fish", "Caesar dressing → anchovy fillets") in paths(
        kg.compatibility("chicken_caesar_salad", "fatima")
    )


def test_malformed_extra_turtle_names_the_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix adv: <https://cogtree.dev/advisor#> .\nadv:x adv:y .\n")
    with pytest.raises(TurtleError, match=r"broken\.ttl line 2"):
        load_advisor_graph(broken)
