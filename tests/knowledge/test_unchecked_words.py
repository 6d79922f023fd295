"""A describing word the belief cannot check is left out, and what the rest matches is a guess.

"the soggy teabags" when nothing in the belief says soggy: the teabags, asked about; a word
some thing is described by, or the word that names the thing, is never left out.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.scene.referents.description import Description
from cogtree.knowledge.scene.referents.unchecked_words import without_unchecked
from cogtree.knowledge.scene.scene_graph import SceneGraph
from tests.knowledge.scenes import SCENE_PREFIXES

KITCHEN = (
    SCENE_PREFIXES
    + """

:kitchen a cog:Room ; rdfs:label "kitchen" .
:counter a cog:Surface ; rdfs:label "counter" ; cog:objectType cog:Counter ; cog:inRoom :kitchen .
:teabag_1 a cog:Object ; rdfs:label "used teabag" ; cog:objectType cog:TeaBag ; cog:on :counter .
:teabag_2 a cog:Object ; rdfs:label "used teabag" ; cog:objectType cog:TeaBag ; cog:on :counter .
:pan_new a cog:Object ; rdfs:label "new pan" ; cog:objectType cog:Pan ; cog:on :counter .
:pan_old a cog:Object ; rdfs:label "frying pan" ; cog:objectType cog:Pan ; cog:on :counter .
"""
)


@pytest.fixture(scope="module")
def kitchen() -> Iterator[SceneGraph]:
    scene = SceneGraph.from_turtle_text(KITCHEN, source="unchecked")
    yield scene
    scene.close()


def test_a_word_nothing_is_described_by_is_left_out_and_the_match_is_a_guess(
    kitchen: SceneGraph,
) -> None:
    """Checked to fail before: "the soggy teabags" matched nothing ("I have not seen ...")."""
    found = kitchen.resolve_referent("those soggy teabags on the counter")
    assert [candidate.id for candidate in found] == ["teabag_1", "teabag_2"]
    assert all(c.by_label and "'soggy': the belief does not say" in c.reasons for c in found)


@pytest.mark.parametrize(
    "said",
    [
        "the new pan",  # "new" describes the new pan: checked, kept
        "the soggy",  # the word that names the thing is never left out
        "the teabags",  # nothing to leave out
        "the purple pan",  # a colour is what perception reports: it rules out, never left out
    ],
)
def test_no_word_is_left_out_that_the_belief_can_check(kitchen: SceneGraph, said: str) -> None:
    assert without_unchecked(kitchen.index, Description.parse(said)) is None


def test_a_checked_word_keeps_its_match_sure(kitchen: SceneGraph) -> None:
    [pan] = kitchen.resolve_referent("the new pan")
    assert (pan.id, pan.by_label) == ("pan_new", False)
