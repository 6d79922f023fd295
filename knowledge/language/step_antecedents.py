"""What "it" / "them" in a step of a request stands for: what the step before named.

A request of several steps names a thing once and then refers back to it ("take the mug and
put it in the sink"). :func:`with_antecedents` puts the thing named before in place of the
pronoun, as the step's object ("switch it on") or its landmark ("wipe the tray, then set the
cup on it"); :func:`folds_into_next` says when a step only picks up the thing the next step
is about ("grab the bowl and put the pear in it"): the next step's task reaches it anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.pronouns import OBJECT_OR_PERSON, PLURAL_PRONOUNS, THING_PRONOUNS
from cogtree.knowledge.language.request_frame import Step

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
