"""Of things that fit what was asked for, those the user's own describing words pick out.

"Pass me the crackers that are made of whole grain" with wholegrain and salted crackers side
by side: "the crackers" fits both, and the clause after it says which. A referent is resolved
by the words of its slot; words the user said after it in the same sentence
(:func:`describing_words`: "made", "whole", "grain") are read against each candidate's name
(:func:`told_apart`): a word names a part of a name when it is a word of the name or, at four
letters or more, begins or ends one ("grain" in "wholegrain", "sour" in "sourdough",
"berry" in "strawberry"). The candidates whose names hold the most such words are kept when
that is some but not all of them; otherwise the choice is left as it was. So a describing
clause is never dropped for the first of several look-alikes.

The words before a referent say whether the user has one thing in mind: "the fruit" is one
they mean, "a piece of fruit", "some juice", "one of the mugs" or "something to read" ask for
any one thing the words fit (:func:`asks_for_any`; the determiners that do are the grammar's
``any_one`` words, the pronouns its ``indefinites``), and so does any a remark after it leaves
the choice of ("the mug, whichever's nearest").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Final

from cogtree.knowledge.language.closing_tags import as_read
from cogtree.knowledge.language.grammar.indifference import without_choice_left
from cogtree.knowledge.language.grammar.number import count_of
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.tfidf import english_stop_words
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.understanding.contents import DRINK, DRINKWARE, HOLDS_LIQUID
from cogtree.knowledge.wording import singular_forms

PART_LETTERS: Final = 4
"""The shortest word read as a part of a longer word of a name."""

_WORD: Final = re.compile(r"[a-z]+")
_SENTENCE_END: Final = re.compile(r"[.?!;]")
_CLAUSE_END: Final = re.compile(r"[,.?!;:]")


def describing_words(utterances: Sequence[str], said: str) -> list[str]:
    """The content words after ``said`` in its sentence of the first utterance that holds it.

    "Pass me the crackers that are made of whole grain." and "the crackers" -> made, whole,
    grain (stop words and the words of ``said`` left out, and what follows a subordinator:
    :func:`_before_subordinator`). None when ``said`` is not found.
    """
    wanted = _WORD.findall(said.lower())
    if not wanted:
        return []
    pattern = re.compile(r"\b" + r"\W+".join(map(re.escape, wanted)) + r"\b")
    for utterance in _as_read(utterances):
        found = pattern.search(utterance)
        if found is None:
            continue
        rest = _SENTENCE_END.split(utterance[found.end() :], maxsplit=1)[0]
        stop = english_stop_words() | set(wanted)
        return [word for word in _before_subordinator(_WORD.findall(rest)) if word not in stop]
    return []


def asks_for_any(utterances: Sequence[str], said: str, others: Sequence[str] = ()) -> bool:
    """Whether ``said`` asks for any one thing it fits, by the words that open it.

    The opening words are those of ``said`` itself, else the determiners, counts and measures
    right before it in the first utterance that holds it ("a piece of" before "fruit"); the
    first determiner or count of them decides ("one of the mugs": "one"; "the two mugs": "the").
    Never when the user says more of it right after, up to a comma ("a drink that reminds me
    of summer": not any drink; words of ``others``, the request's other things, are not more
    of it: "a towel on the ledge"), nor when ``said`` is not found as said.
    """
    words = request_words()
    said_words = _WORD.findall(said.lower())
    found = _said_alone(utterances, said, others)
    if found is None:
        return False
    if said_words[0] in words.indefinites or _choice_left(utterances):
        return True
    counts = words.determiners | words.quantities
    counted = [word for word in _opening(found, said_words) if word in counts]
    return bool(counted) and counted[0] in request_words().any_one


def count_asked(utterances: Sequence[str], said: str) -> int:
    """How many things ``said`` asks for by the count said with it, else 0.

    "two apples", "a couple of biscuits" as said, even when the slot holds only "apples"
    (:func:`~knowledge.language.grammar.number.count_of` of the opening words and it).
    """
    if count := count_of(said):  # "3 apples" as the slot holds it
        return count
    found = _said_at(utterances, _WORD.findall(said.lower()))
    return 0 if found is None else count_of(" ".join([*_before(found), found.group(0)]))


def _opening(found: re.Match[str], said_words: list[str]) -> list[str]:
    """The determiners, counts and measures that open a referent: its own, else those before it."""
    words = request_words()
    return (
        said_words[:1] if said_words[0] in words.determiners | words.quantities else _before(found)
    )


def _before(found: re.Match[str]) -> list[str]:
    """The determiners, counts and measures right before a referent as said ("two of")."""
    words = request_words()
    opening = words.determiners | words.quantities | words.measures | {"of"}
    before, run = _WORD.findall(found.string[: found.start()]), list[str]()
    while before and before[-1] in opening:
        run.insert(0, before.pop())
    return run


def _choice_left(utterances: Sequence[str]) -> bool:
    """Whether a remark after a request leaves the choice to the robot: "the mug, whichever"."""
    return any(without_choice_left(text) != text for text in utterances)


def said_alone(utterances: Sequence[str], said: str, others: Sequence[str] = ()) -> bool:
    """Whether ``said`` was said with nothing more of it after it, up to a comma.

    "Bring me that fruit." yes; "a drink that goes with the curry" no: the user wants
    something the words after it say, which the names of the things may not show. Words of
    ``others`` (the request's other things) are not more of it. No when it is not found.
    """
    return _said_alone(utterances, said, others) is not None


def _said_alone(
    utterances: Sequence[str], said: str, others: Sequence[str]
) -> re.Match[str] | None:
    """Where ``said`` was said (:func:`said_alone`), or None."""
    found = _said_at(utterances, _WORD.findall(said.lower()))
    if found is None:
        return None
    elsewhere = {word for other in others for word in _WORD.findall(other.lower())}
    more = _more_of_it(found.string[found.end() :])
    if set(_not_its_drink(said, more)) - english_stop_words() - elsewhere:
        return None
    return found


def _not_its_drink(said: str, more: list[str]) -> list[str]:
    """``more`` without "of" and a drink after a vessel: what it is to hold, not which one.

    "a glass of water (to Grandad)": any glass, filled; "a drink of water" is no vessel, "a
    glass of the kind with a stem" no drink: kept.
    """
    taxonomy = household_taxonomy()
    vessel = taxonomy.type_named(said)
    if more[:1] != ["of"] or vessel is None:
        return more
    if not (taxonomy.is_a(vessel, DRINKWARE) or HOLDS_LIQUID in taxonomy.properties(vessel).flags):
        return more
    for end in range(len(more), 1, -1):  # the longest drink named after "of"
        drink = taxonomy.type_named(" ".join(more[1:end]))
        if drink is not None and taxonomy.is_a(drink, DRINK):
            return more[end:]
    return more


def _said_at(utterances: Sequence[str], said_words: list[str]) -> re.Match[str] | None:
    """Where the words of a referent were first said, or None."""
    if not said_words:
        return None
    rest = r"\W+".join(map(re.escape, said_words[1:]))
    patterns = [r"\b" + r"\W+".join(map(re.escape, said_words)) + r"\b"]
    if rest:  # "a fruit" as the slot holds it, "a bit of fruit" as said: a measure between
        patterns.append(rf"\b{re.escape(said_words[0])}(?:\W+\w+){{1,2}}?\W+of\W+{rest}\b")
    read = _as_read(utterances)
    return next((m for p in patterns for u in read if (m := re.search(p, u))), None)


def _as_read(utterances: Sequence[str]) -> list[str]:
    """``utterances`` as the grammar reads them: lower case, stretched words and tags undone."""
    return [as_read(utterance).lower() for utterance in utterances]


def _more_of_it(after: str) -> list[str]:
    """The words after a referent that may say more of it, up to the clause's end.

    A clause ends at a mark or a clause of why or when, and manner words say nothing of the
    thing (:func:`_before_subordinator`).
    """
    return _before_subordinator(_WORD.findall(_CLAUSE_END.split(after, maxsplit=1)[0]))


WHY_OR_WHEN: Final = frozenset(
    ["before", "because", "cos", "coz", "so", "while", "until", "since", "whenever", "though"]
)
"""Subordinators that say why or when, never which thing: "if", "unless", "where", "once" or
"when" may ("a mug if it is clean", "a drink unless it is beer")."""


def _before_subordinator(words: Sequence[str]) -> list[str]:
    """``words`` up to a clause of why or when ("before he wees on me": why, not which).

    Manner words and tags ("quick", "sharpish") say how to do it, not which thing: left out.
    """
    said = itertools.takewhile(lambda word: word not in WHY_OR_WHEN, words)
    return [word for word in said if word not in request_words().manner_words]


def told_apart(candidates: Sequence[Candidate], words: Iterable[str]) -> list[Candidate]:
    """``candidates`` narrowed to those whose names hold the most of ``words``; else all.

    Narrowed only when some, not all, hold the most (and that is at least one word); each
    kept candidate's reasons say which words told it apart.
    """
    said = list(dict.fromkeys(words))
    if len(candidates) < 2 or not said:
        return list(candidates)
    held = {candidate.id: _held(candidate.label, said) for candidate in candidates}
    most = max(len(found) for found in held.values())
    kept = [candidate for candidate in candidates if len(held[candidate.id]) == most]
    if most == 0 or len(kept) == len(candidates):
        return list(candidates)
    return [
        candidate.model_copy(
            update={
                "reasons": [*candidate.reasons, f"told apart by {', '.join(held[candidate.id])}"]
            }
        )
        for candidate in kept
    ]


def _held(label: str, said: Sequence[str]) -> list[str]:
    """The words of ``said`` the name ``label`` holds (as a word, or as a part of one)."""
    names = _WORD.findall(label.lower())
    return [word for word in said if any(_part_of(form, names) for form in singular_forms(word))]


def _part_of(word: str, names: Sequence[str]) -> bool:
    if word in names:
        return True
    return len(word) >= PART_LETTERS and any(
        name != word and (name.startswith(word) or name.endswith(word)) for name in names
    )


USE: Final = re.compile(
    r"\b(?:to|(?:i|we|you)\s+(?:can|could))\s+[a-z]+\s+(?P<used_on>[a-z' ]*?)"
    r"(?:\s+(?:with|on|in|up|down|open|shut|off|out|over|back|away))*\s*$"
)
"""A thing told by its use, to the end: the words after the use's verb say what it is used on
("something to charge it": it; "anything to measure the window with": the window)."""

USE_CHARS: Final = 200
"""The most characters of a referent read for its use (a name is short; :data:`USE` backtracks
over every word of what it is given)."""

THING_WORDS: Final = frozenset(["it", "them", "this", "that", "these", "those"])
"""Pronouns that stand for a thing said before ("something to charge it")."""

OTHER_PEOPLE: Final = re.compile(r"^[a-z]+'s\b")
"""A name that says whose a thing is ("ben's toothbrush")."""


def told_apart_for_use(
    candidates: Sequence[Candidate], utterances: Sequence[str], said: str
) -> list[Candidate]:
    """Of things handed to the speaker, those the words said of them pick out.

    Words said after ``said`` tell alike things apart (:func:`told_apart`). A thing told by
    its use is also told by what the use is for (:func:`used_on`): the thing acted on is never
    the thing to act on it with ("the menu's print is small, something I could read it with":
    not the menu), another person's own thing is not free to use while one nobody is said to
    own fits ("something I can brush my teeth with": not Ben's toothbrush), and of the rest
    those whose names hold what it is used on are kept ("the phone is flat, something to
    charge it": the phone charger, not the laptop charger).
    """
    words = used_on(utterances, said)
    if USE.search(said.lower()[:USE_CHARS]) is not None:
        acted_on = {form for word in words for form in singular_forms(word)}
        candidates = [c for c in candidates if not acted_on & set(_heads(c.label))]
        free = [c for c in candidates if not OTHER_PEOPLE.match(c.label.lower())]
        candidates = free or candidates
    return told_apart(told_apart(candidates, words), describing_words(utterances, said))


def _heads(label: str) -> list[str]:
    """The last word of a name: what the thing is ("lunch menu": menu)."""
    return _WORD.findall(label.lower())[-1:]


def used_on(utterances: Sequence[str], said: str) -> list[str]:
    """The content words of what a thing told by its use is used on; none for any other thing.

    "something to measure the window with" -> window; "something to charge it" -> the words
    said before it in its utterance but the request's verbs, which say what "it" is ("the
    phone is flat, pass me something to charge it" -> phone, flat). The speaker ("something
    to warm me up") is no thing used on.
    """
    found = USE.search(said.lower()[:USE_CHARS])
    if found is None:
        return []
    stop = english_stop_words()
    named = [word for word in _WORD.findall(found.group("used_on")) if word not in stop]
    if named or not set(_WORD.findall(found.group("used_on"))) & THING_WORDS:
        return named
    wanted = _WORD.findall(said.lower())
    pattern = re.compile(r"\b" + r"\W+".join(map(re.escape, wanted)) + r"\b")
    for utterance in utterances:
        at = pattern.search(utterance.lower())
        if at is not None:
            before = _WORD.findall(utterance.lower()[: at.start()])
            verbs = {verb[0] for verb in request_words().verbs if len(verb) == 1}
            return [word for word in before if word not in stop | verbs and len(word) > 1]
    return []
