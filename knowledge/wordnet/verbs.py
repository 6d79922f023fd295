"""WordNet's verbs: the other verbs that share a sense with a verb ("dish out": serve).

Read from the database :mod:`.nouns` reads (``index.verb``: one line per verb lemma, sorted,
ending with the offsets of its senses; ``data.verb``: one line per sense, its lemmas after its
offset, lexicographer file, part of speech and lemma count), mapped and searched the same way.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from cogtree.knowledge.wordnet.nouns import line_of, mapped, shipped_nouns

SYNONYMS_CACHED: Final = 1024
"""How many verbs' synonyms one database keeps."""


class Verbs:
    """The verb index and senses of one WordNet database folder, mapped."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._index = mapped(folder / "index.verb")
        self._data = mapped(folder / "data.verb")
        self.synonyms = lru_cache(maxsize=SYNONYMS_CACHED)(self._synonyms)
        """The verbs of every sense of ``verb`` (people's spelling: "dish up"), itself left
        out, in the order of its senses; () for a verb WordNet does not know."""

    def senses(self, verb: str) -> tuple[bytes, ...]:
        """The offsets of ``verb``'s senses (as written in the files); () when unknown."""
        key = "_".join(verb.lower().split())
        line = line_of(self._index, key.encode("utf-8")) if key else None
        if line is None:
            return ()
        fields = line.split()
        return tuple(fields[len(fields) - int(fields[2]) :])

    def _synonyms(self, verb: str) -> tuple[str, ...]:
        key = "_".join(verb.lower().split())
        found: dict[str, None] = {}
        for offset in self.senses(verb):
            sense = line_of(self._data, offset)
            if sense is None:
                continue
            head = sense.split(b" | ", 1)[0].split()
            count = int(head[3], 16)
            for lemma in head[4 : 4 + 2 * count : 2]:
                word = " ".join(lemma.decode("utf-8").lower().split("_"))
                if word != " ".join(key.split("_")):
                    found[word] = None
        return tuple(found)


@cache
def shipped_verbs() -> Verbs | None:
    """The verbs of the database the installed ``wn`` distribution ships; None when absent."""
    nouns = shipped_nouns()
    return Verbs(nouns.folder) if nouns is not None else None
