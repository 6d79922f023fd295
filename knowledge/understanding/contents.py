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
  the task, never dropped (an empty glass is not a glass of water);
- asking for a new container of another drink the taxonomy knows ("a glass of milk", "pour
  me a glass of wine") pours the drink into it, then brings it; "the mug of tea" is a mug
  already there, and a hot drink is not poured (module constant ``HOT_DRINK``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.request_frame import SPEAKER, ObjectPhrase, RequestFrame, Step
from cogtree.knowledge.scene.taxonomy import household_taxonomy

TAP_LIQUID: Final = "water"
"""The liquid a tap gives: a container of it with no source is filled at a water source."""

BRINGING: Final = "bring"
"""The capability of bring / fetch / get: what is asked for comes to a person."""

POURING: Final = "pour"
"""The capability of pour: "pour me a glass of wine" pours the wine, then brings the glass."""

INDEFINITE: Final = frozenset(["", "a", "an", "another", "some"])
"""Determiners of a container asked for, not one already there ("a glass of", not "the")."""

DRINK: Final = "Drink"
"""The taxonomy's category of what is poured into a container asked for ("a glass of milk")."""

HOT_DRINK: Final = "HotDrink"
"""Drinks not poured for the user: a hot drink handed over must be checked as hot, and the
pour's effect on the belief does not make the cup hot (the cup is fetched as it is)."""


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
    """A container of a drink asked for: fill it or pour the drink into it, then bring it.

    The tap's water fills it ("a glass of water"); another drink is poured ("a glass of milk").
    """
    wanted = step.wanted
    if step.action not in (BRINGING, POURING) or len(wanted) != 1 or step.source is not None:
        return [step]
    phrase = wanted[0]
    if measure_type(phrase) is None or (step.action == POURING and step.landmark is not None):
        return [step]
    measure = phrase.quantity.split()[0]
    article = phrase.determiner or "a"
    container = ObjectPhrase(text=f"{article} {measure}", head=measure, determiner=article)
    it = ObjectPhrase(text="it", head="it", pronoun=True)
    me = step.recipient or ObjectPhrase(text="me", head="me", pronoun=True, person=SPEAKER)
    bring = replace(step, verb=BRINGING, action=BRINGING, objects=(it, *step.excluded))
    if phrase.head == TAP_LIQUID and not phrase.modifiers and step.action == BRINGING:
        fill = Step(text=step.text, verb="fill", action="fill", objects=(container,))
        return [fill, bring]
    drink = _drink_said(phrase)
    if drink is None or phrase.determiner not in INDEFINITE:
        return [step]  # "the mug of tea" is a mug that holds tea already
    target = replace(container, preposition="into")
    pour = Step(
        text=step.text, verb=POURING, action=POURING, source=drink, relation="in", landmark=target
    )
    return [pour, replace(bring, recipient=me)]


def _drink_said(phrase: ObjectPhrase) -> ObjectPhrase | None:
    """What comes after the measure, when the taxonomy knows it as a drink ("of wine")."""
    said = phrase.text.split(f"{phrase.quantity} ", 1)[-1].strip()
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(phrase.head)
    if not said or said == phrase.text or kind is None or not taxonomy.is_a(kind, DRINK):
        return None
    if taxonomy.is_a(kind, HOT_DRINK):
        return None  # poured, its heat is not carried to the cup: the handover check misses it
    return ObjectPhrase(text=said, head=phrase.head, preposition="from")
