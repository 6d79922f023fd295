"""WordNet's word classes: whether a word is mostly an adjective, is a verb; adjective contrasts.

Read from the database files, searched, never loaded (:mod:`.files`).

``cntlist.rev`` counts how often each sense of a word was tagged in a corpus; its sense keys
say the part of speech (``cold%1:...`` a noun, ``%3`` an adjective, ``%5`` a satellite
adjective). "cold" was tagged 49 times as an adjective and 10 as a noun; "shed" once as a
noun and never as an adjective, though WordNet lists an adjective "shed".

WordNet groups adjectives in clusters: a head adjective ("cold", "chromatic") with its
satellites ("icy"; "red", "blue"), and an antonym head ("hot"). Two words contrast when a
cluster of one is a cluster of the other, or its antonym's, and they share no sense: a red
mug is no blue mug, a cold drink no hot one; a big towel is a large one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from cogtree.knowledge.wordnet.files import line_of, lines_starting, mapped, shipped_folder
from cogtree.knowledge.wordnet.nouns import NounDatabase, shipped_nouns

ADJECTIVE_KINDS: Final = (b"3", b"5")
NOUN_KIND: Final = b"1"


CACHED_SYNSETS: Final = 2048
"""How many adjective synsets one index keeps parsed."""


@dataclass(frozen=True)
class _Synset:
    satellite: bool
    similar: tuple[int, ...]
    """Its head (``&``) for a satellite; the satellites for a head."""
    antonyms: tuple[int, ...]


class WordClasses:
    """The adjective and verb files and the sense counts of one WordNet database folder."""

    def __init__(self, folder: Path) -> None:
        self._counts = mapped(folder / "cntlist.rev")
        self._verbs = mapped(folder / "index.verb")
        self._index = mapped(folder / "index.adj")
        self._data = mapped(folder / "data.adj")
        self.synset = lru_cache(maxsize=CACHED_SYNSETS)(self._read_synset)
        """The adjective synset at ``offset`` (KeyError when there is none), parsed once."""

    def is_verb(self, word: str) -> bool:
        """Whether ``word`` (a base form: "flick", "read") has a verb sense; "sam" has none."""
        lemma = "_".join(word.lower().split())
        return bool(lemma) and line_of(self._verbs, lemma.encode("utf-8")) is not None

    def senses(self, word: str) -> tuple[int, ...]:
        """The offsets of ``word``'s adjective synsets; () when it has none."""
        lemma = "_".join(word.lower().split())
        line = line_of(self._index, lemma.encode("utf-8")) if lemma else None
        if line is None:
            return ()
        fields = line.split()
        return tuple(int(offset) for offset in fields[len(fields) - int(fields[2]) :])

    def contrast(self, word: str, other: str) -> bool:
        """Whether ``word`` and ``other`` say different things of one quality (see above)."""
        mine, theirs = set(self.senses(word)), set(self.senses(other))
        if word == other or not mine or not theirs or mine & theirs:
            return False
        if _of_one_kind(word, other):
            return True
        if mine & self._heads(theirs) or theirs & self._heads(mine):
            return False  # one is the head of the other's cluster: "icy" is cold
        return not self._clusters(mine).isdisjoint(self._clusters(theirs))

    def _heads(self, senses: set[int]) -> set[int]:
        """The heads of ``senses``' clusters (a head is its own)."""
        heads: set[int] = set()
        for offset in senses:
            synset = self.synset(offset)
            heads.update(synset.similar if synset.satellite else (offset,))
        return heads

    def _clusters(self, senses: set[int]) -> set[int]:
        """The heads of ``senses``' clusters, and their antonyms' heads."""
        heads = self._heads(senses)
        return heads | {far for head in heads for far in self.synset(head).antonyms}

    def _read_synset(self, offset: int) -> _Synset:
        line = line_of(self._data, b"%08d" % offset)
        if line is None:
            raise KeyError(offset)
        fields = line.split(b" | ", 1)[0].split()
        words = int(fields[3], 16)
        at = 4 + 2 * words
        pointers = [fields[at + 1 + 4 * i : at + 5 + 4 * i] for i in range(int(fields[at]))]
        return _Synset(
            satellite=fields[2] == b"s",
            similar=tuple(int(p[1]) for p in pointers if p[0] == b"&" and p[2] in b"as"),
            antonyms=tuple(int(p[1]) for p in pointers if p[0] == b"!" and p[2] in b"as"),
        )

    def mostly_adjective(self, word: str) -> bool:
        """Whether ``word`` was tagged more often as an adjective than as a noun.

        "cold", "spare", "sparkling": True; "shed", "house", a word never tagged: False.
        """
        lemma = "_".join(word.lower().split())
        if not lemma:
            return False
        tagged = {NOUN_KIND: 0, b"adjective": 0}
        for line in lines_starting(self._counts, f"{lemma}%".encode()):
            key, _, count = line.split()
            kind = key.split(b"%", 1)[1][:1]
            if kind in ADJECTIVE_KINDS:
                tagged[b"adjective"] += int(count)
            elif kind == NOUN_KIND:
                tagged[NOUN_KIND] += int(count)
        return tagged[b"adjective"] > tagged[NOUN_KIND]


@cache
def shipped_word_classes() -> WordClasses | None:
    """The word classes the installed ``wn`` distribution ships; None (logged) when absent."""
    folder = shipped_folder()
    return WordClasses(folder) if folder is not None else None


QUALITY_FILE: Final = "noun.attribute"
"""The lexicographer file of the nouns that name qualities (red, whiteness, temperature)."""


def _of_one_kind(word: str, other: str) -> bool:
    """Whether the quality nouns of both words are two kinds of one thing, one not the other.

    Colours are apart in WordNet's adjectives (red lies in the chromatic cluster, white heads
    its own) but their nouns meet: red is a chromatic colour, white an achromatic one, both
    colours. Navy is a kind of blue, so no contrast.
    """
    nouns = shipped_nouns()
    if nouns is None:
        return False
    mine, theirs = _kinds_of_quality(nouns, word), _kinds_of_quality(nouns, other)
    if not mine[0] or not theirs[0] or mine[0] & theirs[1] or theirs[0] & mine[1]:
        return False
    return bool(mine[1] & theirs[1])


def _kinds_of_quality(nouns: NounDatabase, word: str) -> tuple[set[int], set[int]]:
    """The word's quality senses, and what they are kinds of, up to two steps up."""
    senses = {o for o in nouns.senses(word) if nouns.synset(o).lexname == QUALITY_FILE}
    above = {up for o in senses for up in nouns.synset(o).hypernyms}
    return senses, above | {up for o in above for up in nouns.synset(o).hypernyms}
