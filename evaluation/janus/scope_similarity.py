"""How similar domains confuse scope detection (JANUS's Table 3 and Figure 5).

1. The pairwise similarity of the domains' descriptions (:meth:`DomainProfile.document`: the
   description and its tasks' descriptions): cosine of TF-IDF vectors
   (:class:`~knowledge.language.tfidf.TfidfVectors`), and of
   embeddings when an embedding function is given.
2. Every 3-domain configuration is ranked by the mean similarity of its three pairs (TF-IDF);
   five are chosen at evenly spaced ranks, from the least to the most overlapping.
3. Each configuration's routing accuracy on the scope items of its domains plus the
   OutOfScope items (:func:`~evaluation.janus.profile_scope.score_profile_scope`: the
   matcher over the three profiles only, then the backend's model).

:func:`write_heatmap` draws the similarity matrices with matplotlib (the ``plots`` extra).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cogtree.evaluation.janus.profile_scope import ProfileScopeItem, score_profile_scope
from cogtree.knowledge.language.similarity import Embedder
from cogtree.knowledge.language.tfidf import SparseRows, TfidfVectors, english_stop_words
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.packs.domain_profile import DomainProfile
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE

CONFIGURATIONS = 5
"""How many configurations the study evaluates (the paper's five)."""

CONFIGURATION_SIZE = 3
"""Domains per configuration (the paper's three)."""

LEVELS = ("low", "mid-low", "mid", "mid-high", "high")
"""The overlap level of each of the five configurations, lowest first."""


@dataclass(frozen=True)
class SimilarityMatrix:
    """Pairwise cosine similarity of domain descriptions, by one method."""

    method: str
    names: tuple[str, ...]
    values: np.ndarray

    def pair(self, first: str, second: str) -> float:
        """The similarity of two domains."""
        return float(self.values[self.names.index(first), self.names.index(second)])

    def mean(self, domains: Sequence[str]) -> float:
        """The mean similarity of every pair of ``domains``."""
        pairs = list(itertools.combinations(domains, 2))
        if not pairs:
            raise ValueError("a mean pairwise similarity needs at least two domains")
        return sum(self.pair(a, b) for a, b in pairs) / len(pairs)


def tfidf_similarity(profiles: Sequence[DomainProfile]) -> SimilarityMatrix:
    """Cosine similarity of TF-IDF vectors of words (English stop words dropped)."""
    vectorizer = TfidfVectors(sublinear_tf=True, stop_words=english_stop_words())
    vectors = vectorizer.fit_transform([profile.document() for profile in profiles])
    return SimilarityMatrix("TF-IDF", tuple(profile.name for profile in profiles), _cosine(vectors))


def embedding_similarity(
    profiles: Sequence[DomainProfile], embedder: Embedder, method: str
) -> SimilarityMatrix:
    """Cosine similarity of the embedder's vectors of the descriptions."""
    vectors = np.asarray(embedder([profile.document() for profile in profiles]), dtype=float)
    if vectors.ndim != 2 or len(vectors) != len(profiles):
        raise ValueError(
            f"the embedder returned {len(vectors)} vectors for {len(profiles)} descriptions"
        )
    return SimilarityMatrix(method, tuple(profile.name for profile in profiles), _cosine(vectors))


def _cosine(vectors: np.ndarray | SparseRows) -> np.ndarray:
    """Pairwise cosine similarity of the rows of ``vectors`` (dense or sparse).

    An all-zero row has a cosine of 0 with every row.
    """
    rows = np.asarray(
        vectors.toarray() if isinstance(vectors, SparseRows) else vectors, dtype=np.float64
    )
    lengths = np.linalg.norm(rows, axis=1, keepdims=True)
    lengths[lengths == 0.0] = 1.0
    unit = rows / lengths
    cosines: np.ndarray = unit @ unit.T
    return cosines


@dataclass(frozen=True)
class Configuration:
    """Three domains and how much their descriptions overlap (mean pairwise similarity)."""

    level: str
    domains: tuple[str, ...]
    similarity: float


def spread_configurations(
    matrix: SimilarityMatrix, *, count: int = CONFIGURATIONS, size: int = CONFIGURATION_SIZE
) -> list[Configuration]:
    """``count`` configurations of ``size`` domains at evenly spaced ranks of overlap.

    Every combination is ranked by mean pairwise similarity (ties by name); the first and
    the last are the least and the most overlapping.
    """
    if len(matrix.names) < size:
        raise ValueError(f"{len(matrix.names)} domains cannot make a configuration of {size}")
    ranked = sorted(
        (
            (matrix.mean(domains), domains)
            for domains in itertools.combinations(sorted(matrix.names), size)
        ),
        key=lambda pair: (pair[0], pair[1]),
    )
    positions = sorted(
        {round(step * (len(ranked) - 1) / max(count - 1, 1)) for step in range(count)}
    )
    levels = (
        LEVELS
        if len(positions) == len(LEVELS)
        else tuple(f"#{n + 1}" for n in range(len(positions)))
    )
    return [
        Configuration(level, ranked[position][1], round(ranked[position][0], 4))
        for level, position in zip(levels, positions, strict=True)
    ]


@dataclass(frozen=True)
class ConfigurationResult:
    """One configuration's routing accuracy on one backend."""

    configuration: Configuration
    backend: str
    items: int
    accuracy: float | None
    fast_path: float | None
    model_calls: int
    embedding_similarity: float | None = None


def evaluate_configurations(
    profiles: Sequence[DomainProfile],
    items: Sequence[ProfileScopeItem],
    configurations: Sequence[Configuration],
    *,
    backend: str,
    llm: LLMClient | None,
    label: str = "",
    embedded: SimilarityMatrix | None = None,
) -> list[ConfigurationResult]:
    """Route each configuration's items (its domains' and the OutOfScope ones) among its domains."""
    by_name = {profile.name: profile for profile in profiles}
    results = []
    for configuration in configurations:
        chosen = [by_name[name] for name in configuration.domains]
        kept = [item for item in items if item.domain in (*configuration.domains, OUT_OF_SCOPE)]
        score = score_profile_scope(chosen, kept, backend=backend, llm=llm, label=label)
        results.append(
            ConfigurationResult(
                configuration,
                label or backend,
                len(kept),
                score.accuracy,
                score.share("fast_path"),
                len(score.calls),
                None if embedded is None else round(embedded.mean(configuration.domains), 4),
            )
        )
    return results


def similarity_table(matrices: Sequence[SimilarityMatrix]) -> str:
    """The matrices as Markdown tables (two decimals)."""
    parts = []
    for matrix in matrices:
        header = "| " + " | ".join([matrix.method, *matrix.names]) + " |"
        rule = "|---|" + "---:|" * len(matrix.names)
        rows = [
            "| " + " | ".join([name, *(f"{value:.2f}" for value in row)]) + " |"
            for name, row in zip(matrix.names, matrix.values, strict=True)
        ]
        parts.append("\n".join([header, rule, *rows]))
    return "\n\n".join(parts)


def configuration_table(results: Sequence[ConfigurationResult]) -> str:
    """The Table 3 analogue: one row per configuration and backend."""
    embedded = any(result.embedding_similarity is not None for result in results)
    columns = ["overlap", "domains", "mean similarity (TF-IDF)"]
    columns += ["mean similarity (embedding)"] if embedded else []
    columns += ["backend", "items", "accuracy", "fast path", "model calls"]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for result in results:
        cells = [
            result.configuration.level,
            ", ".join(result.configuration.domains),
            f"{result.configuration.similarity:.3f}",
        ]
        if embedded:
            value = result.embedding_similarity
            cells.append("–" if value is None else f"{value:.3f}")
        cells += [
            result.backend,
            str(result.items),
            _shown(result.accuracy),
            _shown(result.fast_path),
            str(result.model_calls),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _shown(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def write_heatmap(matrices: Sequence[SimilarityMatrix], path: Path) -> Path:
    """A PNG with one annotated heatmap per matrix (JANUS's Figure 5); returns ``path``.

    Needs matplotlib (``pip install 'cogtree[plots]'``); ImportError names the fix.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError(
            "the heatmap needs matplotlib: pip install 'cogtree[plots]' (or pass --no-heatmap)"
        ) from error
    figure, axes = plt.subplots(1, len(matrices), figsize=(7.5 * len(matrices), 6.5), squeeze=False)
    for axis, matrix in zip(axes[0], matrices, strict=True):
        image = axis.imshow(matrix.values, cmap="viridis", vmin=0.0, vmax=1.0)
        axis.set_xticks(range(len(matrix.names)), labels=matrix.names, rotation=45, ha="right")
        axis.set_yticks(range(len(matrix.names)), labels=matrix.names)
        for row, column in itertools.product(range(len(matrix.names)), repeat=2):
            value = float(matrix.values[row, column])
            axis.text(
                column,
                row,
                f"{value:.2f}",
                ha="center",
                va="center",
                fontsize=7,
                color="black" if value > 0.6 else "white",
            )
        axis.set_title(f"Domain description similarity\n{matrix.method}", fontsize=10)
        figure.colorbar(image, ax=axis, fraction=0.046, pad=0.04)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
