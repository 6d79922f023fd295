"""Whose condition a statement gives: the speaker's, or someone else's ("my son is allergic").

"My son is allergic to peanuts" states the son's allergy, not the speaker's. English puts who
has a condition in the subject of the clause that gives it: a noun phrase before the verb
that links it to the condition ("is allergic", "has a nut allergy", "can't eat", "doesn't
like"). :func:`someone_else` finds such a subject when it is not the speaker: a possessive
noun phrase ("my son", "our guest", "my mother-in-law") or a third-person pronoun ("she"),
and :func:`speaks_of_self` whether the speaker also says something of themselves ("my son
and I are allergic", "me too"). A possessive names a person only when its noun is a word for
someone by who they are to the speaker (:func:`person_words`, the language layer's ``people``
groups): "my daily targets are 2000 kcal" and "my diet is vegan" name no one.
"""

from __future__ import annotations

import re
from functools import cache

from cogtree.knowledge.language.term_expansion import person_groups
from cogtree.knowledge.wording import singular

_LINK = (
    r"(?:is|are|was|'s|has|have|had|gets|got|can'?t|cannot|can not|could ?n'?t|does ?n'?t|"
    r"does not|won'?t|will not|never|likes|loves|hates|eats|follows|avoids|must ?n'?t)"
)
"""A verb that links a subject to what holds of them (a condition, a liking, a diet)."""

_POSSESSED = r"(?:my|our)\s+(?P<noun>[a-z]+)(?:[- ]in[- ]law)?"
"""A noun phrase the speaker possesses: "my son", "our guest", "my daily" (a person or not)."""

_SUBJECT = re.compile(
    rf"(?:^|[,.;:!?]\s*|\b(?:and|but|that|because|since)\s+)"
    rf"(?P<who>{_POSSESSED}|he|she|they)\s+(?:\w+\s+)?{_LINK}\b",
    re.IGNORECASE,
)
"""A clause whose subject is someone other than the speaker."""

_SELF = re.compile(r"\b(i|i'm|i've|i'd|me|myself|we|we're|us)\b", re.IGNORECASE)
"""The speaker as a subject or object: "I", "me too", "we"."""


_POSSESSIVE = re.compile(rf"{_POSSESSED}", re.IGNORECASE)


@cache
def person_words() -> frozenset[str]:
    """One-word nouns for someone by who they are to another (son, mum, flatmate, guest)."""
    return frozenset(word for group in person_groups() for word in group if " " not in word)


def names_someone(phrase: str) -> bool:
    """Whether ``phrase`` names a person: "my son", "our guests", "Tom"; not "my daily".

    A possessive ("my X", "our X") names someone when X is a word for a person
    (:func:`person_words`, singular or plural); any other phrase is taken as a name.
    """
    match = _POSSESSIVE.fullmatch(" ".join(phrase.split()))
    if match is None:
        return True
    noun = match.group("noun").lower()
    return noun in person_words() or singular(noun) in person_words()


def someone_else(text: str) -> str | None:
    """Who the first clause of ``text`` said of someone else is about ("my son"), lowercased.

    None when no clause has another person as its subject (the speaker's own statement).
    """
    for match in _SUBJECT.finditer(text):
        who = " ".join(match.group("who").lower().split())
        if names_someone(who):
            return who
    return None


def speaks_of_self(text: str) -> bool:
    """Whether ``text`` says something of the speaker too ("I", "me", "we")."""
    return _SELF.search(text) is not None
