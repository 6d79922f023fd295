"""How many things a noun phrase means: one the user has in mind, or every one it fits.

"Put the mugs in the sink" with two mugs on the table means both: a plural head with no
count is every thing the words fit, as are "all the mugs", "both lamps" and a heap named by
its kind ("the dairy stuff", "some cleaning things"). "The mug", "a mug", "one of the mugs",
"two mugs" and "some mugs" do not (one meant, any one, or a number: :func:`count_of` reads
how many). A plural word that is already the things' own name names one thing ("the
scissors", "my glasses"): :func:`names_every` is told the names of the things the phrase fits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.wording import join_at, looks_plural

HEAP_WORDS: Final = frozenset(["stuff", "things", "bits"])
"""Heads that name a heap of things by the words before them ("the baking stuff")."""

NUMBER_WORDS: Final = (
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)
"""The counts a request says in words, in order (a larger count is said in digits, if at all)."""

PAIR_WORDS: Final = frozenset(["couple", "pair"])
"""Counts of two said as a measure: "a couple of biscuits", "a pair of socks"."""

_WORD: Final = re.compile(r"[^\W_]+")


def without_count(said: str) -> str:
    """``said`` without the count that opens it: "two of the plates" -> "the plates".

    "a couple of biscuits" -> "biscuits"; unchanged when no count opens it (:func:`count_of`).
    """
    if count_of(said) < 2:
        return said
    words = said.split()
    words = words[2:] if words[0].lower() == "a" else words[1:]
    return " ".join(words[1:] if words[:1] == ["of"] else words)


def count_of(said: str) -> int:
    """How many things the noun phrase ``said`` counts out: "two mugs" 2, "3 apples" 3.

    "a couple of biscuits" and "two of the plates" are 2. Zero when no count opens it ("the
    mugs", "some mugs") or the count is not a number ("a few").
    """
    words = _WORD.findall(said.lower())
    opening = words[1:2] if words[:1] == ["a"] else words[:1]  # "a couple of"
    if not opening:
        return 0
    word = opening[0]
    if word.isdigit():
        return int(word)
    if word in PAIR_WORDS:
        return 2
    return NUMBER_WORDS.index(word) + 1 if word in NUMBER_WORDS else 0


def names_every(said: str, names: Iterable[str]) -> bool:
    """Whether the noun phrase ``said`` means every thing it fits (see the module docs).

    ``names``: the labels of the things it fits; a plural head that ends one of them is
    that thing's own name ("the scissors"), not several things.
    """
    words = _WORD.findall(said.lower().replace("'s", ""))
    if not words:
        return False
    lexicon = request_words()
    if words[0] in lexicon.every_one:
        return True
    if words[0] in lexicon.quantities - lexicon.any_one or words[0].isdigit():
        return False
    words = words[: join_at(words)]  # "the scissors by the sink": the scissors
    head = words[-1]
    if head in HEAP_WORDS:
        return len(words) > 1 and words[-2] not in lexicon.determiners
    if words[0] in lexicon.any_one or not looks_plural(" ".join(words)):
        return False
    return all(head not in _WORD.findall(name.lower())[-1:] for name in names)
