"""Split conformal prediction over multiple-choice scores (KnowNo, Ren et al. 2023).

Calibration: for each calibration item, the nonconformity score is ``1 - p(intended
option)``; :func:`conformal_quantile` is the ``ceil((n + 1)(1 - epsilon)) / n`` empirical
quantile of those scores (``q_hat``). Test: :func:`prediction_set` keeps every option whose
probability is at least ``1 - q_hat``. When calibration and test items are exchangeable, the
set holds the intended option with probability at least ``1 - epsilon`` (marginal coverage,
over requests, not for each request).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


class CalibrationError(ValueError):
    """A calibration that cannot be computed: names the problem and the fix."""


def nonconformity(probabilities: Mapping[str, float], intended: Sequence[str]) -> float:
    """``1 - p`` of the intended option; with several acceptable options, of the likeliest.

    An intended option that was not offered has probability 0 (score 1).
    """
    if not intended:
        raise CalibrationError("an item needs at least one intended option to calibrate on")
    return 1.0 - max(probabilities.get(option, 0.0) for option in intended)


def conformal_quantile(scores: Sequence[float], epsilon: float) -> float:
    """``q_hat``: the ``ceil((n + 1)(1 - epsilon)) / n`` empirical quantile of ``scores``.

    When that level exceeds 1 (too few items for ``epsilon``), ``q_hat`` is 1: every option
    enters every set, which keeps the guarantee and asks every time.
    """
    if not 0.0 < epsilon < 1.0:
        raise CalibrationError(f"epsilon must be between 0 and 1 (exclusive), got {epsilon}")
    if not scores:
        raise CalibrationError("no calibration scores: give items whose options were scored")
    n = len(scores)
    rank = math.ceil((n + 1) * (1.0 - epsilon))
    if rank > n:
        return 1.0
    return sorted(scores)[rank - 1]


def prediction_set(probabilities: Mapping[str, float], q_hat: float) -> list[str]:
    """The options whose probability is at least ``1 - q_hat``, likeliest first."""
    floor = 1.0 - q_hat
    kept = [option for option, p in probabilities.items() if p >= floor - 1e-12]
    return sorted(kept, key=lambda option: -probabilities[option])
