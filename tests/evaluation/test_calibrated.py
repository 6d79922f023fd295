"""The calibrated gate's evaluation: intended options, the split, the measures, the commands.

Every item here is written for these tests (no evaluation item is copied).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cogtree.evaluation.clarify.calibrated import (
    ScoredItem,
    intended_letters,
    measures,
    repeated_splits,
)
from cogtree.evaluation.clarify.clarify_data import ClarifyItem
from cogtree.knowledge.safety.candidate_readings import candidate_readings
from cogtree.knowledge.safety.conformal import tie_break
from cogtree.knowledge.safety.conformal_threshold import load_threshold
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution
from cogtree.trees.cli.eval_command import run_eval
from cogtree.trees.cli.main import build_parser, main


def readings_of(**slots: list[str]):
    frame = IntentFrame(domain="household", task="Bring", slots={s: s for s in slots}, said=[])
    resolved = {
        slot: SlotResolution(
            slot=slot, said=slot, kind="kg" if slot == "relation" else "scene", ids=ids
        )
        for slot, ids in slots.items()
    }
    readings = candidate_readings(frame, resolved)
    assert readings is not None
    return readings


def tabletop(**fields) -> ClarifyItem:
    values = {
        "id": "own-1",
        "source": "knowno-style",
        "scene_objects": ["tin mug", "glass mug", "lemon"],
        "task": "hand me the mug",
        "should_ask": False,
    }
    return ClarifyItem.model_validate({**values, **fields})


def test_the_intended_option_is_the_reading_of_the_intended_object() -> None:
    readings = readings_of(object=["tin_mug", "glass_mug"])
    item = tabletop(intent_object="glass mug", intent_location="pick-up")
    assert intended_letters(item, readings, None) == ["B"]


def test_the_intended_place_tells_readings_of_the_same_object_apart() -> None:
    readings = readings_of(object=["lemon"], destination=["tin_mug", "glass_mug"])
    item = tabletop(intent_object="lemon", intent_location="glass mug")
    assert [
        readings.option(x).ids["destination"] for x in intended_letters(item, readings, None)
    ] == ["glass_mug"]


def test_a_relation_is_not_a_thing_of_the_intention() -> None:
    readings = readings_of(
        relation=["next_to"], object=["lemon"], landmark=["tin_mug", "glass_mug"]
    )
    item = tabletop(intent_object="lemon", intent_location="tin mug")
    assert intended_letters(item, readings, None) == ["A"]
    assert (
        readings.option("A").description
        == "bring: relation next to, object lemon, landmark tin mug"
    )


def test_a_multi_label_item_accepts_each_intended_object() -> None:
    readings = readings_of(object=["tin_mug", "glass_mug", "lemon"])
    item = tabletop(intent_object="tin mug, glass mug")
    assert intended_letters(item, readings, None) == ["A", "B"]


def test_an_intended_object_not_offered_makes_none_of_these_the_intended_option() -> None:
    readings = readings_of(object=["tin_mug"])
    item = tabletop(intent_object="lemon")
    assert intended_letters(item, readings, None) == [readings.none_letter]


def test_without_an_intent_object_the_exact_twin_tells_the_intention() -> None:
    item = ClarifyItem.model_validate(
        {
            "id": "7-indirect",
            "scene_objects": ["tin mug", "glass mug"],
            "task": "t",
            "should_ask": False,
        }
    )
    readings = readings_of(object=["tin_mug", "glass_mug"])
    assert intended_letters(item, readings, readings_of(object=["glass_mug"])) == ["B"]
    # a twin that itself leaves a choice cannot tell the intention: the item is not counted
    assert intended_letters(item, readings, readings) is None
    assert intended_letters(item, readings, None) is None


def scored(ident: str, probabilities: dict[str, float], intended: list[str]) -> ScoredItem:
    letters = list(probabilities)
    return ScoredItem(
        id=ident,
        source="own",
        group="g",
        letters=letters,
        none_letter=letters[-1],
        intended=intended,
        probabilities=probabilities,
        tie_breaks={letter: tie_break(ident, letter) for letter in letters},
    )


def test_success_help_and_exact_set_rates() -> None:
    items = [
        scored("1", {"A": 0.9, "B": 0.1, "C": 0.0}, ["A"]),  # {A}: success, acts, exact
        scored("2", {"A": 0.5, "B": 0.5, "C": 0.0}, ["B"]),  # {A, B}: success, asks
        scored("3", {"A": 0.2, "B": 0.2, "C": 0.6}, ["A"]),  # {C}: none of these, asks
    ]
    result = measures(items, [0.55] * 20, 0.15)  # a score below 0.55 enters, above never
    assert result["items"] == 3
    assert result["success"] == pytest.approx(2 / 3)
    assert result["help"] == pytest.approx(2 / 3)
    assert result["exact_set"] == pytest.approx(1 / 3)
    assert result["set_size"] == pytest.approx(4 / 3)


def test_the_split_is_deterministic_and_keeps_twins_together() -> None:
    halves = {
        ident: scored(ident, {"A": 1.0}, ["A"]).calibration_half
        for ident in ("12", "12-clear", "12-indirect")
    }
    assert len(set(halves.values())) == 1
    sides = [scored(str(i), {"A": 1.0}, ["A"]).calibration_half for i in range(200)]
    assert 60 < sum(sides) < 140
    assert sides == [scored(str(i), {"A": 1.0}, ["A"]).calibration_half for i in range(200)]


OWN_ITEMS = [
    {
        "id": "1",
        "scene_objects": ["tin mug", "glass mug", "lemon"],
        "task": "pass me the mug",
        "intent_object": "glass mug",
        "intent_location": "pick-up",
        "should_ask": True,
    },
    {
        "id": "2",
        "scene_objects": ["tin mug", "stapler", "lemon"],
        "task": "pass me the lemon",
        "intent_object": "lemon",
        "intent_location": "pick-up",
        "should_ask": False,
    },
    {
        "id": "3",
        "scene_objects": ["paper cup", "plastic cup", "stapler"],
        "task": "bring me a cup",
        "intent_object": "paper cup",
        "intent_location": "pick-up",
        "should_ask": True,
    },
    {
        "id": "4",
        "scene_objects": ["stapler", "banana", "lemon"],
        "task": "bring me the stapler",
        "intent_object": "stapler",
        "intent_location": "pick-up",
        "should_ask": False,
    },
]


def write(tmp_path: Path) -> Path:
    path = tmp_path / "own.jsonl"
    lines = (json.dumps({"source": "knowno-style", **item}) for item in OWN_ITEMS)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_calibrate_writes_a_threshold_the_manifest_can_point_to(tmp_path, capsys) -> None:
    data = write(tmp_path)
    output = tmp_path / "threshold.json"
    code = main(["calibrate", str(data), "--epsilon", "0.3", "--output", str(output)])
    assert code == 0, capsys.readouterr().err
    threshold = load_threshold(output)
    assert (threshold.backend, threshold.model, threshold.epsilon) == ("none", "match scores", 0.3)
    assert threshold.n == 4 and sum(threshold.set_sizes.values()) == 4
    assert threshold.data_file == str(data) and len(threshold.data_sha256) == 64
    assert "calibration:" in capsys.readouterr().out


def test_calibrated_evaluation_reports_per_epsilon(tmp_path, capsys) -> None:
    args = build_parser().parse_args(
        ["eval", "clarify", str(write(tmp_path)), "--calibrated", "--epsilon", "0.3"]
    )
    assert isinstance(args, argparse.Namespace)
    assert run_eval(args) == 0
    table = capsys.readouterr().out
    assert "## Calibrated ask or act: own.jsonl" in table
    assert "none: 4 of 4 items counted" in table


def test_the_oracle_cannot_be_calibrated(tmp_path, capsys) -> None:
    args = build_parser().parse_args(
        ["eval", "clarify", str(write(tmp_path)), "--calibrated", "--backend", "oracle"]
    )
    assert run_eval(args) == 2
    assert "the oracle has none" in capsys.readouterr().err


def test_repeated_splits_average_the_measures_over_seeded_halves() -> None:
    sure = [scored(str(i), {"A": 0.95, "B": 0.05, "C": 0.0}, ["A"]) for i in range(20)]
    torn = [scored(str(i), {"A": 0.5, "B": 0.5, "C": 0.0}, ["B"]) for i in range(20, 40)]
    strict = repeated_splits("none", sure + torn, 0.1, repeats=20)
    assert strict.group == "all, mean of 20 random splits" and strict.items == 20
    assert strict.q_hat == pytest.approx(0.5)  # the torn half's score is within the 90%
    # the sets cover at least 1 - epsilon and at most 1/(n + 1) more (the plain rule would
    # keep both torn readings every time and cover 100%)
    assert 0.9 - 0.03 <= strict.success <= 0.9 + 1 / 21 + 0.03
    loose = repeated_splits("none", sure + torn, 0.3, repeats=20)
    assert loose.q_hat == pytest.approx(0.5)  # the same plain threshold ...
    # ... but the tie-breaks spend the error allowed: some torn requests keep one reading,
    # so the robot asks less and is wrong more often, about as often as epsilon allows
    assert loose.help < strict.help and loose.success < strict.success
    assert 0.7 - 0.03 <= loose.success <= 0.7 + 1 / 21 + 0.03
    assert loose == repeated_splits("none", sure + torn, 0.3, repeats=20)  # seeded


def test_a_clear_twin_labels_its_siblings_and_a_failed_scoring_still_counts() -> None:
    from cogtree.evaluation.clarify.calibrated import TurnReadings, item_key, score_items
    from cogtree.knowledge.llm.errors import LLMTimeoutError

    readings = readings_of(object=["tin_mug", "glass_mug"])
    clear = tabletop(id="5-clear", source="ambik-style", task="hand me the tin mug")
    vague = tabletop(id="5", source="ambik-style", task="hand me a mug")
    turns = {
        item_key(clear): TurnReadings(readings=readings_of(object=["tin_mug"])),
        item_key(vague): TurnReadings(readings=readings),
    }

    def failing(item, options):
        raise LLMTimeoutError("no answer within 1s")

    by_id = {entry.id: entry for entry in score_items([clear, vague], turns, "x", failing)}
    assert by_id["5-clear"].excluded == "labels its twins"
    assert not by_id["5"].excluded and by_id["5"].scoring_failed
    assert set(by_id["5"].probabilities.values()) == {1 / 3}
