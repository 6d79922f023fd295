"""What a thing is, for safety: its properties from every description the robot holds of it.

A thing is described several ways: its declared ontology type, its label ("drain cleaner"),
its id's words, its material ("aluminium foil"), the flags the scene gives it, and what the
user said of it in this conversation ("that's bleach"). :func:`safety_properties` reads them
all and takes the **union**: one description that makes a thing a chemical, metal or a living
animal is enough, whatever the others say. A bottle typed ``Bottle`` and labelled "drain
cleaner" is a chemical; a tray labelled "foil tray" is metal.

- **Types**: the declared type (read as words when the taxonomy does not know it) and every
  type the label or the id names (:meth:`~knowledge.scene.taxonomy.Taxonomy.type_named`),
  with all their categories.
- **Kinds**: the flags the scene gives, and the what-it-is flags (:data:`TYPE_FLAGS`) the
  household taxonomy gives any of those types: ``chemical``, ``food``, ``drink``,
  ``medicine``, ``animal``, ``sharp``, ``electrical``, ``heat_source``.
- **Materials**: every material class (:mod:`knowledge.safety.materials`) the material, the
  label or the id names; only when none names one, the typical materials of the types (a
  tea towel: cotton, so fabric and flammable). Nothing at all: unknown, which the rules treat
  as possibly hazardous.
- **Contents**: a thing named after the substance it holds ("bleach bottle", "pill pot") is a
  chemical or a medicine as "a bottle of bleach" is (not an animal: a "dog bowl" is for one),
  and so is a thing whose material is such a substance ("acetone").
- **A thing none of whose names the taxonomy knows** (the label, the id's words, the declared
  type as words) gets the type WordNet's hypernyms give them
  (:meth:`~knowledge.scene.taxonomy.Taxonomy.type_derived`: "secateurs" are scissors), a
  guess that only adds its what-it-is flags (never food or drink: secateurs are sharp). Its types,
  which may exempt a thing from a rule (cookware on a hob), are not taken, nor its typical
  material: the robot would say "the widget is metal" of a thing it knows nothing of.
- **Where a name puts it**: a thing whose name says it is in, on or over a hot or chemical
  one ("the tray in the oven", "the sponge in the bleach", "the lid on the pan on the hob")
  takes that kind (:data:`TOUCH_FLAGS`); what it is by or near does not make it so.
- **What the user said** only adds: materials, and the flags that raise a hazard
  (:data:`RAISING_FLAGS`: "that's bleach" is a chemical; "the bleach bottle" holds one; "the
  sharp tin" is sharp; "the broken glass" is sharp when its material breaks or is unknown).
  It never replaces a material, never makes an unknown material known, and gives no type or
  flag that would exempt a thing from a rule ("the tub is a saucepan" does not make it
  cookware).

The answer depends only on the descriptions, so it is cached per distinct description.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from cogtree.knowledge.safety.materials import shipped_materials
from cogtree.knowledge.safety.said_of_things import contents_said, states_said
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import join_at
from cogtree.knowledge.wordnet.nouns import shipped_nouns

RAISING_FLAGS = frozenset({"chemical", "medicine", "animal", "sharp", "electrical", "heat_source"})
"""The flags a statement of the user may add ("that's bleach"); never ``food`` or ``drink``,
which only exempt a thing from a rule."""

HOLDS_LIQUID = "holds_liquid"
"""The taxonomy's flag of a vessel made for liquids (a cup, a vase, a jug, a bottle): until its
contents are seen it may hold one."""
PREPARED = "prepared"
"""The taxonomy's flag of foods made of several things, whose names do not say what is in
them (a flapjack, a curry): a type's, never the scene's."""
SHAKES = "shakes"
"""The taxonomy's flag of machines that shake while they run (a washing machine, a tumble
dryer spinning its drum): what stands on one walks off it."""

TYPE_FLAGS = frozenset(
    {
        "chemical",
        "food",
        "drink",
        "medicine",
        "animal",
        "sharp",
        "electrical",
        "heat_source",
        SHAKES,
        "choking",
        PREPARED,
        HOLDS_LIQUID,
    }
)
"""Flags that say what a thing *is*, so any description's type gives them (a bottle of bleach is
a chemical, cheese is food, a tablet is electrical, a hamster an animal, a washing machine a
machine that shakes while it runs, a grape something a toddler can choke on, a vase or a mug a
vessel that may hold a liquid, a flapjack a food made of several things whose name does not say
what is in it: :data:`PREPARED`).

The others stay the scene's to give: ``appliance``, ``water_source``, ``cleaning_tool`` and
``bin`` grant skills (switch it on, fill at it, wipe with it, drop waste in it), which only
the world can confirm; ``fragile`` depends on the particular thing (an empty jam jar for the
recycling is glass, and nobody asks before binning it; a wine glass is), so a scene marks it
where it matters, and the rules about breaking read the material (``breakable``) instead."""

SUBSTANCE_FLAGS = frozenset({"chemical", "medicine"})
"""What a thing named after its contents holds ("bleach bottle"), or made of a substance
("acetone"), is; a name may also say whom it is for ("dog bowl", "lunch box"), so no other kind
is read from it."""

TOUCH_FLAGS = frozenset({"chemical", "heat_source"})
"""What a thing takes from what its name says it is in, on or draped over: heat ("the tray in
the oven", "the pan on the hob", "the towel over the radiator" may be hot) and a substance on
it ("the sponge in the bleach"); not from what it is beside ("the jar by the oven")."""

CONTACT_WORDS = frozenset({"in", "on", "over"})
"""The place words that say a thing touches what follows (in it, on it, draped over it)."""

HOLDING_JOINS = ("with", "for", "from")
"""Words after which a name says what a thing holds or is for ("jar with bleach", "tub for the
pills", "bottle from the chemist's"): read for the chemical and medicine in it."""

CACHED_DESCRIPTIONS = 65_536
"""How many distinct descriptions :func:`safety_properties` remembers."""


@dataclass(frozen=True)
class Descriptions:
    """Every description the robot holds of one thing (see the module docs)."""

    id: str
    type: str | None = None
    label: str | None = None
    material: str | None = None
    flags: frozenset[str] = frozenset()
    said: tuple[str, ...] = ()
    """Phrases the user used of it in this conversation ("bleach", "made of foil")."""

    @property
    def seen_names(self) -> tuple[str, ...]:
        """The words the robot's own belief names it with: its label, its id as words."""
        parts = self.id.replace("-", "_").split("_")
        spoken_id = " ".join(part for part in parts if part.isalpha())
        return tuple(name for name in (self.label, spoken_id) if name)


@dataclass(frozen=True)
class SafetyProperties:
    """A thing's properties for the hazard rules: types, kinds and material classes."""

    types: frozenset[str]
    """Every type a description names, with every category above it."""
    kinds: frozenset[str]
    """Flags from the scene and the what-it-is flags of :attr:`types`."""
    materials: frozenset[str]
    """Material classes (``metal``, ``flammable``...)."""
    material_unknown: bool
    """Whether nothing the robot holds (material, label, id, type) says what it is made of:
    possibly hazardous. What the user said does not make it known."""
    material_typical: bool = False
    """Whether only its types' typical material says what it is made of (a ring of no seen
    material is taken to be metal): enough for a rule that fears the typical material, never
    for one that needs it to be that material."""
    liquids_named: tuple[str, ...] = ()
    """The liquids its names say a vessel made for liquids holds: "my cup of tea" (tea), "a
    thermos of soup" (soup). Until its contents are seen: an observation of them wins."""


def safety_properties(descriptions: Descriptions) -> SafetyProperties:
    """The union of what every description says the thing is (see the module docs)."""
    return _derived(descriptions)


Reading = tuple[frozenset[str], ...]
"""What a thing is, as :func:`what_it_is` reads it (comparable and hashable)."""


def what_it_is(descriptions: Descriptions) -> Reading:
    """What a thing is, to tell whether another one could be handed over in its place.

    Its types, kinds (chemical, food, drink, medicine, sharp...), material classes (or that
    none is known) and scene flags over every description (:func:`safety_properties`, which
    reads a "bleach bottle" as holding a chemical), and, for a medicine, its id: no other
    thing reads the same. Two things with different readings are not interchangeable.
    """
    found = safety_properties(descriptions)
    unknown = frozenset({"material unknown"} if found.material_unknown else ())
    # a medicine is only ever itself: whose it is and what it holds cannot be seen, so two
    # pots of pills that look alike are never interchangeable
    itself = frozenset({descriptions.id} if "medicine" in found.kinds else ())
    return found.types, found.kinds, found.materials | unknown, descriptions.flags, itself


@lru_cache(maxsize=CACHED_DESCRIPTIONS)
def _derived(descriptions: Descriptions) -> SafetyProperties:
    taxonomy = household_taxonomy()
    declared, names = descriptions.type, list(descriptions.seen_names)
    if declared is not None and declared not in taxonomy.types:
        # a type the taxonomy does not know is read as words: ``Hob`` names a stove
        names.append(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", declared))
        declared = taxonomy.type_named(names[-1])
    seen = descriptions.seen_names
    direct = {name for name in (declared, *map(taxonomy.type_named, seen)) if name}
    types = set(direct)
    for name in direct:
        types.update(taxonomy.categories_of(name))
    kinds = set(descriptions.flags)
    for name in direct:
        kinds.update(taxonomy.properties(name).flags & TYPE_FLAGS)
    # a thing named after the substance it holds ("bleach bottle", "pill pot") holds it, and
    # a thing made of a substance ("acetone") is that substance
    substances: list[str | None] = [held for name in seen for held in _contents_named(name)]
    substances.append(taxonomy.type_named(descriptions.material) if descriptions.material else None)
    for held in filter(None, substances):
        kinds.update(taxonomy.properties(held).flags & SUBSTANCE_FLAGS)
    kinds.update(_touched_kinds(seen))
    materials_ = shipped_materials()
    named = materials_.read_all((descriptions.material, *seen))
    known = named or materials_.read_all(_typical_materials(direct))
    kinds.update(_said_kinds(descriptions.said, known))
    # a thing none of whose names the taxonomy knows gets WordNet's types (guesses): additions
    guessed = set() if direct else set(filter(None, map(taxonomy.type_derived, names)))
    for name in guessed:
        kinds.update(taxonomy.properties(name).flags & TYPE_FLAGS)
    return SafetyProperties(
        types=frozenset(types),
        kinds=frozenset(kinds),
        materials=known | materials_.read_all(descriptions.said),
        material_unknown=not known,
        material_typical=bool(known) and not named,
        liquids_named=_liquids_named(seen, vessel=HOLDS_LIQUID in kinds),
    )


def types_held(contents: str) -> frozenset[str]:
    """Every type ``contents`` names, with its categories ("wine and water": both).

    The taxonomy's own words, and WordNet's readings, which only ever add what raises a
    hazard: its guess for the whole phrase
    (:meth:`~knowledge.scene.taxonomy.Taxonomy.type_derived`: "a wasp" is an animal, "lamp
    oil" a fuel though the taxonomy's "oil" is food; a guess never makes a thing food or
    drink), and the taxonomy's type for another word of the phrase's first sense when that
    type raises one ("turps" is turpentine, a solvent).
    """
    taxonomy = household_taxonomy()
    found = set(taxonomy.types_in(contents))
    guessed = taxonomy.type_derived(contents)
    readings = [guessed] if guessed is not None and not found else []  # nothing else is said
    for name in (guessed, *map(taxonomy.type_named, _synonyms(contents))):
        if name is not None and taxonomy.properties(name).flags & RAISING_FLAGS:
            readings.append(name)
    for name in readings:
        found |= {name, *taxonomy.categories_of(name)}
    return frozenset(found)


def _synonyms(contents: str) -> tuple[str, ...]:
    """The other words of the English dictionary's first sense of ``contents`` ("turps")."""
    nouns = shipped_nouns()
    senses = nouns.senses(contents) if nouns is not None else ()
    if nouns is None or not senses:
        return ()
    words = (lemma.replace("_", " ").lower() for lemma in nouns.synset(senses[0]).lemmas)
    return tuple(word for word in words if word != contents.lower())


def raising_flags_held(liquid: str) -> frozenset[str]:
    """The hazard-raising flags of every type the contents ``liquid`` names ("descaler")."""
    taxonomy = household_taxonomy()
    flags = (taxonomy.properties(name).flags for name in types_held(liquid))
    return frozenset().union(*flags) & RAISING_FLAGS


def liquids_said_to_be(said: Iterable[str]) -> tuple[str, ...]:
    """What a vessel is said to be, read as what it holds: "that glass is whisky" holds whisky.

    Only what names a drink, a chemical or a medicine (the taxonomy's type of it): "that glass
    is a wine glass" says what the glass is, not what is in it.
    """
    taxonomy = household_taxonomy()
    held = []
    for phrase in said:
        named = taxonomy.type_named(phrase)
        flags = taxonomy.properties(named).flags if named is not None else frozenset()
        drink = named is not None and "Drink" in taxonomy.categories_of(named)
        if drink or flags & {"chemical", "medicine"}:
            held.append(phrase)
    return tuple(held)


def _said_kinds(said: tuple[str, ...], materials: frozenset[str]) -> set[str]:
    """The hazard-raising flags what the user said gives (see the module docs).

    A type the words name ("that's bleach"), the substance a container is said to hold ("the
    bleach bottle"), a stated kind ("sharp", "toxic"); "broken" makes a thing sharp when what
    it is made of breaks, or nothing says what it is made of.
    """
    taxonomy = household_taxonomy()
    kinds: set[str] = set()
    for name in filter(None, map(taxonomy.type_named, said)):
        kinds.update(taxonomy.properties(name).flags & RAISING_FLAGS)
    for held in contents_said(said):
        kinds.update(raising_flags_held(held))  # "a kitten asleep" in it
    for held in (held for name in said for held in _contents_named(name)):
        kinds.update(taxonomy.properties(held).flags & SUBSTANCE_FLAGS)
    kinds.update(_touched_kinds(said))
    stated = states_said(said)
    kinds.update(stated & RAISING_FLAGS)
    if "broken" in stated and (not materials or "breakable" in materials):
        kinds.add("sharp")
    return kinds


def _touched_kinds(names: Iterable[str]) -> set[str]:
    """The :data:`TOUCH_FLAGS` of what ``names`` say a thing is in or on ("pan on the hob")."""
    taxonomy = household_taxonomy()
    touched = (place for name in names for place in _touching_named(name))
    return {flag for place in touched for flag in taxonomy.properties(place).flags & TOUCH_FLAGS}


def _contents_named(name: str) -> tuple[str, ...]:
    """The types of what a thing's name says it holds.

    The words before its name ("bleach" of "bleach bottle") and after "with", "for" or
    "from" (:data:`HOLDING_JOINS`: "jar by the window with weedkiller", every part of "jar
    with weedkiller and water", "thing for the bleach"). Any named thing counts, not only
    containers: a pot is cookware too, and a "pill pot" holds pills all the same.
    """
    taxonomy = household_taxonomy()
    words = name.lower().split()
    end = join_at(words)
    named = words[:end]  # "bleach bottle" of "bleach bottle by the sink"
    head = taxonomy.type_named(" ".join(named)) if len(named) > 1 else None
    before = taxonomy.type_named(" ".join(named[:-1])) if head is not None else None
    held = [
        held
        for join in HOLDING_JOINS
        if (after := f" {name.lower()} ".partition(f" {join} ")[2].strip())
        for held in sorted(taxonomy.types_in(after))
    ]
    return tuple(filter(None, (before, *held)))


def _touching_named(name: str, contact: frozenset[str] = CONTACT_WORDS) -> frozenset[str]:
    """The types of what a thing's name says it is in, on or over, and what that is in or on.

    "tray in the oven": ``Oven``; "lid on the pan on the hob": ``Pan`` and ``Stove``; "towel
    over the radiator": ``Radiator``, but "mug on the shelf over the hob" no ``Stove``: a
    thing on a shelf above the hob does not touch it.
    """
    words = name.lower().split()
    at = join_at(words)
    if at is None or words[at] not in contact:
        return frozenset()
    place = " ".join(words[at + 1 :])
    return household_taxonomy().types_in(place) | _touching_named(place, CONTACT_WORDS - {"over"})


def _liquids_named(names: Iterable[str], *, vessel: bool) -> tuple[str, ...]:
    """The liquids ``names`` say a thing holds (see :attr:`SafetyProperties.liquids_named`).

    Only "<vessel> of <contents>" says what is in it now ("a cup of tea"); a word before the
    name says what it is for ("a wine glass", "the water jug"), which :data:`HOLDS_LIQUID`
    covers. Only a vessel made for liquids holds them ("a flask of soup", not "a box of tea").
    """
    if not vessel:
        return ()
    taxonomy = household_taxonomy()
    found: list[str] = []
    for name in names:
        before, of, after = name.lower().partition(" of ")
        if of and taxonomy.type_named(before) and taxonomy.type_named(after):
            found.append(after.strip())
    return tuple(dict.fromkeys(found))


def edible_held(descriptions: Descriptions) -> frozenset[str]:
    """``food`` or ``drink``, when a name says the thing is made to hold one (its contents).

    "lemonade bottle", "milk jug" (not "dog bowl"): what goes in it may be eaten or drunk.
    """
    taxonomy = household_taxonomy()
    held = (held for name in descriptions.seen_names for held in _contents_named(name))
    flags = {flag for name in held for flag in taxonomy.properties(name).flags}
    return frozenset(flags & {"food", "drink"})


def _typical_materials(types: Iterable[str]) -> list[str | None]:
    taxonomy = household_taxonomy()
    return [taxonomy.properties(name).material for name in sorted(types)]


def named_words(described: Descriptions, types: Iterable[str], liquid: str | None) -> set[str]:
    """Every word any description of a thing names it or its contents by, lowercase.

    Its names, what the user said of it ("with peanut butter"), its liquid and its types
    with their categories, as words (``PeanutButter``: "peanut", "butter"), with the names
    the taxonomy gives those types (a flapjack is an "oat bar"). A type whose synonyms list
    its members ("oat milk", "soya milk" of plant milk) gives none of them to a thing whose
    names already say which member it is: the oat milk is no soya milk.
    """
    taxonomy = household_taxonomy()
    texts = [*described.seen_names, *described.said, liquid or ""]
    texts += [re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name) for name in types]
    seen = " ".join(described.seen_names).lower()
    for kind in (kind for kind in types if kind in taxonomy.types):
        synonyms = taxonomy.synonyms(kind)
        member = any(re.search(rf"\b{re.escape(name.lower())}\b", seen) for name in synonyms)
        texts += [taxonomy.label(kind), *([] if member else synonyms)]
    return {word for text in texts for word in re.findall(r"[a-z]+", text.lower())}
