"""What of a request the robot does when one of its steps needs a skill the robot lacks.

The request is not refused whole. Its steps before the first one the robot cannot do are done
(:func:`doable_part`): they gather and set out ("take the whisk and a bowl out of the
cupboard"), and none of them needs what the missing step would make. The missing step and
every step after it are left (:func:`left_undone`): a later step may need the missing one's
result ("slice the pineapple and put the pieces in a bowl"), and the robot says what it could
not do.

A request whose first step is missing and that goes on with steps the robot could do has its
things set out instead (:func:`gathering`): the things that step works on and with, those the
scene holds, are brought to the speaker so a person can do it ("slice the melon with the big
knife, then put it in the bowl": the melon, the knife); the reply says what was left, and who
could be asked to do it. A request for the missing skill alone ("dice the courgette") is refused,
naming the skill.

Nothing is done when a step before the missing one powers or heats something (its capability
needs :data:`POWERING`: "switch on the kettle and stir the soup"): done on its own, it would
leave an appliance or a heat source running for a step nobody will do. That request is refused
whole, naming the missing skill.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.request_frame import WANTED, ObjectPhrase, RequestFrame, Step
from cogtree.knowledge.scene.taxonomy import household_taxonomy

STAYS_PUT: Final = ("Appliance", "FurniturePiece")
"""Categories of the taxonomy whose things are used where they stand, never brought."""

POWERING: Final = "SWITCH_ON"
"""The robot skill that leaves an appliance or a heat source running (skills/action_model)."""


def _first_missing(frame: RequestFrame) -> int | None:
    """The index of the first step that asks for a skill the robot lacks; None if none."""
    return next((at for at, step in enumerate(frame.steps) if step.unsupported), None)


def leaves_running(step: Step) -> bool:
    """Whether ``step``'s capability powers or heats something (it needs :data:`POWERING`)."""
    return POWERING in request_words().skills.get(step.action, frozenset())


def doable_part(frame: RequestFrame, known: Callable[[str], bool] | None = None) -> RequestFrame:
    """``frame`` cut to its steps before the first missing one (all of it when none is).

    The cut frame names no missing skill; it has no step when a step before the missing one
    :func:`leaves_running` or when the first step is missing and nothing is gathered for it
    (:func:`gathering`, with ``known``: none without). The request is then refused whole.
    """
    first = _first_missing(frame)
    if first is None:
        return frame
    doable = frame.steps[:first]
    if not doable and known is not None and (gather := gathering(frame, known)) is not None:
        doable = (gather,)
    return replace(frame, steps=() if any(map(leaves_running, doable)) else doable)


def left_undone(frame: RequestFrame) -> tuple[Step, ...]:
    """The steps of ``frame`` from the first missing one on (none when nothing is missing)."""
    first = _first_missing(frame)
    return () if first is None else frame.steps[first:]


def gathering(frame: RequestFrame, known: Callable[[str], bool]) -> Step | None:
    """A step bringing the things the missing first step names, for a person to use.

    Only for a request that goes on past that step with an action the robot has ("... and put
    the slices in the bowl"): a request for the missing skill alone ("dice the courgette") is
    refused, naming it. The things are that step's wanted objects and its tool, as said, kept
    when ``known`` says the scene holds them and they are not used where they stand (an
    appliance, furniture). None when the first step is not missing (its doable part runs, or
    is refused) or when no such thing is known. Whether one may be brought is the hazard
    check's to say, as for every step: bringing a sharp, hot or toxic thing nobody asked for
    is asked about first, and to a child refused (``offered_unasked``,
    ``dangerous_to_child`` in ``knowledge/safety/hazards/rules.ttl``).
    """
    if _first_missing(frame) != 0 or not any(step.action for step in frame.steps[1:]):
        return None
    step = frame.steps[0]
    said = [*step.wanted, *([step.tool] if step.tool is not None else [])]
    things = tuple(_things(said, known))
    if not things:
        return None
    said_as = f"{WANTED} {' and '.join(phrase.text for phrase in things)}"
    return Step(text=said_as, verb=WANTED, action=WANTED, objects=things)


def _things(phrases: list[ObjectPhrase], known: Callable[[str], bool]) -> dict[ObjectPhrase, None]:
    """The phrases that name a thing ``known`` holds, once each (no pronoun, no person).

    A thing the taxonomy calls an appliance or furniture (:data:`STAYS_PUT`) is left out.
    """
    taxonomy = household_taxonomy()
    return dict.fromkeys(
        phrase
        for phrase in phrases
        if not phrase.pronoun
        and not phrase.person
        and known(phrase.text)
        and not (
            (kind := taxonomy.type_named(phrase.text)) is not None
            and any(taxonomy.is_a(kind, category) for category in STAYS_PUT)
        )
    )
