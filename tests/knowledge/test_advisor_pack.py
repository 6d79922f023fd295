"""The advisor pack: manifest and contract, lexicons over the Advisor graph, the slots of its
examples with the real slot filler, the task schemas' validation and AddToDatabase's claims."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from rdflib import RDF
from rdflib.query import ResultRow

from cogtree.knowledge.memory.model import Claim
from cogtree.knowledge.packs.domain_pack import DomainPack, load_pack
from cogtree.knowledge.packs.domain_registry import SHIPPED_PACKS
from cogtree.knowledge.packs.domains.advisor import ADV, AdvisorKG
from cogtree.knowledge.packs.task_schema import required_slots
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.slot_filling import SlotValue, fill_slots


@pytest.fixture(scope="module")
def kg() -> AdvisorKG:
    return AdvisorKG()


def make(advisor_pack: DomainPack, task: str, **slots: Any) -> BaseModel:
    return advisor_pack.schema_for(task).model_validate(slots)


def claims_of(advisor_pack: DomainPack, **slots: Any) -> list[Claim]:
    task = make(advisor_pack, "AddToDatabase", **slots)
    found: list[Claim] = task.claims()  # type: ignore[attr-defined]
    return found


# ---------------------------------------------------------------------- manifest and contract


def test_the_pack_loads_from_its_directory_and_through_the_registry(
    advisor_pack: DomainPack,
) -> None:
    direct = load_pack(SHIPPED_PACKS / "advisor")
    assert direct.name == advisor_pack.name == "advisor"
    assert advisor_pack.has_own_knowledge
    assert next(iter(advisor_pack.manifest.prefixes.items())) == ("adv", str(ADV))
    assert advisor_pack.manifest.knowledge == ["vocabulary.ttl", "advisor.ttl"]
    assert len(advisor_pack.manifest.examples) >= 10
    assert len(advisor_pack.knowledge_graph()) == len(AdvisorKG().graph)


def test_tasks_slots_and_templates_are_the_contract(advisor_pack: DomainPack) -> None:
    shape = {
        task.name: (task.grounding, task.query, {n: s.resolve for n, s in task.slots.items()})
        for task in advisor_pack.tasks
    }
    assert shape == {
        "AddToDatabase": (
            "memory_write",
            None,
            {
                "targets": "kg",
                "relation": "value",
                "person": "text",
                "profile": "value",
                "other": "text",
                "about": "text",
                "correction": "value",
                "retract": "value",
                "daily_kcal": "text",
                "daily_protein_g": "text",
                "daily_carbohydrate_g": "text",
                "daily_fat_g": "text",
            },
        ),
        "Introduce": ("memory_write", None, {"name": "text"}),
        "MemoryQuery": ("memory_query", None, {"question": "text"}),
        "DishInfo": (
            "knowledge_query",
            "dish_info",
            {"dish": "kg", "aspect": "value", "check": "kg", "person": "text", "for_user": "text"},
        ),
        "SubstituteDish": (
            "knowledge_query",
            "substitute_dish",
            {
                "dish": "kg",
                "excluded": "kg",
                "preferred": "kg",
                "only": "kg",
                "available": "kg",
                "restricted": "value",
                "person": "text",
                "day_of_week": "value",
                "meal_type": "value",
                "weekly_plan": "value",
            },
        ),
    }
    required = {
        task.name: required_slots(advisor_pack.schema_for(task.name)) for task in advisor_pack.tasks
    }
    assert required == {
        "AddToDatabase": ["targets"],  # or all four daily targets, once one is said
        "Introduce": ["name"],
        "MemoryQuery": ["question"],
        "DishInfo": ["dish"],
        "SubstituteDish": [],  # the user, asked for when nobody is known (its user slot)
    }
    for task in advisor_pack.tasks:
        fields = advisor_pack.schema_for(task.name).model_fields
        assert all(info.description for info in fields.values()), task.name
        assert len(task.examples) >= 8 and len(set(task.examples)) == len(task.examples)
        assert task.reply and task.cues
    lists = {n for n, s in advisor_pack.task("SubstituteDish").slots.items() if s.many}
    assert lists == {"excluded", "preferred", "only", "available"}
    assert advisor_pack.task("AddToDatabase").slots["targets"].many


def test_every_template_parameter_is_a_slot_or_a_contract_parameter(
    advisor_pack: DomainPack,
) -> None:
    extra = {"speaker", "avoid", "favour", "diet", "daily_target"}
    for task in advisor_pack.tasks:
        if task.query:
            parameters = set(advisor_pack.query(task.query).parameters)
            assert "dish" in parameters
            assert parameters <= set(task.slots) | extra, task.name
    assert set(advisor_pack.query("substitute_dish").parameters) == {
        "dish",
        "excluded",
        "preferred",
        "only",
        "person",
        "speaker",
        "avoid",
        "favour",
        "diet",
        "day_of_week",
        "meal_type",
    }
    assert set(advisor_pack.query("dish_info").parameters) == {
        "dish",
        "aspect",
        "check",
        "person",
        "speaker",
        "avoid",
        "diet",
        "daily_target",
    }


# ---------------------------------------------------------------------- lexicons


def test_every_dish_is_in_the_dish_lexicon_by_label_and_short_name(
    kg: AdvisorKG, advisor_lexicons: dict[str, Lexicon]
) -> None:
    dishes = advisor_lexicons["dish"]
    assert set(dishes.ids) == {dish.id for dish in kg.dishes()}
    for dish in kg.dishes():
        assert [m.id for m in dishes.find(f"what about the {dish.label}?")] == [dish.id]
    for said, dish_id in [
        ("the carbonara", "spaghetti_carbonara"),
        ("palak paneer", "palak_paneer"),
        ("lasagne", "lasagne"),
        ("tuna nicoise salad", "tuna_nicoise_salad"),
        ("pancakes", "pancakes_with_maple_syrup"),
    ]:
        assert [m.id for m in dishes.find(said)] == [dish_id], said


def test_every_ingredient_at_any_depth_is_found_or_said_as_its_component(
    kg: AdvisorKG, advisor_lexicons: dict[str, Lexicon]
) -> None:
    ingredients = advisor_lexicons["ingredient"]
    seen = {
        occurrence.ingredient for dish in kg.dishes() for occurrence in kg.ingredients_of(dish.id)
    }
    assert len(seen) > 100
    for term in seen:
        found = [m.id for m in ingredients.find(term.label)]
        assert found, term
        if found != [term.id]:  # milk, egg, peanuts...: the component covers the ingredient
            said_as = ingredients.label(found[0])
            assert said_as.rstrip("s") == term.label.casefold().rstrip("s"), (term, found)
            assert found[0][0].isupper()  # a component (Milk, Eggs), not another ingredient


def test_allergens_diets_people_and_common_names(
    kg: AdvisorKG, advisor_lexicons: dict[str, Lexicon]
) -> None:
    catalogue = {term.id for term in kg.allergens()}
    assert set(advisor_lexicons["allergen"].ids) == catalogue and len(catalogue) == 14
    assert catalogue <= set(advisor_lexicons["ingredient"].ids)
    assert set(advisor_lexicons["diet"].ids) == {"Vegetarian", "Vegan", "Pescatarian"}
    assert {advisor_lexicons["person"].label(p.id) for p in kg.people()} == {
        "alice",
        "bruno",
        "chiara",
        "dev",
        "elena",
    }
    ingredients = advisor_lexicons["ingredient"]
    for said, expected in [
        ("gluten", "CerealsContainingGluten"),
        ("nuts", "Nuts"),  # a category: peanuts and tree nuts, never narrower than said
        ("a nut allergy", "Nuts"),
        ("tree nuts", "TreeNuts"),
        ("peanut", "Peanuts"),
        ("groundnuts", "Peanuts"),
        ("a groundnut", "Peanuts"),
        ("shellfish", "Shellfish"),
        ("dairy", "Milk"),
        ("milk", "Milk"),
        ("eggs", "Eggs"),
        ("an egg", "Eggs"),
        ("lactose", "Lactose"),
        ("coeliac disease", "CoeliacDisease"),
        ("vegan", "Vegan"),
        ("shrimp", "prawns"),
        ("chicken", "chicken_breast"),
        ("tuna", "tuna"),
        ("cumin", "cumin"),
    ]:
        assert [m.id for m in ingredients.find(said)] == [expected], said


def test_no_surface_form_names_two_things_in_one_lexicon(advisor_pack: DomainPack) -> None:
    graph = advisor_pack.knowledge_graph()
    for name in ("dish", "ingredient"):
        query = advisor_pack.query(advisor_pack.manifest.lexicons[name].query or "")
        owners: dict[str, set[str]] = {}
        for row in graph.query(query.text):
            assert isinstance(row, ResultRow)
            for form in (row.label, row.alias):
                if form is not None:
                    owners.setdefault(str(form).casefold(), set()).add(str(row.id))
        shared = {form: ids for form, ids in owners.items() if len(ids) > 1}
        assert not shared, name


def test_example_slots_with_the_real_slot_filler(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    def fills(task: str) -> dict[str, dict[str, SlotValue]]:
        spec = advisor_pack.task(task)
        return {u: fill_slots(spec, u, advisor_lexicons).slots for u in spec.examples}

    substitute = fills("SubstituteDish")
    shakshuka = "Suggest a swap for the shakshuka without eggs."
    assert substitute[shakshuka] == {"dish": "shakshuka", "excluded": ["eggs"]}
    assert substitute[
        "Give me an alternative to the chicken satay without peanuts, ideally with salmon."
    ] == {"dish": "chicken satay", "excluded": ["peanuts"], "preferred": ["salmon"]}
    assert substitute["Rather than the salmon maki, a dish with only tofu."] == {
        "dish": "salmon maki",
        "only": ["tofu"],
    }
    assert substitute["What can Chiara eat instead of the spaghetti bolognese?"] == {
        "dish": "spaghetti bolognese",
        "person": "Chiara",
    }
    info = fills("DishInfo")
    assert info["Tell me the carbohydrates in the chilli con carne."] == {
        "dish": "chilli con carne",
        "aspect": "carbohydrates",
    }
    assert info["Tell me about the minestrone."] == {"dish": "minestrone"}
    add = fills("AddToDatabase")
    assert add["My name is Anna and I'm allergic to sesame."] == {
        "targets": ["sesame"],
        "relation": "allergic",
        "person": "Anna",
    }
    assert [
        m.id for m in advisor_lexicons["correction"].find("Actually, I like mushrooms now.")
    ] == ["true"]
    for task in advisor_pack.tasks:
        for utterance, slots in fills(task.name).items():
            required = [
                n
                for n, f in advisor_pack.schema_for(task.name).model_fields.items()
                if f.is_required()
            ]
            assert all(slots.get(name) for name in required), utterance
            for slot, value in slots.items():
                spec = task.slots[slot]
                if spec.resolve in ("kg", "value") and spec.lexicon:
                    said = value if isinstance(value, list) else [value]
                    assert all(advisor_lexicons[spec.lexicon].find(str(v)) for v in said), (
                        utterance,
                        slot,
                    )


def test_aspect_and_relation_words_map_to_the_schema_values(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    aspect = advisor_pack.schema_for("DishInfo").model_fields["aspect"].annotation
    relation = advisor_pack.schema_for("AddToDatabase").model_fields["relation"].annotation
    # check and profile are never said: they follow from what the question is about
    derived = {"check", "profile"}
    assert set(advisor_lexicons["aspect"].ids) == set(aspect.__args__[0].__args__) - derived  # type: ignore[union-attr]
    assert set(advisor_lexicons["relation"].ids) == set(relation.__args__[0].__args__)  # type: ignore[union-attr]
    for said, expected in [("carbs", "carbohydrate"), ("calories", "kcal"), ("vegan", "diets")]:
        assert [m.id for m in advisor_lexicons["aspect"].find(said)] == [expected]
    for said, expected in [
        ("I'm allergic", "allergy"),
        ("I don't like it", "exclude"),
        ("I like it", "prefer"),
        ("I'm intolerant", "intolerance"),
    ]:
        assert [m.id for m in advisor_lexicons["relation"].find(said)] == [expected], said


# ---------------------------------------------------------------------- schemas


def test_add_to_database_claims_name_and_food_slots(advisor_pack: DomainPack) -> None:
    found = claims_of(
        advisor_pack, targets=["Peanuts", "TreeNuts"], relation="allergy", person="Anna"
    )
    assert [(c.slot, c.kind, c.text, c.source) for c in found] == [
        ("user.name", "identifier", "The user's name is Anna", "stated"),
        ("food.peanuts", "hard_constraint", "Anna is allergic to peanuts", "stated"),
        ("food.treenuts", "hard_constraint", "Anna is allergic to tree nuts", "stated"),
    ]
    assert not any(claim.correction for claim in found)


@pytest.mark.parametrize(
    ("slots", "expected"),
    [
        (
            {"targets": ["Lactose"], "relation": "intolerance"},
            ("food.lactose", "hard_constraint", "The user is intolerant to lactose"),
        ),
        (
            {"targets": ["CoeliacDisease"], "relation": "intolerance"},
            ("food.coeliacdisease", "hard_constraint", "The user has coeliac disease"),
        ),
        (
            {"targets": ["Vegetarian"]},
            ("diet.vegetarian", "hard_constraint", "The user follows a vegetarian diet"),
        ),
        (
            {"targets": ["Vegan"], "relation": "prefer"},
            ("food.vegan", "preference", "The user likes vegan food"),
        ),
        (
            {"targets": ["coriander"], "relation": "exclude"},
            ("food.coriander", "hard_constraint", "The user does not want coriander"),
        ),
        (
            {"targets": ["black_olives"]},
            ("food.black_olives", "hard_constraint", "The user does not want black olives"),
        ),
        (
            {"targets": ["salmon"], "relation": "PREFER"},
            ("food.salmon", "preference", "The user likes salmon"),
        ),
    ],
)
def test_each_relation_gives_its_slot_kind_and_sentence(
    advisor_pack: DomainPack, slots: dict[str, Any], expected: tuple[str, str, str]
) -> None:
    (claim,) = claims_of(advisor_pack, **slots)
    assert (claim.slot, claim.kind, claim.text) == expected


def test_a_correction_marks_every_claim(advisor_pack: DomainPack) -> None:
    found = claims_of(advisor_pack, targets=["mushrooms"], relation="prefer", correction="Actually")
    assert [(c.slot, c.kind, c.correction) for c in found] == [
        ("food.mushrooms", "preference", True)
    ]
    assert not claims_of(advisor_pack, targets=["mushrooms"], correction="false")[0].correction


@pytest.mark.parametrize(
    ("slots", "message"),
    [
        ({"targets": []}, "targets needs at least one food"),
        ({"targets": ["  "]}, "targets needs at least one food"),
        (
            {"targets": ["Peanuts"], "relation": "hatred"},
            "relation 'hatred' is unknown; use one of",
        ),
        ({"targets": ["Peanuts"], "relation": "diet"}, "relation 'diet' takes a diet"),
        ({"targets": ["Vegan"], "relation": "allergy"}, "'Vegan' is a diet"),
        ({"relation": "allergy"}, "targets"),
        ({"targets": ["Peanuts"], "person": "x" * 200}, "at most 80 characters"),
        ({"targets": ["Peanuts"], "colour": "red"}, "colour"),
    ],
)
def test_add_to_database_rejects_nonsense_with_a_clear_message(
    advisor_pack: DomainPack, slots: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        make(advisor_pack, "AddToDatabase", **slots)


def test_targets_are_cleaned_and_a_single_target_is_a_list(advisor_pack: DomainPack) -> None:
    task = make(advisor_pack, "AddToDatabase", targets=" Peanuts ", person="  ")
    assert task.model_dump()["targets"] == ["Peanuts"] and task.model_dump()["person"] is None
    task = make(advisor_pack, "AddToDatabase", targets=["egg", "egg", " ", "Milk"])
    assert task.model_dump()["targets"] == ["egg", "Milk"]


def test_the_diets_the_schema_knows_are_the_graphs(kg: AdvisorKG) -> None:
    from cogtree.knowledge.packs.domains.advisor.tasks import DIETS

    graph_diets = {diet.id.casefold() for diet in kg.dish("fruit_salad").diets}  # type: ignore[union-attr]
    assert graph_diets == DIETS  # the fruit salad suits every diet the graph declares
    assert len(list(kg.graph.subjects(RDF.type, ADV.Diet))) == len(DIETS)


def test_dish_info_and_substitute_dish_validation(advisor_pack: DomainPack) -> None:
    assert make(
        advisor_pack, "DishInfo", dish="tiramisu", aspect=" Carbohydrate "
    ).model_dump() == {
        "dish": "tiramisu",
        "aspect": "carbohydrate",
        "check": [],
        "person": None,
        "for_user": False,
    }
    assert make(advisor_pack, "DishInfo", dish="tiramisu", aspect="").model_dump()["aspect"] is None
    with pytest.raises(ValidationError, match="aspect 'sugar' is unknown; use one of kcal"):
        make(advisor_pack, "DishInfo", dish="tiramisu", aspect="sugar")
    with pytest.raises(ValidationError, match="dish"):
        make(advisor_pack, "DishInfo", aspect="kcal")
    with pytest.raises(ValidationError, match="dish"):
        make(advisor_pack, "SubstituteDish", dish="  ")
    substitute = make(advisor_pack, "SubstituteDish", dish="lasagne", excluded="Milk", only=None)
    assert substitute.model_dump() == {
        "dish": "lasagne",
        "excluded": ["Milk"],
        "preferred": [],
        "only": [],
        "available": [],
        "restricted": False,
        "person": None,
        "day_of_week": None,
        "meal_type": None,
        "weekly_plan": False,
    }
    with pytest.raises(ValidationError, match="only"):
        make(advisor_pack, "SubstituteDish", dish="lasagne", only=[3])
