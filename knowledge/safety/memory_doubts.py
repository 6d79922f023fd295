"""Safety rules for memory: taking a fact back, or lifting a constraint, waits for a yes.

"I'm no longer allergic to peanuts" withdraws a fact the robot relies on to keep the user
safe. :func:`withdrawal_doubts` raises a doubt on such a request, so the readiness gate asks
the user to confirm (and never lets the model Proceed) until the user says an explicit yes to
that question; only then does the memory keep the withdrawal (:mod:`knowledge.memory.polarity`
refuses an unconfirmed one whatever the tree does).

"Actually I like peanuts now" says no "no longer", yet would lift the allergy the memory holds
on that food. :func:`lifting_doubts` compares what the request would store with what the
memory believes, by the revision rule's own test (:func:`knowledge.memory.revision.lifts`),
and raises the same kind of doubt; the memory keeps the lift only once confirmed.
"""

from __future__ import annotations

import re

from cogtree.knowledge.memory.model import ClaimsError, Fact, task_claims
from cogtree.knowledge.memory.polarity import request_stance
from cogtree.knowledge.memory.revision import lifts
from cogtree.knowledge.safety.doubts import SafetyDoubt, SafetyRequest

KEPT_TOPICS = re.compile(
    r"\b(allerg\w*|intoleran\w*|coeliac|celiac|diabet\w*|medic\w*|pills?|tablets?|insulin|"
    r"vegan|vegetarian|pescatarian|diet|like|love|hate|prefer|favou?rite|eat|drink|name|"
    r"avoid|mind)\b",
    re.IGNORECASE,
)
"""What the memory keeps about a person: what takes a fact about them back."""

WITHDRAWS_A_FACT = "takes back a fact the robot remembers"
"""The name of the doubt (the question and the rationale quote it)."""


def withdrawal_doubts(request: SafetyRequest) -> list[SafetyDoubt]:
    """A doubt when the request takes back something the memory keeps about the user."""
    if request_stance(request.said) != "retracts":
        return []
    for text in request.said:
        match = KEPT_TOPICS.search(text)
        if match:
            return [SafetyDoubt(WITHDRAWS_A_FACT, match.group(0))]
    return []


LIFTS_A_CONSTRAINT = "lifts a constraint the robot keeps"
"""The name of the doubt of :func:`lifting_doubts` (the question quotes the constraint)."""


def lifting_doubts(request: SafetyRequest) -> list[SafetyDoubt]:
    """A doubt when what the request would store lifts a hard constraint the memory believes.

    Reads the request's task (its claims) and the working memory; nothing without either, or
    for a retraction (:func:`withdrawal_doubts` asks about that one). The doubt quotes the
    constraint ("The user is allergic to peanuts"), so the question names what would change.
    """
    if request.task is None or request.memory is None:
        return []
    if request_stance(request.said) == "retracts":
        return []
    try:
        claims = task_claims(request.task)
    except ClaimsError:
        return []
    memory = request.memory
    believed: list[Fact] = [*memory.facts]
    believed += [recall.fact for recall in memory.recalled if not recall.superseded]
    held = {fact.key: fact for fact in believed if fact.holds and fact.kind == "hard_constraint"}
    for claim in claims:
        constraint = held.get(claim.key)
        if constraint is not None and lifts(claim, constraint):
            return [SafetyDoubt(LIFTS_A_CONSTRAINT, constraint.text)]
    return []
