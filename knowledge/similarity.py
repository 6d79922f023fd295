"""Top-k text similarity: TF-IDF cosine by default (scikit-learn), or any embedding.

TF-IDF may widen texts with synonyms and categories first (:mod:`knowledge.term_expansion`).

Used by the memory archive and the failure-experience store. ``add`` marks the index stale;
it is refitted by :meth:`SimilarityIndex.fit` (call it on a write path to keep queries cheap)
or, failing that, at the next query.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import issparse
from sklearn.feature_extraction.text import TfidfVectorizer

from knowledge.term_expansion import TermExpander

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
    removed; texts with no word at all match nothing), each text and query first widened by
    ``expander`` when one is given (synonyms and categories:
    :class:`~knowledge.term_expansion.TermExpander`); with an embedder, cosine similarity of
    the embedder's vectors, each text embedded once when it is added.
    """

    def __init__(
        self, embedder: Embedder | None = None, *, expander: TermExpander | None = None
    ) -> None:
        self.embedder = embedder
        self.expander = expander
        self._texts: list[str] = []
        self._vectors: list[Sequence[float]] = []
        self._matrix: Any = None  # rows L2-normalised: a dot product is the cosine
        self._vectorizer: TfidfVectorizer | None = None
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
            product = self._matrix @ self._query_vector(query).T
            scores = np.ravel(product.toarray() if issparse(product) else product)
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
        texts = [self._widened(text) for text in self._texts]
        self._vectorizer = TfidfVectorizer(ngram_range=(1, 2), stop_words="english")
        try:
            self._matrix = self._vectorizer.fit_transform(texts)
        except ValueError:  # only stop words: weigh every word instead
            self._vectorizer = TfidfVectorizer(ngram_range=(1, 2))
            try:
                self._matrix = self._vectorizer.fit_transform(texts)
            except ValueError:  # no word at all (e.g. only "a" or emoji): nothing matches
                self._vectorizer, self._matrix = None, None

    def _query_vector(self, query: str) -> Any:
        if self.embedder is not None:
            return _normalised(np.asarray(self.embedder([query]), dtype=float))
        assert self._vectorizer is not None
        return self._vectorizer.transform([self._widened(query)])

    def _widened(self, text: str) -> str:
        return self.expander.expand(text) if self.expander is not None else text


def _normalised(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    normalised: np.ndarray = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return normalised
