"""A safety rule for memory: taking a fact back waits for the user's explicit yes.

"I'm no longer allergic to peanuts" withdraws a fact the robot relies on to keep the user
safe. :func:`withdrawal_doubts` raises a doubt on such a request, so the readiness gate asks
the user to confirm (and never lets the model Proceed) until the user says an explicit yes to
that question; only then does the memory keep the withdrawal (:mod:`knowledge.memory.polarity`
refuses an unconfirmed one whatever the tree does).
"""

from __future__ import annotations

import re

from cogtree.knowledge.memory.polarity import request_stance
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
