"""What a measure in a request says: a container that holds something, or a portion of a thing.

"a glass of water", "a mug of milk": the measure names a thing the household taxonomy knows
(Glass, Mug), and what comes after "of" is what it should hold. "a piece of fruit", "a slice
of the bread", "a bit of chocolate": the measure names no thing, only how much of the thing
after "of", which is the thing to act on. No word list decides: a measure is a container
exactly when the taxonomy names a type by it.

:func:`with_contents` rewrites a request's frame accordingly, once, when it is parsed:

- a portion's phrase becomes the thing it is of ("a piece of fruit" is fruit, which referent
  resolution finds through the taxonomy: the tangerine);
- asking to be brought a container of the tap's liquid with no source ("bring me a glass of
  water") is two steps: fill the container, then bring it. The content asked for is part of
  the task, never dropped (an empty glass is not a glass of water).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.request_frame import ObjectPhrase, RequestFrame, Step
from cogtree.knowledge.scene.taxonomy import household_taxonomy

TAP_LIQUID: Final = "water"
"""The liquid a tap gives: a container of it with no source is filled at a water source."""

BRINGING: Final = "bring"
"""The capability of bring / fetch / get: what is asked for comes to a person."""


def with_contents(frame: RequestFrame) -> RequestFrame:
    """``frame`` with its portions read as their things and its containers filled first."""
    steps: list[Step] = []
    for step in frame.steps:
        step = replace(step, objects=tuple(_of_portion(phrase) for phrase in step.objects))
        steps += _filled_first(step)
    changed = tuple(steps) != frame.steps
    return replace(frame, steps=tuple(steps)) if changed else frame


def measure_type(phrase: ObjectPhrase) -> str | None:
    """The type the phrase's measure names ("glass of" -> Glass); None for a portion or none."""
    words = phrase.quantity.split()
    if len(words) < 2 or words[1] != "of":
        return None
    return household_taxonomy().type_named(words[0])


def _of_portion(phrase: ObjectPhrase) -> ObjectPhrase:
    """A portion's phrase as the thing it is of ("a piece of fruit" -> "fruit")."""
    if not phrase.quantity.endswith(" of") and " of " not in f"{phrase.quantity} ":
        return phrase
    if measure_type(phrase) is not None or not phrase.text.startswith(phrase.determiner):
        return phrase
    said = phrase.text[len(phrase.determiner) :].strip()
    if not said.startswith(phrase.quantity):
        return phrase
    thing = said[len(phrase.quantity) :].strip()
    return replace(phrase, text=f"{phrase.determiner} {thing}".strip()) if thing else phrase


def _filled_first(step: Step) -> list[Step]:
    """A bring of a container of the tap's liquid: fill the container, then bring it."""
    wanted = step.wanted
    if step.action != BRINGING or len(wanted) != 1 or step.source is not None:
        return [step]
    phrase = wanted[0]
    if phrase.head != TAP_LIQUID or phrase.modifiers or measure_type(phrase) is None:
        return [step]
    measure = phrase.quantity.split()[0]
    article = phrase.determiner or "a"
    container = ObjectPhrase(text=f"{article} {measure}", head=measure, determiner=article)
    fill = Step(text=step.text, verb="fill", action="fill", objects=(container,))
    it = ObjectPhrase(text="it", head="it", pronoun=True)
    return [fill, replace(step, objects=(it, *step.excluded))]
