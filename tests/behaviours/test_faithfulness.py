"""The faithfulness check of outer speech: numbers and names must be in the support."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cogtree.knowledge.language.entity_names import EntityNames, FormNames
from cogtree.knowledge.understanding.faithfulness import (
    FaithfulnessReport,
    LexiconNames,
    Support,
    check_reply,
    is_supported,
    parse_number,
    stated_names,
    stated_numbers,
    unsupported_entities,
    unsupported_numbers,
)
from cogtree.knowledge.understanding.lexicon import Lexicon, Rank

FORMS = {
    "tiramisu": frozenset({"tiramisu"}),
    "cream": frozenset({"cream"}),
    "mascarpone": frozenset({"mascarpone"}),
    "egg": frozenset({"egg"}),
    "kitchen table": frozenset({"kitchen_table"}),
    "table": frozenset({"type:Table"}),
}
ENTRIES = {next(iter(ids)): [form] for form, ids in FORMS.items()}


class Unlisted(Lexicon):
    """A lexicon that fails when anything lists its ids or their forms (a world too big to walk)."""

    @property
    def ids(self) -> list[str]:
        raise AssertionError("a reply check listed the lexicon's ids")

    def ranks(self) -> dict[str, Rank]:
        raise AssertionError("a reply check listed the lexicon's ids")

    def forms(self, entry_id: str) -> list[str]:
        raise AssertionError("a reply check listed the forms of an id")


@pytest.fixture(params=["mapping", "lexicon"])
def names(request: pytest.FixtureRequest) -> EntityNames:
    if request.param == "mapping":
        return FormNames(FORMS)
    return LexiconNames([Unlisted("things", ENTRIES)])


def written(text: str) -> list[str]:
    return [number.written for number in stated_numbers(text)]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("Tiramisu has 41.2 g of carbohydrate.", ["41.2"]),
        ("about 1,200.5 kcal, or 1,2000", ["1,200.5", "1", "2000"]),
        ("It is on table_2 in room3.", ["2", "3"]),
        ("half is .5 of it", [".5"]),
        ("3,5 and 7", ["3", "5", "7"]),
        ("forty-one grams and two hundred five more", ["forty-one", "two hundred five"]),
        ("four five", ["four", "five"]),
        ("the one on the left, zero doubt", []),
        ("Twelve eggs", ["Twelve"]),
        ("no numbers here", []),
    ],
)
def test_numbers_are_found_in_digits_and_words(text: str, numbers: list[str]) -> None:
    assert written(text) == numbers


def test_number_words_have_their_values() -> None:
    values = [n.value for n in stated_numbers("forty-one, two hundred five, three thousand")]
    assert values == [41, 205, 3000]


@pytest.mark.parametrize(
    ("stated", "known", "supported"),
    [
        ("41.2", ["41.23"], True),
        ("41", ["41.23"], True),
        ("41.3", ["41.23"], False),
        ("41.24", ["41.2"], False),  # no invented precision
        ("41.20", ["41.2"], True),
        ("41.3", ["41.25"], True),  # half up
        ("41.2", ["41.25"], True),  # half even
        ("42", ["41.23"], False),
        ("0", ["0.3"], True),
    ],
)
def test_rounding_to_the_written_precision(stated: str, known: list[str], supported: bool) -> None:
    (number,) = stated_numbers(stated)
    assert is_supported(number, [Decimal(k) for k in known]) is supported


def test_a_cell_that_is_one_number_counts_whole() -> None:
    support = Support(texts=("4.123E1",))
    assert unsupported_numbers("It has 41.2 g.", support) == []
    assert parse_number(" -4.5 ") == Decimal("4.5")
    assert parse_number("adv:tiramisu") is None
    assert parse_number("1" * 100) is None


def test_numbers_from_every_support_text_count() -> None:
    support = Support(texts=("41.23", "user: I had 2 coffees", "twelve eggs"))
    assert unsupported_numbers("41.2 g, 2 coffees, 12 eggs and 7 spoons", support) == ["7"]


def test_huge_and_odd_numbers_never_crash() -> None:
    support = Support(texts=("1e400", "9" * 59))
    reply = "9" * 300 + " and 0.000000000000000000000000000000000000001"
    assert len(unsupported_numbers(reply, support)) == 2


def test_entities_must_be_in_the_support_ids_or_texts(names: EntityNames) -> None:
    support = Support(texts=("adv:tiramisu", "on the kitchen table"), ids=frozenset({"egg"}))
    reply = "Tiramisu has eggs, mascarpone and Cream; it is on the kitchen table."
    assert unsupported_entities(reply, support, names) == ["mascarpone", "Cream"]


def test_a_longer_form_wins_over_its_words(names: EntityNames) -> None:
    support = Support(texts=("the kitchen table",))
    assert unsupported_entities("It is on the kitchen table.", support, names) == []
    assert unsupported_entities("It is on the table.", Support(texts=("x",)), names) == ["table"]


def test_entity_ids_compare_case_insensitively(names: EntityNames) -> None:
    support = Support(texts=(), ids=frozenset({"Egg"}))
    assert unsupported_entities("an egg", support, names) == []


def test_check_reply_reports_both_kinds_and_describes_them(names: EntityNames) -> None:
    support = Support(texts=("41.23", "adv:tiramisu"))
    report = check_reply("Tiramisu has 41.2 g, 7 g of cream.", support, names)
    assert report == FaithfulnessReport(numbers=("7",), entities=("cream",))
    assert not report.faithful
    assert report.describe() == "numbers 7; names cream"
    assert check_reply("Tiramisu has 41 g.", support, names).faithful
    assert FaithfulnessReport().describe() == "nothing unsupported"


def test_without_entity_forms_only_numbers_are_checked() -> None:
    assert check_reply("mascarpone", Support(texts=())).faithful


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Take ½ a tablet", ["0.5"]),
        ("3¼ cups", ["3.25"]),
        ("1/2 cup, on 1/2/2025", ["0.5", "1", "2", "2025"]),
        ("10⁶ units", ["1000000"]),
        ("Chapter IV, part XII; I think so", ["4", "12"]),
        ("It is -5 °C, or −5°C, minus five", ["-5", "-5", "-5"]),
        ("2-3 tablets at table-2", ["2", "3", "2"]),
        ("a dozen eggs, two dozen rolls", ["12", "24"]),
    ],
)
def test_fractions_powers_roman_numerals_signs_and_dozens_are_numbers(
    text: str, values: list[str]
) -> None:
    assert [number.value for number in stated_numbers(text)] == [Decimal(v) for v in values]


@pytest.mark.parametrize(
    ("reply", "unsupported"),
    [
        ("Take 1 tablet.", []),
        ("Take ½ tablet.", ["½"]),
        ("Take II tablets.", ["II"]),
        ("Take a dozen tablets.", ["dozen"]),
        ("Take 10² tablets.", ["10²"]),
        ("It has 32.7 g of carbohydrate.", []),
        ("It has 32.7 mg of carbohydrate.", ["32.7 mg"]),
        ("It is -5 °C outside.", []),
        ("It is 5 °C outside.", ["5"]),
        ("It is minus five outside.", []),
    ],
)
def test_numbers_keep_their_value_sign_and_unit(reply: str, unsupported: list[str]) -> None:
    support = Support(texts=("32.7 g", "-5 °C", "take 1 tablet"))
    assert unsupported_numbers(reply, support) == unsupported


def test_a_number_the_support_gives_without_a_unit_may_take_one() -> None:
    assert unsupported_numbers("It has 32.7 g.", Support(texts=("32.7",))) == []


def test_a_rounded_number_keeps_the_unit_of_what_it_rounds() -> None:
    support = Support(texts=("41.23 mg", "7.5"))
    assert unsupported_numbers("41.2 mg, 41 mg and 8", support) == []
    assert unsupported_numbers("41.2 g and 7.5 g", support) == ["41.2 g"]


def test_a_long_list_is_checked_as_each_number_alone() -> None:
    """A question listing hundreds of candidates: the same verdicts as one number at a time."""
    support = Support(texts=tuple(f"mug in flat {flat}.5" for flat in range(0, 600, 2)))
    reply = ", ".join(f"flat {flat}.5 or {flat}" for flat in range(600))
    known = support.numbers()
    alone = [n.written for n in stated_numbers(reply) if not is_supported(n, known)]
    assert unsupported_numbers(reply, support) == list(dict.fromkeys(alone))
    assert "1.5" in alone and "2.5" not in alone


def test_a_signed_cell_counts_with_its_sign() -> None:
    assert parse_number("-4.5", signed=True) == Decimal("-4.5")
    assert unsupported_numbers("It is 4.5 degrees.", Support(texts=("-4.5",))) == ["4.5"]


@pytest.mark.parametrize(
    ("reply", "unsupported"),
    [
        ("Take it with Ibuprofen.", ["Ibuprofen"]),
        ("Mix the tiramisu with warfarin.", ["warfarin"]),
        ("Try some diclofenac or naproxen.", ["diclofenac"]),
        ("I put the bleach in the cupboard.", ["bleach"]),
        ("Anna asked for it. Tiramisu has cream.", []),
        ("Ask Priya about the cream.", ["Priya"]),
        ("Ask Anna about it.", []),
    ],
)
def test_names_no_lexicon_knows_must_be_in_the_support(
    reply: str, unsupported: list[str], names: EntityNames
) -> None:
    support = Support(texts=("Anna likes tiramisu with cream",))
    assert unsupported_entities(reply, support, names) == unsupported


def test_a_reply_is_checked_by_asking_the_lexicons_about_it_not_by_listing_them() -> None:
    names = LexiconNames([Unlisted("things", ENTRIES)])
    support = Support(texts=("the tiramisu",), ids=frozenset({"kitchen_table"}))
    reply = "Tiramisu with cream, on the Kitchen-Table; ask Priya. Eggs and tables."
    report = check_reply(reply, support, names, withheld=["adv:egg"])
    assert report.entities == ("cream", "Eggs", "tables", "Priya")
    assert report.withheld == ("Eggs",)
    stated = ["Tiramisu", "cream", "Kitchen-Table", "Eggs", "tables", "Priya"]
    assert stated_names(reply, names) == stated


def test_a_form_two_things_share_names_both() -> None:
    """'satay' names the withheld chicken satay even where the beef satay owns the word, and a
    reply about the chicken satay is supported by it."""
    names = LexiconNames(
        [Unlisted("dishes", {"beef_satay": ["satay"], "chicken_satay": ["satay"]})]
    )
    assert names.ids_of("satay") == {"beef_satay", "chicken_satay"}
    reply = "You could have the satay tonight."
    assert check_reply(reply, Support(texts=()), names, withheld=["adv:chicken_satay"]).withheld
    assert not check_reply(
        reply, Support(texts=(), ids=frozenset({"chicken_satay"})), names
    ).entities


@pytest.mark.parametrize(
    ("reply", "unsupported"),
    [
        ("Steps run: GOTO(kitchen_table_2), PICK(egg_1).", []),  # the ids it ran, cited
        ("I brought you the table.", ["table"]),  # a thing the ids only spell
    ],
)
def test_an_id_the_support_holds_is_cited_not_a_name_claimed(
    reply: str, unsupported: list[str], names: EntityNames
) -> None:
    """Checked to fail before for the first: 'table' in 'kitchen_table_2' was a claim."""
    support = Support(texts=("Steps run: GOTO(kitchen_table_2), PICK(egg_1).",))
    assert unsupported_entities(reply, support, names) == unsupported
