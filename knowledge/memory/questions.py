"""Questions about what the robot remembers, answered from memory with the turn that said it.

"What's my name?", "What am I allergic to?", "What do you know about me?", "When is Mia
coming?", "What did I ask you yesterday?": :func:`answer` reads the working context of the
question (current facts of core memory and recent turns, the archived facts recalled for it,
the recent turns themselves) and says what it holds on the question's topic, each fact with
the turn it came from. It never says more than the memory holds: a topic with no fact is
answered "nothing that I know of", a withdrawn fact is said to be withdrawn.

:class:`MemoryQuery` is the task schema a domain pack gives its ``memory_query`` task.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.memory.model import OTHERS_SLOT, Fact, TurnTrace, WorkingContext


class MemoryQuery(BaseModel):
    """Answer a question about what the robot remembers of the user or of earlier turns."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    question: str = Field(
        min_length=1, description="the user's question about what the robot remembers"
    )


@dataclass(frozen=True)
class MemoryAnswer:
    """What memory says to a question: the sentence, the turns it cites, whether it knew."""

    text: str
    turns: tuple[int, ...]
    known: bool


@dataclass(frozen=True)
class _Topic:
    """A kind of question: how it is asked, which facts answer it, how to say there are none."""

    name: str
    asked: re.Pattern[str]
    answers: Callable[[Fact], bool]
    none: str


def _text_has(pattern: str) -> Callable[[Fact], bool]:
    compiled = re.compile(pattern, re.IGNORECASE)
    return lambda fact: compiled.search(fact.text) is not None


TOPICS: tuple[_Topic, ...] = (
    _Topic(
        "name",
        re.compile(r"\b(my name|who am i|what am i called|call me)\b", re.I),
        lambda fact: fact.slot == "user.name",
        "You have not told me your name yet.",
    ),
    _Topic(
        "allergies",
        re.compile(r"\ballerg", re.I),
        _text_has(r"\ballerg"),
        "Nothing that I know of.",
    ),
    _Topic(
        "intolerances",
        re.compile(r"\b(intoleran\w*|digest|coeliac|celiac)", re.I),
        _text_has(r"intoleran|coeliac|celiac|disease"),
        "Nothing that I know of.",
    ),
    _Topic(
        "diet",
        re.compile(r"\b(diet|vegan|vegetarian|pescatarian)\b", re.I),
        _text_has(r"\bdiet\b"),
        "You have not told me about a diet.",
    ),
    _Topic(
        "dislikes",
        re.compile(r"\b(dislike|don'?t like|do not like|hate|avoid|don'?t (want|eat))\b", re.I),
        _text_has(r"does not want|avoids"),
        "You have not told me about anything you avoid.",
    ),
    _Topic(
        "likes",
        re.compile(r"\b(like|love|favou?rite|enjoy|prefer)\b", re.I),
        lambda fact: fact.kind == "preference",
        "You have not told me what you like yet.",
    ),
    _Topic(
        "everything",
        re.compile(
            r"\b(know|remember) (about|of) me\b|\bwhat have i told you\b|"
            r"\bwhat do you (know|remember)\s*\??$",
            re.I,
        ),
        lambda fact: True,
        "Nothing that I know of.",
    ),
)
"""The topics, most specific first: the first whose question pattern matches is answered."""

ASKED_BEFORE = re.compile(
    r"\bwhat (did|have) i (ask|asked|say|said|tell|told|request|requested)\b|"
    r"\bwhat was my (last )?(question|request)\b",
    re.I,
)
"""A question about the user's own earlier turns."""

NOTHING_RECALLED = "I don't remember anything about that."
"""The answer when no fact in memory is about the question."""

_FIRST_PERSON = (
    (re.compile(r"^The user said: "), ""),
    (re.compile(r"\bThe user's\b"), "your"),
    (re.compile(r"\bThe user is\b"), "you are"),
    (re.compile(r"\bThe user has\b"), "you have"),
    (re.compile(r"\bThe user does\b"), "you do"),
    (re.compile(r"\bThe user no longer has\b"), "you no longer have"),
    (re.compile(r"\bThe user no longer (\w+?)s\b"), r"you no longer \1"),
    (re.compile(r"\bThe user (\w+)s\b"), r"you \1"),
    (re.compile(r"\bThe user\b"), "you"),
)


def _addressed(text: str) -> str:
    """A fact's text said to the user: ``The user is allergic to X`` -> ``you are ...``."""
    for pattern, replacement in _FIRST_PERSON:
        text = pattern.sub(replacement, text)
    return text.rstrip(".")


def _cited(fact: Fact) -> str:
    return f"{_addressed(fact.text)} (turn {fact.turn})"


def answer(
    question: str, context: WorkingContext, *, now: dt.datetime | None = None
) -> MemoryAnswer:
    """What ``context`` (read for ``question``) says to the question, citing its turns."""
    if ASKED_BEFORE.search(question):
        return _asked_before(question, context.history, now or dt.datetime.now())
    facts = [*context.facts, *(recall.fact for recall in context.recalled if not recall.superseded)]
    facts = [fact for fact in facts if _asked_of(fact, question)]
    for topic in TOPICS:
        if topic.asked.search(question):
            return _on_topic(topic, [fact for fact in facts if topic.answers(fact)])
    recalled = [recall.fact for recall in context.recalled if not recall.superseded]
    related = [fact for fact in context.facts if _shares_a_word(question, fact.text)]
    found = list({id(fact): fact for fact in [*recalled, *related]}.values())
    if not found:
        return MemoryAnswer(NOTHING_RECALLED, (), known=False)
    return _said(found)


def _asked_of(fact: Fact, question: str) -> bool:
    """Whether ``fact`` is about whom ``question`` asks.

    The user's own facts always are; someone else's (``about.son.food...``) only when the
    question names them ("what is my son allergic to?").
    """
    slot = fact.slot or ""
    if not slot.startswith(OTHERS_SLOT):
        return True
    owner = slot[len(OTHERS_SLOT) :].split(".", 1)[0].replace("_", " ")
    return re.search(rf"\b{re.escape(owner)}\b", question, re.IGNORECASE) is not None


def _on_topic(topic: _Topic, facts: Sequence[Fact]) -> MemoryAnswer:
    held = [fact for fact in facts if fact.holds]
    withdrawn = [fact for fact in facts if not fact.holds]
    if held:
        return _said([*held, *withdrawn])
    if withdrawn:
        said = "; ".join(_cited(fact) for fact in withdrawn)
        return MemoryAnswer(
            f"{topic.none} You told me: {said}.",
            tuple(fact.turn for fact in withdrawn),
            known=False,
        )
    return MemoryAnswer(topic.none, (), known=False)


def _said(facts: Sequence[Fact]) -> MemoryAnswer:
    ordered = sorted(facts, key=lambda fact: fact.turn)
    said = "; ".join(_cited(fact) for fact in ordered)
    return MemoryAnswer(f"You told me: {said}.", tuple(fact.turn for fact in ordered), True)


_WORD = re.compile(r"[a-z]{3,}")
_COMMON = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "are",
        "what",
        "when",
        "where",
        "who",
        "how",
        "does",
        "did",
        "will",
        "can",
        "about",
        "this",
        "that",
        "with",
        "for",
        "from",
        "have",
        "has",
        "user",
        "coming",
        "come",
        "comes",
    ]
)


def _shares_a_word(question: str, text: str) -> bool:
    asked = set(_WORD.findall(question.lower())) - _COMMON
    return bool(asked & set(_WORD.findall(text.lower())))


def _asked_before(question: str, history: Sequence[TurnTrace], now: dt.datetime) -> MemoryAnswer:
    """The user's earlier turns, of yesterday or today when the question says so."""
    day: dt.date | None = None
    if re.search(r"\byesterday\b", question, re.I):
        day = now.date() - dt.timedelta(days=1)
    elif re.search(r"\btoday\b", question, re.I):
        day = now.date()
    turns = [
        trace
        for trace in history
        if day is None or dt.datetime.fromtimestamp(trace.timestamp).date() == day
    ]
    when = "" if day is None else " today" if day == now.date() else " yesterday"
    if not turns:
        return MemoryAnswer(f"I have no request of yours{when} in my memory.", (), known=False)
    said = "; ".join(f"{trace.user.strip()!r} (turn {trace.turn})" for trace in turns[-3:])
    cited = tuple(trace.turn or 0 for trace in turns[-3:])
    return MemoryAnswer(f"You asked me{when}: {said}.", cited, known=True)
