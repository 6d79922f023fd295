"""The data of the memory agent (JANUS): claims, facts, turn traces and the working context.

A *claim* is something a turn established, with who vouches for it: the user ``stated`` it,
the user ``confirmed`` it when the robot asked, or the robot ``inferred`` it (a guess). A
*fact* is a claim stamped with the turn, time and domain it came from; only stated or
confirmed facts are ever kept. Facts with the same *key* (their slot, or their normalised
text when they have no slot) are about the same thing and compete: see
:mod:`knowledge.memory.revision`.

Sizes are counted in characters: Python ``len`` of the text, i.e. Unicode code points.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogtree.knowledge.memory.polarity import inadmissible

FactKind = Literal["identifier", "hard_constraint", "preference", "other"]
"""What a fact is: who the user is, what must never happen, what they like, anything else."""

FactSource = Literal["stated", "confirmed", "inferred"]
"""Who vouches for a claim: the user said it, the user confirmed it, or the robot guessed."""

Polarity = Literal["positive", "negative"]
"""Whether a claim holds (``positive``) or withdraws what was held on its slot (``negative``)."""

Tier = Literal["core", "archive"]
"""Where a kept fact lives: core facts C (always in context) or the archive A (retrieved)."""

PRIORITY: MappingProxyType[FactKind, int] = MappingProxyType(
    {"identifier": 3, "hard_constraint": 2, "preference": 1, "other": 0}
)
"""Higher survives longer in core memory and wins a conflict on the same key."""

TRUSTED_SOURCES: frozenset[FactSource] = frozenset({"stated", "confirmed"})
"""The sources a fact must have to be kept; inferred claims never reach memory."""

OTHERS_SLOT = "about."
"""The slot prefix of what holds of someone other than the user (``about.son.food.peanuts``):
never the user's own constraint or preference."""

_SPACES = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """``text`` compared loosely: case-folded, whitespace collapsed, end punctuation dropped."""
    return _SPACES.sub(" ", text).strip().rstrip(".!?;,").strip().casefold()


class Claim(BaseModel):
    """Something a turn established about the user or the world, and who vouches for it.

    ``slot`` names what the claim is about (``user.name``, ``allergy.peanut``,
    ``drink.preference``); claims on the same slot compete and the winner is kept.
    ``correction`` marks an explicit correction by the user ("no, I meant ..."): it replaces
    whatever was known about the slot, even a higher-priority fact. ``polarity`` ``negative``
    marks a retraction ("I'm no longer allergic to peanuts"): it replaces the fact on its slot
    and is never a constraint or a preference itself (its text says what was withdrawn).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1, description="the claim in words, as it goes into a prompt")
    kind: FactKind = "other"
    slot: str | None = Field(None, description="what the claim is about; None: its own text")
    source: FactSource
    correction: bool = False
    polarity: Polarity = "positive"

    @field_validator("text")
    @classmethod
    def _strip_text(cls, text: str) -> str:
        stripped = text.strip()
        if not stripped:
            raise ValueError("a claim needs some text")
        return stripped

    @field_validator("slot")
    @classmethod
    def _normalise_slot(cls, slot: str | None) -> str | None:
        if slot is None:
            return None
        return normalise_text(slot) or None

    @property
    def holds(self) -> bool:
        """Whether the claim states something (positive), rather than withdrawing it."""
        return self.polarity == "positive"

    def withdrawn(self) -> Claim:
        """The withdrawal of this claim: negative, a correction, its text saying so."""
        if not self.holds:
            return self
        return self.model_copy(
            update={
                "polarity": "negative",
                "correction": True,
                "text": f"No longer true: {self.text}",
            }
        )

    @property
    def priority(self) -> int:
        """The kind's rank in :data:`PRIORITY` (identifiers highest)."""
        return PRIORITY[self.kind]

    @property
    def key(self) -> str:
        """What the claim is about: its slot, or its normalised text when it has none."""
        return f"slot:{self.slot}" if self.slot else f"text:{normalise_text(self.text)}"


class Fact(Claim):
    """A claim kept in memory, stamped with the turn, time and domain it came from."""

    turn: int = Field(ge=0)
    timestamp: float = Field(description="seconds since the epoch, from the turn's trace")
    domain: str = Field(min_length=1)


class TurnTrace(BaseModel):
    """One dialogue turn as the memory records it: what was said and what it established.

    ``turn`` is numbered by the memory on write; leave it unset.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    user: str = Field(description="what the user said")
    robot: str = Field("", description="what the robot answered")
    domain: str = Field("general", min_length=1, description="the domain the turn ran in")
    claims: tuple[Claim, ...] = Field((), description="what the turn established")
    timestamp: float = Field(default_factory=time.time, description="seconds since the epoch")
    turn: int | None = Field(None, ge=1, description="set by the memory when written")

    def facts(self) -> list[Fact]:
        """The trace's stated or confirmed claims as facts, in order.

        Guesses are left out, and so is any claim the user's words do not support
        (:func:`knowledge.memory.polarity.inadmissible`: a question, a doubt, a positive fact
        from a retraction, an unconfirmed withdrawal of a safety fact).
        """
        if self.turn is None:
            raise ValueError("the trace has no turn number yet: write it to the memory first")
        return [
            Fact(
                **claim.model_dump(),
                turn=self.turn,
                timestamp=self.timestamp,
                domain=self.domain,
            )
            for claim in self.claims
            if claim.source in TRUSTED_SOURCES and inadmissible(claim, [self.user]) is None
        ]


@dataclass(frozen=True)
class FactRecord:
    """A kept fact with its identity, its tier and, once replaced, the fact that replaced it."""

    id: int
    fact: Fact
    tier: Tier
    superseded_by: int | None = None

    @property
    def superseded(self) -> bool:
        """Whether a fact on the same key replaced this one (it is history, not belief)."""
        return self.superseded_by is not None


class Recall(BaseModel):
    """An archived fact retrieved for a request, with its cosine similarity to it."""

    model_config = ConfigDict(frozen=True)

    fact: Fact
    score: float
    superseded: bool = False


class WorkingContext(BaseModel):
    """The bounded, coherent memory a turn works with, and its rendering for a prompt.

    ``text`` never has more than ``budget_chars`` characters. ``facts`` holds the current
    core and recent facts (one per key, corrections applied), ``history`` the recent turns
    that fit (oldest first), ``recalled`` the archived facts relevant to the request (best
    first); ``omitted`` counts items that were eligible but did not fit the budget.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    budget_chars: int
    facts: tuple[Fact, ...] = ()
    history: tuple[TurnTrace, ...] = ()
    recalled: tuple[Recall, ...] = ()
    omitted: int = 0

    @property
    def chars(self) -> int:
        """The size of ``text`` in characters (code points)."""
        return len(self.text)


class ClaimsError(ValueError):
    """A task that cannot say what to remember; the message names the task and the problem."""


def task_claims(task: BaseModel) -> list[Claim]:
    """The claims of a memory_write task (its ``claims()`` method), checked.

    Raises :class:`ClaimsError` when the task has no ``claims()``, it fails, or it returns
    something other than a list of :class:`~knowledge.memory.model.Claim`.
    """
    name = type(task).__name__
    method = getattr(task, "claims", None)
    if not callable(method):
        raise ClaimsError(
            f"task {name} has no claims() method: a memory_write schema must implement "
            "claims() -> list[Claim]"
        )
    try:
        claims = method()
    except Exception as error:  # a pack's schema code may fail in any way
        raise ClaimsError(f"{name}.claims() failed: {type(error).__name__}: {error}") from error
    if not isinstance(claims, list | tuple) or not all(isinstance(c, Claim) for c in claims):
        raise ClaimsError(f"{name}.claims() must return a list of Claim, got {claims!r}")
    return list(claims)
