"""Success claims: the sentences of a reply that say the robot did the task.

A sentence claims success when it says the robot did it ("I brought the bottle to the bedroom
table", "I got the form signed by lena", "I got it done", "Done: ...") and does not negate it
("I could not bring ..."). The physical task's outcome sentences ("Done by me: ...", "Not
done: ...", read from the belief by :mod:`skills.execution.outcome`) state facts one by one and are
not task-level claims. Respond refuses a success claim the plan evidence does not back, and
ReActReport one the belief does not back in a ReAct episode's final reply (both with
:func:`unbacked`); the bench counts the ones the ground truth contradicts
(:mod:`evaluation.scenarios.claims`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

SUCCESS = re.compile(
    r"\b(?:I|we)\s+(?:have\s+|'ve\s+)?(?:brought|delivered|got|put|placed|took|moved|handed|"
    r"gave|opened|closed|switched|turned|filled|poured|wiped|cleaned|threw|disposed|had|"
    r"borrowed|fetched|carried|set(?!\s+aside)|prepared|finished|completed|did)\b|"
    r"\b(?:I|we)\s*(?:have|'ve)\s+(?:now\s+|already\s+)?done\b|^\s*done\s*[:.!]",
    re.IGNORECASE,
)
"""A sentence that says the robot did the task."""

NEGATED = re.compile(
    r"\b(?:could\s*n[o']t|cannot|can't|did\s*n[o']t|didn't|not\s+done|unable|failed|"
    r"was\s+not|wasn't|never|not\s+yet)\b",
    re.IGNORECASE,
)
"""Words that turn a success sentence into one about what was not done."""

OUTCOME_PREFIXES = ("done by ", "not done", "already so", "planned at first", "steps run")
"""Sentences of the physical task's outcome report (facts read from the belief)."""

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def success_sentences(reply: str, *, reports: bool = True) -> list[str]:
    """The sentences of ``reply`` that say the robot did the task.

    ``reports``: the outcome report's own sentences (:data:`OUTCOME_PREFIXES`) are facts, not
    claims; pass False for text a model wrote, which may borrow their words.
    """
    found = []
    for sentence in _SENTENCE.split(reply.strip()):
        lowered = sentence.strip().lower()
        if reports and lowered.startswith(OUTCOME_PREFIXES):
            continue
        if SUCCESS.search(sentence) and not NEGATED.search(sentence):
            found.append(sentence.strip())
    return found


def mentions(text: str, form: str) -> bool:
    """Whether ``text`` names ``form`` (an id or a label) as a whole word, in any case."""
    return bool(form) and re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text, re.I) is not None


def unbacked(claims: Iterable[str], *, done: bool, unclaimed: Collection[str]) -> list[str]:
    """The ``claims`` (success sentences) the outcome does not back.

    Every one when the task was not ``done`` (by the robot or the people it asked); else
    those that name one of ``unclaimed`` (ids and labels of what the robot may not claim as
    done: "signed by lena" when Carlos signed).
    """
    if not done:
        return list(claims)
    return [claim for claim in claims if any(mentions(claim, form) for form in unclaimed)]
