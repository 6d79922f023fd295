"""The words of a request and a cursor over one clause of them, as the request grammar reads them.

:func:`tokens` cuts a request into :class:`Word` s (lower case for the rules, as said for
the frame's text); :class:`Clause` holds one clause's words and the cursor the grammar's rules
(:mod:`~knowledge.language.request_frame`) move left to right; :func:`longest` finds the
longest phrase of a word table at a place; :func:`bare_word` tells a content word from a
function word of the lexicon.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Final

from cogtree.knowledge.language.grammar.words import PARTICLES, PHRASE_WORDS, Words
from cogtree.knowledge.wording import (
    ARTICLES,
    INNER_OUTER_WORDS,
    POINTING,
    POSSESSIVES,
    NounOfAction,
    noun_of_action,
    verb_bases,
)
from cogtree.knowledge.wordnet.lemmas import SIZES, shipped_lemmas
from cogtree.knowledge.wordnet.nouns import shipped_nouns

REGION_OPENERS: Final = frozenset(["the", "its"])
"""Words after which "inside" / "outside" name a region, not a place ("the inside of it")."""

INLINE_FILLERS: Final = frozenset(["please", "now", "again", "too", "also", "thanks", "thank",
    "quickly", "carefully", "gently", "just", "right", "away", "here", "there", "for", "then",
    "kindly", "actually"])  # fmt: skip
"""Words inside or after a phrase that say nothing about the thing."""

TOKEN: Final = re.compile(
    r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*|[,.;:!?]|(?<=\s)[-\u2013\u2014](?=\s)"
)
"""A word (with its apostrophes), a mark, or a dash between spaces."""
BREAK: Final = frozenset([".", "!", "?", ";", ":"])
"""Marks that end a sentence, and so a clause."""
DASHES: Final = frozenset("-\u2013\u2014")
"""A dash between spaces sets a clause apart as a comma does ("the pan - the red one")."""

NAMING_DETERMINERS: Final = frozenset({"the"}) | ARTICLES | POSSESSIVES
"""Determiners a noun always follows: a word after one describes it, never ends the phrase."""

SUBJECT_PRONOUNS: Final = frozenset(["i", "we", "he", "she", "they"])
"""Pronouns that only ever open a statement ("..., I left it on"), never name its object."""


@dataclass(frozen=True)
class Word:
    """One token of a request: a word or a mark."""

    text: str  # lower case, straight apostrophes
    said: str  # as written


def tokens(text: str) -> list[Word]:
    """The words and marks of ``text``; a dash between spaces is a comma ("the pan - the red")."""
    said = (match.group(0) for match in TOKEN.finditer(text))
    return [Word("," if w in DASHES else w.lower().replace("\u2019", "'"), w) for w in said]


def longest(words: Sequence[Word], at: int, table: Container[tuple[str, ...]]) -> int:
    """How many words from ``at`` the longest entry of ``table`` there covers (longest first)."""
    ahead = tuple(word.text for word in words[at : at + PHRASE_WORDS])
    for size in range(len(ahead), 0, -1):
        if ahead[:size] in table:
            return size
    return 0


class Clause:
    """One clause's words and a cursor; the grammar's rules read it left to right."""

    def __init__(self, words: Sequence[Word], lexicon: Words) -> None:
        self.words = list(words)
        self.at = 0
        self.lexicon = lexicon

    @property
    def done(self) -> bool:
        """Whether the cursor is past the last word."""
        return self.at >= len(self.words)

    def word(self, offset: int = 0) -> str:
        """The word ``offset`` words from the cursor (lower case), or "" past either end."""
        index = self.at + offset
        return self.words[index].text if 0 <= index < len(self.words) else ""

    def match(self, table: Container[tuple[str, ...]]) -> int:
        """How many words at the cursor the longest entry of ``table`` covers (0: none)."""
        return longest(self.words, self.at, table)

    def text(self, start: int, end: int) -> str:
        """The words from ``start`` to ``end`` as said."""
        return " ".join(word.said for word in self.words[start:end])

    def closes(self, offset: int, *, preposition: bool = True) -> bool:
        """Whether the request ends ``offset`` words on (end, conjunction, filler, subordinator).

        With ``preposition``, a prepositional phrase ends it too.
        """
        after, at = self.word(offset), self.at + offset
        ends = not after or after in (",", "and", "then", "or") or after in INLINE_FILLERS
        ends = ends or after in self.lexicon.subordinators
        return ends or (preposition and bool(longest(self.words, at, self.lexicon.prepositions)))

    def noun_of_action(self) -> NounOfAction | None:
        """The noun of action of a light verb at the cursor ("a quick wipe"), else None."""
        return noun_of_action(
            [word.text for word in self.words],
            self.at,
            self.lexicon.verbs,
            manner=lambda word: bare_word(word, self.lexicon),
            ends=lambda at: self.closes(at - self.at),
            acts=names_an_act,
        )

    def verb_tail(self, verb: str) -> tuple[tuple[str, ...], tuple[str, str]] | None:
        """The words that finish ``verb`` after its object, and the capability they make.

        Only when they are at the cursor and end the clause, or a phrase with a preposition
        follows ("get the oven going", "give it a clean with the cloth"); else None.
        """
        for tail, kind in self.lexicon.split_verbs.get(verb, ()):
            if self.closes(len(tail)) and self.match([tail]) == len(tail):
                return tail, kind
        return None

    def result_word(self) -> bool:
        """Whether the word at the cursor is a result word ("open", "shut") ending the clause."""
        return self.word() in self.lexicon.results and self.closes(1, preposition=False)

    def degree(self) -> bool:
        """Whether a degree follows the article at the cursor ("a bit closer", not "a bit of")."""
        return self.word(1) in self.lexicon.degrees and self.word(2) in self.lexicon.comparatives

    def measure(self, at: int) -> int:
        """How many words ``at`` words on make a measure, its "of" and a determiner after it.

        The measure is a word of the lexicon's ``measures`` ("a glass of", "a glass of the") or
        a unit the dictionary knows as an amount ("150 ml of the water": :func:`names_a_unit`);
        an adjective of its size may describe it first ("a small glass of orange juice": the
        small glass, not the pint glass): one WordNet gives size or height as what it measures
        (:meth:`~knowledge.wordnet.lemmas.Lemmas.measures`). "a full glass", "a hot cup", "a
        second glass" say nothing of which vessel. 0: none.
        """
        lexicon, lemmas = self.lexicon, shipped_lemmas()
        before = self.word(at)
        described = int(
            before not in lexicon.measures
            and self.word(at + 1) in lexicon.measures
            and lemmas is not None
            and bool(lemmas.measures(before) & SIZES)
        )
        measure = at + described
        unit = self.word(measure)
        if self.word(measure + 1) != "of" or not (unit in lexicon.measures or names_a_unit(unit)):
            return 0
        return 2 + described + int(self.word(measure + 2) in lexicon.determiners)

    def asks_back(self) -> bool:
        """Whether a question's own verb and subject start here ("how many cups do we have")."""
        return self.word() in self.lexicon.other_verbs and self.word(1) in SUBJECT_PRONOUNS

    def is_boundary(self) -> bool:
        """Whether a noun phrase ends before the current word.

        A region word right after "the" or "its" is the noun ("clean the inside of the oven").
        """
        lexicon, word = self.lexicon, self.word()
        if word in INNER_OUTER_WORDS and self.word(-1) in REGION_OPENERS:
            return False
        return (
            not word
            or word == ","
            or bool(self.match(lexicon.prepositions))
            or bool(self.match(lexicon.negations))
            or bool(self.match(lexicon.conjunctions))
            or bool(self.match(lexicon.adverbials))
            or word in lexicon.copulas
            or word in lexicon.subordinators
            or word in lexicon.vague_places
            or word in INLINE_FILLERS
            or word == "to"
            or (word == "back" and not self._describes_next())
            or self.asks_back()
            or (word in self.lexicon.manner_words and self.closes(1))  # "a nappy quick"
            or self._where_ending()
        )

    def _describes_next(self) -> bool:
        """Whether the word here, after an article or a possessive, describes a noun.

        "the back door"; after "that" only before a made thing ("that back door", not "give
        me that back tomorrow").
        """
        after, before = self.word(1), self.word(-1)
        opens = after in self.lexicon.determiners or (after,) in self.lexicon.prepositions
        named = before in NAMING_DETERMINERS or (before in POINTING and _made_thing(after))
        return named and not opens and not self.closes(1)

    def _where_ending(self) -> bool:
        """Whether what happened to a thing asked after starts here ("... end up in?")."""
        size = self.match(self.lexicon.where_endings)
        return bool(size) and self.closes(size)


def _made_thing(word: str) -> bool:
    """Whether WordNet's first sense of ``word`` is a made thing, and no adverb is it ("door").

    Not "tomorrow", "upstairs": "take that back upstairs" brings it back.
    """
    nouns, lemmas = shipped_nouns(), shipped_lemmas()
    if nouns is None or lemmas is None or lemmas.lemma_of(word, "adv") is not None:
        return False
    noun = lemmas.lemma_of(word, "noun")  # "cushions": cushion
    return noun is not None and nouns.files(noun)[:1] == ("noun.artifact",)


def gerund_base(words: Sequence[Word], index: int, lexicon: Words) -> str | None:
    """The base form of the verb of the lexicon whose -ing form is at ``index``; else None."""
    if index >= len(words) or not words[index].text.endswith("ing"):
        return None
    heads = {verb[0] for verb in lexicon.verbs}
    return next((base for base in verb_bases(words[index].text) if base in heads), None)


def bare_word(word: str, lexicon: Words) -> bool:
    """A content word: not a function word the lexicon lists (nor a number)."""
    return bool(word) and not (
        word in lexicon.determiners
        or word in lexicon.pronouns
        or word in lexicon.people_pronouns
        or word in lexicon.quantities
        or word in lexicon.copulas
        or word in INLINE_FILLERS
        or word in PARTICLES
        or word.isdigit()
        or "'" in word
        or not word.isalpha()
    )


PURPOSE_ENDINGS: Final = frozenset({"with", "in", "on", "into"})
"""A stranded preposition: "to <verb> ... with" describes a thing ("something to cut with")."""


def closes_on_purpose(words: list[Word], index: int) -> bool:
    """Whether the words from ``index`` on close on a :data:`PURPOSE_ENDINGS` preposition.

    The words up to the next comma or sentence end are read.
    """
    end = index
    while end < len(words) and words[end].text not in (",", *BREAK):
        end += 1
    return end > index and words[end - 1].text in PURPOSE_ENDINGS


ACTS: Final = "noun.act"
"""The dictionary's lexicographer file of nouns that name acts ("hug", "wipe", "once-over")."""


def names_an_act(word: str) -> bool:
    """Whether ``word`` is a verb whose noun names the act of it, not a thing.

    A verb's base form that has no noun sense ("drench") or whose most frequent noun sense is
    an act ("hug"); "drink" (first a food), "towel" (a made thing) and "bone" are things.
    """
    lemmas, nouns = shipped_lemmas(), shipped_nouns()
    if lemmas is None or nouns is None or lemmas.lemma_of(word, "verb") != word:
        return False
    return nouns.files(word)[:1] in ((), (ACTS,))


AMOUNTS: Final = "noun.quantity"
"""The dictionary's lexicographer file of units and amounts ("millilitre", "pinch", "pint")."""


UNITS: Final = ("unit_of_measurement", "containerful")
"""The dictionary's synsets above every unit ("millilitre", "ounce") and every measure of what
a vessel holds ("teaspoon", "spoonful")."""


def names_a_unit(word: str) -> bool:
    """Whether ``word`` is first of all a unit of measurement ("ml", "ounce", "teaspoon").

    Its most frequent sense is an amount (the dictionary's ``noun.quantity``) under one of
    :data:`UNITS`: "a stack of plates", "the base of the blender", "a third of the cake" and
    "the head of the bed" name things, not a unit's worth of them.
    """
    nouns = shipped_nouns()
    return nouns is not None and word.isalpha() and nouns.first_is(word, AMOUNTS, UNITS)
