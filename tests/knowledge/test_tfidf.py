"""TfidfVectors computes what scikit-learn's TfidfVectorizer computes with the same settings.

Every TF-IDF of cogtree is :mod:`knowledge.language.tfidf`, so that no turn imports scikit-learn
(its module docstring says why); these tests hold it to scikit-learn itself (the ``test``
extra), on arbitrary texts, stop words included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer

from cogtree.knowledge.language.tfidf import TfidfVectors, english_stop_words

# Words that repeat (counts above one), stop words, case, digits, one-letter words, accents,
# non-Latin letters and punctuation, joined by several kinds of white space.
TEXT = st.lists(
    st.one_of(
        st.sampled_from(["mug", "Mug", "red", "the", "is", "a", "x", "42", "café", "Straße"]),
        st.text(alphabet=st.sampled_from(list("abcAB19.,'-?!éΣσ日本")), max_size=6),
    ),
    max_size=12,
).flatmap(
    lambda words: st.lists(
        st.sampled_from([" ", "  ", "\t", "\n", "\u00a0", "\u2003", ", "]),
        min_size=len(words),
        max_size=len(words),
    ).map(lambda gaps: "".join(word + gap for word, gap in zip(words, gaps, strict=True)))
)
WORDS = st.lists(st.sampled_from(["the", "is", "mug", "red mug", "Mug", "a", "prawn"]), max_size=5)

CONFIGS: dict[str, tuple[Callable[[], TfidfVectors], Callable[[], Any]]] = {
    "scope words": (
        lambda: TfidfVectors("word", ngram_range=(1, 2), sublinear_tf=True, dtype=np.float32),
        lambda: TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, dtype=np.float32),
    ),
    "scope characters": (
        lambda: TfidfVectors("char_wb", ngram_range=(2, 5), sublinear_tf=True, dtype=np.float32),
        lambda: TfidfVectorizer(
            analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, dtype=np.float32
        ),
    ),
    "memory words": (
        lambda: TfidfVectors("word", ngram_range=(1, 2), stop_words=english_stop_words()),
        lambda: TfidfVectorizer(ngram_range=(1, 2), stop_words="english"),
    ),
}


def _as_is(terms: list[str]) -> list[str]:
    return terms


def _same(ours: Any, theirs: Any, dtype: type) -> None:
    assert ours.dtype == theirs.dtype == dtype
    tolerance = 1e-6 if dtype is np.float32 else 1e-12
    np.testing.assert_allclose(ours.toarray(), theirs.toarray(), rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("config", sorted(CONFIGS))
@settings(max_examples=150, deadline=None)
@given(fitted=st.lists(TEXT, min_size=1, max_size=6), queries=st.lists(TEXT, max_size=3))
def test_vectors_agree_with_scikit_learn(
    config: str, fitted: list[str], queries: list[str]
) -> None:
    ours, theirs = CONFIGS[config][0](), CONFIGS[config][1]()
    try:
        expected = theirs.fit_transform(fitted)
    except ValueError:  # scikit-learn found no term: so must we
        with pytest.raises(ValueError, match="empty vocabulary"):
            ours.fit_transform(fitted)
        return
    _same(ours.fit_transform(fitted), expected, ours.dtype)
    assert ours.vocabulary == {term: int(index) for term, index in theirs.vocabulary_.items()}
    if queries:
        _same(ours.transform(queries), theirs.transform(queries), ours.dtype)


@settings(max_examples=150, deadline=None)
@given(fitted=st.lists(WORDS, min_size=1, max_size=6), queries=st.lists(WORDS, max_size=3))
def test_terms_as_given_agree_with_a_scikit_learn_callable_analyzer(
    fitted: list[list[str]], queries: list[list[str]]
) -> None:
    ours, theirs = TfidfVectors(), TfidfVectorizer(analyzer=_as_is)
    try:
        expected = theirs.fit_transform(fitted)
    except ValueError:
        with pytest.raises(ValueError, match="empty vocabulary"):
            ours.fit_terms(fitted)
        return
    _same(ours.fit_terms(fitted), expected, np.float64)
    if queries:
        _same(ours.transform_terms(queries), theirs.transform(queries), np.float64)


def test_the_stop_words_are_scikit_learns() -> None:
    assert english_stop_words() == ENGLISH_STOP_WORDS


def test_bad_settings_and_an_unfitted_transform_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="ngram_range"):
        TfidfVectors(ngram_range=(2, 1))
    with pytest.raises(ValueError, match="word analyzer only"):
        TfidfVectors("char_wb", stop_words=frozenset({"a"}))
    with pytest.raises(ValueError, match="fit_transform first"):
        TfidfVectors().transform(["a mug"])
