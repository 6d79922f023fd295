"""What of a request the robot does when one of its steps needs a skill the robot lacks.

The request is not refused whole. Its steps before the first one the robot cannot do are done
(:func:`doable_part`): they gather and set out ("take the whisk and a bowl out of the
cupboard"), and none of them needs what the missing step would make. The missing step and
every step after it are left (:func:`left_undone`): a later step may need the missing one's
result ("slice the pineapple and put the pieces in a bowl"), and the robot says what it could
not do.

A request whose first step is missing has its things set out instead (:func:`gathering`) when
there is more to it than that step: more steps come after it ("slice the melon with the big
knife, then put it in the bowl"), or it makes something the scene does not hold out of things
it does ("make me a cheese sandwich": the cheese). The things that the first missing step
naming any works on and with, those the scene holds, are brought to the speaker so a person
can do the step; the reply says what was left, and who could be asked to do it. A request
for the missing skill alone, on things the scene holds ("dice the courgette", "fry the
mushrooms in the skillet"), is refused, naming the skill.

Nothing is done when a step before the missing one powers or heats something (its capability
needs :data:`POWERING`: "switch on the kettle and stir the soup"): done on its own, it would
leave an appliance or a heat source running for a step nobody will do. That request is refused
whole, naming the missing skill.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.grammar.object_phrase import SPEAKER, ObjectPhrase
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.request_frame import WANTED, RequestFrame, Step
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


Names = Callable[[str], Sequence[str]]
"""The names of the scene's things some words mention, as said ("a cheese sandwich" -> "cheese")."""


def doable_part(frame: RequestFrame, named: Names | None = None) -> RequestFrame:
    """``frame`` cut to its steps before the first missing one (all of it when none is).

    The cut frame names no missing skill; it has no step when a step before the missing one
    :func:`leaves_running` or when the first step is missing and nothing is gathered for it
    (:func:`gathering`, with ``named``: none without). The request is then refused whole.
    """
    first = _first_missing(frame)
    if first is None:
        return frame
    doable = frame.steps[:first]
    if not doable and named is not None and (gather := gathering(frame, named)) is not None:
        doable = (gather,)
    return replace(frame, steps=() if any(map(leaves_running, doable)) else doable)


def left_undone(frame: RequestFrame) -> tuple[Step, ...]:
    """The steps of ``frame`` from the first missing one on (none when nothing is missing)."""
    first = _first_missing(frame)
    return () if first is None else frame.steps[first:]


def gathering(frame: RequestFrame, named: Names) -> Step | None:
    """A step bringing the things the first missing steps work on and with, for a person.

    Only for a request whose first step is missing and that asks for more than that step:
    further steps (the robot's, "... and put the slices in the bowl", or more it cannot do,
    "grate the carrot and mix it with the oil"), or a thing to make that the scene does not
    hold, out of things it does (:func:`_worked_on`: "make me a cheese toastie"). A request
    of the missing step alone on things the scene holds ("dice the courgette") is refused,
    naming it. The things are the wanted objects and tool of the first missing step that
    names some, as said (for a thing to make, the things its name says: the cheese of "a
    cheese toastie"), those ``named`` finds in the scene and not used where they stand (an
    appliance, furniture): what the person needs first. None when the first step is not
    missing (its doable part runs, or is refused) or when no such thing is known. Whether
    one may be brought is the hazard check's to say, as for every step: bringing a sharp, hot
    or toxic thing nobody asked for is asked about first, and to a child refused
    (``offered_unasked``, ``dangerous_to_child`` in ``knowledge/safety/hazards/rules.ttl``).
    """
    if _first_missing(frame) != 0:
        return None
    found = [_worked_on(step, named) for step in frame.steps if step.unsupported]
    if len(frame.steps) == 1 and not found[0][1]:
        return None
    things = next((tuple(kept) for kept in (_movable(said) for said, _ in found) if kept), ())
    if not things:
        return None
    said_as = f"{WANTED} {' and '.join(phrase.text for phrase in things)}"
    return Step(
        text=said_as, verb=WANTED, action=WANTED, objects=things, recipient=_for_whom(frame)
    )


def _for_whom(frame: RequestFrame) -> ObjectPhrase | None:
    """Whom the missing steps are for, as said ("make me ...", "... for Tom"); None: unsaid.

    A pronoun names someone only when it is the speaker's ("me", "us"): "mix them" names things.
    """
    said = [
        phrase
        for step in frame.steps
        if step.unsupported
        for phrase in (step.recipient, *step.wanted)
        if phrase is not None
        and (phrase.person == SPEAKER or (phrase.person and not phrase.pronoun))
    ]
    return said[0] if said else None


def _worked_on(step: Step, named: Names) -> tuple[list[ObjectPhrase], bool]:
    """The phrases of the things ``step`` works on and with that the scene holds, and if it makes.

    A wanted phrase whose words mention things of the scene but do not end with one names a
    thing to make out of them ("a cheese sandwich": the cheese is kept, as said, unless another
    phrase of the step names it already: "a cheese omelette with the cheddar cheese"); a
    phrase that ends with a thing's name is that thing ("two slices of the cheddar"). No
    pronoun, no person.
    """
    kept: list[ObjectPhrase] = []
    parts: list[str] = []
    for phrase in [*step.wanted, *([step.tool] if step.tool is not None else [])]:
        names = [] if phrase.pronoun or phrase.person else list(named(phrase.text))
        if any(phrase.text.lower().endswith(name.lower()) for name in names):
            kept.append(phrase)
        elif phrase is not step.tool:
            parts += names
    said = " ".join(phrase.text.lower() for phrase in kept)
    made = [ObjectPhrase(text=name, head=name.split()[-1]) for name in parts]
    return kept + [part for part in made if part.text.lower() not in said], bool(parts)


def _movable(phrases: Iterable[ObjectPhrase]) -> dict[ObjectPhrase, None]:
    """The phrases, once each by what they say, but the things used where they stand.

    A thing the taxonomy calls an appliance or furniture (:data:`STAYS_PUT`) is not brought.
    """
    taxonomy = household_taxonomy()
    kept: dict[str, ObjectPhrase] = {}
    for phrase in phrases:
        kind = taxonomy.type_named(phrase.text)
        if kind is not None and any(taxonomy.is_a(kind, category) for category in STAYS_PUT):
            continue
        kept.setdefault(phrase.text.lower(), phrase)
    return dict.fromkeys(kept.values())
