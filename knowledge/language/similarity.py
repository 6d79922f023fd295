"""Top-k text similarity: TF-IDF cosine by default, or any embedding.

TF-IDF is :mod:`knowledge.language.tfidf`.

TF-IDF may add the synonyms and categories of a text's words
(:mod:`knowledge.language.term_expansion`) as features of their own, weighed less than the text's
own words (:data:`RELATED_WEIGHT`).

Used by the memory archive and the failure-experience store. ``add`` marks the index stale;
it is refitted by :meth:`SimilarityIndex.fit` (call it on a write path to keep queries cheap)
or, failing that, at the next query.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cogtree.knowledge.language.term_expansion import TermExpander
from cogtree.knowledge.language.tfidf import (
    SparseRows,
    TfidfVectors,
    english_stop_words,
    side_by_side,
    unit_rows,
)

RELATED_WEIGHT = 0.85
"""How much the block of related terms (synonyms and categories from the expander) weighs
against the block of the text's own words. The blocks are apart, so related terms neither
change the IDF of the words nor make bigrams with them: "can she eat peanut butter" is about
the peanut fact, not the breakfast one, though eat and breakfast share meal, food, dinner...
Below 1, a word both texts hold counts more than a term they are both related to; on the
recall set (benchmarks/memory_recall.py) 0.85 keeps the recall@3 of 1.0 (0.818), and 0.7 or
less loses some (0.809, 0.773)."""

Embedder = Callable[[Sequence[str]], Sequence[Sequence[float]]]
"""Texts -> vectors, e.g. a wrapper around Ollama's ``embed``; one vector per text."""


@dataclass(frozen=True)
class Match:
    """One retrieved item: its position in the index and its cosine similarity."""

    index: int
    score: float


class SimilarityIndex:
    """An append-only collection of texts that answers "which k are most like this one".

    With no ``embedder`` it uses TF-IDF over word unigrams and bigrams (English stop words
    removed; texts with no word at all match nothing); with an ``expander`` (synonyms and
    categories: :class:`~knowledge.language.term_expansion.TermExpander`), each text's related terms
    are a second block of features, weighed by :data:`RELATED_WEIGHT`; with an embedder,
    cosine similarity of the embedder's vectors, each text embedded once when it is added.
    """

    def __init__(
        self, embedder: Embedder | None = None, *, expander: TermExpander | None = None
    ) -> None:
        self.embedder = embedder
        self.expander = expander
        self._texts: list[str] = []
        self._vectors: list[Sequence[float]] = []
        # rows L2-normalised, a dot product is the cosine: the embeddings, one row a text, or
        # the TF-IDF transposed (a term's row lists the texts that hold it)
        self._matrix: np.ndarray | SparseRows | None = None
        self._vectorizer: TfidfVectors | None = None
        self._related: TfidfVectors | None = None
        self._stale = False
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._texts)

    def text(self, index: int) -> str:
        """The text added at position ``index``."""
        return self._texts[index]

    def add(self, texts: Sequence[str]) -> None:
        """Append texts; their indices continue from the current length.

        With an embedder the texts are embedded first, so a failing embedder leaves the
        index as it was.
        """
        vectors = list(self.embedder(list(texts))) if self.embedder and texts else []
        if self.embedder is not None and len(vectors) != len(texts):
            raise ValueError(
                f"the embedder returned {len(vectors)} vectors for {len(texts)} texts; "
                "it must return one vector per text"
            )
        with self._lock:
            self._texts.extend(texts)
            self._vectors.extend(vectors)
            self._stale = True

    def fit(self) -> None:
        """Refit now (after additions), so the next query only multiplies."""
        with self._lock:
            self._fit_locked()

    def top_k(
        self, query: str, k: int, *, allowed: Callable[[int], bool] | None = None
    ) -> list[Match]:
        """The ``k`` most similar texts (score > 0), best first; ``allowed`` filters indices."""
        with self._lock:
            if not self._texts or k <= 0:
                return []
            self._fit_locked()
            if self._matrix is None:
                return []
            scores = self._scores(query, self._matrix)
        order = np.argsort(-scores, kind="stable")
        matches: list[Match] = []
        for index in order:
            if scores[index] <= 0.0:
                break
            if allowed is None or allowed(int(index)):
                matches.append(Match(int(index), float(scores[index])))
                if len(matches) == k:
                    break
        return matches

    def _fit_locked(self) -> None:
        if not self._stale:
            return
        self._stale = False
        if self.embedder is not None:
            self._matrix = _normalised(np.asarray(self._vectors, dtype=float))
            return
        self._vectorizer = _fitted_words(self._texts)
        self._related = None
        if self._vectorizer is None:
            self._matrix = None
            return
        if self.expander is not None:
            self._related = _fitted_related([self.expander.related(t) for t in self._texts])
        self._matrix = self._tfidf_rows(self._texts).transposed()

    def _scores(self, query: str, matrix: np.ndarray | SparseRows) -> np.ndarray:
        """The cosine of ``query`` with every text."""
        if isinstance(matrix, SparseRows):
            scores: np.ndarray = self._tfidf_rows([query]).times(matrix)[0]
            return scores
        assert self.embedder is not None
        vector = _normalised(np.asarray(self.embedder([query]), dtype=float))
        return np.ravel(matrix @ vector.T)

    def _tfidf_rows(self, texts: Sequence[str]) -> SparseRows:
        """The texts' own words, then their related terms at :data:`RELATED_WEIGHT`; unit rows."""
        assert self._vectorizer is not None
        words = self._vectorizer.transform(texts)
        if self._related is None or self.expander is None:
            return words
        related = self._related.transform_terms([self.expander.related(t) for t in texts])
        return unit_rows(side_by_side([words, related.scaled(RELATED_WEIGHT)]))


def _fitted_words(texts: Sequence[str]) -> TfidfVectors | None:
    """TF-IDF of word unigrams and bigrams, English stop words out.

    All words count when the texts hold only stop words; None when they hold no word at all
    (e.g. only "a" or emoji).
    """
    for stop_words in (english_stop_words(), frozenset[str]()):
        vectorizer = TfidfVectors("word", ngram_range=(1, 2), stop_words=stop_words)
        try:
            vectorizer.fit_transform(texts)
        except ValueError:
            continue
        return vectorizer
    return None


def _fitted_related(terms: Sequence[list[str]]) -> TfidfVectors | None:
    """TF-IDF over related terms, each term one feature ("peanut butter" too); None if none."""
    vectorizer = TfidfVectors()
    try:
        vectorizer.fit_terms(terms)
    except ValueError:  # no text has a related term
        return None
    return vectorizer


def _normalised(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    normalised: np.ndarray = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return normalised
