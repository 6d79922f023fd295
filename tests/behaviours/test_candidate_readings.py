"""Candidate readings as lettered options, and the fast path's match scores of them."""

from __future__ import annotations

import pytest

from cogtree.knowledge.safety.candidate_readings import (
    MAX_READINGS,
    NONE_OF_THESE,
    candidate_readings,
    narrowed,
    option_prompt,
)
from cogtree.knowledge.safety.match_scores import match_strength
from cogtree.knowledge.understanding.turn_state import IntentFrame, IntentStep, SlotResolution


def frame(**changes) -> IntentFrame:
    values = {"domain": "household", "task": "PlaceRelative", "slots": {}, "said": []}
    return IntentFrame(**{**values, **changes})


def scene(slot: str, *ids: str, matched: dict[str, int] | None = None) -> SlotResolution:
    counts = matched or {}
    reasons = [f"'{slot}' -> {i}: " + "; ".join(["word"] * counts.get(i, 1)) for i in ids]
    return SlotResolution(slot=slot, said=slot, kind="scene", ids=list(ids), reasons=reasons)


def test_readings_combine_the_slots_and_end_with_none_of_these() -> None:
    resolved = {
        "object": scene("object", "pear", "plum"),
        "landmark": scene("landmark", "bowl", "tray"),
        "relation": SlotResolution(slot="relation", said="beside", kind="value", ids=["next_to"]),
    }
    readings = candidate_readings(frame(), resolved)
    assert readings is not None
    assert readings.letters == ("A", "B", "C", "D", "E")
    assert readings.option("E").description == NONE_OF_THESE and readings.option("E").is_none
    assert {tuple(o.ids.values()) for o in readings.readings} == {
        ("pear", "bowl"),
        ("pear", "tray"),
        ("plum", "bowl"),
        ("plum", "tray"),
    }
    assert readings.slots == ["object", "landmark"]


def test_at_most_six_readings_the_strongest_kept() -> None:
    ids = [f"cup_{i}" for i in range(9)]
    resolved = {"object": scene("object", *ids, matched={"cup_8": 3})}
    readings = candidate_readings(frame(task="Fetch"), resolved)
    assert readings is not None and len(readings.readings) == MAX_READINGS
    assert readings.readings[0].ids == {"object": "cup_8"}


@pytest.mark.parametrize(
    "resolved",
    [
        {"object": scene("object")},  # matches nothing: the gate asks as before
        {"object": SlotResolution(slot="object", said=["a", "b"], kind="scene", ids=["x", "y"])},
        {"object": SlotResolution(slot="object", said="a", kind="text")},  # nothing to choose
    ],
)
def test_no_readings_when_there_is_nothing_to_choose_among(resolved) -> None:
    assert candidate_readings(frame(task="Fetch"), resolved) is None


def test_no_readings_for_a_request_of_several_steps() -> None:
    steps = [IntentStep(task="Fetch"), IntentStep(task="Fetch")]
    assert candidate_readings(frame(steps=steps), {"object": scene("object", "pear")}) is None


def test_the_prompt_ends_where_the_model_writes_the_letter() -> None:
    readings = candidate_readings(frame(task="Fetch"), {"object": scene("object", "pear", "plum")})
    assert readings is not None
    prompt = option_prompt("bring me a fruit", readings)
    assert prompt.letters == ("A", "B", "C")
    text = prompt.messages[-1].content
    assert "'bring me a fruit'" in text and "C) none of these" in text
    assert text.endswith("Answer:")


def test_match_scores_are_the_matched_words_normalised() -> None:
    resolution = scene("object", "pear", "plum", matched={"pear": 3})
    assert match_strength(resolution, "pear") == 3 and match_strength(resolution, "kiwi") == 1
    readings = candidate_readings(frame(task="Fetch"), {"object": resolution})
    assert readings is not None
    assert readings.match_probabilities() == pytest.approx({"A": 0.75, "B": 0.25, "C": 0.0})


def test_readings_left_out_give_their_share_to_none_of_these() -> None:
    ids = [f"mug_{i}" for i in range(10)]
    resolution = scene("object", *ids, matched={"mug_9": 3})  # strengths 3 + 9 x 1 = 12
    readings = candidate_readings(frame(task="Fetch"), {"object": resolution})
    assert readings is not None and readings.readings[0].ids == {"object": "mug_9"}
    probabilities = readings.match_probabilities()
    assert probabilities["A"] == pytest.approx(3 / 12)  # its share of all ten, not of six
    assert probabilities["G"] == pytest.approx(4 / 12)  # the four mugs not offered


def test_the_strongest_combination_survives_the_cut_of_combinations() -> None:
    many = [f"spoon_{i}" for i in range(40)]
    resolved = {
        "object": scene("object", *many, matched={"spoon_39": 4}),
        "landmark": scene("landmark", *[f"tray_{i}" for i in range(40)], matched={"tray_39": 4}),
    }
    readings = candidate_readings(frame(), resolved)
    assert readings is not None
    assert readings.readings[0].ids == {"object": "spoon_39", "landmark": "tray_39"}


def test_narrowing_keeps_the_ids_and_reasons_of_the_chosen_readings() -> None:
    resolved = {"object": scene("object", "pear", "plum", "fig")}
    readings = candidate_readings(frame(task="Fetch"), resolved)
    assert readings is not None
    cut = narrowed(resolved, [readings.option("A"), readings.option("C")])
    assert cut["object"].ids == ["pear", "fig"]
    assert all("plum" not in reason for reason in cut["object"].reasons)
