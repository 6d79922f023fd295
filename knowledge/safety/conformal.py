"""Split conformal prediction over multiple-choice scores (KnowNo, Ren et al. 2023), ties broken.

Calibration: for each calibration item, the nonconformity score is ``1 - p(intended
option)``; the calibration scores are kept. Test: an option's conformal p-value
(:func:`p_value`) counts the calibration scores above the option's own, the request itself,
and a share ``u`` in [0, 1) of the calibration scores equal to it; :func:`prediction_set`
keeps every option whose p-value exceeds ``epsilon``. When calibration and test items are
exchangeable and ``u`` is independent of them, the set holds the intended option with
probability at least ``1 - epsilon`` (marginal coverage, over requests, not for each request).

Why the tie-break: scores that take a handful of values (the no-model match scores are 1/2,
1/3, ...) make the plain rule (keep a score up to ``q_hat``, :func:`conformal_quantile`) keep
every tied option whatever ``epsilon`` is in a wide band, covering more than asked. Counting
only a share ``u`` of the tied calibration scores (the smoothed conformal predictor of Vovk et
al., with the request still counted in full, so the guarantee stays "at least") spends some of
the error the user allowed. Each option gets its own ``u``, a hash of the request and the
option (:func:`tie_break`): the same request always gives the same set, and readings the
scorer cannot tell apart may be kept or dropped one by one. The set is always within the
plain one: no option whose score exceeds ``q_hat`` enters; with untied scores the two agree.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence

SCORE_TOLERANCE = 1e-9
"""Scores this close are one score (1 - 2/3 computed two ways is one score)."""


class CalibrationError(ValueError):
    """A calibration that cannot be computed: names the problem and the fix."""


def nonconformity(probabilities: Mapping[str, float], intended: Sequence[str]) -> float:
    """``1 - p`` of the intended option; with several acceptable options, of the likeliest.

    An intended option that was not offered has probability 0 (score 1).
    """
    if not intended:
        raise CalibrationError("an item needs at least one intended option to calibrate on")
    return 1.0 - max(probabilities.get(option, 0.0) for option in intended)


def check_epsilon(epsilon: float) -> None:
    """:class:`CalibrationError` unless ``0 < epsilon < 1``."""
    if not 0.0 < epsilon < 1.0:
        raise CalibrationError(f"epsilon must be between 0 and 1 (exclusive), got {epsilon}")


def conformal_quantile(scores: Sequence[float], epsilon: float) -> float:
    """``q_hat``: the ``ceil((n + 1)(1 - epsilon)) / n`` empirical quantile of ``scores``.

    The largest score an option may have and still enter a set. When that level exceeds 1
    (too few items for ``epsilon``), ``q_hat`` is 1.
    """
    check_epsilon(epsilon)
    if not scores:
        raise CalibrationError("no calibration scores: give items whose options were scored")
    n = len(scores)
    rank = math.ceil((n + 1) * (1.0 - epsilon))
    if rank > n:
        return 1.0
    return sorted(scores)[rank - 1]


def p_value(score: float, calibration: Sequence[float], u: float) -> float:
    """The conformal p-value of ``score``: (above + u * equal + 1) / (n + 1).

    ``above`` and ``equal``: the calibration scores above and equal to ``score``.
    """
    above = sum(1 for other in calibration if other > score + SCORE_TOLERANCE)
    equal = sum(1 for other in calibration if abs(other - score) <= SCORE_TOLERANCE)
    return (above + u * equal + 1) / (len(calibration) + 1)


def p_values(
    probabilities: Mapping[str, float],
    calibration: Sequence[float],
    tie_breaks: Mapping[str, float],
) -> dict[str, float]:
    """Option -> its p-value (score ``1 - p``, tie-break ``tie_breaks[option]``)."""
    if not calibration:
        raise CalibrationError("no calibration scores: give items whose options were scored")
    return {
        option: p_value(1.0 - p, calibration, tie_breaks[option])
        for option, p in probabilities.items()
    }


def prediction_set(
    probabilities: Mapping[str, float],
    calibration: Sequence[float],
    epsilon: float,
    tie_breaks: Mapping[str, float],
) -> list[str]:
    """The options whose p-value exceeds ``epsilon``, likeliest first."""
    return kept_options(probabilities, p_values(probabilities, calibration, tie_breaks), epsilon)


def kept_options(
    probabilities: Mapping[str, float], values: Mapping[str, float], epsilon: float
) -> list[str]:
    """The options whose p-value in ``values`` exceeds ``epsilon``, likeliest first."""
    check_epsilon(epsilon)
    kept = [option for option in probabilities if values[option] > epsilon]
    return sorted(kept, key=lambda option: (-probabilities[option], option))


def tie_break(*parts: str) -> float:
    """A number in [0, 1) fixed by ``parts`` (the request, the option): a SHA-256 hash."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64
