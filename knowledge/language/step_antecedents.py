"""What "it" / "them" in a step of a request stands for: what the step before named.

A request of several steps names a thing once and then refers back to it ("take the mug and
put it in the sink"). :func:`with_antecedents` puts the thing named before in place of the
pronoun, as the step's object ("switch it on") or its landmark ("wipe the tray, then set the
cup on it"); :func:`folds_into_next` says when a step only picks up the thing the next step
is about ("grab the bowl and put the pear in it"): the next step's task reaches it anyway.

A thing may also be named first, as a clause of its own, and the request point back at it or
leave it out: "the crisp packets on his desk - bin them", "those soggy teabags on the saucer,
compost please". :func:`with_topic` gives such a step that thing, when the part of the
frame's context clause after its last comma or dash is one noun phrase opened by a
determiner, with no verb of being or having ("the tea's gone cold, bin it" is a remark).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.pronouns import OBJECT_OR_PERSON, PLURAL_PRONOUNS, THING_PRONOUNS
from cogtree.knowledge.language.request_frame import RequestFrame, Step
from cogtree.knowledge.wording import PLACE_WORDS, POINTING, POSSESSIVES
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

REFERS_TO_CONTAINER: Final = frozenset(["switch_on", "switch_off", "open", "close"])
"""Actions whose "it" is the container the step before put a thing in ("...and switch it on")."""


def with_antecedents(steps: Sequence[Step]) -> list[Step]:
    """``steps`` with each "it" / "them" replaced by what the step before named.

    As the object ("switch it on") or as the landmark ("wipe the tray, then set the cup on
    it": the tray).
    """
    done: list[Step] = []
    for step in steps:
        named = _named_before(done[-1], step) if done and _refers_back(step) else ()
        if named:
            step = replace(step, objects=(*named, *step.excluded))
        elif done and step.landmark is not None and step.landmark.head in THING_PRONOUNS:
            before = [phrase for phrase in done[-1].wanted if not phrase.pronoun]
            if len(before) == 1:
                landmark = replace(before[0], preposition=step.landmark.preposition)
                step = replace(step, landmark=landmark)
        done.append(step)
    return done


def folds_into_next(step: Step, following: Step | None) -> bool:
    """Whether ``step`` only picks up a thing ``following`` is about ("take the mug and ...")."""
    return following is not None and _only_picks_up(step) and _about_before(following)


def _named_before(previous: Step, step: Step) -> tuple[ObjectPhrase, ...]:
    """What "it" (one thing) or "them" (all) in ``step`` stands for, from ``previous``."""
    objects = [_from_source(phrase, previous) for phrase in previous.wanted if not phrase.pronoun]
    landmark = [] if previous.landmark is None or previous.landmark.pronoun else [previous.landmark]
    into = previous.relation == "in" and step.action in REFERS_TO_CONTAINER
    ordered = [*landmark, *objects] if into else [*objects, *landmark]
    if not ordered:
        return ()
    plural = any(phrase.head in PLURAL_PRONOUNS for phrase in step.wanted)
    return tuple(objects) if plural and len(objects) > 1 and not into else (ordered[0],)


def _from_source(phrase: ObjectPhrase, step: Step) -> ObjectPhrase:
    """``phrase`` with the place ``step`` takes it from ("the roll out of the toaster")."""
    if step.source is None:
        return phrase
    where = f"{phrase.where} {step.source.preposition} {step.source.described}".strip()
    return replace(phrase, where=where)


def _refers_back(step: Step) -> bool:
    """The step's only object is a pronoun for a thing ("switch it on"), not a person.

    "them", "him", "her" may be either: after a step that named someone or something, it
    is what that step named ("pick up Leo and drop him in the bin": Leo, whom the safety
    rules then judge as a person to move).
    """
    wanted = step.wanted
    return bool(wanted) and all(
        phrase.pronoun and (not phrase.person or phrase.head in OBJECT_OR_PERSON)
        for phrase in wanted
    )


def _about_before(step: Step) -> bool:
    """The step's object or place is "it": what the step before named."""
    landmark = step.landmark
    return _refers_back(step) or (landmark is not None and landmark.head in THING_PRONOUNS)


def _only_picks_up(step: Step) -> bool:
    """A bring step that names a thing but no one, nowhere and no tool ("take the mug")."""
    return (
        step.action == "bring"
        and step.recipient is None
        and step.landmark is None
        and step.tool is None
        and any(not phrase.pronoun for phrase in step.wanted)
    )


def with_topic(frame: RequestFrame) -> RequestFrame:
    """``frame`` with a step that names no thing of its own given the thing named before it."""
    lowered = frame.text.lower()
    for index, step in enumerate(frame.steps):
        if not step.action or (step.objects and not _points_back(step)):
            continue
        at = lowered.find(step.text.lower())
        parts = [LAST_PART.split(clause)[-1].strip() for clause in frame.context]
        before = [part for part in parts if part and 0 <= lowered.find(part.lower()) < at]
        topic = _topic(before[-1]) if before and at >= 0 else None
        if topic is not None:
            told = replace(step, objects=(topic,))
            return replace(frame, steps=(*frame.steps[:index], told, *frame.steps[index + 1 :]))
    return frame


LAST_PART: Final = re.compile(r"[,;:\-\u2013\u2014]")
"""What ends a part of a clause before a topic ("oh, and while you're up - those teabags")."""

AUXILIARIES: Final = frozenset(["is", "are", "was", "were", "am", "has", "have", "had"])
"""Verbs that make a clause of a noun phrase ("the milk is off")."""

JOINING: Final = frozenset(["and", "or", "but"])
"""Words that join two things or clauses: no one noun phrase."""


def _points_back(step: Step) -> bool:
    """Whether the step's only object is a pronoun for a thing ("bin them", "where are they")."""
    wanted = step.wanted
    return len(wanted) == 1 and wanted[0].text.lower() in POINTING | THING_PRONOUNS | {"they"}


def _topic(said: str) -> ObjectPhrase | None:
    """``said`` as one noun phrase with a determiner and where it is, or None."""
    words = said.split()
    lowered = [word.lower() for word in words]
    opening = request_words().determiners | POSSESSIVES | POINTING
    if len(words) < 2 or lowered[0] not in opening or JOINING & set(lowered):
        return None
    if _says_a_state(lowered):
        return None
    place = next((at for at in range(2, len(words)) if lowered[at] in PLACE_WORDS), len(words))
    return ObjectPhrase(
        text=" ".join(words[:place]),
        head=lowered[place - 1],
        modifiers=tuple(lowered[1 : place - 1]),
        determiner=lowered[0],
        where=" ".join(words[place:]),
    )


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
