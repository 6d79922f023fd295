"""What a request does to memory: states a fact, takes one back, doubts one, or asks.

The memory's deterministic guard reads the user's own words, whatever a model made of them:

- ``asks``: a question ("What am I allergic to?", "do you know my name") is never a fact;
- ``hedges``: "I don't think I'm allergic to shrimp", "maybe I'm vegan" states nothing;
- ``retracts``: "I'm no longer allergic to peanuts", "not anymore", "I was wrong about ...",
  "I'm not allergic to peanuts", "I can eat milk again": the fact on that slot is withdrawn,
  its opposite never stored;
- whose it is: a constraint or liking said of someone else ("my son is allergic to peanuts")
  is never kept as the user's own (:func:`said_of_someone_else`);
- ``asserts``: anything else ("I'm allergic to peanuts", "I don't like coriander": a dislike is
  a fact of its own, not a negation).

A request said over several turns (a clarification, then "yes") is read as a whole, leaving
out the bare answers: the stance of the request is its strongest one (asks > hedges >
retracts > asserts), so no later "yes" turns a question or a doubt into a fact.

A withdrawal changes memory only with the user's explicit confirmation (the readiness gate
asks for it: :mod:`knowledge.safety.memory_doubts`), and never stores the opposite fact. A denial
that says what holds instead ("I'm not allergic to peanuts, I just don't like them") is a
correction: it asserts the new fact, which replaces the old one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, Protocol

from cogtree.knowledge.language.question_form import QUESTION_START
from cogtree.knowledge.language.subject import someone_else, speaks_of_self


class Claim(Protocol):
    """What the guard reads of a claim (:class:`knowledge.memory.model.Claim` has it)."""

    @property
    def text(self) -> str:
        """The claim in words."""
        ...

    @property
    def source(self) -> str:
        """Who vouches for it: stated, confirmed or inferred."""
        ...

    @property
    def slot(self) -> str | None:
        """What the claim is about (``food.peanuts``), if it says."""
        ...

    @property
    def holds(self) -> bool:
        """True for a positive claim, False for a withdrawal."""
        ...


_USERS_OWN = ("food.", "diet.")
"""Slots of the user's own constraints and likings (someone else's start ``about.``)."""

Stance = Literal["asserts", "retracts", "hedges", "asks"]
"""What a request does to memory (module docstring)."""

_RANK: dict[Stance, int] = {"asserts": 0, "retracts": 1, "hedges": 2, "asks": 3}

_REMEMBER_REQUEST = re.compile(
    r"\b(can|could|would|will) you (please )?(remember|note|save|write down|keep in mind|"
    r"add|record)\b",
    re.IGNORECASE,
)
"""A request to remember phrased as a question: it states what follows."""

_HEDGES = re.compile(
    r"\b(i don'?t think|i do not think|i'?m not sure|i am not sure|not sure if|maybe|perhaps|"
    r"i don'?t know|i do not know|no idea|i dunno|"
    r"possibly|probably|i guess|i suppose|i might be|i may be|might be|could be|i think i might|"
    r"i'?m not certain|i am not certain|i doubt)\b",
    re.IGNORECASE,
)
"""Words that make a statement a doubt rather than a fact."""

_RETRACTIONS = re.compile(
    r"\b(no longer|not any ?more|any ?more|i was wrong|i was mistaken|that was wrong|"
    r"that'?s wrong|not true|forget that|forget what i said|scratch that|after all|"
    r"grew out of|outgrew|stopped being|i'?m over)\b",
    re.IGNORECASE,
)
"""Words that take back something said before."""

_ENDED = re.compile(
    r"^(?!.*(\b(not|never|no)\b|n't|\bdon'?t let\b))"
    r".*\b(eat|eats|eating|have|having|drink|drinks|drinking|tolerate|tolerating)\b"
    r"[^.!?]{0,40}?\bagain\b",
    re.IGNORECASE,
)
"""Taking a food again ("I can eat milk again"): what kept the user from it has ended. Not
when a negation comes before ("I will never have prawns again" is a new constraint)."""

_DENIALS = re.compile(
    r"(\b(not|never|no|without)|n't)\s+(\w+\s+){0,3}?(allergic|allergy|allergies|intolerant|"
    r"intolerance|coeliac|celiac|diabetic|vegetarian|vegan|pescatarian|"
    r"on (any )?(medication|medicine|tablets|pills))\b",
    re.IGNORECASE,
)
"""A negated condition: "I'm not allergic", "I don't have a nut allergy", "not vegan"."""

_REPLACEMENT = re.compile(
    r"[,;.]\s*(but |and )?(i )?(just|only|rather|instead|i meant|meant|simply)\b",
    re.IGNORECASE,
)
"""A correction that says what holds instead ("not allergic, I just don't like them")."""

_BARE_ANSWER = re.compile(
    r"^\s*(yes|yeah|yep|no|nope|ok|okay|sure|please|thanks|thank you|i confirm|confirmed|"
    r"go ahead|do it|that'?s right|correct)([\s,.!]+(yes|please|go ahead|do it|thanks|"
    r"thank you|i confirm|confirmed|i'?m sure))*[\s.!]*$",
    re.IGNORECASE,
)
"""An answer to the robot's question that adds no statement of its own."""


def stance_of(text: str) -> Stance:
    """The stance of one utterance (module docstring)."""
    said = text.strip()
    if not said:
        return "asserts"
    remember = _REMEMBER_REQUEST.search(said)
    if remember is not None:
        said = said[remember.end() :]
    elif said.rstrip().endswith("?") or QUESTION_START.search(said):
        return "asks"
    if _HEDGES.search(said):
        return "hedges"
    taken_back = _RETRACTIONS.search(said) or _DENIALS.search(said) or _ENDED.search(said)
    if taken_back and not _REPLACEMENT.search(said):
        return "retracts"
    return "asserts"


def request_stance(said: Sequence[str]) -> Stance:
    """The strongest stance among the utterances of one request, bare answers left out."""
    stances = [stance_of(text) for text in said if text.strip() and not is_bare_answer(text)]
    return max(stances, key=_RANK.__getitem__, default="asserts")


def is_bare_answer(text: str) -> bool:
    """Whether ``text`` only answers the robot ("yes", "ok, go ahead") and states nothing."""
    return _BARE_ANSWER.fullmatch(text) is not None


def inadmissible(claim: Claim, said: Sequence[str]) -> str | None:
    """Why ``claim`` may not be kept from a request said as ``said``; None when it may.

    The guard every write goes through, whatever a model or a summariser produced: nothing is
    kept as the user's own constraint or liking from words said of someone else ("my son is
    allergic to peanuts": :func:`said_of_someone_else`); nothing from a question or a doubt;
    a retraction keeps only withdrawals, never a positive fact; and a withdrawal is kept only
    once the user confirmed it (source ``confirmed``).
    """
    stance = request_stance(said)
    if (whose := said_of_someone_else(claim, said)) is not None:
        return f"that was said of {whose}, not of the user: {claim.text!r} is not kept as theirs"
    if stance in ("asks", "hedges"):
        what = "a question" if stance == "asks" else "not a definite statement"
        return f"{' / '.join(repr(text) for text in said)} is {what}: nothing is kept from it"
    if claim.holds and stance == "retracts":
        return f"the user took something back; {claim.text!r} is not stored as its opposite"
    if not claim.holds and claim.source != "confirmed":
        return f"{claim.text!r} withdraws a fact: only once the user confirmed it"
    return None


def said_of_someone_else(claim: Claim, said: Sequence[str]) -> str | None:
    """Who ``said`` speaks of instead of the user, when ``claim`` would be the user's own.

    A claim on one of the user's own slots (``food.``, ``diet.``: a constraint or a liking)
    from a request whose clauses give someone else's condition ("my son is allergic to
    peanuts") and nothing of the speaker's is not the user's; claims on someone else's slot
    (:data:`~knowledge.memory.model.OTHERS_SLOT`), or with no slot, are not this guard's.
    """
    slot = (claim.slot or "").casefold()
    if not slot.startswith(_USERS_OWN):
        return None
    stated = [text for text in said if text.strip() and not is_bare_answer(text)]
    if any(speaks_of_self(text) for text in stated):
        return None
    return next((who for who in map(someone_else, stated) if who is not None), None)
