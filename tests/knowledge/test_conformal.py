"""Split conformal prediction: the quantile, the sets, the guarantee, the threshold file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cogtree.knowledge.safety.conformal import (
    CalibrationError,
    conformal_quantile,
    nonconformity,
    p_value,
    prediction_set,
    tie_break,
)
from cogtree.knowledge.safety.conformal_threshold import ConformalThreshold, load_threshold


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


def test_the_p_value_counts_higher_scores_the_request_and_a_share_of_ties() -> None:
    calibration = [0.1, 0.5, 0.5, 0.9]  # n = 4
    assert p_value(0.5, calibration, 0.0) == pytest.approx(2 / 5)  # 0.9 and the request
    assert p_value(0.5, calibration, 1.0) == pytest.approx(4 / 5)  # and the 2 tied
    assert p_value(0.5, calibration, 0.5) == pytest.approx(3 / 5)
    assert p_value(1 - 2 / 3, [1 / 3], 0.5) == pytest.approx(1.5 / 2)  # one score, two ways
    assert p_value(0.95, calibration, 0.99) == pytest.approx(1 / 5)  # above every score


def test_the_set_keeps_options_whose_p_value_exceeds_epsilon_likeliest_first() -> None:
    probabilities = {"A": 0.6, "B": 0.3, "C": 0.1}
    calibration = [0.5] * 19  # scores below 0.5 enter, above never (for epsilon >= 1/20)
    ties = {"A": 0.5, "B": 0.5, "C": 0.5}
    assert prediction_set(probabilities, calibration, 0.15, ties) == ["A"]
    assert prediction_set(probabilities, [0.95] * 19, 0.15, ties) == ["A", "B", "C"]
    assert prediction_set(probabilities, [0.1] * 19, 0.15, ties) == []
    with pytest.raises(CalibrationError, match="no calibration scores"):
        prediction_set(probabilities, [], 0.15, ties)


def test_the_set_is_within_the_plain_one_and_shrinks_as_epsilon_grows() -> None:
    rng = random.Random(7)
    for _ in range(500):
        n = rng.randint(1, 60)
        calibration = [rng.choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0, rng.random()]) for _ in range(n)]
        weights = [rng.choice([0.0, 1.0, 1.0, 2.0, rng.random()]) for _ in range(4)]
        total = sum(weights) or 1.0
        probabilities = {letter: w / total for letter, w in zip("ABCD", weights, strict=True)}
        ties = {letter: rng.random() for letter in probabilities}
        # epsilon on the j/(n + 1) grid, where the plain rule's rank changes, and off it
        small, large = sorted(
            rng.choice([j / (n + 1) for j in range(1, n + 1)] + [rng.uniform(0.01, 0.6)])
            for _ in range(2)
        )
        strict = prediction_set(probabilities, calibration, small, ties)
        loose = prediction_set(probabilities, calibration, large, ties)
        for epsilon, kept in ((small, strict), (large, loose)):
            q_hat = conformal_quantile(calibration, epsilon)
            plain = {o for o, p in probabilities.items() if 1 - p <= q_hat + 1e-9}
            assert set(kept) <= plain, (calibration, probabilities, epsilon)
        assert set(loose) <= set(strict)


def test_the_tie_break_is_fixed_by_its_parts_and_lies_in_0_1() -> None:
    values = [tie_break("bring me a soda", f"fetch: object {i}") for i in range(200)]
    assert all(0.0 <= value < 1.0 for value in values)
    assert tie_break("bring me a soda", "fetch: object 3") == values[3]
    assert len(set(values)) == 200 and 0.4 < sum(values) / 200 < 0.6
    assert tie_break("a", "bc") != tie_break("ab", "c")


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


def _ties(probabilities: dict[str, float], rng: random.Random) -> dict[str, float]:
    return {option: rng.random() for option in probabilities}


@pytest.mark.parametrize("epsilon", [0.1, 0.15, 0.3])
def test_coverage_holds_on_exchangeable_requests_in_a_seeded_simulation(epsilon) -> None:
    rng = random.Random(21)
    coverage = []
    for _ in range(200):
        calibration = [_item(rng) for _ in range(100)]
        scores = [nonconformity(p, [i]) for p, i in calibration]
        test = [_item(rng) for _ in range(200)]
        hits = [i in prediction_set(p, scores, epsilon, _ties(p, rng)) for p, i in test]
        coverage.append(sum(hits) / len(hits))
    mean = sum(coverage) / len(coverage)
    # marginal coverage: at least 1 - epsilon, and at most 1 - epsilon + 1/(n + 1) (no ties)
    assert 1 - epsilon - 0.01 <= mean <= 1 - epsilon + 1 / 101 + 0.01


def _coarse_item(rng: random.Random) -> tuple[dict[str, float], str]:
    """A request scored as the no-model match scores are: ties among equal readings."""
    readings = rng.choice([1, 2, 2, 3])
    probabilities = {chr(65 + i): 1 / readings for i in range(readings)}
    return probabilities, rng.choice(list(probabilities))


def _coarse_run(epsilon: float) -> tuple[float, float, float]:
    """Smoothed coverage, plain coverage and the mean set size, on tied scores."""
    rng = random.Random(5)
    smoothed, plain, sizes = [], [], []
    for _ in range(200):
        scores = [nonconformity(p, [i]) for p, i in (_coarse_item(rng) for _ in range(50))]
        q_hat = conformal_quantile(scores, epsilon)
        for p, i in (_coarse_item(rng) for _ in range(50)):
            kept = prediction_set(p, scores, epsilon, _ties(p, rng))
            smoothed.append(i in kept)
            plain.append(1 - p[i] <= q_hat + 1e-12)
            sizes.append(len(kept))
    return tuple(sum(values) / len(values) for values in (smoothed, plain, sizes))


def test_with_tied_scores_the_sets_still_cover_and_shrink_as_epsilon_grows() -> None:
    strict, loose = _coarse_run(0.15), _coarse_run(0.3)
    for epsilon, (coverage, plain, _) in ((0.15, strict), (0.3, loose)):
        assert 1 - epsilon - 0.015 <= coverage < plain  # at least 1 - epsilon, less than plain
    assert loose[1] > 1 - 0.3 + 0.05  # the plain rule covers more than asked
    # smaller sets; whether the robot asks less depends on how many become one reading
    # rather than empty (measured on data by `cogtree eval clarify --calibrated`)
    assert loose[2] < strict[2] - 0.2


def _threshold(**changes) -> ConformalThreshold:
    values = {
        "backend": "llama-cpp",
        "model": "smollm2-135m",
        "epsilon": 0.15,
        "scores": [0.1, 0.2, 0.82, 0.9],
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
    assert json.loads(path.read_text())["scores"] == [0.1, 0.2, 0.82, 0.9]
    assert threshold.n == 4 and threshold.q_hat == 1.0  # rank ceil(5 * 0.85) = 5 > n


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
