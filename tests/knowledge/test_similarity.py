"""SimilarityIndex with term expansion: related terms help, but a shared word counts more."""

from __future__ import annotations

from cogtree.knowledge.language.similarity import SimilarityIndex
from cogtree.knowledge.language.term_expansion import TermExpander

GROUPS = [["shrimp", "prawns", "shellfish"], ["breakfast", "meal", "food"], ["eat", "meal", "food"]]


def test_a_synonym_alone_is_found() -> None:
    index = SimilarityIndex(expander=TermExpander(GROUPS))
    index.add(["The user is allergic to prawns", "The user likes the window open"])
    assert [match.index for match in index.top_k("is shrimp ok", 2)] == [0]


def test_a_shared_word_outranks_shared_categories() -> None:
    index = SimilarityIndex(expander=TermExpander(GROUPS))
    index.add(["Tablets after breakfast", "Allergic to peanut butter"])
    best, *rest = index.top_k("can she eat peanut butter", 2)
    assert best.index == 1  # eat ~ breakfast through meal and food, but peanut butter is said
    assert [match.index for match in rest] == [0] and rest[0].score < best.score


def test_the_related_terms_of_a_text_include_its_own_term() -> None:
    assert TermExpander(GROUPS).related("Is SHRIMP ok?") == ["shrimp", "prawns", "shellfish"]
    assert TermExpander([]).related("shrimp") == []
