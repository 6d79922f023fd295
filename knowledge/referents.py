"""Referring expressions ("the blue bottle", "my mug", "the book on the coffee table"), parsed.

Parsing is deterministic and lexical; the scene graph does the matching:

- The description is lowercased and split into words; ``anna's`` becomes ``anna``.
- Filler words (articles, "something", "one", "to", ...) need no match; ``my`` / ``mine``
  ask for something the speaker owns.
- The first place preposition (in, on, inside, at, from) splits the description into the
  thing and the place it is in, and the place is itself a description ("the mug on the table in
  the kitchen" nests twice).
- Every run of up to four words that neither starts nor ends with a filler word becomes a
  *term* ("earl grey", "cup of coffee"), with a singular form for a plural last word. A node
  is a candidate when the terms it matches cover every non-filler word, it is owned by the
  speaker if the phrase says "my", and it is in one of the places the place part names; the
  scene graph checks all of it in one SPARQL query (``referent_matches.rq``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FILLER_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "some",
        "any",
        "something",
        "anything",
        "thing",
        "things",
        "stuff",
        "one",
        "ones",
        "this",
        "that",
        "these",
        "those",
        "it",
        "me",
        "please",
        "of",
        "to",
        "for",
        "with",
        "kind",
        "sort",
        "my",
        "mine",
    ]
)
"""Words that need no match in the scene graph."""

POSSESSIVE_WORDS = frozenset(["my", "mine"])
"""Words that ask for something the speaker owns."""

PLACE_PREPOSITIONS = frozenset(["in", "on", "inside", "at", "from"])
"""Words that start the place part of a description."""

MAX_TERM_WORDS = 4
"""The longest run of words sent as one term."""

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


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
    def possessive(self) -> int | None:
        """Position of "my" / "mine" (the speaker owns the thing), or None."""
        return next((i for i, word in enumerate(self.words) if word in POSSESSIVE_WORDS), None)

    def terms(self) -> list[Term]:
        """Every run of words to look up (with singular forms), in order of first position."""
        content = self.content
        found: dict[str, set[int]] = {}
        for start in range(len(self.words)):
            for end in range(start + 1, min(len(self.words), start + MAX_TERM_WORDS) + 1):
                run = self.words[start:end]
                if run[0] in FILLER_WORDS or run[-1] in FILLER_WORDS:
                    continue
                for last in singular_forms(run[-1]):
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

    @classmethod
    def parse(cls, text: str) -> Description:
        """Parse ``text``; never fails (text without words gives an empty phrase)."""
        normalised = text.lower().replace("\u2019", "'")
        words = [_strip_possessive(word) for word in WORD.findall(normalised)]
        return cls._from_words(words)

    @classmethod
    def _from_words(cls, words: list[str]) -> Description:
        for index, word in enumerate(words):
            if word in PLACE_PREPOSITIONS:
                place = cls._from_words(words[index + 1 :])
                return cls(Phrase(tuple(words[:index])), preposition=word, place=place)
        return cls(Phrase(tuple(words)))

    def __str__(self) -> str:
        if self.place is None:
            return str(self.thing)
        return f"{self.thing} {self.preposition} {self.place}"


def singular_forms(word: str) -> list[str]:
    """``word`` and, for a plausible plural, its singular forms ("bottles" -> "bottle")."""
    forms = [word]
    if len(word) > 3 and word.endswith("ies"):
        forms.append(word[:-3] + "y")
    elif len(word) > 3 and word.endswith("es"):
        forms.extend([word[:-1], word[:-2]])
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.append(word[:-1])
    return forms


def _strip_possessive(word: str) -> str:
    return word[:-2] if word.endswith("'s") and len(word) > 2 else word
