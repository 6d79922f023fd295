"""Top-k text similarity: TF-IDF cosine by default (scikit-learn), or any embedding.

Used by the memory archive and the failure-experience store. The index is rebuilt lazily
after additions, so a burst of writes costs one refit at the next query.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

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
    removed); with one, cosine similarity of the embedder's vectors.
    """

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder = embedder
        self._texts: list[str] = []
        self._matrix: np.ndarray | None = None
        self._vectorizer: TfidfVectorizer | None = None
        self._embedded: list[Sequence[float]] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._texts)

    def add(self, texts: Sequence[str]) -> None:
        """Append texts; their indices continue from the current length."""
        with self._lock:
            self._texts.extend(texts)
            if self.embedder is not None and texts:
                self._embedded.extend(self.embedder(list(texts)))
            self._matrix = None

    def top_k(
        self, query: str, k: int, *, allowed: Callable[[int], bool] | None = None
    ) -> list[Match]:
        """The ``k`` most similar texts (score > 0), best first; ``allowed`` filters indices."""
        with self._lock:
            if not self._texts or k <= 0:
                return []
            matrix, query_vector = self._vectors(query)
        scores = cosine_similarity(query_vector, matrix)[0]
        order = np.argsort(-scores, kind="stable")
        matches = []
        for index in order:
            if scores[index] <= 0.0:
                break
            if allowed is None or allowed(int(index)):
                matches.append(Match(int(index), float(scores[index])))
                if len(matches) == k:
                    break
        return matches

    def _vectors(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        if self.embedder is not None:
            if self._matrix is None:
                self._matrix = np.asarray(self._embedded, dtype=float)
            return self._matrix, np.asarray(self.embedder([query]), dtype=float)
        if self._matrix is None or self._vectorizer is None:
            self._vectorizer = TfidfVectorizer(ngram_range=(1, 2), stop_words="english")
            try:
                self._matrix = self._vectorizer.fit_transform(self._texts)
            except ValueError:  # every text was stop words only: nothing to compare
                self._vectorizer = TfidfVectorizer(ngram_range=(1, 2))
                self._matrix = self._vectorizer.fit_transform(self._texts)
        return self._matrix, self._vectorizer.transform([query])
