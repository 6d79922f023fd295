"""Whose condition a statement gives: the speaker's, or someone else's ("my son is allergic").

"My son is allergic to peanuts" states the son's allergy, not the speaker's. English puts who
has a condition in the subject of the clause that gives it: a noun phrase before the verb
that links it to the condition ("is allergic", "has a nut allergy", "can't eat", "doesn't
like"). :func:`someone_else` finds such a subject when it is not the speaker: a possessive
noun phrase ("my son", "our guest", "my mother-in-law") or a third-person pronoun ("she"),
and :func:`speaks_of_self` whether the speaker also says something of themselves ("my son
and I are allergic", "me too").
"""

from __future__ import annotations

import re

_LINK = (
    r"(?:is|are|was|'s|has|have|had|gets|got|can'?t|cannot|can not|could ?n'?t|does ?n'?t|"
    r"does not|won'?t|will not|never|likes|loves|hates|eats|follows|avoids|must ?n'?t)"
)
"""A verb that links a subject to what holds of them (a condition, a liking, a diet)."""

_POSSESSED = r"(?:my|our)\s+(?!name\b|names\b)[a-z]+(?:[- ]in[- ]law)?"
"""A noun phrase the speaker possesses: "my son", "our guest" ("my name" is the speaker's)."""

_SUBJECT = re.compile(
    rf"(?:^|[,.;:!?]\s*|\b(?:and|but|that|because|since)\s+)"
    rf"(?P<who>{_POSSESSED}|he|she|they)\s+(?:\w+\s+)?{_LINK}\b",
    re.IGNORECASE,
)
"""A clause whose subject is someone other than the speaker."""

_SELF = re.compile(r"\b(i|i'm|i've|i'd|me|myself|we|we're|us)\b", re.IGNORECASE)
"""The speaker as a subject or object: "I", "me too", "we"."""


def someone_else(text: str) -> str | None:
    """Who the first clause of ``text`` said of someone else is about ("my son"), lowercased.

    None when no clause has another person as its subject (the speaker's own statement).
    """
    match = _SUBJECT.search(text)
    return " ".join(match.group("who").lower().split()) if match else None


def speaks_of_self(text: str) -> bool:
    """Whether ``text`` says something of the speaker too ("I", "me", "we")."""
    return _SELF.search(text) is not None
