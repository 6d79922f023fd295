"""The conformal threshold file ``cogtree calibrate`` writes and the readiness gate reads.

It keeps the calibration scores themselves: the smoothed sets of :mod:`knowledge.safety.conformal`
need them, not only ``q_hat``. A threshold holds only for the scorer it was computed with:
:meth:`ConformalThreshold.refusal` says why a threshold must not be used with another backend
or model, and the gate then decides uncalibrated.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cogtree.knowledge.safety.conformal import (
    CalibrationError,
    conformal_quantile,
    p_values,
)


class ConformalThreshold(BaseModel):
    """The calibration scores for a target error rate ``epsilon``, and what made them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: str = Field(description="the backend that scored the options (none: match scores)")
    model: str = Field(description="the model that scored them, as the backend names it")
    epsilon: float = Field(gt=0.0, lt=1.0, description="target error rate (1 - coverage)")
    scores: list[float] = Field(
        min_length=1, description="the calibration items' nonconformity scores (1 - p), sorted"
    )
    set_sizes: dict[str, int] = Field(
        default_factory=dict, description="set size -> items, on the calibration items"
    )
    data_file: str = Field(description="the calibration file(s), comma-separated")
    data_sha256: str = Field(description="their SHA-256, to tell which data it was made on")
    created: str = Field(description="when it was computed (UTC, ISO 8601)")

    @property
    def n(self) -> int:
        """How many calibration items."""
        return len(self.scores)

    @property
    def q_hat(self) -> float:
        """The largest score that may enter a set (:func:`.conformal.conformal_quantile`)."""
        return conformal_quantile(self.scores, self.epsilon)

    def p_values(
        self, probabilities: Mapping[str, float], tie_breaks: Mapping[str, float]
    ) -> dict[str, float]:
        """Option -> its conformal p-value against these scores."""
        return p_values(probabilities, self.scores, tie_breaks)

    @field_validator("scores")
    @classmethod
    def _scores_in_0_1(cls, scores: list[float]) -> list[float]:
        """Nonconformity scores are ``1 - p``: each in [0, 1]; kept sorted."""
        bad = [score for score in scores if not 0.0 <= score <= 1.0]
        if bad:
            raise ValueError(f"scores must lie in [0, 1] (1 - a probability), got {bad[:3]}")
        return sorted(scores)

    def refusal(self, backend: str, model: str) -> str | None:
        """Why this threshold must not be used for ``backend``/``model``; None when it may."""
        if (self.backend, self.model) == (backend, model):
            return None
        return (
            f"the conformal threshold was calibrated with backend {self.backend!r}, model "
            f"{self.model!r}, but the options are scored by backend {backend!r}, model "
            f"{model!r}: deciding uncalibrated; run `cogtree calibrate FILE.jsonl --backend "
            f"{backend}` and point the inner_speech module's `calibration` at its output"
        )

    def save(self, path: Path) -> None:
        """Write the threshold as indented JSON."""
        path.write_text(self.model_dump_json(indent=2) + "\n", encoding="utf-8")


def load_threshold(path: Path) -> ConformalThreshold:
    """Read a threshold file; :class:`CalibrationError` naming the file and the problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CalibrationError(
            f"cannot read the conformal threshold {path}: {error.strerror}; "
            "write one with `cogtree calibrate`"
        ) from error
    try:
        return ConformalThreshold.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError) as error:
        raise CalibrationError(
            f"{path} is not a conformal threshold file ({error}); write it again with "
            "`cogtree calibrate`"
        ) from error


def files_sha256(paths: Sequence[Path]) -> str:
    """The SHA-256 of the files' bytes, one after the other (hex)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def utc_now() -> str:
    """The current UTC time as ISO 8601, to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()
