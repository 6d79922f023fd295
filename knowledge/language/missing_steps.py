"""What of a request the robot does when one of its steps needs a skill the robot lacks.

The request is not refused whole. Its steps before the first one the robot cannot do are done
(:func:`doable_part`): they gather and set out ("take the whisk and a bowl out of the
cupboard"), and none of them needs what the missing step would make. The missing step and
every step after it are left (:func:`left_undone`): a later step may need the missing one's
result ("slice the pineapple and put the pieces in a bowl"), and the robot says what it could
not do. A request whose first step is missing leaves nothing to do: it is refused, naming the
skill.

Nor is anything done when a step before the missing one powers or heats something (its
capability needs :data:`POWERING`: "switch on the kettle and stir the soup"): done on its own,
it would leave an appliance or a heat source running for a step nobody will do. That request
is refused whole, naming the missing skill, as if its first step were missing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.request_frame import RequestFrame, Step, request_words

POWERING: Final = "SWITCH_ON"
"""The robot skill that leaves an appliance or a heat source running (skills/action_model)."""


def _first_missing(frame: RequestFrame) -> int | None:
    """The index of the first step that asks for a skill the robot lacks; None if none."""
    return next((at for at, step in enumerate(frame.steps) if step.unsupported), None)


def leaves_running(step: Step) -> bool:
    """Whether ``step``'s capability powers or heats something (it needs :data:`POWERING`)."""
    return POWERING in request_words().skills.get(step.action, frozenset())


def doable_part(frame: RequestFrame) -> RequestFrame:
    """``frame`` cut to its steps before the first missing one (all of it when none is).

    The cut frame names no missing skill; it has no step when the first step is missing or
    a step before it :func:`leaves_running` (the request is refused whole).
    """
    first = _first_missing(frame)
    if first is None:
        return frame
    doable = frame.steps[:first]
    return replace(frame, steps=() if any(map(leaves_running, doable)) else doable)


def left_undone(frame: RequestFrame) -> tuple[Step, ...]:
    """The steps of ``frame`` from the first missing one on (none when nothing is missing)."""
    first = _first_missing(frame)
    return () if first is None else frame.steps[first:]
