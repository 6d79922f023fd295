r"""TF-IDF vectors for every turn, on NumPy and SciPy's sparse matrices alone.

Every ``cogtree ask`` scores the request against the packs' example texts (the scope and
intent matchers, :class:`~knowledge.understanding.scope_matching.NearestExamples`) and against what
memory holds (the sufficiency gate, :class:`~knowledge.language.similarity.SimilarityIndex`).
Importing scikit-learn for that costs more than a second and a half of CPU (it loads ``scipy.stats``
and more at import), more than the rest of the command. :class:`TfidfVectors` computes the
vectors scikit-learn's ``TfidfVectorizer`` computes with the settings this project uses:
lower-cased text; word n-grams over the token pattern ``(?u)\b\w\w+\b``, English stop words
optionally left out first, or character n-grams inside word boundaries (``char_wb``, each
word padded with one space), or terms given as they are (:meth:`TfidfVectors.fit_terms`);
raw or sublinear term frequency; smoothed IDF; rows of unit Euclidean length.
``tests/knowledge/test_tfidf.py`` checks that the two agree on arbitrary texts. Other
options (accents, other norms, document-frequency limits) are not offered.
"""

from __future__ import annotations

import ast
import importlib.util
import logging
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Literal

import numpy as np
from scipy.sparse import csr_matrix

log = logging.getLogger(__name__)

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
        padded = f" {word} "
        for n in range(low, high + 1):
            if n >= len(padded):
                grams.append(padded)
                break
            grams.extend(padded[start : start + n] for start in range(len(padded) - n + 1))
    return grams


@cache
def english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop-word list, read from the file it ships.

    The list is read without importing scikit-learn (which costs more than a second); if the
    file is not where scikit-learn 1.x keeps it, scikit-learn is imported for it.
    """
    spec = importlib.util.find_spec("sklearn")  # finds the package, does not import it
    folder = spec.submodule_search_locations if spec is not None else None
    if folder:
        path = Path(next(iter(folder))) / "feature_extraction" / "_stop_words.py"
        try:
            words = _assigned_words(path.read_text(encoding="utf-8"), "ENGLISH_STOP_WORDS")
        except (OSError, SyntaxError, ValueError) as error:
            log.debug("reading %s failed (%s): importing scikit-learn instead", path, error)
        else:
            return words
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS)


def _assigned_words(source: str, name: str) -> frozenset[str]:
    """The words of ``name = frozenset([...])`` in Python ``source``; ValueError if absent."""
    for node in ast.parse(source).body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(target, "id", None) for target in node.targets] == [name]
            and isinstance(node.value, ast.Call)
            and len(node.value.args) == 1
        ):
            words = ast.literal_eval(node.value.args[0])
            if words and all(isinstance(word, str) for word in words):
                return frozenset(words)
    raise ValueError(f"no {name} = frozenset([...]) of words in the source")


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

    def fit_transform(self, texts: Sequence[str]) -> csr_matrix:
        """Learn the vocabulary and IDF of ``texts``; their rows, of unit length.

        A ValueError when the texts hold no n-gram at all (e.g. only one-letter words).
        """
        return self.fit_terms([self._grams(text) for text in texts])

    def transform(self, texts: Sequence[str]) -> csr_matrix:
        """The rows of ``texts`` over the fitted vocabulary (n-grams it lacks are dropped)."""
        return self.transform_terms([self._grams(text) for text in texts])

    def fit_terms(self, documents: Sequence[Sequence[str]]) -> csr_matrix:
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

    def transform_terms(self, documents: Sequence[Sequence[str]]) -> csr_matrix:
        """:meth:`transform` for documents given as their terms."""
        if self._idf is None:
            raise ValueError("TfidfVectors.transform before fitting: call fit_transform first")
        return self._weighted(self._counts(documents))

    def _grams(self, text: str) -> list[str]:
        low, high = self.ngram_range
        if self.analyzer == "word":
            return word_ngrams(text, low, high, self.stop_words)
        return char_wb_ngrams(text, low, high)

    def _counts(self, documents: Sequence[Sequence[str]]) -> csr_matrix:
        """Rows of term counts over the vocabulary, indices sorted."""
        indices: list[int] = []
        values: list[int] = []
        indptr = [0]
        for terms in documents:
            counted = Counter(self.vocabulary[term] for term in terms if term in self.vocabulary)
            for index in sorted(counted):
                indices.append(index)
                values.append(counted[index])
            indptr.append(len(indices))
        return csr_matrix(
            (
                np.asarray(values, dtype=self.dtype),
                np.asarray(indices, dtype=np.int32),
                np.asarray(indptr, dtype=np.int32),
            ),
            shape=(len(documents), len(self.vocabulary)),
        )

    def _weighted(self, counts: csr_matrix) -> csr_matrix:
        assert self._idf is not None
        if self.sublinear_tf:
            np.log(counts.data, out=counts.data)
            counts.data += 1.0
        counts.data *= self._idf[counts.indices]
        return unit_rows(counts)


def unit_rows(matrix: csr_matrix) -> csr_matrix:
    """``matrix`` (CSR) with every non-empty row scaled to unit Euclidean length, in place.

    Squares are summed in double precision, as scikit-learn's ``normalize`` does.
    """
    rows = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
    squares = np.square(matrix.data).astype(np.float64)
    lengths = np.sqrt(np.bincount(rows, weights=squares, minlength=matrix.shape[0]))
    lengths[lengths == 0.0] = 1.0
    matrix.data[:] = matrix.data / lengths[rows]
    return matrix
