"""A bigram language model in ARPA form, estimated from the robot's own sentences.

The recogniser's general English model knows some 130,000 words; a robot that is spoken to
about its packs and the things of its home hears few of them. A model estimated from
:func:`~trees.voice.vocabulary.robot_sentences` makes the words the robot knows, in the orders
they are said, far likelier than the rest (docs/voice.md measures how much that helps).

Estimation: unigrams add half a count to every word; a seen bigram keeps its count less
:data:`DISCOUNT` (absolute discounting), and what the discount frees goes to the unigrams
through the history's back-off weight, so every word of the vocabulary may follow any other.
A word the recogniser cannot pronounce (not in ``known``) breaks its sentence in two.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass

START, END = "<s>", "</s>"
DISCOUNT = 0.5
"""Subtracted from every seen bigram's count."""
NEVER = -99.0
"""The ARPA log10 probability of a word that is never predicted (the sentence start)."""


@dataclass(frozen=True)
class BigramModel:
    """Unigram and bigram log10 probabilities and back-off weights."""

    unigrams: dict[str, tuple[float, float]]
    """word -> (log10 p(word), log10 back-off weight after word)."""
    bigrams: dict[tuple[str, str], float]
    """(previous, word) -> log10 p(word | previous)."""

    @property
    def words(self) -> frozenset[str]:
        """The vocabulary, sentence markers left out."""
        return frozenset(self.unigrams) - {START, END}

    def arpa(self) -> str:
        """The model as ARPA text (what PocketSphinx, CMU's and SRI's tools read)."""
        lines = [
            "\\data\\",
            f"ngram 1={len(self.unigrams)}",
            f"ngram 2={len(self.bigrams)}",
            "",
            "\\1-grams:",
        ]
        lines += [f"{p:.4f} {w} {b:.4f}" for w, (p, b) in sorted(self.unigrams.items())]
        lines += ["", "\\2-grams:"]
        lines += [f"{p:.4f} {a} {b}" for (a, b), p in sorted(self.bigrams.items())]
        lines += ["", "\\end\\", ""]
        return "\n".join(lines)


def fragments(sentences: Iterable[list[str]], known: Container[str]) -> Iterator[list[str]]:
    """Each sentence's runs of ``known`` words (an unknown word ends a run)."""
    for words in sentences:
        run: list[str] = []
        for word in [*words, ""]:
            if word and word in known:
                run.append(word)
            elif run:
                yield run
                run = []


def estimate(sentences: Iterable[list[str]], known: Container[str]) -> BigramModel:
    """The bigram model of ``sentences`` (word lists) over the ``known`` words.

    Raises ValueError when no sentence has a known word.
    """
    unigram: Counter[str] = Counter()
    bigram: Counter[tuple[str, str]] = Counter()
    for run in fragments(sentences, known):
        padded = [START, *run, END]
        unigram.update(padded[1:])
        bigram.update(itertools.pairwise(padded))
    if not unigram:
        raise ValueError("no sentence has a word the recogniser knows: nothing to estimate")
    total = sum(unigram.values()) + 0.5 * len(unigram)
    p1 = {word: (count + 0.5) / total for word, count in unigram.items()}
    history: Counter[str] = Counter()
    for (previous, _), count in bigram.items():
        history[previous] += count
    p2 = {
        (previous, word): (count - DISCOUNT) / history[previous]
        for (previous, word), count in bigram.items()
    }
    followed: dict[str, list[str]] = {}
    for previous, word in bigram:
        followed.setdefault(previous, []).append(word)
    unigrams = {START: (NEVER, 0.0)}
    for word in p1:
        unigrams[word] = (math.log10(p1[word]), 0.0)
    for previous, words in followed.items():
        left = 1.0 - sum(p2[previous, word] for word in words)
        rest = 1.0 - sum(p1.get(word, 0.0) for word in words)
        weight = math.log10(left / rest) if rest > 0 else NEVER
        unigrams[previous] = (unigrams[previous][0], weight)
    return BigramModel(unigrams, {pair: math.log10(p) for pair, p in p2.items()})
