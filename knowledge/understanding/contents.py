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
  water"), or to have one put somewhere ("put a jug of water on the table"), is two steps:
  fill the container, then bring or place it. The content asked for is part of
  the task, never dropped (an empty glass is not a glass of water);
- asking for a new container of another drink the taxonomy knows ("a glass of milk", "pour
  me a glass of wine") pours the drink into it, then brings it; "the mug of tea" is a mug
  already there, and a hot drink is not poured (module constant ``HOT_DRINK``);
- the same holds for a drink said to go in a drinkware ("some juice in my cup": pour the
  juice into my cup, then bring it), and a pour's person is who it is for ("pour me a glass
  of wine": the wine is poured, the glass brought to me).

A step is read for the liquid it moves when it is matched to a task: water put in a container
fills it at the tap (:func:`water_as_fill`), and a fill from a tap or a sink fills there
(:func:`filled_from`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from cogtree.knowledge.language.grammar.object_phrase import SPEAKER, ObjectPhrase
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.request_frame import RequestFrame, Step
from cogtree.knowledge.scene.taxonomy import household_taxonomy

TAP_LIQUID: Final = "water"
"""The liquid a tap gives: a container of it with no source is filled at a water source."""

BRINGING: Final = "bring"
"""The capability of bring / fetch / get: what is asked for comes to a person."""

POURING: Final = "pour"
"""The capability of pour: "pour me a glass of wine" pours the wine, then brings the glass."""

PLACING: Final = "place"
"""The capability of put / place: "put a jug of water on the table" fills it, then places it."""

INDEFINITE: Final = frozenset(["", "a", "an", "another", "some"])
"""Determiners of a container asked for, not one already there ("a glass of", not "the")."""

DRINK: Final = "Drink"
"""The taxonomy's category of what is poured into a container asked for ("a glass of milk")."""

DRINKWARE: Final = "Drinkware"
"""The taxonomy's category of what a drink is served in ("some juice in my cup": a cup)."""

PACKAGED: Final = "ContainerItem"
"""The taxonomy's category of containers a drink comes in ("a bottle of water", "a carton of
milk"): one is brought as it is, never filled at the tap."""

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
    """The type the phrase's measure names ("a glass of", "half a glass of" -> Glass).

    None for a portion ("a bit of") or no measure.
    """
    measure = _measure_word(phrase)
    return household_taxonomy().type_named(measure) if measure else None


def _measure_word(phrase: ObjectPhrase) -> str:
    """The word before the quantity's "of" ("half a glass of" -> "glass"), else ""."""
    words = phrase.quantity.split()
    return words[words.index("of") - 1] if "of" in words[1:] else ""


def _measure_described(phrase: ObjectPhrase) -> str:
    """The word describing the quantity's measure ("a small glass of" -> "small"), else ""."""
    words, lexicon = phrase.quantity.split(), request_words()
    at = words.index("of") - 2 if "of" in words[2:] else -1
    before = words[at] if at >= 0 else ""
    return "" if before in lexicon.quantities or before in lexicon.determiners else before


def _of_portion(phrase: ObjectPhrase) -> ObjectPhrase:
    """A portion's phrase as the thing it is of ("a piece of fruit" -> "a fruit")."""
    if not phrase.quantity.endswith(" of") and " of " not in f"{phrase.quantity} ":
        return phrase
    if measure_type(phrase) is not None or not phrase.text.startswith(phrase.determiner):
        return phrase
    said = phrase.text[len(phrase.determiner) :].strip()
    if not said.startswith(phrase.quantity):
        return phrase
    thing = said[len(phrase.quantity) :].strip()
    if not thing:
        return phrase
    determined = thing.split()[0].lower() in request_words().determiners  # "a few of the X"
    return replace(phrase, text=thing if determined else f"{phrase.determiner} {thing}".strip())


def _filled_first(step: Step) -> list[Step]:
    """A container of a drink asked for: fill it or pour the drink into it, then bring it.

    The tap's water fills it ("a glass of water"); another drink is poured ("a glass of
    milk", "some juice in my cup", "pour me a glass of wine": :func:`_vessel_asked`).
    """
    step = _poured_for(step)
    if step.action == POURING and step.recipient is not None and step.landmark is not None:
        # "pour some wine in the cup for Tom": a pour for someone serves it to them, so the
        # hazard rules judge who gets it
        vessel = replace(step.landmark, preposition="")
        bring = Step(text=step.text, verb=BRINGING, action=BRINGING, objects=(vessel,))
        return [replace(step, recipient=None), replace(bring, recipient=step.recipient)]
    wanted = step.wanted
    if step.action not in (BRINGING, POURING, PLACING) or len(wanted) != 1 or step.source:
        return [step]
    phrase = wanted[0]
    measure = measure_type(phrase)
    container = _vessel_asked(step, phrase, measure)
    if container is None:
        return [step]
    it = ObjectPhrase(text="it", head="it", pronoun=True)
    me = step.recipient or ObjectPhrase(text="me", head="me", pronoun=True, person=SPEAKER)
    placed = step.action == PLACING
    then = replace(step, objects=(it, *step.excluded))
    bring = then if placed else replace(then, verb=BRINGING, action=BRINGING)
    filled = measure is not None and step.action in (BRINGING, PLACING)
    if (
        filled
        and phrase.head == TAP_LIQUID
        and not phrase.modifiers
        and not (placed and phrase.determiner not in INDEFINITE)
    ):  # "put the glass of water on the table": the one there, not one to fill
        fill = Step(text=step.text, verb="fill", action="fill", objects=(container,))
        return [fill, bring]
    drink = _drink_said(phrase)
    if drink is None or phrase.determiner not in INDEFINITE:
        return [step]  # "the mug of tea" is a mug that holds tea already
    target = replace(container, preposition="into")
    pour = Step(
        text=step.text, verb=POURING, action=POURING, source=drink, relation="in", landmark=target
    )
    return [pour, bring if placed else replace(bring, recipient=me)]


def _poured_for(step: Step) -> Step:
    """A pour's person ("pour me a glass of wine", "pour us some juice") as who it is for.

    What is poured is never a person: a person among a pour's objects, beside a thing, is
    the one the drink is poured for, who gets it.
    """
    if step.action != POURING or step.recipient is not None:
        return step
    people = [phrase for phrase in step.objects if phrase.person]
    things = tuple(phrase for phrase in step.objects if not phrase.person)
    if not people or not things:
        return step
    return replace(step, objects=things, recipient=people[0])


def _vessel_asked(step: Step, phrase: ObjectPhrase, measure: str | None) -> ObjectPhrase | None:
    """The vessel a drink asked for goes in, when the request says or implies one.

    The measure's ("a glass of": ``measure``, the type it names), not for a pour that names
    where it goes nor for the container a drink comes in ("a bottle of water" is that thing),
    or the drinkware the phrase is said to be in ("some juice in my cup"). A vessel nobody
    named is not made up: a value must have been said.
    """
    if measure is not None:
        packaged = household_taxonomy().is_a(measure, PACKAGED)
        if packaged or (step.action == POURING and step.landmark is not None):
            return None
        word, described = _measure_word(phrase), _measure_described(phrase)
        article = phrase.determiner or "a"
        text = " ".join(filter(None, (article, described, word)))  # "a small glass"
        return ObjectPhrase(text=text, head=word, determiner=article)
    if _drink_said(phrase) is None:
        return None
    return _drinkware_in(phrase.where)


def _drinkware_in(where: str) -> ObjectPhrase | None:
    """The drinkware a place phrase puts a drink in ("in my cup" -> "my cup"), else None."""
    words = where.lower().split()
    if len(words) < 2 or words[0] not in ("in", "into"):
        return None
    taxonomy = household_taxonomy()
    for at, word in enumerate(words[1:], start=1):
        kind = taxonomy.type_named(word)
        if kind is not None and taxonomy.is_a(kind, DRINKWARE):
            determiner = words[1] if at > 1 else ""
            return ObjectPhrase(text=" ".join(words[1 : at + 1]), head=word, determiner=determiner)
    return None


def _drink_said(phrase: ObjectPhrase) -> ObjectPhrase | None:
    """What comes after the measure (or the determiner), when the taxonomy knows it as a drink.

    "a glass of wine" -> "wine", "some juice" -> "juice".
    """
    said = phrase.text
    for lead in (phrase.determiner, phrase.quantity):
        if lead and said.startswith(f"{lead} "):
            said = said[len(lead) :].strip()
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(phrase.head)
    if not said or kind is None or not taxonomy.is_a(kind, DRINK):
        return None
    if taxonomy.is_a(kind, HOT_DRINK):
        return None  # a hot drink is handed over as made, never poured into a cup to carry
    return ObjectPhrase(text=said, head=phrase.head, preposition="from")


def water_as_fill(step: Step) -> Step:
    """Water put in a container ("put water in the kettle"): fill it at the tap.

    Water named with no article, "some" or a portion ("a bit of water") and no source is the
    tap's: the step fills its landmark, when that is a vessel (:func:`_holds_water`: never a
    toaster). Any other step is returned as it is.
    """
    objects = step.wanted
    if (
        step.action not in ("place", "pour")
        or step.landmark is None
        or step.landmark.pronoun
        or step.source is not None  # "water from the jug": that jug's, not the tap's
        or step.relation not in ("", "in", "to")
        or len(objects) != 1
    ):
        return step
    if not _holds_water(step.landmark):
        return step  # "water in the toaster": no vessel to fill
    water = objects[0]
    if water.head != "water" or water.modifiers or measure_type(water) is not None:
        return step  # "a bit of water" is water; "a glass of water" a glass
    portion = water.quantity.endswith("of")  # "a bit of water": some water
    if water.determiner not in ("", "some") and not portion:
        return step
    return replace(step, action="fill", objects=(step.landmark,), landmark=None, relation="")


def _holds_water(place: ObjectPhrase) -> bool:
    """Whether the taxonomy reads ``place`` as a vessel: made to hold liquid, or a dish.

    Tableware and cookware count (a bowl, a pan). A thing of no known type, or an appliance
    that holds none (a toaster), is no vessel: water put in it is never filled there.
    """
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(place.text)
    if kind is None:
        return False
    vessel = any(taxonomy.is_a(kind, category) for category in VESSELS)
    return HOLDS_LIQUID in taxonomy.properties(kind).flags or vessel


VESSELS: Final = ("Tableware", "Cookware")
"""Categories of things water may be put in to fill them, beside those made to hold liquid."""


WATER_SOURCE: Final = "water_source"
"""The taxonomy's flag of what gives water (a tap, a sink): a fill there takes its water."""
HOLDS_LIQUID: Final = "holds_liquid"
"""The taxonomy's flag of a vessel (a jug, a kettle): a fill from one pours from it."""


def filled_from(step: Step) -> Step:
    """A fill from a source: filled there when it gives water, poured from when it holds it.

    "fill the kettle from the tap" fills the kettle at a tap (before, "the kettle from the
    tap" was read as one thing and matched nothing); "fill the dog's bowl from the big jug"
    pours from the jug into the bowl, what the jug holds judged by the hazard rules as any
    pour's source is (``haz:holdsFlag``: descaler is no drink). A source the taxonomy does not
    name as either is left as said.
    """
    if step.action != "fill" or step.source is None or len(step.wanted) != 1:
        return step
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(step.source.text)
    flags = taxonomy.properties(kind).flags if kind is not None else frozenset()
    if WATER_SOURCE in flags:
        return replace(step, source=None)
    if HOLDS_LIQUID not in flags:
        return step
    target = replace(step.wanted[0], preposition="into")
    return replace(step, verb=POURING, action=POURING, objects=(), relation="in", landmark=target)
