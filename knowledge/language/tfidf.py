r"""TF-IDF vectors for every turn, on NumPy alone.

Every ``cogtree ask`` scores the request against the packs' example texts (the scope and
intent matchers, :class:`~knowledge.understanding.scope_matching.NearestExamples`) and against what
memory holds (the sufficiency gate, :class:`~knowledge.language.similarity.SimilarityIndex`).
:class:`TfidfVectors` computes the vectors scikit-learn's ``TfidfVectorizer`` computes with the
settings this project uses: lower-cased text; word n-grams over the token pattern
``(?u)\b\w\w+\b``, English stop words (:func:`english_stop_words`) optionally left out first,
or character n-grams inside word boundaries (``char_wb``, each word padded with one space), or
terms given as they are (:meth:`TfidfVectors.fit_terms`); raw or sublinear term frequency;
smoothed IDF; rows of unit Euclidean length. ``tests/knowledge/test_tfidf.py`` checks that the
two agree on arbitrary texts. Other options (accents, other norms, document-frequency limits)
are not offered.

Why this module and not scikit-learn: the vectors are needed on every turn, so scikit-learn
would be imported on every turn. Measured on two shared cores: importing
``sklearn.feature_extraction.text`` (it loads ``scipy.stats`` and more) costs 0.9-1.1 s of CPU
and 1.1-1.8 s of wall time on top of the NumPy and SciPy sparse modules this module then
needed, and this module itself 5 ms; a turn of ``cogtree ask "where is the magazine?" --llm none``
takes 3.0-3.4 s of CPU without scikit-learn and 4.0-4.7 s with it. Keeping the import off the
command's start-up path would not help, as the first turn needs the vectors. So scikit-learn
is no dependency of cogtree: the evaluation wing uses this module too, the English stop words
are this package's own file (``english_stop_words.txt``, scikit-learn's list), and
scikit-learn is installed only with the ``test`` extra, as the reference the equivalence tests
compare against.

Nor SciPy: the vectors are :class:`SparseRows`, compressed sparse rows on NumPy arrays, with
the few operations the matchers need (unit rows, blocks side by side, a product into a dense
matrix). Importing ``scipy.sparse`` pulls in much of NumPy's optional modules (``numpy.f2py``,
``numpy.ma``, ``numpy.testing``, ``unittest``): 0.15-0.2 s of CPU on every turn (development
figure), for operations this module does in a few lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final, Literal

import numpy as np

Analyzer = Literal["word", "char_wb"]
"""``word``: word n-grams; ``char_wb``: character n-grams inside word boundaries."""

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_WHITE_SPACES = re.compile(r"\s\s+")


def word_ngrams(
    text: str, low: int, high: int, stop_words: frozenset[str] = frozenset()
) -> list[str]:
    """The lower-cased word n-grams of ``text``, ``low`` to ``high`` words long.

    Stop words are removed before the n-grams are made, so a bigram may join the words on
    either side of one.
    """
    tokens = [token for token in _TOKEN.findall(text.lower()) if token not in stop_words]
    grams: list[str] = []
    for n in range(low, min(high, len(tokens)) + 1):
        grams.extend(" ".join(tokens[start : start + n]) for start in range(len(tokens) - n + 1))
    return grams


def char_wb_ngrams(text: str, low: int, high: int) -> list[str]:
    """The lower-cased character n-grams of each word of ``text``, padded with a space.

    A padded word shorter than ``n`` gives itself once, as scikit-learn's ``char_wb`` does.
    """
    grams: list[str] = []
    for word in _WHITE_SPACES.sub(" ", text.lower()).split():
        grams.extend(_word_grams(word, low, high))
    return grams


@lru_cache(maxsize=1 << 16)
def _word_grams(word: str, low: int, high: int) -> tuple[str, ...]:
    """The character n-grams of one word padded with a space (words recur across texts)."""
    padded = f" {word} "
    grams: list[str] = []
    for n in range(low, high + 1):
        if n >= len(padded):
            grams.append(padded)
            break
        grams.extend(padded[start : start + n] for start in range(len(padded) - n + 1))
    return tuple(grams)


STOP_WORDS_FILE: Final = Path(__file__).with_name("english_stop_words.txt")
"""The English stop words, one a line (``#`` starts a comment line)."""


@cache
def english_stop_words() -> frozenset[str]:
    """The English stop words of :data:`STOP_WORDS_FILE` (scikit-learn's list), read once."""
    lines = STOP_WORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(word for line in lines if (word := line.strip()) and word[0] != "#")


class TfidfVectors:
    """TF-IDF over word or character n-grams, fitted on a list of texts (module docstring).

    Args:
        analyzer: ``word`` or ``char_wb``.
        ngram_range: the shortest and longest n-grams, in words or characters.
        sublinear_tf: a term counted ``c`` times weighs ``1 + log(c)`` instead of ``c``.
        stop_words: words the ``word`` analyzer leaves out (e.g. :func:`english_stop_words`).
        dtype: ``np.float32`` or ``np.float64`` (scikit-learn's default).

    """

    def __init__(
        self,
        analyzer: Analyzer = "word",
        *,
        ngram_range: tuple[int, int] = (1, 1),
        sublinear_tf: bool = False,
        stop_words: frozenset[str] = frozenset(),
        dtype: type[np.floating] = np.float64,
    ) -> None:
        low, high = ngram_range
        if not 1 <= low <= high:
            raise ValueError(f"ngram_range must satisfy 1 <= low <= high; got {ngram_range}")
        if stop_words and analyzer != "word":
            raise ValueError("stop_words apply to the word analyzer only")
        self.analyzer = analyzer
        self.ngram_range = ngram_range
        self.sublinear_tf = sublinear_tf
        self.stop_words = stop_words
        self.dtype = dtype
        self.vocabulary: dict[str, int] = {}
        self._idf: np.ndarray | None = None

    def fit_transform(self, texts: Sequence[str]) -> SparseRows:
        """Learn the vocabulary and IDF of ``texts``; their rows, of unit length.

        A ValueError when the texts hold no n-gram at all (e.g. only one-letter words).
        """
        return self.fit_terms([self._grams(text) for text in texts])

    def transform(self, texts: Sequence[str]) -> SparseRows:
        """The rows of ``texts`` over the fitted vocabulary (n-grams it lacks are dropped)."""
        return self.transform_terms([self._grams(text) for text in texts])

    def fit_terms(self, documents: Sequence[Sequence[str]]) -> SparseRows:
        """:meth:`fit_transform` for documents given as their terms, each term one feature."""
        self.vocabulary = {
            term: index for index, term in enumerate(sorted(set().union(*documents)))
        }
        if not self.vocabulary:
            raise ValueError(
                f"empty vocabulary: no document holds a term ({self.analyzer} n-grams of "
                f"{self.ngram_range[0]} to {self.ngram_range[1]}, stop words left out)"
            )
        counts = self._counts(documents)
        smoothed = np.bincount(counts.indices, minlength=len(self.vocabulary)).astype(self.dtype)
        smoothed += 1.0
        idf = np.full_like(smoothed, len(documents) + 1, dtype=self.dtype)
        idf /= smoothed
        np.log(idf, out=idf)
        idf += 1.0
        self._idf = idf
        return self._weighted(counts)

    def transform_terms(self, documents: Sequence[Sequence[str]]) -> SparseRows:
        """:meth:`transform` for documents given as their terms."""
        if self._idf is None:
            raise ValueError("TfidfVectors.transform before fitting: call fit_transform first")
        return self._weighted(self._counts(documents))

    def _grams(self, text: str) -> list[str]:
        low, high = self.ngram_range
        if self.analyzer == "word":
            return word_ngrams(text, low, high, self.stop_words)
        return char_wb_ngrams(text, low, high)

    def _counts(self, documents: Sequence[Sequence[str]]) -> SparseRows:
        """Rows of term counts over the vocabulary, indices sorted."""
        width = len(self.vocabulary)
        found = [self.vocabulary.get(term, -1) for terms in documents for term in terms]
        terms = np.asarray(found, dtype=np.int64)
        rows = np.repeat(np.arange(len(documents)), [len(terms) for terms in documents])
        known = terms >= 0
        # one key per (row, term), sorted by row then term; its count is the term's
        keys, counts = np.unique(rows[known] * width + terms[known], return_counts=True)
        per_row = np.bincount(keys // width, minlength=len(documents))
        return SparseRows(
            counts.astype(self.dtype),
            keys % width,
            np.concatenate(([0], np.cumsum(per_row))).astype(np.int64),
            width,
        )

    def _weighted(self, counts: SparseRows) -> SparseRows:
        assert self._idf is not None
        data = counts.data  # the counts' own array: weighted in place
        if self.sublinear_tf:
            np.log(data, out=data)
            data += 1.0
        data *= self._idf[counts.indices]
        return unit_rows(counts)


@dataclass(frozen=True)
class SparseRows:
    """A matrix held as the non-zero values of each row (compressed sparse rows).

    Row ``r`` has the values ``data[indptr[r]:indptr[r + 1]]`` in the columns
    ``indices[indptr[r]:indptr[r + 1]]`` (ascending); the matrix has ``width`` columns.
    """

    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    width: int

    @property
    def shape(self) -> tuple[int, int]:
        """Rows and columns."""
        return len(self.indptr) - 1, self.width

    @property
    def dtype(self) -> np.dtype:
        """The type of the values."""
        return self.data.dtype

    def row_numbers(self) -> np.ndarray:
        """The row of each stored value."""
        return np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))

    def toarray(self) -> np.ndarray:
        """The matrix as a dense array."""
        dense = np.zeros(self.shape, dtype=self.dtype)
        dense[self.row_numbers(), self.indices] = self.data
        return dense

    def scaled(self, factor: float) -> SparseRows:
        """Every value times ``factor``."""
        return SparseRows(self.data * factor, self.indices, self.indptr, self.width)

    def rows_between(self, start: int, end: int) -> SparseRows:
        """Rows ``start`` to ``end`` (excluded)."""
        low, high = self.indptr[start], self.indptr[end]
        return SparseRows(
            self.data[low:high],
            self.indices[low:high],
            self.indptr[start : end + 1] - low,
            self.width,
        )

    def transposed(self) -> SparseRows:
        """The columns as rows: for TF-IDF rows, a term's row lists the texts holding it."""
        order = np.argsort(self.indices, kind="stable")
        columns = np.bincount(self.indices, minlength=self.width)
        indptr = np.concatenate(([0], np.cumsum(columns))).astype(np.int64)
        return SparseRows(self.data[order], self.row_numbers()[order], indptr, self.shape[0])

    def times(self, other: SparseRows) -> np.ndarray:
        """The dense product ``self @ other`` (``other`` has a row for each column of ``self``).

        Row by row: each of a row's columns selects the row of ``other`` it multiplies, so a
        short row (a request's few n-grams against an index of texts) reads little.
        """
        if self.width != other.shape[0]:
            raise ValueError(f"cannot multiply {self.shape} by {other.shape}")
        dtype = np.result_type(self.dtype, other.dtype)
        product = np.zeros((self.shape[0], other.width), dtype=dtype)
        for row in range(self.shape[0]):
            low, high = self.indptr[row], self.indptr[row + 1]
            starts = other.indptr[self.indices[low:high]]
            lengths = other.indptr[self.indices[low:high] + 1] - starts
            total = int(lengths.sum())
            if not total:
                continue
            skips = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
            positions = skips + np.arange(total)
            weights = np.repeat(self.data[low:high], lengths) * other.data[positions]
            product[row] = np.bincount(
                other.indices[positions], weights=weights, minlength=other.width
            )
        return product


def side_by_side(blocks: Sequence[SparseRows]) -> SparseRows:
    """The columns of ``blocks`` (as many rows each) one block after the other."""
    offsets = np.cumsum([0, *(block.width for block in blocks)])
    rows = np.concatenate([block.row_numbers() for block in blocks])
    order = np.argsort(rows, kind="stable")
    indices = np.concatenate(
        [block.indices + offset for block, offset in zip(blocks, offsets, strict=False)]
    )
    counts = np.bincount(rows, minlength=blocks[0].shape[0])
    return SparseRows(
        np.concatenate([block.data for block in blocks])[order],
        indices[order],
        np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
        int(offsets[-1]),
    )


def unit_rows(matrix: SparseRows) -> SparseRows:
    """``matrix`` with every non-empty row scaled to unit Euclidean length.

    Squares are summed in double precision, as scikit-learn's ``normalize`` does; the values
    keep their type.
    """
    rows = matrix.row_numbers()
    squares = np.square(matrix.data).astype(np.float64)
    lengths = np.sqrt(np.bincount(rows, weights=squares, minlength=matrix.shape[0]))
    lengths[lengths == 0.0] = 1.0
    data = (matrix.data / lengths[rows]).astype(matrix.dtype)
    return SparseRows(data, matrix.indices, matrix.indptr, matrix.width)
