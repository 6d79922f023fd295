"""Top-k retrieval over the archive A that stays fast while the archive grows turn by turn.

:class:`~knowledge.language.similarity.SimilarityIndex` refits its whole TF-IDF model after any
addition; on 10k archived facts that refit costs about 200 ms, and in the memory loop (write
a turn, read for the next) every write would pay it. This index is therefore two-tiered:

- a *settled* tier holding most of the archive, rebuilt only when the fresh tier overflows;
- a *fresh* tier holding the facts archived since (at most ``max(64, sqrt(settled))``), which
  is cheap to refit.

Both tiers are fitted on the write path (:meth:`ArchiveIndex.add`), so a read only queries
them. A query asks both tiers and merges the matches by cosine score. With TF-IDF the two
tiers weigh words by their own document frequencies, so scores across tiers are close but
not identical; with an embedder they are the same measure.

With TF-IDF, an ``expander`` adds the synonyms and categories of texts and queries, weighed less
(:mod:`knowledge.language.term_expansion`). With an embedder, each archived text is embedded once
(:meth:`ArchiveIndex.prepare`) and its vector kept, so rebuilding the settled tier does not
call the model again, and a failing embedder fails before anything changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from cogtree.knowledge.language.similarity import Embedder, SimilarityIndex
from cogtree.knowledge.language.term_expansion import TermExpander

MIN_FRESH = 64
"""The fresh tier may hold at least this many facts before the tiers are merged."""


class _KeptVectors:
    """An embedder that answers from kept vectors, and asks the model only for new texts.

    Texts passed to :meth:`keep` (the archive's) are remembered; of queries, only the last
    one, so asking both tiers embeds a query once and queries do not accumulate.
    """

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, Sequence[float]] = {}
        self._last_query: tuple[str, Sequence[float]] | None = None

    def keep(self, texts: Sequence[str]) -> None:
        missing = list(dict.fromkeys(text for text in texts if text not in self._vectors))
        if not missing:
            return
        vectors = list(self._embedder(missing))
        if len(vectors) != len(missing):
            raise ValueError(
                f"the embedder returned {len(vectors)} vectors for {len(missing)} texts: "
                "it must return one vector per text"
            )
        self._vectors.update(zip(missing, vectors, strict=True))

    def __call__(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        if all(text in self._vectors for text in texts):
            return [self._vectors[text] for text in texts]
        if len(texts) != 1:
            return self._embedder(texts)
        if self._last_query is None or self._last_query[0] != texts[0]:
            (vector,) = self._embedder(texts)
            self._last_query = (texts[0], vector)
        return [self._last_query[1]]


class _Tier:
    """One similarity index over some archived facts, fitted on the write path."""

    def __init__(self, vectors: _KeptVectors | None, expander: TermExpander | None) -> None:
        self.ids: list[int] = []
        self.index = SimilarityIndex(vectors, expander=expander)

    def add(self, items: Sequence[tuple[int, str]]) -> None:
        self.ids.extend(fact_id for fact_id, _ in items)
        self.index.add([text for _, text in items])
        self.index.fit()

    def top_k(
        self, query: str, k: int, allowed: Callable[[int], bool] | None
    ) -> list[tuple[int, float]]:
        ids = self.ids
        permitted = None if allowed is None else (lambda position: allowed(ids[position]))
        return [(ids[m.index], m.score) for m in self.index.top_k(query, k, allowed=permitted)]


class ArchiveIndex:
    """Which archived facts (by id) are most similar to a request; see the module docstring."""

    def __init__(
        self, embedder: Embedder | None = None, *, expander: TermExpander | None = None
    ) -> None:
        self._vectors = _KeptVectors(embedder) if embedder is not None else None
        self._expander = expander
        self._texts: dict[int, str] = {}
        self._settled = self._tier()
        self._fresh = self._tier()

    def _tier(self) -> _Tier:
        return _Tier(self._vectors, self._expander)

    def __len__(self) -> int:
        return len(self._texts)

    def prepare(self, texts: Sequence[str]) -> None:
        """Embed texts about to be added, so :meth:`add` cannot fail on the embedder.

        Does nothing with TF-IDF. Raises whatever the embedder raises; nothing changes then.
        """
        if self._vectors is not None:
            self._vectors.keep(texts)

    def add(self, items: Sequence[tuple[int, str]]) -> None:
        """Index archived facts given as (id, text); ids must be new."""
        if not items:
            return
        self.prepare([text for _, text in items])
        self._texts.update(items)
        capacity = max(MIN_FRESH, math.isqrt(len(self._settled.ids)))
        if len(self._fresh.ids) + len(items) > capacity:
            self._settled = self._tier()
            self._settled.add(sorted(self._texts.items()))
            self._fresh = self._tier()
        else:
            self._fresh.add(items)

    def top_k(
        self, query: str, k: int, *, allowed: Callable[[int], bool] | None = None
    ) -> list[tuple[int, float]]:
        """Up to ``k`` (fact id, cosine score) pairs, best first (ties: newer id first).

        ``allowed`` filters fact ids; matches with score 0 are left out.
        """
        matches = self._settled.top_k(query, k, allowed) + self._fresh.top_k(query, k, allowed)
        matches.sort(key=lambda match: (-match[1], -match[0]))
        return matches[:k]
