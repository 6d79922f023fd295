"""A clipped word read as the word it was clipped from: "my cardi" for my cardigan.

Clipping is how English makes short words (a "cardi", a "brolly"); WordNet holds the ones
that stuck ("telly", "specs", "choc"), and those are read as WordNet and the taxonomy read
them. :func:`unclipped` reads the rest: a word of a description that names nothing here is
the start of the one type name it may have been clipped from. It is read so only when

- it is the word that names the thing (the phrase's head: "the blue cardi"), WordNet knows
  no form of it in any part of speech (:mod:`~knowledge.wordnet.lemmas`: "tall" is no
  clipped "tallboy", "warm" no "warmer"), and it has at least :data:`MIN_SAID` letters;
- the belief's vocabulary has no type, attribute or label by that word;
- every one-word label or synonym of a type that starts with it names one and the same type
  (:attr:`Vocabulary.type_words`: two types are a guess, and nothing is read: "cand" is a
  candle or candy), and the shortest of them is at least :data:`MIN_DROPPED` letters longer.

A plural is read as its singular clipped ("cardis"). The caller resolves the description
read so, and says which word it read as which.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import partial
from itertools import takewhile
from typing import Final

from cogtree.knowledge.scene.referents.description import Description
from cogtree.knowledge.scene.scene_index import SceneIndex
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

MIN_SAID: Final = 4
"""The fewest letters a clipped word keeps: shorter ones start too many words."""

MIN_DROPPED: Final = 2
"""The fewest letters a clipping drops: "cardi" drops three of "cardigan"."""


def unclipped(index: SceneIndex, text: str) -> tuple[str, str, str] | None:
    """``text`` with the word that names its thing completed, the word said and the word read.

    None when that word (the head of the thing's phrase: "my cardi on the armchair": cardi)
    does not read as clipped (module docs), or the phrase has none ("the blue one").
    """
    phrase = Description.parse(text).thing
    if phrase.head is None:
        return None
    said = phrase.words[phrase.head]
    read = _completed(index, said)
    lowered = text.lower()
    found = re.search(rf"\b{re.escape(said)}\b", lowered)
    if read is None or found is None:
        return None
    return f"{lowered[: found.start()]}{read}{lowered[found.end() :]}", said, read


def _completed(index: SceneIndex, word: str) -> str | None:
    """The type word ``word`` was clipped from (a plural stays plural), or None."""
    lemmas = shipped_lemmas()
    vocabulary = index.vocabulary
    if (
        len(word) < MIN_SAID
        or lemmas is None
        or lemmas.knows(word)
        or word in vocabulary.types_named
        or word in vocabulary.attributes_named
        or index.named(word)
    ):
        return None
    stems = [(word, "")] + ([(word[:-1], "s")] if word.endswith("s") else [])
    for stem, ending in stems:
        longer = _starting(vocabulary.type_words, stem)
        types = {kind for w in longer for kind in vocabulary.types_named.get(w, ())}
        shortest = min(longer, key=len, default="")
        if len(types) == 1 and len(stem) >= MIN_SAID and len(shortest) >= len(stem) + MIN_DROPPED:
            return shortest if shortest.endswith("s") else f"{shortest}{ending}"
    return None


def _starting(words: Sequence[str], stem: str) -> list[str]:
    """The words of the sorted ``words`` that start with ``stem``."""
    return list(takewhile(partial(_starts, stem), words[bisect_left(words, stem) :]))


def _starts(stem: str, word: str) -> bool:
    return word.startswith(stem)
