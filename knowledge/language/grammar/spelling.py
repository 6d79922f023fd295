"""Typed spellings put back: stretched words ("pleeease") and lost apostrophes ("wheres").

People stretch a word for feeling in typed chat; the grammar's lists hold each word once, so
a stretched "please" after a thing was read as part of it ("a fruit pleeease"). A word with a
letter three or more times in a row is read as the first known word its runs shorten to (two
letters, then one, every run alike: "pleeease" -> "pleease" -> "please"). Known words are
every word written in the grammar's word file (``request_words.yaml``, its comments too) and
the English stop words; a word that shortens to none of them, or only to one letter, is kept
as written ("zzz", "brrr", "xxx"), and so is a word in capitals ("AAA" batteries, "III").

Chat spells some words as they are said ("u", "outta", "gimme"): :func:`unreduced` writes
each of :data:`REDUCED_FORMS` out in full.

People also type short forms without their apostrophe ("wheres my phone", "im cold"). A word
that is no word of the dictionary nor a known word, and that one apostrophe makes a known
word, is read as that word (:func:`with_apostrophes`); a word the dictionary knows stays as
typed, so "its", "were", "ill" and "cant" keep their own sense.

A slip of one key in a verb of the grammar ("swich the lamp on", "brign me", "fecth"): a word
of four letters or more that no dictionary knows nor the grammar, in lower case, one edit
(a letter left out, added, changed, or two swapped) from exactly one of the grammar's
verbs of the robot's capabilities (or the first word of a phrasal one: "switch" of "switch
on") that starts with the same letter, is read as that verb (:func:`with_verbs_mended`): only
in lower case, where a verb stands (opening a clause, or after "you", "please", "and"...),
and never as a verb that throws a thing away. "Trish wants her glasses" keeps its name.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from rapidfuzz.distance import OSA

from cogtree.knowledge.language.grammar.words import ACTIONS, PARTICLES, WORDS_FILE, request_words
from cogtree.knowledge.language.tfidf import english_stop_words
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

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


REDUCED_FORMS: Final = {
    "u": "you", "outta": "out of", "gimme": "give me",
    "lemme": "let me", "kinda": "kind of", "sorta": "sort of", "lotta": "lot of",
    "summat": "something", "owt": "anything", "nowt": "nothing", "somethin": "something",
    "sumthin": "something", "anythin": "anything", "nothin": "nothing", "thx": "thanks",
}  # fmt: skip
"""Function words and their neighbours as chat spells them said together (or as a dialect
says them: "summat", "owt"), and in full."""
_REDUCED: Final = re.compile(
    r"(?<![\w'-])(" + "|".join(REDUCED_FORMS) + r")(?![\w'-])", re.IGNORECASE
)


def unreduced(text: str) -> str:
    """``text`` with each word of :data:`REDUCED_FORMS` written in full ("outta" -> "out of")."""
    return _REDUCED.sub(_in_full, text)


def _in_full(match: re.Match[str]) -> str:
    said, before = match.group(0), match.string[: match.start()].split()[-1:]
    shape = said == "U" and [word.lower() for word in before] in (["the"], ["a"])  # "a U bend"
    return said if shape else REDUCED_FORMS[said.lower()]


SHORT_FORM_ENDS: Final = ("s", "m", "t", "ve", "re", "ll", "d")
"""What follows the apostrophe of a short form ("where's", "i'm", "don't", "i've")."""
PARTS_OF_SPEECH: Final = ("noun", "verb", "adj", "adv")


def with_apostrophes(text: str) -> str:
    """``text`` with each short form typed without its apostrophe written with it (module)."""
    return re.sub(r"(?<!['\w])[A-Za-z]+(?![\w'])", _apostrophe, text)


def _apostrophe(match: re.Match[str]) -> str:
    word = match.group(0)
    lower = word.lower()
    known, lemmas = known_words(), shipped_lemmas()
    if lower in known or lemmas is None or len(lower) < 2:
        return word
    if any(lemmas.lemma_of(lower, part) for part in PARTS_OF_SPEECH):
        return word
    for end in SHORT_FORM_ENDS:
        cut = len(word) - len(end)
        if cut > 0 and lower.endswith(end) and f"{lower[:cut]}'{end}" in known:
            return f"{word[:cut]}'{word[cut:]}"
    return word


MENDED_LENGTH: Final = 4
"""The shortest word read as a slip in a verb: shorter ones are one edit from too many."""


def with_verbs_mended(text: str) -> str:
    """``text`` with each one-key slip in a verb of the grammar written as the verb (module)."""
    return re.sub(r"(?<!['\w])[a-z]+(?![\w'])", _mended, text)


def _mended(match: re.Match[str]) -> str:
    word, lemmas = match.group(0), shipped_lemmas()
    if len(word) < MENDED_LENGTH or word in known_words() or lemmas is None:
        return word
    before = _WORD.findall(match.string[: match.start()].lower())[-1:]
    clause = not before or re.search(r"[,.;:!?]\s*$", match.string[: match.start()])
    after = re.match(r"\s+([a-z]+)", match.string[match.end() :].lower())
    if not (clause or before[0] in VERB_BEFORE) or after is None or _says_does(after[1]):
        return word  # a verb opens its clause and takes words ("tess, bring", "nuka wants")
    if any(lemmas.lemma_of(word, part) for part in PARTS_OF_SPEECH):
        return word
    near = [verb for verb in _verbs(word[0]) if OSA.distance(word, verb, score_cutoff=1) <= 1]
    return near[0] if len(near) == 1 else word


def _says_does(word: str) -> bool:
    """Whether ``word`` is a verb said of someone ("wants", "says"): what comes before is a name."""
    lemmas = shipped_lemmas()
    verb = lemmas.lemma_of(word, "verb") if lemmas is not None else None
    return verb is not None and verb != word and word.endswith("s")


VERB_BEFORE: Final = frozenset(["you", "please", "and", "then", "to", "pls", "ya"])
"""Words a verb follows inside its clause ("can you brign me", "please fecth", "and tunr")."""

THROWING_AWAY: Final = ("bin",)
"""A verb whose capability no slip is read as, nor any verb of it: a thing thrown away cannot
be taken back ("tash" is a name more often than "trash")."""


@functools.cache
def _verbs(first: str) -> tuple[str, ...]:
    """The robot's verbs (a phrasal one's first word) from ``first``; none :data:`THROWING_AWAY`."""
    verbs = request_words().verbs
    thrown = verbs[THROWING_AWAY][1]
    opening = {
        key[0]
        for key, (kind, capability) in verbs.items()
        if kind == ACTIONS
        and capability != thrown
        and (len(key) == 1 or (len(key) == 2 and key[1] in PARTICLES))
    }
    return tuple(sorted(verb for verb in opening if verb.startswith(first)))
