"""Success claims: the sentences of a reply that say the robot did the task.

A sentence claims success when it says the robot did it ("I brought the bottle to the bedroom
table", "I got the form signed by lena", "I got it done", "Done: ...") and does not negate it
("I could not bring ..."). The physical task's outcome sentences ("Done by me: ...", "Not
done: ...", read from the belief by :mod:`skills.outcome`) state facts one by one and are not
task-level claims. Respond refuses a success claim the plan evidence does not back; the bench
counts the ones the ground truth contradicts (:mod:`trees.evaluation.claims`).
"""

from __future__ import annotations

import re

SUCCESS = re.compile(
    r"\b(?:I|we)\s+(?:have\s+|'ve\s+)?(?:brought|delivered|got|put|placed|took|moved|handed|"
    r"gave|opened|closed|switched|turned|filled|poured|wiped|cleaned|threw|disposed|had|"
    r"borrowed|fetched|carried|set(?!\s+aside)|prepared|finished|completed|did)\b|^\s*done\s*[:.!]",
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


def success_sentences(reply: str) -> list[str]:
    """The sentences of ``reply`` that say the robot did the task."""
    found = []
    for sentence in _SENTENCE.split(reply.strip()):
        lowered = sentence.strip().lower()
        if lowered.startswith(OUTCOME_PREFIXES):
            continue
        if SUCCESS.search(sentence) and not NEGATED.search(sentence):
            found.append(sentence.strip())
    return found
