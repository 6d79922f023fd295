"""A thing said first, and the request after it: "those teabags on the saucer, compost them".

People often name the thing before the request and let the request point back at it, or
leave it out: "the crisp packets on his desk - bin them", "those soggy teabags on the
saucer, compost please". The grammar reads the named thing as a clause of its own with no
verb (the frame's context) and the request as a step with a pronoun for its object, or with
none. :func:`with_topic` gives such a step the thing: when the part of the context clause
after its last comma or dash is one noun phrase opened by a determiner ("the", "those",
"my"), read whole as the object of the step's own verb, and the step comes after it and
names nothing itself but "it", "them" or the like. Nothing else changes: a clause with a
verb, a phrase without a determiner ("I'm cold", "oh well") or a step that names its own
thing keeps the frame as parsed.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.request_frame import RequestFrame, Step, parse_request
from cogtree.knowledge.wording import POINTING, POSSESSIVES
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

POINTING_BACK: Final = POINTING | {"they"}
"""Words a step names its thing by when the thing was said before it ("bin them")."""

LAST_PART: Final = re.compile(r"[,;:\-–—]")
"""What ends a part of a clause before a topic ("oh, and while you're up - those teabags")."""


def with_topic(frame: RequestFrame) -> RequestFrame:
    """``frame`` with a step that names no thing of its own given the topic before it."""
    lowered = frame.text.lower()
    for index, step in enumerate(frame.steps):
        if not _points_back(step) or not step.verb:
            continue
        at = lowered.find(step.text.lower())
        parts = [_last_part(clause) for clause in frame.context]
        before = [part for part in parts if part and 0 <= lowered.find(part.lower()) < at]
        topic = _topic(before[-1], step.verb) if before and at >= 0 else None
        if topic is not None:
            steps = (
                *frame.steps[:index],
                replace(step, objects=(topic,)),
                *frame.steps[index + 1 :],
            )
            return replace(frame, steps=steps)
    return frame


def _points_back(step: Step) -> bool:
    """Whether ``step`` asks for a thing but names none: no object, or one pronoun."""
    if not step.action:
        return False
    wanted = step.wanted
    return not step.objects or (len(wanted) == 1 and wanted[0].text.lower() in POINTING_BACK)


AUXILIARIES: Final = frozenset(["is", "are", "was", "were", "am", "has", "have", "had"])
"""Verbs that make a clause of a noun phrase ("the milk is off")."""


def _says_a_state(words: list[str]) -> bool:
    """Whether ``words`` are a clause, not a phrase.

    A verb of being or having, or a verb's form after a short "'s" ("the tea's gone cold").
    """
    lemmas = shipped_lemmas()
    if AUXILIARIES & set(words):
        return True
    return lemmas is not None and any(
        before.endswith("'s")
        and (lemmas.lemma_of(word, "verb") or word) != word
        and lemmas.lemma_of(word, "noun") is None
        for before, word in itertools.pairwise(words)
    )


def _last_part(clause: str) -> str:
    """What follows the last comma or dash of ``clause``, as said."""
    return LAST_PART.split(clause)[-1].strip()


def _topic(said: str, verb: str) -> ObjectPhrase | None:
    """``said`` read as ``verb``'s object, if it is all one noun phrase with a determiner."""
    words = said.lower().split()
    opening = request_words().determiners | POSSESSIVES | POINTING
    if not words or words[0] not in opening or words[0] in ("it", "them") or _says_a_state(words):
        return None
    read = parse_request(f"{verb} {said}").steps
    if len(read) != 1 or len(read[0].objects) != 1:
        return None
    (phrase,) = read[0].objects
    whole = f"{phrase.text} {phrase.where}".strip().lower()
    return phrase if whole == said.lower() and not phrase.pronoun else None
