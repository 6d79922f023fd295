"""A use said that no listed use of a thing here matches is read by definition, then in other
words: "something to sweep it up with" finds the dustpan ("into which dust can be swept")
when there is no broom; "something to dish it out with" the ladle (used to serve).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.scene.referents.description import Phrase, without_use
from cogtree.knowledge.scene.referents.other_uses import defined_uses
from cogtree.knowledge.scene.scene_graph import SceneGraph

PREFIXES = """
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:kitchen a cog:Room ; rdfs:label "kitchen" .
:counter a cog:Surface ; rdfs:label "worktop" ; cog:inRoom :kitchen .
"""

KITCHEN = f"""{PREFIXES}
:pan a cog:Object ; rdfs:label "dustpan and brush" ; cog:objectType cog:Dustpan ;
    cog:on :counter .
:mop a cog:Object ; rdfs:label "mop" ; cog:objectType cog:Mop ; cog:on :counter .
:ladle a cog:Object ; rdfs:label "ladle" ; cog:objectType cog:Ladle ; cog:on :counter .
:slotted a cog:Object ; rdfs:label "slotted spoon" ; cog:objectType cog:Spoon ;
    cog:on :counter .
:whisk a cog:Object ; rdfs:label "balloon whisk" ; cog:objectType cog:Whisk ; cog:on :counter .
:clock a cog:Object ; rdfs:label "clock" ; cog:objectType cog:AlarmClock ; cog:on :counter .
:clock a cog:Object ; rdfs:label "clock" ; cog:objectType cog:AlarmClock ; cog:on :counter .
"""

WITH_A_BROOM = f"""{KITCHEN}
:broom a cog:Object ; rdfs:label "broom" ; cog:objectType cog:Broom ; cog:on :counter .
"""


@pytest.fixture(scope="module")
def kitchen() -> Iterator[SceneGraph]:
    scene = SceneGraph.from_turtle_text(KITCHEN, source="kitchen")
    yield scene
    scene.close()


def found(scene: SceneGraph, description: str) -> list[tuple[str, list[str]]]:
    return [(c.id, c.reasons) for c in scene.resolve_referent(description)]


@pytest.mark.parametrize(
    ("said", "expected", "why"),
    [
        (
            "something to sweep it up with",
            "pan",
            "'sweep up': a dustpan is for it, by its definition",
        ),
        ("something to sweep with", "pan", "'sweep': a dustpan is for it, by its definition"),
        (
            "something to dish it out with",
            "ladle",
            "'dish out': a ladle is used for it, in other words",
        ),
        (
            "something to dish out with",
            "ladle",
            "'dish out': a ladle is used for it, in other words",
        ),
        (
            "something to wake me up with",
            "clock",
            "'wake up': an alarm clock is for it, by its definition",
        ),
    ],
)
def test_a_use_no_listed_use_matches_is_read_by_definition_then_in_other_words(
    kitchen: SceneGraph, said: str, expected: str, why: str
) -> None:
    assert found(kitchen, said) == [(expected, [why])]


def test_a_listed_use_of_a_thing_here_wins_over_the_dictionary() -> None:
    scene = SceneGraph.from_turtle_text(WITH_A_BROOM, source="with a broom")
    try:
        assert [thing for thing, _ in found(scene, "something to sweep up with")] == ["broom"]
    finally:
        scene.close()


@pytest.mark.parametrize(
    "said",
    [
        "something sweeping",  # no use said: a describing word is not read as one
        "something to juggle with",  # neither the dictionary nor another word names a thing here
    ],
)
def test_only_a_use_said_is_read_so_and_only_when_it_names_a_thing_here(
    kitchen: SceneGraph, said: str
) -> None:
    assert found(kitchen, said) == []


def test_the_use_of_a_description_is_the_word_after_to() -> None:
    assert Phrase(("something", "to", "sweep up")).use == "sweep up"
    assert Phrase(("the", "blue", "mug")).use is None


def test_a_definition_names_the_verbs_it_says_a_made_thing_is_for() -> None:
    assert defined_uses("dustpan") == {"sweep"}
    assert defined_uses("bandage") == {"cover", "protect"}  # "that covers and protects"
    assert defined_uses("cake") == frozenset()  # a food: no made thing's use
    assert defined_uses("no such thing at all") == frozenset()


def test_a_use_said_after_a_noun_is_left_aside_when_the_noun_alone_matches(
    kitchen: SceneGraph,
) -> None:
    (found,) = kitchen.resolve_referent("a ladle to juggle with")  # no use of a ladle says so
    assert found.id == "ladle"
    assert "what it is for left aside: 'to juggle with'" in found.reasons
    assert kitchen.resolve_referent("a teapot to juggle with") == []  # the noun must match


@pytest.mark.parametrize(
    ("said", "bare"),
    [
        ("a magazine to flick through", "a magazine"),
        ("something to read", None),  # the use is all there is to the description
        ("the lid to the jar", None),  # no verb after "to"
        ("the mug", None),
    ],
)
def test_the_use_after_a_noun_is_what_follows_to_and_a_verb(said: str, bare: str | None) -> None:
    assert without_use(said) == bare
