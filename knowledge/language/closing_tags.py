"""Tags that close a clause and ask nothing of their own: "pass me the salt, would you, love?".

A question tag ("would you", "d'you know"), thanks ("ta", "cheers") or a form of address
("love", "mate") after a request is not part of its last phrase: left in, it would be read as
another thing asked for ("the salt" and "would you"). :func:`without_tags` cuts the tags at
the end of every clause of a text (a clause ends at a comma, a dash or a sentence mark: "take
Dad his tablets would you, he's in the lounge") before the grammar reads it. The lists are
the ``tags`` entry of the grammar's words (``request_words.yaml``): ``closing`` tags and
``address`` (forms of address) go with or without a comma before them, ``after_comma`` ones
only after a comma ("where is the tv, d'you know" but not "what do you know"), as are words
that leave the choice to the robot ("a drink, whatever's there"). A form of
address opening a clause goes too ("mate chuck us a loo roll"), as does "oi" or "hey" before it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Final, NamedTuple

from cogtree.knowledge.language.grammar.emphasis import without_emphasis
from cogtree.knowledge.language.grammar.indifference import leaves_the_choice
from cogtree.knowledge.language.grammar.spelling import (
    unreduced,
    unstretched,
    with_apostrophes,
    with_verbs_mended,
)
from cogtree.knowledge.language.grammar.words import request_words

_WORD: Final = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*")
_MARKS: Final = re.compile(r"\s*(?:[,.;:!?]+|\s[-\u2013\u2014]+(?=\s))\s*")
"""Where a clause ends: a comma, a sentence mark or a dash between spaces, with the spaces."""

Tag = tuple[str, ...]


class Tags(NamedTuple):
    """The tags, longest first: those that close a clause anywhere, and those after a comma."""

    anywhere: tuple[Tag, ...]
    after_comma: tuple[Tag, ...]
    address: frozenset[str]


def _longest_first(tags: Iterable[Tag]) -> tuple[Tag, ...]:
    return tuple(sorted(tags, key=lambda tag: (-len(tag), tag)))


@functools.cache
def closing_tags() -> Tags:
    """The tags of the grammar's words (``closing`` and ``address`` go anywhere)."""
    words = request_words()
    return Tags(_longest_first(words.tags), _longest_first(words.comma_tags), words.address)


def as_read(text: str) -> str:
    """``text`` as the request grammar reads it: typed spellings put back, emphasis and tags out."""
    spelled = with_verbs_mended(with_apostrophes(unreduced(unstretched(text))))
    return without_tags(without_emphasis(spelled))


def without_tags(text: str) -> str:
    """``text`` without the tags at the end of each clause, its marks kept; never every word.

    A clause that is only a tag goes with the mark before it ("..., would you, love?"); a
    first clause that is only a tag goes with the mark after it when words follow ("Ta. And
    the pepper too."); a turn is never cut to nothing.
    """
    tags = closing_tags()
    kept: list[str] = []
    pairs = clauses_with_marks(text)
    for index, (clause, mark) in enumerate(pairs):
        said = _said(clause)
        after_comma = bool(kept) and "," in kept[-1]
        if kept and said and _only_tag(said, tags, after_comma=after_comma):
            kept[-1] = mark  # the mark before the tag goes with it
            continue
        if index == 0 and said in tags.anywhere and any(_asks(later, tags) for later, _ in pairs):
            continue  # "Thanks. Now the pepper": the thanks asks nothing
        kept += [_cut(_uncalled(clause, tags.address), tags), mark]
    return "".join(kept)


def _asks(clause: str, tags: Tags) -> bool:
    """Whether ``clause`` has words that are more than a tag."""
    said = _said(clause)
    return bool(said) and not _only_tag(said, tags, after_comma=True)


def clauses_with_marks(text: str) -> list[tuple[str, str]]:
    """``text`` as (clause, the mark after it) pairs; the last mark may be empty."""
    pairs: list[tuple[str, str]] = []
    start = 0
    for mark in _MARKS.finditer(text):
        pairs.append((text[start : mark.start()], mark.group(0)))
        start = mark.end()
    pairs.append((text[start:], ""))
    return pairs


def _said(clause: str) -> Tag:
    return tuple(word.group(0).lower().replace("\u2019", "'") for word in _WORD.finditer(clause))


def _only_tag(said: Tag, tags: Tags, *, after_comma: bool) -> bool:
    """Whether the clause's words are one tag, or leave the choice to the robot after a comma.

    An ``after_comma`` tag counts only after a comma, as does "..., whatever's there".
    """
    if said in tags.anywhere:
        return True
    return after_comma and (said in tags.after_comma or leaves_the_choice(" ".join(said)))


_OWNING = frozenset({"my", "your", "his", "her", "our", "their", "the", "a", "an", "to", "for"})
"""Words before an address word that make it a noun of the clause ("to my mate")."""


def _cut(clause: str, tags: Tags) -> str:
    """``clause`` without the tags (``anywhere`` ones) at its end, at least one word kept."""
    while True:
        words = list(_WORD.finditer(clause))
        said = tuple(word.group(0).lower().replace("\u2019", "'") for word in words)
        tag = next((tag for tag in tags.anywhere if _ends(said, tag)), None)
        if tag is None or said[-len(tag) - 1] in _OWNING:
            return clause  # "give the pills to my mate": a person, not a way of addressing
        clause = clause[: words[-len(tag)].start()].rstrip(" ,")


CALLS: Final = frozenset({"oi", "hey"})
"""Words that call the listener before a form of address ("oi mate, ...")."""


def _uncalled(clause: str, address: frozenset[str]) -> str:
    """``clause`` without the form of address (and a call before it) it opens with.

    Only when more words follow and the next is no verb's object: "mate, pass me the salt"
    and "oi mate pass me the salt" lose "mate", "dear me" and a lone "love" stay.
    """
    words = list(_WORD.finditer(clause))
    said = [word.group(0).lower() for word in words]
    first = 1 if said[:1] and said[0] in CALLS else 0
    if len(said) > first + 1 and said[first] in address and said[first + 1] not in _OBJECTS:
        return clause[words[first + 1].start() :]
    return clause


_OBJECTS: Final = frozenset({"me", "you", "him", "her", "us", "them", "it"})
"""Words after a clause's first word that make it a verb ("love you"), not a form of address."""


def _ends(said: Tag, tag: Tag) -> bool:
    """Whether ``said`` ends with ``tag`` and holds more words than it."""
    return len(tag) < len(said) and said[-len(tag) :] == tag
