"""What a thing needs says its state: "it needs washing" is said of a dirty thing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.scene.needs import alike_states, in_need, needed_state
from cogtree.knowledge.scene.scene_graph import SceneGraph
from tests.knowledge.scenes import SCENE_PREFIXES, ids, open_scene

# A utility room written for these tests.
UTILITY = (
    SCENE_PREFIXES
    + """

:utility a cog:Room ; rdfs:label "utility room" .
:bench a cog:Surface ; rdfs:label "bench" ; cog:inRoom :utility .
:grubby_mug a cog:Object ; rdfs:label "stained mug" ; cog:objectType cog:Mug ; cog:on :bench .
:fresh_mug a cog:Object ; rdfs:label "mug" ; cog:objectType cog:Mug ; cog:on :bench .
:split_bowl a cog:Object ; rdfs:label "cracked bowl" ; cog:objectType cog:Bowl ; cog:on :bench .
:pear a cog:Object ; rdfs:label "pear" ; cog:objectType cog:Pear ; cog:on :bench .
"""
)


@pytest.fixture(scope="module")
def utility() -> Iterator[SceneGraph]:
    yield from open_scene(UTILITY, "utility")


@pytest.mark.parametrize(
    ("verb", "state"),
    [("scrubbing", "dirty"), ("rinsed", "dirty"), ("mend", "broken"), ("sharpening", "blunt")],
)
def test_a_remedy_names_the_state_it_undoes(verb: str, state: str) -> None:
    assert needed_state(verb) == state


def test_a_verb_that_undoes_no_state_names_none() -> None:
    assert needed_state("painting") is None
    assert alike_states("cracked") == alike_states("broken")
    assert alike_states("purple") == frozenset(["purple"])


@pytest.mark.parametrize(
    ("words", "read"),
    [
        ("the jug that needs rinsing", "the jug dirty"),
        ("something which wants mending", "something broken"),
        ("needs to be sharpened", "blunt"),
        ("needs a good wash", "dirty"),
        ("the jug that needs a lid", "the jug that needs a lid"),  # not a state: as said
    ],
)
def test_a_need_is_read_as_the_state_it_says(words: str, read: str) -> None:
    assert " ".join(in_need(words.split())) == read


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("needs washing", ["grubby_mug"]),  # stained: washing undoes it
        ("the mug that needs a rinse", ["grubby_mug"]),
        ("the dirty one", ["grubby_mug"]),  # its name says stained, as dirty as that
        ("something that needs fixing", ["split_bowl"]),
        ("the broken bowl", ["split_bowl"]),
        ("the mug", ["fresh_mug", "grubby_mug"]),  # a state is not asked for: both
        ("needs sharpening", []),  # nothing here is blunt
    ],
)
def test_a_state_or_a_need_picks_the_things_whose_name_says_it(
    utility: SceneGraph, description: str, expected: list[str]
) -> None:
    assert ids(utility, description) == expected


def test_the_reason_says_the_name_says_the_state(utility: SceneGraph) -> None:
    (found,) = utility.resolve_referent("needs washing")
    assert any("its name says it is dirty" in reason for reason in found.reasons)
