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

A plural is read as its singular clipped ("cardis"). A word of two or three letters that
WordNet does not know is read as the initials of the one type name of as many words that
they start ("OJ": orange juice). A word WordNet knows that names nothing here is read as
the label of the one type its own synsets name (:func:`_synonym`: "specs" for spectacles), a
guess the robot asks about.
The caller resolves the description read so, and says which word it read as which.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import replace
from itertools import islice, takewhile
from typing import Final

from cogtree.knowledge.scene.referents.description import Description, Phrase
from cogtree.knowledge.scene.scene_index import SceneIndex
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

MIN_SAID: Final = 4
"""The fewest letters a clipped word keeps: shorter ones start too many words."""

MIN_INITIALS: Final = 2
"""The fewest letters read as initials ("OJ"); a single letter is a name or a size."""

MIN_DROPPED: Final = 2
"""The fewest letters a clipping drops: "cardi" drops three of "cardigan"."""


def unclipped(index: SceneIndex, said: Description) -> tuple[Description, str, str, bool] | None:
    """``said`` with its thing's word completed; the word said, the word read, and if a guess.

    A synonym is a guess: the word said may have senses the belief's types do not name
    ("whitener" is a coffee creamer as well as bleach); it is asked about, never acted on.
    None when that word (the head of the thing's phrase: "my cardi on the armchair": cardi)
    does not read as clipped (module docs), or the phrase has none ("the blue one").
    """
    thing = said.thing
    word = thing.words[thing.head] if thing.head is not None else ""
    completed = _completed(index, word) if word else None
    read = completed or (_synonym(index, word) if word else None)
    if thing.head is None or read is None:
        return None
    words = (*thing.words[: thing.head], *read.split(), *thing.words[thing.head + 1 :])
    return replace(said, thing=Phrase(words)), word, read, completed is None


def _completed(index: SceneIndex, word: str) -> str | None:
    """The type word ``word`` was clipped from (a plural stays plural), or None."""
    lemmas = shipped_lemmas()
    vocabulary = index.vocabulary
    if MIN_INITIALS <= len(word) < MIN_SAID and lemmas is not None and not lemmas.knows(word):
        return _spelled_out(index, word)
    if len(word) < MIN_SAID or lemmas is None or lemmas.knows(word) or _known_here(index, word):
        return None
    stems = [(word, "")] + ([(word[:-1], "s")] if word.endswith("s") else [])
    for stem, ending in stems:
        longer = _starting(vocabulary.type_words, stem)
        types = {kind for w in longer for kind in vocabulary.types_named.get(w, ())}
        shortest = min(longer, key=len, default="")
        if len(types) == 1 and len(stem) >= MIN_SAID and len(shortest) >= len(stem) + MIN_DROPPED:
            return shortest if shortest.endswith("s") else f"{shortest}{ending}"
    return None


def _synonym(index: SceneIndex, word: str) -> str | None:
    """The label of the type WordNet's synonyms of ``word`` name, when the belief knows none.

    "specs" is in one synset with "spectacles" (:meth:`~knowledge.scene.taxonomy.Taxonomy.
    type_synonymous`): the word is read as the type's label.
    """
    if _known_here(index, word):
        return None
    vocabulary, kind = index.vocabulary, household_taxonomy().type_synonymous(word)
    labels = vocabulary.type_labels.get(kind, ()) if kind is not None else ()
    return labels[0] if labels else None


def _known_here(index: SceneIndex, word: str) -> bool:
    """Whether the belief's vocabulary has a type, an attribute or a name by ``word``."""
    vocabulary = index.vocabulary
    return bool(
        word in vocabulary.types_named or word in vocabulary.attributes_named or index.named(word)
    )


def _spelled_out(index: SceneIndex, initials: str) -> str | None:
    """The one type name whose words start with ``initials`` in order ("oj": orange juice)."""
    names = {
        name
        for name in index.vocabulary.types_named
        if len(words := name.split()) == len(initials)
        and all(w.startswith(letter) for w, letter in zip(words, initials, strict=True))
    }
    kinds = {kind for name in names for kind in index.vocabulary.types_named[name]}
    return min(names) if len(kinds) == 1 else None


def _starting(words: Sequence[str], stem: str) -> list[str]:
    """The words of the sorted ``words`` that start with ``stem``."""
    after = islice(words, bisect_left(words, stem), None)
    return list(takewhile(lambda word: word.startswith(stem), after))
