"""Words said after a referent pick out the look-alikes whose names hold them."""

from __future__ import annotations

import pytest

from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.understanding.told_apart import (
    asks_for_any,
    count_asked,
    describing_words,
    said_alone,
    told_apart,
    told_apart_for_use,
    used_on,
)


def candidate(ident: str, label: str) -> Candidate:
    return Candidate(id=ident, label=label, kind="object", type="Thing", reasons=["fits"])


SHELF = [
    candidate("t1", "peppermint tea"),
    candidate("t2", "earl grey tea"),
    candidate("t3", "chamomile tea"),
]


def test_words_of_why_and_how_describe_nothing() -> None:
    """ "a bib sharpish before the soup spills": no describing word (failed before)."""
    assert describing_words(["hand me a bib sharpish before the soup spills"], "a bib") == []
    assert describing_words(["a mug if it is clean"], "a mug") == ["clean"]


@pytest.mark.parametrize(
    ("utterance", "said", "words"),
    [
        ("Pass me the tea that smells of mint, please.", "the tea", ["smells", "mint"]),
        ("Pass me the tea. The grey tin is empty.", "the tea", []),  # a new sentence
        ("Fetch a tea", "the kettle", []),  # not said: nothing
    ],
)
def test_the_describing_words_follow_the_referent_in_its_sentence(
    utterance: str, said: str, words: list[str]
) -> None:
    assert describing_words([utterance], said) == words


@pytest.mark.parametrize(
    ("words", "kept"),
    [
        (["mint"], ["t1"]),  # the end of a word of the name
        (["pepper"], ["t1"]),  # the start of one
        (["grey"], ["t2"]),  # a word of the name
        (["grey", "mint"], ["t1", "t2"]),  # as many each: both stay, the third goes
        (["tea"], ["t1", "t2", "t3"]),  # every name holds it: nothing told apart
        (["hot"], ["t1", "t2", "t3"]),  # no name holds it
        (["int"], ["t1", "t2", "t3"]),  # too short to be a part of a word
    ],
)
def test_the_names_holding_most_of_the_words_are_kept(words: list[str], kept: list[str]) -> None:
    assert [found.id for found in told_apart(SHELF, words)] == kept


def test_the_reason_says_which_words_told_it_apart() -> None:
    (kept,) = told_apart(SHELF, ["mints"])
    assert kept.reasons == ["fits", "told apart by mints"]


@pytest.mark.parametrize(
    ("utterance", "said", "any_one"),
    [
        ("Could you get me a slice of melon, not the grapes", "melon, not the grapes", True),
        ("Hand me some string", "some string", True),
        ("Find me something to tie it with", "something to tie it with", True),
        ("Pass one of the spoons", "spoons", True),
        ("Pass any spoon", "spoon", True),
        ("Pass the spoon", "the spoon", False),
        ("Pass the three spoons", "spoons", False),
        ("Pass my spoon", "my spoon", False),
        ("Pass spoons", "spoons", False),
        ("Pass a spoon that is good for jam", "a spoon", False),  # more said of it than a kind
        ("Pass a spoon, thanks", "a spoon", True),
        ("Pass a spoon", "a fork", False),  # not said as such
        ("bring me a bit of fruit?", "a fruit", True),  # held without the measure (failed before)
        ("bring me a bit of the fruit", "a fruit", False),  # "the" between: not as said
        # read as the grammar reads it: a stretched "please" is a tag (failed before)
        ("can I have a pear pleeease? no more sweets", "a pear", True),
        # a subordinate clause says why, a manner word how: neither says which (failed before)
        ("hand me a bib quick before the soup goes everywhere", "a bib", True),
        ("hand me a bib sharpish", "a bib", True),
        # a condition may say which: not any one
        ("bring me a drink unless it is beer", "a drink", False),
        ("pass me a mug if it is clean", "a mug", False),
        # a remark that leaves the choice asks for any one, and is no thing asked for
        ("bring us the drink, whatever's there", "the drink", True),
        ("pass me the mug, I don't mind which", "the mug", True),
        ("pass me the mug, whatever you like", "the mug", False),  # more than how to choose
        # the drink a vessel is to hold says what it is for, not which (failed before)
        ("bring me a glass of water", "a glass", True),
        ("could I have a mug of hot chocolate please", "a mug", True),
        ("bring me a glass of the kind with a stem", "a glass", False),  # no drink
        ("bring me a drink of water", "a drink", False),  # no vessel
    ],
)
def test_the_words_before_a_referent_say_whether_any_one_will_do(
    utterance: str, said: str, any_one: bool
) -> None:
    assert asks_for_any([utterance], said) is any_one


@pytest.mark.parametrize(
    ("utterance", "said", "alone"),
    [
        ("Bring me that fruit.", "that fruit", True),
        ("Bring me that fruit, thanks", "that fruit", True),
        ("Bring me that fruit for the pie", "that fruit", False),  # more said of it
        ("Put that fruit on the tray", "that fruit", True),  # the tray is another thing's
        ("Bring me that fruit", "the pear", False),  # not said as such
    ],
)
def test_a_referent_said_alone_has_nothing_more_said_of_it(
    utterance: str, said: str, alone: bool
) -> None:
    assert said_alone([utterance], said, others=["the tray"]) is alone


@pytest.mark.parametrize(
    ("utterance", "said", "words"),
    [
        ("get me something to sand the shelf with", "something to sand the shelf with", ["shelf"]),
        # "it" is what the words before it in the utterance say
        (
            "my tablet's nearly flat, bring me something to charge it",
            "something to charge it",
            ["tablet", "nearly", "flat"],
        ),
        ("hand me something to warm me up", "something to warm me up", []),  # the speaker
        ("hand me the tea", "the tea", []),  # not told by its use
    ],
)
def test_a_use_is_used_on_its_object_or_what_it_stands_for(
    utterance: str, said: str, words: list[str]
) -> None:
    assert used_on([utterance], said) == words


def test_the_thing_a_use_is_for_picks_the_one_whose_name_holds_it() -> None:
    chargers = [candidate("c1", "laptop charger"), candidate("c2", "tablet charger")]
    said = ["my tablet's nearly flat, bring me something to charge it"]
    kept = told_apart_for_use(chargers, said, "something to charge it")
    assert [c.id for c in kept] == ["c2"]


def test_the_thing_acted_on_is_not_the_thing_to_act_on_it_with() -> None:
    found = [candidate("r1", "recipe card"), candidate("m1", "hand lens")]
    said = ["the recipe card is tiny, is there something I could read it with?"]
    kept = told_apart_for_use(found, said, "something I could read it with")
    assert [c.id for c in kept] == ["m1"]


def test_another_persons_own_thing_is_not_offered_for_a_use_while_a_free_one_fits() -> None:
    combs = [candidate("g1", "gran's comb"), candidate("s1", "spare comb")]
    said = ["is there anything I can comb my hair with?"]
    assert [c.id for c in told_apart_for_use(combs, said, "anything I can comb my hair with")] == [
        "s1"
    ]
    alone = [candidate("g1", "gran's comb")]  # hers is still what fits when it is the only one
    assert [c.id for c in told_apart_for_use(alone, said, "anything I can comb my hair with")] == [
        "g1"
    ]


@pytest.mark.parametrize(
    ("utterance", "said", "count"),
    [
        ("put a couple of plates on the table", "a plates", 2),
        ("bring me two of the apples", "the apples", 2),
        ("fetch me 3 apples", "3 apples", 3),
        ("bring me the two plates", "the two plates", 0),
        ("bring me the apples", "the apples", 0),
        ("bring me an apple", "an apple", 0),
    ],
)
def test_the_count_said_with_a_referent(utterance: str, said: str, count: int) -> None:
    assert count_asked([utterance], said) == count
