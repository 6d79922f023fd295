"""Of several things that fit a request to be handed something, the one fit for use."""

from __future__ import annotations

import pytest

from cogtree.knowledge.scene.fit_for_use import also_there, any_will_do, fit_for_use, states_in
from cogtree.knowledge.scene.scene_models import Candidate


def thing(label: str) -> Candidate:
    return Candidate(id=label.replace(" ", "_"), label=label, kind="object", reasons=["a towel"])


@pytest.mark.parametrize(
    ("labels", "said", "kept"),
    [
        (["tea towel", "dirty tea towel"], "the tea towel", ["tea towel"]),
        (["cracked jug", "jug", "broken jug"], "a jug", ["jug"]),
        (["tea towel", "striped tea towel"], "the tea towel", ["tea towel", "striped tea towel"]),
        (
            ["dirty tea towel", "used tea towel"],
            "a tea towel",
            ["dirty tea towel", "used tea towel"],
        ),
        (["tea towel", "dirty tea towel"], "the dirty tea towel", ["tea towel", "dirty tea towel"]),
        (["tea towel"], "the tea towel", ["tea towel"]),
    ],
)
def test_only_the_one_usable_thing_is_kept(labels: list[str], said: str, kept: list[str]) -> None:
    assert [c.label for c in fit_for_use([thing(label) for label in labels], said)] == kept


def test_the_kept_thing_says_what_was_set_aside() -> None:
    [kept] = fit_for_use([thing("jug"), thing("cracked jug")], "the jug")
    assert kept.reasons == ["a towel", "fit for use; set aside: cracked jug"]


def test_state_words_are_whole_words() -> None:
    assert states_in("Dirty brush, used twice") == {"dirty", "used"}
    assert states_in("flatbread") == frozenset()


@pytest.mark.parametrize(
    ("places", "kept"),
    [
        ({"jug": "on shelf", "blue_jug": "on shelf"}, ["jug"]),  # side by side: any will do
        ({"jug": "on shelf", "blue_jug": "in cupboard"}, ["jug", "blue jug"]),  # two places
        ({"jug": "on shelf", "blue_jug": ""}, ["jug", "blue jug"]),  # one out of sight
        ({}, ["jug", "blue jug"]),  # no places known
    ],
)
def test_any_one_of_things_in_one_place_will_do(places: dict[str, str], kept: list[str]) -> None:
    chosen = any_will_do([thing("jug"), thing("blue jug")], places)
    assert [c.label for c in chosen] == kept
    if len(kept) == 1:
        assert chosen[0].reasons[-1] == "any would do (on shelf); also there: blue jug"


def test_the_things_left_beside_the_one_kept_are_read_back_from_its_reasons() -> None:
    [kept] = any_will_do(
        [thing("jug"), thing("blue jug"), thing("tall jug")],
        dict.fromkeys(["jug", "blue_jug", "tall_jug"], "on shelf"),
    )
    assert also_there(kept.reasons) == ["blue jug", "tall jug"]
    assert also_there(["a towel"]) == []
