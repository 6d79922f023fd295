"""The steps of a request the robot left undone for want of a skill, and who could do them.

A request is done as far as the robot can (:mod:`~knowledge.language.missing_steps`); the reply
then says what it did not do and why ("I did not do the rest: I can't cut things yet."), and,
when someone in the house can be asked to do it (a person of the belief with an ability named
like the skill, not the one speaking, not away or asleep, never a child:
:func:`~skills.planning.delegation.may_do`), offers to ask them ("Sam can cut things: I can
ask Sam to do it for you."). The offer is only an offer: where the robot can ask at once (a
request refused for want of a skill alone, or done in part by a task-level plan) it asks
instead, and :func:`undone_said` says whom (:mod:`~skills.planning.delegation`).

Clauses of a request that no task held are left the same way, and said with why
(:func:`left_item`: "I did not do 'place the slice inside': I could not tell where to put it").

Of look-alikes side by side, the robot hands over one (any would do); the reply names the
others so the user can swap with one word (:func:`alternatives_item`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from cogtree.knowledge.language.request_frame import Step
from cogtree.knowledge.language.unsupported_skills import skill_named
from cogtree.knowledge.scene.fit_for_use import also_there
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import EvidenceItem, SlotResolution
from cogtree.knowledge.wording import joined
from cogtree.skills.planning.delegation import (
    asked_sentence,
    asked_with,
    believed_people,
    may_do,
    skill_of,
)
from cogtree.skills.planning.plan_model import ToAPlan

UNDONE_SOURCE = "missing_skill"
"""The evidence source of the sentence about the steps left undone."""

LEFT_SOURCE = "left"
"""The evidence source of the sentence about the clauses of a request that no task held."""

ALTERNATIVES_SOURCE = "alternatives"
"""The evidence source of the sentence that offers look-alikes left beside the one handed over."""


def helpers_for(
    scene: SceneGraph, undone: Sequence[Step], speaker: str | None
) -> dict[str, list[str]]:
    """Skill (:func:`skill_of` the undone steps) -> the names of the people who could do it.

    Reads the belief's people: run it off the tick thread.
    """
    skills: dict[str, list[str]] = {}  # each skill and the verbs it was asked with
    for step in undone:
        if step.unsupported:
            skills.setdefault(skill_of(step), []).append(asked_with(step))
    if not skills:
        return {}
    labels = {human.id: human.label for human in scene.humans()}
    people = believed_people(scene)
    found = {}
    for skill, verbs in skills.items():
        known = skill_named(skill)
        handles = known.handles if known is not None else ()
        found[skill] = [
            labels.get(person.id, person.id)
            for person in sorted(people, key=lambda person: person.id)
            if person.id != speaker
            and any(may_do(person, skill, handles, asked_as=verb) for verb in verbs)
        ]
    return {skill: names for skill, names in found.items() if names}


def undone_said(
    scene: SceneGraph,
    undone: Sequence[Step],
    speaker: str | None,
    asked: ToAPlan | None,
    achieved: Collection[int],
) -> tuple[dict[str, list[str]], str]:
    """Who could do the ``undone`` steps, or what the robot says of whom it ``asked``.

    :func:`helpers_for` the steps; or, when a delegation plan ran (``asked``; ``achieved``: the
    ids of its steps done), :func:`~skills.planning.delegation.asked_sentence`. Reads the
    belief's people: run it off the tick thread.
    """
    if asked is not None and asked.steps:
        names = {human.id: human.label for human in scene.humans()}
        return {}, asked_sentence(asked, achieved, names, speaker)
    return helpers_for(scene, undone, speaker), ""


def offers(undone: Sequence[Step], helpers: Mapping[str, Sequence[str]]) -> list[str]:
    """One sentence per missing skill someone could do: "Sam can cut things: I can ask Sam..."."""
    said: dict[str, str] = {}
    for step in undone:
        names = helpers.get(skill_of(step), [])
        if names and step.missing_skill and step.missing_skill not in said:
            who = joined(list(names), "or")
            said[step.missing_skill] = (
                f"{who} can {step.missing_skill}: I can ask {who} to do it for you."
            )
    return list(said.values())


def undone_item(
    undone: Sequence[Step], helpers: Mapping[str, Sequence[str]], asked: str = ""
) -> EvidenceItem | None:
    """The evidence sentence for the steps left ``undone``; None when nothing was left.

    ``helpers`` comes from :func:`helpers_for`; ``asked``, when the robot asked someone to do
    them, says whom (:func:`undone_said`), and is said instead of the offers.
    """
    says = list(dict.fromkeys(step.missing_skill for step in undone if step.missing_skill))
    if not says:
        return None
    sentences = [
        f"I did not do the rest: I can't {joined(says, 'or')} yet.",
        *([asked] if asked else offers(undone, helpers)),
    ]
    return EvidenceItem(source=UNDONE_SOURCE, text=" ".join(sentences))


def left_item(left: Sequence[str], why: str) -> EvidenceItem | None:
    """The sentence for the clauses of a request the robot left, as said, and why; None if none.

    The first clause is the one no task held (``why`` says what the robot could not tell or
    do); the clauses after it were left with it, as they may need what it would have done.
    """
    if not left:
        return None
    rest = ", nor what comes after it" if len(left) > 1 else ""
    return EvidenceItem(source=LEFT_SOURCE, text=f"I did not do '{left[0]}'{rest}: {why}.")


def alternatives_item(resolved: Mapping[str, SlotResolution]) -> EvidenceItem | None:
    """The sentence that offers the things left beside one handed over (any would do).

    ``resolved`` is the turn's resolutions; None when no slot chose among look-alikes
    (:func:`~knowledge.scene.fit_for_use.any_will_do`).
    """
    others = [label for item in resolved.values() for label in also_there(item.reasons)]
    if not others:
        return None
    named = joined([_alike(label, others.count(label)) for label in dict.fromkeys(others)], "and")
    said = "is there too, if you meant that one" if len(others) == 1 else "are there too, if you"
    said += "" if len(others) == 1 else " meant one of those"
    return EvidenceItem(source=ALTERNATIVES_SOURCE, text=f"{named} {said} instead.")


def _alike(label: str, count: int) -> str:
    """Things of one label left beside the one handed over: "the mug", "2 more like the mug"."""
    return f"the {label}" if count == 1 else f"{count} more like the {label}"
