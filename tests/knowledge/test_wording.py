"""The shared phrasing helpers: number, counts, lists, articles, case and clipped text."""

from __future__ import annotations

import pytest

from cogtree.knowledge.wording import (
    capitalised,
    clauses,
    clip,
    counted,
    head_word,
    id_words,
    joined,
    looks_plural,
    lower_first,
    singular,
    singular_forms,
    verb_bases,
    whole_named,
    with_the,
)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("peanuts", "peanut"),
        ("berries", "berry"),
        ("boxes", "box"),
        ("dishes", "dish"),
        ("glasses", "glass"),
        ("glass", "glass"),
        ("bus", "bus"),
        ("analysis", "analysis"),
        ("tea", "tea"),
    ],
)
def test_singular_gives_one_best_guess(word: str, expected: str) -> None:
    assert singular(word) == expected


def test_singular_forms_gives_every_candidate_first_the_word() -> None:
    assert singular_forms("bottles") == ["bottles", "bottle", "bottl"]
    assert singular_forms("cups") == ["cups", "cup"]
    assert singular_forms("dishes") == ["dishes", "dishe", "dish"]
    assert singular_forms("cherries") == ["cherries", "cherry"]
    assert singular_forms("glass") == ["glass"]


def test_counted_adds_an_s_unless_there_is_one() -> None:
    assert counted(1, "attempt") == "1 attempt"
    assert counted(2, "attempt") == "2 attempts"
    assert counted(0, "step") == "0 steps"
    assert counted(3, "more tick") == "3 more ticks"


def test_joined_reads_as_a_phrase() -> None:
    assert joined([]) == ""
    assert joined(["tea"]) == "tea"
    assert joined(["tea", "coffee"]) == "tea and coffee"
    assert joined(["tea", "coffee", "juice"]) == "tea, coffee and juice"
    assert joined(["the red mug", "the blue mug"], "or") == "the red mug or the blue mug"


def test_a_clause_that_is_a_sentence_is_not_joined_to_the_next_by_and() -> None:
    assert clauses(["has 5 g of fat", "suits vegans"]) == "has 5 g of fat and suits vegans"
    said = clauses(
        ["cannot be checked for you: I know nothing of you yet.", "holds milk", "is hot"]
    )
    assert said == "cannot be checked for you: I know nothing of you yet. It holds milk and is hot"
    assert clauses(["cannot be checked for you yet."]) == "cannot be checked for you yet"


def test_clip_keeps_short_text_and_ends_a_cut_with_an_ellipsis() -> None:
    assert clip("short", 10) == "short"
    assert clip("exactly10!", 10) == "exactly10!"
    assert clip("one two three four", 10) == "one two t…"
    assert len(clip("x" * 50, 20)) == 20


def test_clip_puts_text_on_one_line_unless_told_not_to() -> None:
    assert clip("a\n  b\tc", 10) == "a b c"
    assert clip("a\n  b\tc", 10, one_line=False) == "a\n  b\tc"
    assert clip("line one\nline two", 8, one_line=False) == "line on…"


def test_clip_trim_drops_the_space_before_the_ellipsis() -> None:
    assert clip("word word word", 6) == "word …"
    assert clip("word word word", 6, trim=True) == "word…"


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("drank", ["drink"]),
        ("ate", ["eat"]),
        ("dusting", ["dust", "duste"]),
        ("wiped", ["wip", "wipe"]),
        ("cutting", ["cutt", "cutte", "cut"]),
        ("apple", []),
        ("red", []),  # too short a stem to be a past form
    ],
)
def test_verb_bases_gives_every_candidate_base_form(word: str, expected: list[str]) -> None:
    assert verb_bases(word) == expected


@pytest.mark.parametrize(
    ("phrase", "plural"),
    [
        ("the slippers", True),
        ("glasses", True),
        ("a deck of cards", False),
        ("the box of tissues", False),
        ("the windowsill behind the nets", False),  # where it is says not what it is
        ("the Mugs", True),
        ("bus", False),
        ("", False),
    ],
)
def test_looks_plural_reads_the_head_of_the_phrase(phrase: str, plural: bool) -> None:
    assert looks_plural(phrase) is plural


@pytest.mark.parametrize(
    ("noun", "expected"),
    [
        ("watering can", "the watering can"),
        ("the tray", "the tray"),
        ("my mug", "my mug"),
        ("an apple", "an apple"),
        ("Anna's cup", "Anna's cup"),
        ("Anna", "Anna"),
        ("Alex Rossi", "Alex Rossi"),
        ("Greek yogurt", "the Greek yogurt"),
        ("TV", "the TV"),
        ("apple", "the apple"),  # "a" opens the word, not the phrase
        ("", ""),
    ],
)
def test_with_the_adds_the_article_only_where_it_is_missing(noun: str, expected: str) -> None:
    assert with_the(noun) == expected


def test_capitalised_opens_a_sentence_and_lower_first_puts_text_inside_one() -> None:
    assert capitalised("the mug is here") == "The mug is here"
    assert capitalised("") == ""
    assert lower_first("Unsafe") == "unsafe"
    assert lower_first("A cup fell") == "a cup fell"
    assert lower_first("I can't") == "I can't"
    assert lower_first("I'd rather not") == "I'd rather not"
    assert lower_first("HTTP request refused") == "HTTP request refused"
    assert lower_first("") == ""


def test_id_words_spells_an_identifier_out() -> None:
    assert id_words("kitchen_table") == "kitchen table"
    assert id_words("AddToDatabase") == "add to database"
    assert id_words("CerealsContainingGluten") == "cereals containing gluten"
    assert id_words("PlaceRelative") == "place relative"
    assert id_words(" cup2Go ") == "cup2 go"


def test_a_name_join_comes_after_the_names_first_word_not_its_determiner() -> None:
    """Checked to fail before: "the on switch" joined at "on" and was headed "the"."""
    assert head_word("the on switch") == "switch"
    assert head_word("the jar by the window") == "jar"


@pytest.mark.parametrize(
    ("phrase", "whole", "head"),
    [
        ("the outside of the toaster", ["the", "toaster"], "toaster"),
        ("top of the wardrobe", ["the", "wardrobe"], "wardrobe"),  # "on top of"
        ("front of the fridge", ["front", "of", "the", "fridge"], "front"),  # "in front of"
        ("the front of the fridge", ["the", "fridge"], "fridge"),
        ("the back of my car", ["my", "car"], "car"),
        ("the top shelf", ["the", "top", "shelf"], "shelf"),  # a region word as a modifier
        ("a bottle of milk", ["a", "bottle", "of", "milk"], "bottle"),  # no region
        ("the bottom of the", ["the", "bottom", "of", "the"], "bottom"),  # no whole said
    ],
)
def test_a_region_of_a_thing_names_the_whole(phrase: str, whole: list[str], head: str) -> None:
    assert whole_named(phrase.split()) == whole
    assert head_word(phrase) == head
