"""The calibrated ask-or-act step of the readiness gate (conformal prediction, KnowNo).

When the ``inner_speech`` module's settings name a ``calibration`` file (``cogtree
calibrate``), the readiness gate offers the request's candidate readings
(:mod:`knowledge.safety.candidate_readings`) to a scorer: the module's model, by the next-token
probability of each option's letter, or with no model the fast path's match scores
(:mod:`knowledge.safety.match_scores`). The prediction set is every option whose conformal p-value
against the calibration scores exceeds epsilon (smoothed split conformal,
:mod:`knowledge.safety.conformal`; each option's tie-break is fixed by the request and the option):

- one reading -> ``act``: the gate's checks run on that reading alone (every guard and
  hazard rule still applies);
- several readings -> ``ask``: a question naming exactly the readings of the set;
- empty, "none of these" alone, one reading with "none of these", or no usable scores
  (timeout, no log-probabilities, any model error) -> ``ask``: what the user means.

A threshold made with another backend or model is refused (logged for the operator, noted
in the rationale, never said to the user) and the gate decides uncalibrated.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path

from cogtree.knowledge.llm.client import LLMClient, PendingCall
from cogtree.knowledge.llm.errors import LLMError
from cogtree.knowledge.llm.option_scores import OptionScores
from cogtree.knowledge.llm.types import CallRecord
from cogtree.knowledge.safety.candidate_readings import (
    CalibratedReadings,
    Outcome,
    Readings,
    candidate_readings,
    narrowed,
    option_prompt,
)
from cogtree.knowledge.safety.conformal import CalibrationError, kept_options
from cogtree.knowledge.safety.conformal_threshold import ConformalThreshold, load_threshold
from cogtree.knowledge.safety.match_scores import NO_MODEL
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CalibratedChoice:
    """What the gate does with the set: the readings it keeps and whether it must ask."""

    readings: CalibratedReadings
    resolved: dict[str, SlotResolution]
    """The resolutions cut to the readings of the set (act, or ask naming them)."""
    ask_slots: list[str]
    """The slots to ask about when the outcome is ``ask``."""
    call: CallRecord | None = None
    """The scoring call, when a model scored the options."""

    @property
    def asks(self) -> bool:
        """Whether the gate must Clarify."""
        return self.readings.outcome == "ask"


class CalibratedStep:
    """The calibrated step of one gate: offers the readings, scores them, takes the set.

    :meth:`begin` is called once per run on the tick thread; a model's scores arrive later
    through :meth:`scored` (or :meth:`failed`), which the gate calls from its
    ``prepared`` / ``preparation_failed`` hooks.
    """

    def __init__(self, client: LLMClient, module: str, threshold: ConformalThreshold) -> None:
        self.client = client
        self.module = module
        self.threshold = threshold
        self._readings: Readings | None = None
        self._resolved: dict[str, SlotResolution] = {}
        self._utterance = ""

    def begin(
        self, utterance: str, frame: IntentFrame | None, resolved: dict[str, SlotResolution]
    ) -> CalibratedChoice | PendingCall | None:
        """The choice now (no model), the scores' future (a model), or None (no readings)."""
        self._readings = candidate_readings(frame, resolved)
        self._resolved = dict(resolved)
        self._utterance = utterance
        if self._readings is None:
            return None
        if self.client.backend_for(self.module).name == "none":
            return match_choice(utterance, self._readings, self._resolved, self.threshold)
        return submit_scores(self.client, self.module, utterance, self._readings)

    def scored(self, scores: OptionScores) -> CalibratedChoice:
        """The choice from the model's scores."""
        assert self._readings is not None, "scored() before begin() offered readings"
        choice = choose(
            self._utterance,
            self._readings,
            scores.probabilities,
            self._resolved,
            self.threshold,
            backend=scores.backend,
            model=scores.model,
        )
        return replace(choice, call=scores.record)

    def failed(self, error: Exception) -> CalibratedChoice:
        """The safe decision when scoring failed: ask, naming why."""
        assert self._readings is not None, "failed() before begin() offered readings"
        backend = self.client.backend_for(self.module).name
        log.warning("readiness gate: no option scores from %s (%s); asking", backend, error)
        choice = without_scores(self._readings, self._resolved, backend, str(error))
        record = error.record if isinstance(error, LLMError) else None
        return replace(choice, call=record)


def calibrated_step(client: LLMClient, module: str) -> CalibratedStep | None:
    """The calibrated step when the module's settings name a usable threshold, else None."""
    threshold = configured_threshold(client, module)
    return CalibratedStep(client, module, threshold) if threshold is not None else None


def configured_threshold(client: LLMClient, module: str) -> ConformalThreshold | None:
    """The threshold the module's ``calibration`` setting names, or None (logged) without one."""
    path = client.settings_for(module).calibration
    if path is None:
        return None
    try:
        return load_threshold(Path(path))
    except CalibrationError as error:
        log.warning("%s: %s; the readiness gate decides uncalibrated", module, error)
        return None


def choose(
    utterance: str,
    readings: Readings,
    probabilities: dict[str, float],
    resolved: dict[str, SlotResolution],
    threshold: ConformalThreshold,
    *,
    backend: str,
    model: str,
) -> CalibratedChoice:
    """The prediction set of ``probabilities`` under ``threshold``, and what it means.

    ``utterance`` fixes the options' tie-breaks (:meth:`Readings.tie_breaks`).
    """
    seen = {"options": list(readings.options), "probabilities": probabilities}
    refusal = threshold.refusal(backend, model)
    if refusal is not None:
        log.warning("readiness gate: %s", refusal)
        found = CalibratedReadings(
            **seen, backend=backend, model=model, outcome="uncalibrated", reason=refusal
        )
        return CalibratedChoice(found, dict(resolved), [])
    values = threshold.p_values(probabilities, readings.tie_breaks(utterance))
    kept = kept_options(probabilities, values, threshold.epsilon)
    chosen = [readings.option(letter) for letter in kept if letter != readings.none_letter]
    if len(kept) == 1 and len(chosen) == 1:
        outcome: Outcome = "act"
        reason = "one reading in the set: acting on it if every check allows"
    elif len(chosen) > 1:
        outcome, reason = "ask", "several readings in the set: asking which"
    else:
        outcome, reason = "ask", "no single reading in the set: asking what the user means"
    found = CalibratedReadings(
        **seen,
        backend=backend,
        model=model,
        epsilon=threshold.epsilon,
        q_hat=threshold.q_hat,
        p_values=values,
        kept=kept,
        outcome=outcome,
        reason=reason,
    )
    cut = narrowed(resolved, chosen) if outcome == "act" or len(chosen) > 1 else dict(resolved)
    return CalibratedChoice(found, cut, readings.slots)


def without_scores(
    readings: Readings, resolved: dict[str, SlotResolution], backend: str, why: str
) -> CalibratedChoice:
    """The safe decision when the model gave no usable scores: ask, saying why."""
    found = CalibratedReadings(
        options=list(readings.options),
        probabilities={},
        backend=backend,
        model="",
        outcome="ask",
        reason=f"no scores ({why}): asking",
    )
    return CalibratedChoice(found, dict(resolved), readings.slots)


def match_choice(
    utterance: str,
    readings: Readings,
    resolved: dict[str, SlotResolution],
    threshold: ConformalThreshold,
) -> CalibratedChoice:
    """The choice with no model: the fast path's match scores play the model's role."""
    probabilities = readings.match_probabilities()
    return choose(
        utterance, readings, probabilities, resolved, threshold, backend="none", model=NO_MODEL
    )


def submit_scores(
    client: LLMClient, module: str, utterance: str, readings: Readings
) -> PendingCall:
    """Score the options on a worker; the call carries the module's ``timeout_s`` deadline."""
    return client.submit_scores(module, option_prompt(utterance, readings))
