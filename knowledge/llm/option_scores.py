"""Lettered options scored by a model's next-token log-probabilities (KnowNo's multiple choice).

A caller offers a prompt that ends where the model must write one letter (``A``, ``B``, …)
and the letters it may write. A backend that can read its next-token log-probabilities
implements :class:`LetterScoringBackend`; :meth:`knowledge.llm.client.LLMClient.score_options`
turns its answer into :class:`OptionScores` (probabilities over the offered letters only).
A backend that cannot (``none``, a server without log-probabilities) raises
:class:`LogprobsUnavailableError`, and the caller takes its safe decision.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from cogtree.knowledge.llm.errors import LLMUnavailableError
from cogtree.knowledge.llm.types import CallRecord, Message, ModuleSettings, Outcome

LETTER_SPELLINGS = ("{}", " {}")
"""How a letter may be written as the next token: ``A`` right after the prompt, or `` A``."""


@dataclass(frozen=True)
class OptionPrompt:
    """Messages whose answer is one letter, and the letters the answer may be."""

    messages: tuple[Message, ...]
    letters: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.letters or len(set(self.letters)) != len(self.letters):
            raise ValueError(f"an option prompt needs distinct letters, got {self.letters!r}")


@dataclass(frozen=True)
class LetterScores:
    """What a backend read: the natural-log probability of each letter as the next token.

    A letter the backend did not see among its top candidates is absent (probability ~0).
    """

    logprobs: Mapping[str, float]
    model: str
    prompt_tokens: int
    tokens_estimated: bool


@runtime_checkable
class LetterScoringBackend(Protocol):
    """A backend that can score the next token of a prompt (llama-cpp, Ollama with logprobs)."""

    name: str

    def score_letters(
        self, prompt: OptionPrompt, settings: ModuleSettings, cancel: threading.Event
    ) -> LetterScores:
        """Read the log-probability of each of ``prompt.letters`` as the next token (blocking).

        Raises the errors of :mod:`knowledge.llm.errors`, and :class:`LogprobsUnavailableError`
        when this backend or its server gives no log-probabilities.
        """
        ...


class LogprobsUnavailableError(LLMUnavailableError):
    """The backend answers, but gives no next-token log-probabilities to score options with."""

    outcome: ClassVar[Outcome] = "unavailable"


@dataclass(frozen=True)
class OptionScores:
    """Probabilities of the offered letters (they sum to 1), and the call that read them."""

    probabilities: dict[str, float]
    backend: str
    model: str
    record: CallRecord


def letter_probabilities(logprobs: Mapping[str, float], letters: Sequence[str]) -> dict[str, float]:
    """Softmax of ``logprobs`` over ``letters`` only; a missing letter gets probability 0.

    When no offered letter was seen at all, every letter gets the same share: the model said
    nothing about them, which is the least informative answer, not a confident one.
    """
    seen = {letter: logprobs[letter] for letter in letters if letter in logprobs}
    if not seen:
        return {letter: 1.0 / len(letters) for letter in letters}
    top = max(seen.values())
    weights = {letter: math.exp(value - top) for letter, value in seen.items()}
    total = sum(weights.values())
    return {letter: weights.get(letter, 0.0) / total for letter in letters}


def combine_spellings(
    token_logprobs: Iterable[tuple[str, float]], letters: Sequence[str]
) -> dict[str, float]:
    """Each letter's log-probability from the next-token candidates a backend read.

    ``token_logprobs`` pairs a token's text with its log-probability. A letter's spellings
    (:data:`LETTER_SPELLINGS`) are different tokens for the same answer, so their
    probabilities add (log-sum-exp). A token seen twice counts once; a letter none of whose
    spellings was seen is absent.
    """
    seen = dict(reversed(list(token_logprobs)))  # the first value of a repeated token wins
    combined = {}
    for letter in letters:
        values = [seen[s.format(letter)] for s in LETTER_SPELLINGS if s.format(letter) in seen]
        if values:
            top = max(values)
            combined[letter] = top + math.log(sum(math.exp(value - top) for value in values))
    return combined
