"""Stretched words put back: "pleeease", "sooo", "yesss" are "please", "so", "yes".

People stretch a word for feeling in typed chat; the grammar's lists hold each word once, so
a stretched "please" after a thing was read as part of it ("a fruit pleeease"). A word with a
letter three or more times in a row is read as the first known word its runs shorten to (two
letters, then one, every run alike: "pleeease" -> "pleease" -> "please"). Known words are
every word written in the grammar's word file (``request_words.yaml``, its comments too) and
the English stop words; a word that shortens to none of them, or only to one letter, is kept
as written ("zzz", "brrr", "xxx"), and so is a word in capitals ("AAA" batteries, "III").
"""

from __future__ import annotations

import functools
import re
from typing import Final

from cogtree.knowledge.language.grammar.words import WORDS_FILE
from cogtree.knowledge.language.tfidf import english_stop_words

_RUN: Final = re.compile(r"([a-z])\1{2,}", re.IGNORECASE)
"""A letter three or more times in a row."""
_WORD: Final = re.compile(r"[a-z]+(?:'[a-z]+)?")


@functools.cache
def known_words() -> frozenset[str]:
    """Every word written in the grammar's word file and the English stop words, lower case."""
    listed = _WORD.findall(WORDS_FILE.read_text(encoding="utf-8").lower())
    return frozenset(listed) | english_stop_words()


def unstretched(text: str) -> str:
    """``text`` with each stretched word that shortens to a known word written as that word."""
    if not _RUN.search(text):
        return text
    return re.sub(r"[A-Za-z']+", _unstretch, text)


def _unstretch(match: re.Match[str]) -> str:
    word = match.group(0)
    if not _RUN.search(word) or word.isupper():
        return word
    for keep in (2, 1):
        shorter = _RUN.sub(r"\1" * keep, word)
        if len(shorter) > 1 and shorter.lower() in known_words():
            return shorter
    return word
