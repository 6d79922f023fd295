"""Referring expressions ("the blue bottle", "my mug", "the book on the coffee table"), parsed.

Parsing is deterministic and lexical (:mod:`.resolution` does the matching):

- The description is lowercased and split into words; ``anna's`` becomes ``anna``.
- Filler words (articles, "something", "one", "to", ...) need no match; ``my`` / ``mine``
  ask for something the speaker owns. "flavoured" needs no match either: the word before it
  is the flavour ("a lime-flavoured soda" is a lime soda).
- A negation ("a snack, but not the crisps", "any fruit except the lemon or the grapes")
  splits off what is excluded (:func:`split_negation`).
- A region a phrase opens with names the whole ("the outside of the toaster" is the toaster:
  :func:`~knowledge.wording.whole_named`).
- The first place preposition (in, on, inside, at, from, off, by, out of) splits the
  description into the thing and the place it is in or on, and the place is itself a
  description ("the mug on the table in the kitchen" nests twice; "the towel off the sofa").
- A thing told by its use ("something to cut paper with") keeps the use as one term.
- Every run of up to four words that neither starts nor ends with a filler word becomes a
  *term* ("earl grey", "cup of coffee"), with a singular form for a plural last word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import takewhile
from typing import Final

from cogtree.knowledge.scene.needs import in_need
from cogtree.knowledge.wording import (
    LIGHT_VERBS,
    noun_of_action,
    singular,
    singular_forms,
    verb_bases,
    whole_named,
)
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import BEINGS, PEOPLE, shipped_nouns

FILLER_WORDS = frozenset([
    "a", "an", "the", "some", "any", "this", "that", "these", "those", "all", "something",
    "anything", "nothing", "thing", "things", "stuff", "one", "ones", "it", "me", "please", "of",
    "to", "for", "with", "kind", "sort", "my", "mine", "whole", "entire", "his", "her", "their",
])  # fmt: skip
"""Words that need no match in the scene graph ("all of the milk": the milk)."""

FLAVOUR_WORDS = frozenset(["flavored", "flavoured", "flavor", "flavour", "scented", "tasting"])
"""Words that say the word before them is a flavour or smell ("a lime-flavoured soda" is a
soda that is typically lime); they need no match themselves ("a flavoured drink" is a drink)."""

POSSESSIVE_WORDS = frozenset(["my", "mine"])
"""Words that ask for something the speaker owns."""
OTHERS_POSSESSIVE_WORDS = frozenset(["his", "her", "their"])
"""Possessives of someone other than the speaker ("his slippers": not the speaker's own)."""

PLACE_PREPOSITIONS = frozenset(["in", "on", "inside", "at", "from", "off", "by", "out"])
"""Words that start the place part of a description."""

USE_PARTICLES = PLACE_PREPOSITIONS | {"over", "up", "down", "open", "shut", "back", "away"}
MAX_TERM_WORDS = 4
"""The longest run of words sent as one term."""

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

NEGATION = re.compile(
    r"(?i)\s*,?\s*\b(?:but not|except(?: for)?|other than|apart from|excluding|instead of|not)\b\s*"
)
"""What starts the excluded part of a description ("a snack, but not the crisps")."""

ALTERNATIVES = re.compile(r"\s*(?:,|\bor\b|\band\b|\bnor\b)\s*", re.I)
"""What separates the excluded things ("not the lemon or the grapes")."""


@dataclass(frozen=True)
class Term:
    """A word or run of words to look up, and the content positions it covers."""

    text: str
    covers: frozenset[int]


@dataclass(frozen=True)
class Phrase:
    """The words naming one thing, in order; ``content`` holds the positions that need a match."""

    words: tuple[str, ...]

    @property
    def content(self) -> frozenset[int]:
        """Positions of the words that are not filler (and not "my")."""
        return frozenset(i for i, word in enumerate(self.words) if word not in FILLER_WORDS)

    @property
    def head(self) -> int | None:
        """Position of the word that names the thing (the last content word).

        None when a pronoun noun stands for it ("the blue one": every word only describes).
        """
        if not self.content or PRONOUN_NOUNS & set(self.words):
            return None
        return max(self.content)

    @property
    def use(self) -> str | None:
        """The use a tool is told by ("something to sweep it up with": sweep up), or None.

        Only a verb's use said with "with": "something to eat" names what the thing is.
        """
        words, lemmas = self.words, shipped_lemmas()
        if len(words) < 3 or words[-1] != "with" or words[-3] != "to" or lemmas is None:
            return None
        return words[-2] if lemmas.lemma_of(words[-2].split()[0], "verb") else None

    @property
    def possessive(self) -> int | None:
        """Position of "my" / "mine" (the speaker owns the thing), or None."""
        return next((i for i, word in enumerate(self.words) if word in POSSESSIVE_WORDS), None)

    @property
    def someone_elses(self) -> bool:
        """Whether a possessive opens the thing: someone else's ("his", "her", "their" mug).

        Not one further on ("a mug for her", "the mug by his bottle").
        """
        return bool(self.words) and self.words[0] in OTHERS_POSSESSIVE_WORDS

    def terms(self) -> list[Term]:
        """Every run of words to look up (with singular forms), in order of first position.

        A phrase of one word that is a verb form ("drank", "dusting": what a context said was
        done with "it") is also looked up by its base forms ("drink", "dust").
        """
        content = self.content
        found: dict[str, set[int]] = {}
        alone = len(content) == 1
        for start in range(len(self.words)):
            for end in range(start + 1, min(len(self.words), start + MAX_TERM_WORDS) + 1):
                run = self.words[start:end]
                if run[0] in FILLER_WORDS or run[-1] in FILLER_WORDS:
                    continue
                forms = singular_forms(run[-1])
                if alone and len(run) == 1:
                    forms += verb_bases(run[-1])
                for last in forms:
                    text = " ".join((*run[:-1], last))
                    found.setdefault(text, set()).update(content.intersection(range(start, end)))
        return [Term(text, frozenset(covers)) for text, covers in found.items()]

    def __str__(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class Description:
    """A parsed description: the thing, and optionally where it is (another description)."""

    thing: Phrase
    preposition: str | None = None
    place: Description | None = None
    purpose: tuple[str, ...] = ()
    """The words of the purpose the thing is told by, as said, from its verb on ("water the
    toms with"); () for none."""

    @classmethod
    def parse(cls, text: str) -> Description:
        """Parse ``text``; never fails (text without words gives an empty phrase)."""
        normalised = text.lower().replace("\u2019", "'")
        words = [_strip_possessive(word) for word in WORD.findall(normalised)]
        described = cls._from_words(in_need(_for_purpose(_without_flavour_words(words))))
        _, at = _purpose_at(words)
        purpose = tuple(words[at:]) if at else ()
        if purpose and purpose[-1] != "with" and _used_on(list(purpose[1:])):
            purpose = (*purpose, "with")  # "to hang this shirt up on": a tool's use
        return replace(described, purpose=purpose)

    @classmethod
    def _from_words(cls, words: list[str]) -> Description:
        words = whole_named(words)  # "the top of the wardrobe" is the wardrobe
        for index, word in enumerate(words):
            if word in PLACE_PREPOSITIONS:
                place = cls._from_words(words[index + 1 :])
                return cls(Phrase(tuple(words[:index])), preposition=word, place=place)
        return cls(Phrase(tuple(words)))

    def __str__(self) -> str:
        if self.place is None:
            return str(self.thing)
        return f"{self.thing} {self.preposition} {self.place}"


def _without_flavour_words(words: list[str]) -> list[str]:
    """``words`` without the flavour words ("lime flavoured soda" -> "lime soda")."""
    return [word for word in words if word not in FLAVOUR_WORDS]


def _for_purpose(words: list[str]) -> list[str]:
    """A thing told by its use (``usedFor``): the verb after "to" or "I can", with its particle.

    "something to cut paper with": cut; "... the rain off": keep off; "to do it up": do up;
    "to give the soup a stir with": stir, with (a light verb's noun of action).
    Where it is taken from, after the verb or its particle, stays the description's place
    ("something to drink from the fridge", "something to sit on from the garden").
    """
    index, at = _purpose_at(words)
    if not at:
        return words
    verb, after = words[at : at + 1], words[at + 1 :]
    if verb[0] in LIGHT_VERBS and (act := _noun_of_action(after)):  # "give it a stir"
        verb, after = [act], ["with"] if "with" in after else []
    if _places(after):  # "to drink (out of) the fridge": where from, not how it is used
        return [*words[:index], "to", *verb, *after[:1], *after[1 + (after[1] == "of") :]]
    if after[:1] and after[0] in USE_PARTICLES and _places(after[1:]):  # "to sit on from"
        return [*words[:index], "to", f"{verb[0]} {after[0]}", *after[1:]]
    tail = [word for word in after if word != "with"]
    particle = sorted(USE_PARTICLES & {*tail[-1:]} or USE_PARTICLES & {*tail[:1]})
    tool = ["with"] if "with" in after or _used_on(after) else []  # a tool's use
    return [*words[:index], "to", " ".join(verb + particle), *tool]


OBJECT_PRONOUNS: Final = frozenset(["it", "them", "this", "that", "these", "those"])
"""Pronouns that stand for a thing a purpose's verb acts on ("to scoop it up")."""
OBJECT_OPENERS: Final = frozenset(
    ["the", "a", "an", "my", "your", "his", "her", "our", "their", "its", "some"]
)
"""Words that open a noun phrase a purpose's verb acts on ("to check her temperature")."""


def _used_on(after: list[str]) -> bool:
    """Whether a purpose's verb acts on a thing of its own: the thing asked for is its tool.

    ``after``: the words after the verb. "to hang this shirt up on", "to scoop it up", "to
    check her temperature", "to keep the draught off my legs": the verb's object is said, so
    "something" is what it is done with or in. Not when nothing is ("to eat", "to put on my
    feet": the thing is what is eaten or put on), nor when the object is a being ("to give
    the baby", "to feed the cat": the thing is what is given), nor a person's pronoun alone.
    """
    if not after or after[0] not in OBJECT_PRONOUNS | OBJECT_OPENERS:
        return False
    if after[0] in OBJECT_PRONOUNS:
        return after[0] != "them" or len(after) > 1  # "to give them": people, perhaps
    named = list(takewhile(lambda word: word not in USE_PARTICLES | {"with"}, after[1:]))
    nouns = shipped_nouns()
    if not named or nouns is None:
        return False
    head = singular(named[-1])  # "the flowers": a flower
    being = nouns.first_in(head, BEINGS) or nouns.has_sense_in(head, PEOPLE)  # "my mum" too
    return not being and bool(nouns.senses(head))


def _purpose_at(words: list[str]) -> tuple[int, int]:
    """Where a thing's purpose opens ("to", "I can") and where its verb is; (0, 0) for none.

    Only after a pronoun noun ("something warm to put on"), and not "to use" or "to be".
    """
    for index in range(1, len(words) - 1):
        can = re.fullmatch(r"(i|we|you) (can|could)", " ".join(words[index : index + 2]))
        at = index + 1 if words[index] == "to" else index + 2 if can else 0
        told = PRONOUN_NOUNS & {*words[:index]}
        if at and told and words[at : at + 1] and words[at] not in ("use", "be"):
            return index, at
    return 0, 0


ACTS: Final = "noun.act"
"""The dictionary's file of nouns that name acts ("a stir", "a wipe")."""


def _noun_of_action(tail: list[str]) -> str:
    """The verb a light verb's noun of action names at the use's end ("the soup a stir"), or "".

    After the light verb's object (:func:`~knowledge.wording.noun_of_action`): a noun that is
    a verb and names an act in one of its senses, then "with" or nothing.
    """
    lemmas, nouns = shipped_lemmas(), shipped_nouns()
    if lemmas is None or nouns is None:
        return ""

    def acts(word: str) -> bool:
        return lemmas.lemma_of(word, "verb") == word and ACTS in nouns.files(word)

    for start in range(1, len(tail)):
        found = noun_of_action(
            tail,
            start,
            {},
            manner=str.isalpha,
            ends=lambda end: end == len(tail) or tail[end] == "with",
            acts=acts,
        )
        if found is not None:
            return found.verb[0]
    return ""


def _places(tail: list[str]) -> bool:
    """Whether the words after a use's verb say where the thing is taken from ("from the fridge").

    Not when they are the verb's particle ("to drink from", "to wipe it down").
    """
    source = next((len(words) for words in SOURCES if tail[: len(words)] == words), 0)
    rest = tail[source:]
    return bool(source and rest) and rest[0] not in USE_PARTICLES and rest[-1] not in USE_PARTICLES


SOURCES: Final = (["from"], ["out", "of"])
"""What opens where a thing is taken from after a use's verb; "on", "in", "off" or "out" alone
are a particle or say where it is used ("to put on my feet", "to put out the fire")."""


def _strip_possessive(word: str) -> str:
    return word[:-2] if word.endswith("'s") and len(word) > 2 else word


def split_negation(description: str) -> tuple[str, list[str]]:
    """What is wanted, and what is excluded (none without a negation).

    "a snack, but not the crisps or the nuts" -> ("a snack", ["the crisps", "the nuts"]).
    """
    parts = NEGATION.split(description, maxsplit=1)
    if len(parts) == 1:
        return description, []
    wanted, rest = parts
    return wanted, [text for text in ALTERNATIVES.split(rest) if text.strip()]


PRONOUN_NOUNS: Final = frozenset(
    ["one", "ones", "something", "anything", "nothing", "thing", "things", "stuff"]
)
"""Filler words that stand for the noun: the other words only describe the thing."""
