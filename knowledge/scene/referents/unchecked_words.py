"""Describing words the belief cannot check: "those soggy teabags" when nothing says soggy.

People describe a thing by what they see of it ("the soggy teabags", "a new loo roll", "the
wet flannel"); the belief records what perception reports, and may say nothing of it. A
description whose every word must match then matches nothing, and the robot would claim it
has never seen teabags it has seen. :func:`without_unchecked` reads such a description again
without the words no thing of the belief is described by: a word before the one that names
the thing, that the dictionary knows as an adjective (:mod:`~knowledge.wordnet.lemmas`) and
not as a colour, a material or a shape (what perception reports: "the purple pot" rules out
every pot the belief knows of another colour), and that no type, attribute, state, name or
word of any label in the belief matches. What the rest
matches is a guess (the user may mean another thing the belief cannot tell apart): the caller
asks about it, and never acts on it. A word some thing is described by ("the new pan" beside
a pan labelled new) is never dropped, nor is the word that names the thing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from cogtree.knowledge.scene.needs import alike_states
from cogtree.knowledge.scene.referents.description import Description, Phrase
from cogtree.knowledge.scene.scene_index import SceneIndex
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import shipped_nouns


def without_unchecked(index: SceneIndex, said: Description) -> tuple[Description, str, bool] | None:
    """``said`` without the describing words nothing in the belief is described by, and why.

    Always a guess (the last value). None when the phrase has no such word.
    """
    thing, lemmas = said.thing, shipped_lemmas()
    if thing.head is None or lemmas is None:
        return None
    dropped = [
        at
        for at in sorted(thing.content - {thing.head})
        if lemmas.lemma_of(thing.words[at], "adj")
        and not _perceived(thing.words[at])
        and not _described_by(index, thing.words[at])
    ]
    if not dropped:
        return None
    kept = tuple(word for at, word in enumerate(thing.words) if at not in dropped)
    words = ", ".join(repr(thing.words[at]) for at in dropped)
    return replace(said, thing=Phrase(kept)), f"{words}: the belief does not say", True


PERCEIVED: Final = frozenset(["noun.attribute", "noun.substance", "noun.shape"])
"""The dictionary's files of what perception reports of a thing: a colour, a material, a shape."""


def _perceived(word: str) -> bool:
    """Whether ``word`` also names a colour, a material or a shape ("purple", "plastic").

    The belief records those: no thing said so means none is, and the word rules things out.
    """
    nouns = shipped_nouns()
    return nouns is None or bool(PERCEIVED & set(nouns.files(word)))


def _described_by(index: SceneIndex, word: str) -> bool:
    """Whether any thing of the belief is described by ``word`` in any way the index reads."""
    vocabulary = index.vocabulary
    return bool(
        word in vocabulary.types_named
        or word in vocabulary.attributes_named
        or word in vocabulary.kind_words
        or index.named(word)
        or index.members("by_word", [word])
        or index.members("by_state", alike_states(word))
        or any(index.members("by_value", [f"{name}={word}"]) for name in vocabulary.attributes)
    )
