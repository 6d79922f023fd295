"""JANUS's Table 1 from natural phrasings: each behaviour of the advisor's three tools.

The sentences are written for these tests (not taken from any evaluation set): swaps asked for
with "instead of", "something else", "swap", what the person has in the cupboard, with and
without "that's all I have"; profiles set up with the four daily targets said as numbers,
words or "2k"; the user asked for, never assumed; and the dish that is not safe warned about.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domains.advisor.tasks import amount
from cogtree.knowledge.packs.slot_values import quantity
from cogtree.knowledge.packs.task_schema import asked_first, missing_user, required_slots
from cogtree.knowledge.understanding.intent_matching import IntentMatcher, cued_task
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.slot_filling import fill_slots, is_grounded
from cogtree.trees.cli.main import main


@pytest.fixture(scope="module")
def matcher(advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]) -> IntentMatcher:
    return IntentMatcher.from_pack(advisor_pack, advisor_lexicons)


# ---------------------------------------------------------------------- which tool


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("Could you swap the risotto for something lighter? No butter please.", "SubstituteDish"),
        ("I fancy something else than the lasagne, ideally with spinach.", "SubstituteDish"),
        ("What else is there besides the cheeseburger? I can't have sesame.", "SubstituteDish"),
        ("Any alternative to tiramisu for pudding on Sunday?", "SubstituteDish"),
        ("I've only got rice and tofu at home, that's all I have. Dinner ideas?", "SubstituteDish"),
        ("Set me up please: 2100 kcal, 95 g protein, 250 g carbs and 70 g fat.", "AddToDatabase"),
        ("Register Lena with 1700 calories and 60 grams of fat.", "AddToDatabase"),
        ("My goals are 2k calories and 120 grams of protein a day.", "AddToDatabase"),
        ("Two thousand calories, ninety grams protein, carbs 240, fat 75.", "AddToDatabase"),
    ],
)
def test_natural_phrasings_reach_their_tool(matcher: IntentMatcher, said: str, task: str) -> None:
    assert matcher.match(said).task == task


def test_a_swap_that_also_states_an_allergy_is_still_a_swap(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    said = "Rather than the chicken satay, what could I have? I'm allergic to peanuts."
    found = cued_task(advisor_pack.tasks, said, advisor_lexicons)
    assert found is not None and found.name == "SubstituteDish"


# ---------------------------------------------------------------------- SubstituteDish


def substitute(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon], said: str
) -> dict[str, object]:
    slots = fill_slots(advisor_pack.task("SubstituteDish"), said, advisor_lexicons).slots
    values = {name: value for name, value in slots.items() if name not in ("day_of_week",)}
    return advisor_pack.schema_for("SubstituteDish").model_validate(values).model_dump()


def test_what_the_person_has_is_only_preferred_unless_nothing_else_is_available(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    has = substitute(
        advisor_pack, advisor_lexicons, "Instead of the dahl, I've got chickpeas and spinach."
    )
    assert has["only"] == [] and {"chickpeas", "spinach"} <= {p.lower() for p in has["preferred"]}
    only = substitute(
        advisor_pack,
        advisor_lexicons,
        "Instead of the dahl: chickpeas and spinach, that's all I have.",
    )
    assert {"chickpeas", "spinach"} <= {o.lower() for o in only["only"]} and not only["preferred"]


def test_an_excluded_ingredient_is_never_also_preferred(advisor_pack: DomainPack) -> None:
    task = advisor_pack.schema_for("SubstituteDish").model_validate(
        {"dish": "lasagne", "excluded": ["Eggs"], "available": ["Eggs", "spinach"]}
    )
    assert task.model_dump()["preferred"] == ["spinach"]  # eggs stay out


def test_day_and_meal_are_read_and_the_user_is_the_one_required_field(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    slots = fill_slots(
        advisor_pack.task("SubstituteDish"),
        "Swap my Tuesday supper for something else",
        advisor_lexicons,
    ).slots
    assert [m.id for m in advisor_lexicons["meal"].find(str(slots["meal_type"]))] == ["dinner"]
    assert str(slots["day_of_week"]).lower() == "tuesday"
    schema = advisor_pack.schema_for("SubstituteDish")
    assert required_slots(schema, slots) == []
    assert missing_user(schema, slots) == "person"  # nobody known: asked, never assumed
    assert missing_user(schema, {**slots, "person": "Chiara"}) is None


# ---------------------------------------------------------------------- AddToDatabase


@pytest.mark.parametrize(
    ("said", "number"),
    [("2,000", 2000.0), ("2k", 2000.0), ("seventeen hundred", 1700.0), ("250g", 250.0),
     ("a hundred and five", 105.0), ("one-eighty", 180.0), ("1850", 1850.0)],
)  # fmt: skip
def test_targets_are_read_as_people_say_them(said: str, number: float) -> None:
    assert amount(said) == number


def test_a_thousands_comma_is_no_decimal_comma_and_stays_grounded() -> None:
    assert quantity("2,000 kcal") == 2000.0 and quantity("1,5 kg") == 1500.0
    assert is_grounded(2000.0, "about 2,000 kcal a day")
    assert is_grounded(250.0, "carbs 250g")


def test_a_profile_needs_its_person_and_all_four_targets(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    task = advisor_pack.task("AddToDatabase")
    schema = advisor_pack.schema_for("AddToDatabase")
    said = "Please set up a profile for Ines: 1600 kcal and 65 grams of protein."
    slots = fill_slots(task, said, advisor_lexicons).slots
    assert slots["person"] == "Ines" and slots.get("profile")
    assert required_slots(schema, slots)[-2:] == ["daily_carbohydrate_g", "daily_fat_g"]
    anonymous = fill_slots(
        task, "Save my targets: 1600 kcal, 65 g protein.", advisor_lexicons
    ).slots
    assert missing_user(schema, anonymous) == "person"
    # a remembered allergy is the speaker's: no name needed
    assert missing_user(schema, {"targets": ["Peanuts"], "relation": "allergy"}) is None


def test_asking_for_a_profile_with_no_numbers_asks_for_all_four(advisor_pack: DomainPack) -> None:
    schema = advisor_pack.schema_for("AddToDatabase")
    assert required_slots(schema, {"profile": True, "person": "Ines"}) == [
        "daily_kcal",
        "daily_protein_g",
        "daily_carbohydrate_g",
        "daily_fat_g",
    ]


def test_a_dish_question_is_answered_for_whoever_asks(advisor_pack: DomainPack) -> None:
    """Table 1: DishInfo's user is optional; unknown, the answer cannot vouch (tree test below)."""
    schema = advisor_pack.schema_for("DishInfo")
    values = {"dish": "gazpacho", "for_user": "for me"}
    assert missing_user(schema, values) is None
    assert asked_first(schema, values, {}, acts_for_speaker=False) is None


# ---------------------------------------------------------------------- through the tree

OWN = """
items:
  - {id: swap-known, behaviour: substitute, task: SubstituteDish, speaker: Dev,
     text: "Could you find me something else instead of the falafel wrap? No chickpeas."}
  - {id: swap-plan, behaviour: substitute, task: SubstituteDish, speaker: Alice,
     text: "Swap my Monday lunch for something without feta, please."}
  - {id: swap-meal, behaviour: substitute, task: SubstituteDish, speaker: Elena,
     text: "Suggest a different breakfast, something with oats."}
  - {id: swap-who, behaviour: substitute, task: SubstituteDish,
     text: "What could replace the carbonara?", expect: {must_ask: [user]}}
  - {id: swap-only, behaviour: substitute, task: SubstituteDish, speaker: Bruno,
     text: "All I've got is rice and chicken, nothing else. What instead of the paella?"}
  - {id: profile-full, behaviour: add_profile, task: AddToDatabase,
     text: "Please set me up, I'm Tariq: 2,400 kcal, 110 g protein, 300 g carbs, 80 g fat."}
  - {id: profile-part, behaviour: add_profile, task: AddToDatabase,
     text: "Register Lena with 1700 calories and 60 grams of fat.",
     expect: {must_ask: [protein_g, carbs_g]}}
  - id: profile-turns
    behaviour: add_profile
    turns:
      - {text: "I'm Omar, add me please: 2200 kcal, 100 g protein, 260 g carbs.",
         task: AddToDatabase, expect: {must_ask: [fat_g]}}
      - {text: "Fat is 70 grams.", task: AddToDatabase, expect: {}}
  - {id: unsafe-warned, behaviour: compatibility, task: DishInfo, speaker: Dev,
     text: "The Buddha bowl, can I have it or not?", expect: {safe: false}}
  - {id: nobody-known, behaviour: compatibility, task: DishInfo,
     text: "Would the panna cotta be fine for me?", expect: {safe: false}}
"""


def test_each_behaviour_through_the_turn_tree(table1_table: Callable[[str], str]) -> None:
    table = table1_table(OWN)
    assert "| substitute | 5/5 | 0/0 | 0 |" in table, table
    assert "| add_profile | 3/3 | 0/0 | 0 |" in table, table
    assert "| compatibility | 2/2 | 0/0 | 0 |" in table, table  # "cannot be checked for you"


def test_a_profile_for_someone_else_is_theirs_not_the_users(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon]
) -> None:
    said = "Please add my sister Noor: 1800 kcal, 70 g protein, 220 g carbs and 60 g fat."
    slots = fill_slots(advisor_pack.task("AddToDatabase"), said, advisor_lexicons).slots
    task = advisor_pack.schema_for("AddToDatabase").model_validate(
        {name: value for name, value in slots.items() if name not in ("relation",)}
    )
    claims = task.claims()  # type: ignore[attr-defined]
    assert not any(claim.slot == "user.name" for claim in claims)  # Noor is not the speaker
    assert {claim.slot for claim in claims} == {
        f"about.noor.target.{nutrient}" for nutrient in ("energy", "protein", "carbohydrate", "fat")
    }
    assert missing_user(advisor_pack.schema_for("AddToDatabase"), slots) is None  # Noor is named


@pytest.mark.parametrize(
    "said",
    [
        "Add Parmesan to my profile, I love it",
        "Remember I'm Italian",
        "I'm Jewish, so no pork please",
        "It's French stuff, I think",
        "Nothing for Lent, thanks",
    ],
)
def test_a_capitalised_word_is_no_name_unless_said_as_one(
    advisor_pack: DomainPack, advisor_lexicons: dict[str, Lexicon], said: str
) -> None:
    assert fill_slots(advisor_pack.task("AddToDatabase"), said, advisor_lexicons).slots.get(
        "person"
    ) in (None, "")


@pytest.mark.parametrize(
    "said",
    ["set up the laptop for me", "put me on speaker", "could you register that the door is open"],
)
def test_everyday_phrasal_verbs_do_not_start_a_profile(
    said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", said, "--llm", "none"]) == 0
    assert "daily energy target" not in capsys.readouterr().out
