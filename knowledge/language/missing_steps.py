"""What of a request the robot does when one of its steps needs a skill the robot lacks.

The request is not refused whole. Its steps before the first one the robot cannot do are done
(:func:`doable_part`): they gather and set out ("take the whisk and a bowl out of the
cupboard"), and none of them needs what the missing step would make. The missing step and
every step after it are left (:func:`left_undone`): a later step may need the missing one's
result ("slice the pineapple and put the pieces in a bowl"), and the robot says what it could
not do. A request whose first step is missing leaves nothing to do: it is refused, naming the
skill.
"""

from __future__ import annotations

from dataclasses import replace

from cogtree.knowledge.language.request_frame import RequestFrame, Step


def _first_missing(frame: RequestFrame) -> int | None:
    """The index of the first step that asks for a skill the robot lacks; None if none."""
    return next((at for at, step in enumerate(frame.steps) if step.unsupported), None)


def doable_part(frame: RequestFrame) -> RequestFrame:
    """``frame`` cut to its steps before the first missing one (all of it when none is).

    The cut frame names no missing skill; it has no step when the first step is missing.
    """
    first = _first_missing(frame)
    return frame if first is None else replace(frame, steps=frame.steps[:first])


def left_undone(frame: RequestFrame) -> tuple[Step, ...]:
    """The steps of ``frame`` from the first missing one on (none when nothing is missing)."""
    first = _first_missing(frame)
    return () if first is None else frame.steps[first:]
