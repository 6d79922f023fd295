"""The candidate readings of a request, as KnowNo's lettered multiple-choice options.

A reading is one way to take the request: one thing for each slot the request names (which
object, which landmark, which person). The readings are built from the intent frame and the
slot resolutions PostProcess found (``/turn/resolved``): every combination of the ids of the
slots that refer to the scene or a knowledge graph, the strongest :data:`MAX_READINGS` kept
(by :func:`knowledge.safety.match_scores.reading_strength`), then "none of these". The task itself
is not varied: the frame names one.

:func:`option_prompt` asks the model, in one short prompt that ends where it writes the
letter, which option the user meant.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.llm.option_scores import OptionPrompt
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.safety.conformal import tie_break
from cogtree.knowledge.safety.match_scores import match_probabilities, reading_strength, slot_share
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution
from cogtree.knowledge.wording import id_words

MAX_READINGS = 6
"""At most this many readings are offered (then "none of these")."""

MAX_COMBINATIONS = 216
"""Combinations of slot ids looked at before the strongest are kept (6 x 6 x 6)."""

LETTERS = "ABCDEFGHIJ"
"""Option letters, in order."""

NONE_OF_THESE = "none of these"
"""The last option's description: the user meant something else."""


class ReadingOption(BaseModel):
    """One lettered option: a reading (slot -> id), or "none of these" (no ids)."""

    model_config = ConfigDict(frozen=True)

    letter: str
    description: str
    ids: dict[str, str] = Field(default_factory=dict, description="slot -> id; empty for none")

    @property
    def is_none(self) -> bool:
        """Whether this is the "none of these" option."""
        return not self.ids


@dataclass(frozen=True)
class Readings:
    """The options of one request: the readings, then "none of these" (always last)."""

    task: str
    options: tuple[ReadingOption, ...]
    resolved: Mapping[str, SlotResolution]
    """The referring slots' resolutions the readings were built from."""

    @property
    def letters(self) -> tuple[str, ...]:
        """Every option's letter, "none of these" last."""
        return tuple(option.letter for option in self.options)

    @property
    def none_letter(self) -> str:
        """The letter of "none of these"."""
        return self.options[-1].letter

    @property
    def readings(self) -> tuple[ReadingOption, ...]:
        """The options that are readings (not "none of these")."""
        return self.options[:-1]

    @property
    def slots(self) -> list[str]:
        """The slots the readings name."""
        return list(dict.fromkeys(slot for option in self.readings for slot in option.ids))

    def match_probabilities(self) -> dict[str, float]:
        """The no-model scores: the fast path's match scores (:mod:`.match_scores`)."""
        options = {option.letter: option.ids for option in self.readings}
        return match_probabilities(options, self.none_letter, self.resolved)

    def tie_breaks(self, utterance: str) -> dict[str, float]:
        """Letter -> the option's conformal tie-break, fixed by the request and the option."""
        said = " ".join(utterance.lower().split())
        return {option.letter: tie_break(said, option.description) for option in self.options}

    def option(self, letter: str) -> ReadingOption:
        """The option with ``letter`` (KeyError naming the letters when there is none)."""
        for option in self.options:
            if option.letter == letter:
                return option
        raise KeyError(f"no option {letter!r}; the options are {', '.join(self.letters)}")


def words_for(ident: str) -> str:
    """An id in words: ``bottled_water`` -> ``bottled water``."""
    return ident.replace("_", " ").strip()


def describe(task: str, ids: Mapping[str, str]) -> str:
    """``bring: object coke, recipient user``; ``place relative: ...`` for ``PlaceRelative``."""
    parts = ", ".join(f"{slot.replace('_', ' ')} {words_for(ident)}" for slot, ident in ids.items())
    return f"{id_words(task)}: {parts}"


def referring_slots(resolved: Mapping[str, SlotResolution]) -> dict[str, SlotResolution] | None:
    """The slots whose one said thing refers to scene or knowledge-graph ids.

    None when a slot of that kind matched nothing or names several things (no readings then).
    """
    slots: dict[str, SlotResolution] = {}
    for slot, resolution in resolved.items():
        if resolution.kind not in ("scene", "kg"):
            continue
        several_said = isinstance(resolution.said, list) and len(resolution.said) > 1
        if not resolution.ids or several_said:
            return None
        slots[slot] = resolution
    return slots


def strongest_ids(resolution: SlotResolution) -> list[str]:
    """The slot's candidate ids, the strongest match first (ties in their resolved order)."""
    ids = list(dict.fromkeys(resolution.ids))
    return sorted(ids, key=lambda ident: -slot_share(resolution, ident))


def candidate_readings(
    frame: IntentFrame | None, resolved: Mapping[str, SlotResolution]
) -> Readings | None:
    """The options of a one-task request, or None when there are no readings to offer.

    None: no frame or task, a request of several steps, a referring slot that matched
    nothing or names several things, or no referring slot at all.
    """
    if frame is None or frame.task is None or frame.steps:
        return None
    slots = referring_slots(resolved)
    if not slots:
        return None
    names = list(slots)
    strongest_first = [strongest_ids(slots[name]) for name in names]
    # Each slot's strongest id first: the cut below keeps the strongest combination.
    combos = itertools.islice(itertools.product(*strongest_first), MAX_COMBINATIONS)
    readings = [dict(zip(names, combo, strict=True)) for combo in combos]
    readings.sort(key=lambda ids: -reading_strength(ids, slots))
    kept = readings[:MAX_READINGS]
    options = [
        ReadingOption(letter=LETTERS[index], description=describe(frame.task, ids), ids=ids)
        for index, ids in enumerate(kept)
    ]
    options.append(ReadingOption(letter=LETTERS[len(kept)], description=NONE_OF_THESE))
    return Readings(task=frame.task, options=tuple(options), resolved=slots)


def option_prompt(utterance: str, readings: Readings) -> OptionPrompt:
    """One short multiple-choice prompt; it ends where the model writes the letter."""
    lines = [f"{option.letter}) {option.description}" for option in readings.options]
    system = (
        "You are an assistive robot in a home. A person asked you to do something. Pick the "
        "option that says what the person meant. Answer with one letter."
    )
    user = "\n".join(
        [
            f"Request: {utterance.strip()!r}",
            "Options:",
            *lines,
            "Which option did the person mean? Answer with the letter only.",
            "Answer:",
        ]
    )
    return OptionPrompt(
        messages=(Message(role="system", content=system), Message(role="user", content=user)),
        letters=readings.letters,
    )


def narrowed(
    resolved: Mapping[str, SlotResolution], options: Sequence[ReadingOption]
) -> dict[str, SlotResolution]:
    """``resolved`` with each read slot's ids cut to those the ``options`` name (in order)."""
    result = dict(resolved)
    for slot, resolution in resolved.items():
        ids = list(dict.fromkeys(o.ids[slot] for o in options if slot in o.ids))
        if not ids:
            continue
        reasons = [
            reason for reason in resolution.reasons if any(f"-> {i}:" in reason for i in ids)
        ]
        result[slot] = resolution.model_copy(update={"ids": ids, "reasons": reasons})
    return result


Outcome = Literal["act", "ask", "uncalibrated"]
"""``act`` on the one reading of the set; ``ask`` the user; ``uncalibrated``: the threshold
was refused, the gate decides as it would without one."""


class CalibratedReadings(BaseModel):
    """What the calibrated step saw and decided (``/turn/readings``; shown in the rationale)."""

    options: list[ReadingOption]
    probabilities: dict[str, float] = Field(description="letter -> probability")
    backend: str
    model: str
    epsilon: float | None = None
    q_hat: float | None = None
    p_values: dict[str, float] = Field(
        default_factory=dict, description="letter -> conformal p-value (kept when > epsilon)"
    )
    kept: list[str] = Field(default_factory=list, description="the prediction set (letters)")
    outcome: Outcome
    reason: str

    def lines(self) -> list[str]:
        """The rationale: options with probabilities, threshold, set and outcome."""
        shown = "; ".join(
            f"{o.letter}) {o.description} p={self.probabilities.get(o.letter, 0.0):.2f}"
            + (f" (conformal {self.p_values[o.letter]:.2f})" if o.letter in self.p_values else "")
            for o in self.options
        )
        threshold = (
            f"epsilon {self.epsilon:g}, q_hat={self.q_hat:.3f}: keep a conformal p-value "
            f"> {self.epsilon:g}"
            if self.q_hat is not None and self.epsilon is not None
            else "no threshold"
        )
        kept = ", ".join(self.kept) or "empty"
        return [
            f"calibrated options ({self.backend}, {self.model}): {shown}",
            f"{threshold}; set: {kept} -> {self.outcome}: {self.reason}",
        ]
