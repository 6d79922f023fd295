"""Split conformal prediction: the quantile, the sets, the guarantee, the threshold file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from knowledge.conformal import (
    CalibrationError,
    conformal_quantile,
    nonconformity,
    prediction_set,
)
from knowledge.conformal_threshold import ConformalThreshold, load_threshold


def test_the_quantile_is_the_corrected_empirical_one() -> None:
    scores = [i / 10 for i in range(1, 11)]  # 0.1 .. 1.0, n = 10
    assert conformal_quantile(scores, 0.2) == pytest.approx(0.9)  # ceil(11 * 0.8) = 9th
    assert conformal_quantile(scores, 0.5) == pytest.approx(0.6)  # ceil(11 * 0.5) = 6th
    assert conformal_quantile(scores, 0.05) == 1.0  # rank 11 > n: every option in every set


def test_bad_inputs_name_the_problem() -> None:
    with pytest.raises(CalibrationError, match="between 0 and 1"):
        conformal_quantile([0.1], 1.0)
    with pytest.raises(CalibrationError, match="no calibration scores"):
        conformal_quantile([], 0.1)
    with pytest.raises(CalibrationError, match="intended option"):
        nonconformity({"A": 1.0}, [])


def test_the_set_keeps_options_at_or_above_one_minus_q_hat() -> None:
    probabilities = {"A": 0.6, "B": 0.3, "C": 0.1}
    assert prediction_set(probabilities, 0.5) == ["A"]
    assert prediction_set(probabilities, 0.7) == ["A", "B"]
    assert prediction_set(probabilities, 0.3) == []
    assert prediction_set(probabilities, 1.0) == ["A", "B", "C"]


def test_nonconformity_takes_the_likeliest_acceptable_option() -> None:
    assert nonconformity({"A": 0.2, "B": 0.7}, ["A", "B"]) == pytest.approx(0.3)
    assert nonconformity({"A": 0.2}, ["Z"]) == 1.0  # not offered


def _item(rng: random.Random, options: int = 4) -> tuple[dict[str, float], str]:
    """A request whose intended option is drawn from the scorer's own (noisy) belief."""
    weights = [rng.expovariate(1.0) ** 2 for _ in range(options)]
    total = sum(weights)
    probabilities = {chr(65 + i): w / total for i, w in enumerate(weights)}
    # the scorer is miscalibrated: the truth follows a flattened version of its belief
    flat = [(p + 0.2) for p in probabilities.values()]
    intended = rng.choices(list(probabilities), weights=flat)[0]
    return probabilities, intended


@pytest.mark.parametrize("epsilon", [0.1, 0.15, 0.3])
def test_coverage_holds_on_exchangeable_requests_in_a_seeded_simulation(epsilon) -> None:
    rng = random.Random(21)
    coverage = []
    for _ in range(200):
        calibration = [_item(rng) for _ in range(100)]
        q_hat = conformal_quantile([nonconformity(p, [i]) for p, i in calibration], epsilon)
        test = [_item(rng) for _ in range(200)]
        hits = [i in prediction_set(p, q_hat) for p, i in test]
        coverage.append(sum(hits) / len(hits))
    mean = sum(coverage) / len(coverage)
    # marginal coverage: at least 1 - epsilon, and at most 1 - epsilon + 1/(n + 1) (no ties)
    assert 1 - epsilon - 0.01 <= mean <= 1 - epsilon + 1 / 101 + 0.01


def _threshold(**changes) -> ConformalThreshold:
    values = {
        "backend": "llama-cpp",
        "model": "smollm2-135m",
        "epsilon": 0.15,
        "q_hat": 0.82,
        "n": 120,
        "set_sizes": {"1": 70, "2": 50},
        "data_file": "calibration.jsonl",
        "data_sha256": "ab" * 32,
        "created": "2026-01-01T00:00:00+00:00",
    }
    return ConformalThreshold(**{**values, **changes})


def test_the_threshold_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    threshold = _threshold()
    threshold.save(path)
    assert load_threshold(path) == threshold
    assert json.loads(path.read_text())["q_hat"] == 0.82


def test_another_backend_or_model_is_refused_with_the_fix() -> None:
    threshold = _threshold()
    assert threshold.refusal("llama-cpp", "smollm2-135m") is None
    refusal = threshold.refusal("ollama", "qwen2.5:3b")
    assert refusal is not None
    assert "'llama-cpp'" in refusal and "'ollama'" in refusal and "qwen2.5:3b" in refusal
    assert "cogtree calibrate FILE.jsonl --backend ollama" in refusal
    assert threshold.refusal("llama-cpp", "another") is not None


def test_a_bad_threshold_file_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cogtree calibrate"):
        load_threshold(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"q_hat": 2}')
    with pytest.raises(CalibrationError, match="not a conformal threshold file"):
        load_threshold(bad)
