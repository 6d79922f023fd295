"""The shared phrasing helpers: singular forms, counts, lists and clipped text."""

from __future__ import annotations

import pytest

from cogtree.knowledge.wording import (
    clip,
    counted,
    joined,
    singular,
    singular_forms,
    verb_bases,
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
