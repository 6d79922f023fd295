"""A held-out case's world as a simulator scenario, and what the format could not say.

The case's world is free text (kinds, materials, states in the author's words); the
simulator's world (:class:`~sim.world_spec.WorldSpec`) has ontology types, furniture and
objects, a few attributes and hazard flags. :func:`case_scenario` translates one into the
other **without adding knowledge to the robot**:

- **Kind -> type** only through the robot's own taxonomy (:meth:`Taxonomy.type_named` on the
  ``kind``, never the label). A guess (WordNet's hypernyms, :meth:`Taxonomy.type_derived`)
  is no declared type: a perception that cannot name a kind declares none, and a guess as
  a type would bring the type's exemptions (cookware on a hob) and typical materials; the
  robot makes its own guess from the label, flags only. A ``kind: null`` or a kind it does
  not name becomes
  :data:`UNKNOWN_TYPE`, a type with no category, no flags and no synonyms: the thing keeps its
  label and material, nothing more. Those things are counted (``unmapped_kinds``).
- **Material** is passed as written (the world's ``material`` is free text; what the robot
  makes of it is the robot's business). ``null`` stays unset.
- **Flags**: only the ones the world must grant for a skill to work at all (``appliance``,
  ``water_source``, ``cleaning_tool``, a bin's kind), from the case's state (``switched``
  makes an appliance) or the robot's taxonomy for the mapped type; ``sharp`` from
  ``state.sharp``. Hazard flags (heat source, chemical, ...) are never added: the robot's
  belief takes them from the type, or does not know them.
- **State**: ``switched`` -> powered, ``open`` -> an open or closed container, ``clean`` /
  ``dirty`` -> a surface's cleanliness, ``temperature`` -> ``hot``, ``alive: true`` -> the
  ``animal`` flag (a living thing is seen to be one; not a plant; also a thing whose
  ``contents`` name a person of the world or a living being, recorded as an approximation: a
  car seat holding a sleeping baby), ``contents`` -> ``empty`` or
  a liquid (objects; with no ``contents`` said, the liquid the kind names: a "milk carton"
  holds milk, recorded as an approximation), ``owner`` -> an owner who is a person of the
  world, ``held_by`` -> held by that person, ``colour`` -> an object's colour (as seen).
  Every other key, and any value that does not fit, is recorded in ``lost`` (printed labels,
  furniture contents...). Common state words are read first under those keys
  (:func:`canonical_state`: ``on``/``off`` -> ``switched``, ``closed`` -> ``open``,
  ``hot``/``cold`` -> ``temperature``, ``contains``/``empty`` -> ``contents``).
- **Layout**: a thing is an object when a step moves it (fetch, place, dispose, pour, fill,
  wipe with it); furniture when something rests on or in it, a step puts something on or in
  it, opens, closes or wipes it, the words put something in or on it ("in the <label or
  kind>"), or its mapped type is furniture (the taxonomy's ``FurniturePiece``, ``Appliance``
  or ``Bin``); otherwise an object on the floor of its room. Furniture is a container when
  something is in it, the words or a step put something in it, it opens or closes, or it is
  a bin; containers start open unless the case says ``open: false``. Objects cannot hold
  objects in the simulator, and furniture cannot hold a liquid: such contents are lost.
  Furniture on furniture stands in the room; an object on an object rests where the
  other one does; ``next_to`` is kept only between two objects on one surface; a thing
  ``under`` another lies on the floor of that one's room. Each such change is recorded in
  ``approximations``. Rooms are joined by open passages (the case
  gives no layout); every person and the robot start in the first room. The robot is the
  humanoid, reaching down to the floor (``min_reach_m: 0``): a thing ``in`` a room rests on
  its floor, and the case says nothing of heights.
- **People**: the name becomes the label; ``age_group``, ``vulnerabilities`` and
  ``relation_to_user`` (the person's ``relation``) are kept.
- **What a simulated person can do**: when a case says it (``can`` on any of its people), each
  person can be asked to do just what their ``can`` lists. Otherwise (a modelling choice of
  this harness, not knowledge of the robot's) every adult and elderly person is given the
  everyday household abilities the robot lacks, one per skill of the robot's own list of
  unsupported skills (:func:`~knowledge.language.unsupported_skills.unsupported_skills`:
  cut, cook, wash up...), each taking the simulator's default number of ticks; a child or a
  toddler is given none. A simulated adult asked to do one of those therefore accepts (when
  available), and the robot sees the abilities in its belief as it sees any person's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cogtree.evaluation.heldout.cases import Case, Step, Thing
from cogtree.knowledge.language.unsupported_skills import unsupported_skills
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import singular
from cogtree.knowledge.wordnet.nouns import ANIMALS, ARTEFACTS, BEINGS, PEOPLE, shipped_nouns
from cogtree.sim.scenario import Scenario, ScenarioError, ontology_types

UNKNOWN_TYPE = "UnclassifiedThing"
"""The world type of a thing whose kind the robot's taxonomy does not know (or is null)."""

ROBOT = "robot1"

MOVED_VERBS = frozenset({"fetch", "place", "dispose", "pour", "fill", "throw", "drop"})
"""Step verbs whose ``object`` is carried, so it must be an object (not furniture)."""

FURNITURE_CATEGORIES = ("FurniturePiece", "Appliance", "Bin")
"""Taxonomy categories whose things stand in a room as furniture (unless a step moves them)."""

GRANTED_FLAGS = frozenset({"appliance", "water_source", "cleaning_tool"})
"""Flags the world must grant for a skill to work; taken from the taxonomy's type."""

LIQUID_WORDS = (
    "water",
    "milk",
    "tea",
    "coffee",
    "juice",
    "oil",
    "wine",
    "liquid",
    "soup",
    "squash",
    "vinegar",
    "bleach",
    "beer",
    "gravy",
)
"""Words that make a container's ``contents`` a liquid of the simulator (world data only)."""

ABLE_AGE_GROUPS = frozenset({"adult", "elderly"})
"""Age groups whose simulated people can do the household skills the robot lacks."""

HOT_WORDS = ("hot", "steaming", "oven", "hob", "preheated")
COLD_WORDS = ("cold", "frozen", "chilled")


def _liquid_word(text: str) -> str | None:
    """The first of :data:`LIQUID_WORDS` said in ``text`` as a word, else None."""
    return next((w for w in LIQUID_WORDS if re.search(rf"\b{w}\b", text)), None)


def _names_a_being(text: str, names: set[str]) -> bool:
    """Whether ``text`` holds a person of the world or a living being ("baby Arlo asleep").

    A word of a person's name, a word first of all a young child ("a baby"), or one first of
    all an animal that names no food too ("lamb", "chicken": a stew's), counts as the thing
    held itself: no noun right after it ("dog food", "a bird feeder"), not an owner's ("tom's
    lunch"), not after "of" ("photos of grandma") nor after a made thing it describes ("a toy
    soldier", "a teddy bear"). Words that only say where or how it is may follow ("a puppy
    asleep on a cushion").
    """
    nouns = shipped_nouns()
    if nouns is None:
        return False
    named = {word for name in names for word in name.split()}
    words = re.findall(r"[a-z]+(?:[-'][a-z]+)*", text)  # "dog's", "anti-inflammatory": whole
    for at, word in enumerate(words):
        before, after = words[at - 1] if at else "", words[at + 1] if at + 1 < len(words) else ""
        young = nouns.first_is(word, PEOPLE, ("child", "juvenile"))  # "a baby", no "dummy"
        animal = nouns.first_in(word, frozenset([ANIMALS]))
        being = word in named or young or (animal and not nouns.has_sense_in(word, "noun.food"))
        compound = after not in FUNCTION_WORDS and bool(
            nouns.senses(after) or nouns.senses(singular(after))
        )
        made_before = nouns.first_in(before, BEINGS | {ARTEFACTS})
        if being and not compound and not made_before and before not in ("of", "for"):
            return True
    return False


FUNCTION_WORDS = frozenset(
    ["a", "an", "the", "in", "on", "under", "with", "and", "or", "at", "by", "inside", "its"]
)
"""Words after a being that only say where or how it is: no noun it names a thing for."""


class MappingError(ValueError):
    """A case whose translated world the simulator rejects: names the case and the problem."""


@dataclass
class WorldMapping:
    """A case's scenario and what the translation lost or approximated."""

    case: Case
    scenario: Scenario
    things: int
    unmapped_kinds: list[str] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)
    approximations: list[str] = field(default_factory=list)
    furniture: frozenset[str] = frozenset()


@cache
def _known_types() -> frozenset[str]:
    return ontology_types() | household_taxonomy().types


def thing_type(thing: Thing) -> str | None:
    """The ontology/taxonomy type the robot's taxonomy gives the thing's kind (None: unknown)."""
    if thing.kind is None:
        return None
    return household_taxonomy().type_named(thing.kind)


def case_scenario(case: Case) -> WorldMapping:
    """The case as a scenario the assistant can run in (see the module docs for the rules).

    Raises :class:`MappingError` when the simulator rejects the translated world.
    """
    builder = _Builder(case)
    spec = builder.build()
    try:
        scenario = Scenario.model_validate(spec)
    except ValueError as error:
        raise MappingError(f"case {case.id}: the translated world is invalid: {error}") from error
    problems = scenario.problems(_known_types())
    if problems:
        raise MappingError(str(ScenarioError(f"case {case.id}", problems)))
    return WorldMapping(
        case=case,
        scenario=scenario,
        things=len(case.world.things),
        unmapped_kinds=builder.unmapped,
        types=builder.types,
        lost=builder.lost,
        approximations=builder.approx,
        furniture=frozenset(builder.furniture),
    )


class _Builder:
    """Builds the scenario mapping of one case, noting what is lost on the way."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.things = {
            thing.id: thing.model_copy(update={"state": canonical_state(thing.state)})
            for thing in case.world.things
        }
        self.rooms = list(case.world.rooms)
        self.people = {person.id for person in case.world.people}
        self.names = {person.name.lower() for person in case.world.people if person.name}
        self.lost: list[str] = []
        self.approx: list[str] = []
        self.unmapped: list[str] = []
        self.types: dict[str, str] = {}
        steps = [*case.expected.steps, *case.expected.must_not]
        self.moved = {i for step in steps if step.verb in MOVED_VERBS for i in step.objects()}
        self.moved |= {
            str((step.model_extra or {}).get("with")) for step in steps if _wipes_with(step)
        }
        self.furniture = self._furniture(steps)
        self.containers = self._containers(steps)

    # -- roles ---------------------------------------------------------------------------------

    def _furniture(self, steps: list[Step]) -> set[str]:
        supports = {
            t.location.target for t in self.things.values() if t.location.relation != "next_to"
        }
        hinted = {i for s in steps if s.verb in ("place",) for i in s.targets()}
        hinted |= self._named_places("in") | self._named_places("on")
        hinted |= {i for s in steps if s.verb in ("open", "close", "wipe") for i in s.objects()}
        furniture = set()
        taxonomy = household_taxonomy()
        for ident, thing in self.things.items():
            if ident in self.moved:
                continue
            kind = thing_type(thing)
            standing = kind is not None and any(
                taxonomy.is_a(kind, category) for category in FURNITURE_CATEGORIES
            )
            if ident in supports or ident in hinted or "open" in thing.state or standing:
                furniture.add(ident)
        return furniture

    def _named_places(self, relation: str) -> set[str]:
        """Things the words put something in/on: "in(to) the <label or kind>", "on(to) ..."."""
        words = {"in": r"in|into|inside", "on": r"(?<!switch )(?<!turn )on|onto"}[relation]
        text = " ".join([*self.case.user_turns(), self.case.utterance]).lower()
        found = set()
        for ident, thing in self.things.items():
            names = {thing.label.lower(), (thing.kind or "").lower()} - {""}
            for name in names:
                pattern = (
                    rf"\b(?:{words})\s+(?:the\s+|my\s+|a\s+|that\s+|this\s+)?{re.escape(name)}\b"
                )
                if re.search(pattern, text):
                    found.add(ident)
        return found - self.moved

    def _containers(self, steps: list[Step]) -> set[str]:
        inside = {t.location.target for t in self.things.values() if t.location.relation == "in"}
        inside |= self._named_places("in")
        inside |= {
            i for s in steps if s.verb == "place" and s.relation == "in" for i in s.targets()
        }
        inside |= {i for s in steps if s.verb in ("open", "close") for i in s.objects()}
        return {
            i
            for i in self.furniture
            if i in inside or "open" in self.things[i].state or _bin_kind(self.things[i])
        }

    # -- the scenario --------------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        case = self.case
        first = self.rooms[0]
        people: dict[str, Any] = {}
        abilities_said = any(person.can for person in case.world.people)
        for person in case.world.people:
            people[person.id] = {
                "label": person.name,
                "room": first,
                "age_group": person.age_group,
                "vulnerabilities": list(person.vulnerabilities),
                "relation": person.relation_to_user,
                "abilities": (
                    list(person.can) if abilities_said else household_abilities(person.age_group)
                ),
            }
        furniture = {i: self._furniture_spec(self.things[i]) for i in self.furniture}
        objects = {
            i: self._object_spec(thing)
            for i, thing in self.things.items()
            if i not in self.furniture
        }
        world: dict[str, Any] = {
            "rooms": self.rooms,
            "doors": {
                f"passage_{room}": {"between": [first, room], "kind": "passage"}
                for room in self.rooms[1:]
            },
            "furniture": furniture,
            "objects": objects,
            "robots": {ROBOT: {"profile": "humanoid", "room": first, "min_reach_m": 0.0}},
            "people": people,
            "types": {UNKNOWN_TYPE: {"label": "unclassified"}} if self.unmapped else {},
        }
        return {
            "id": case.id.replace("-", "_"),
            "title": case.utterance,
            "tier": "moderate",
            "description": case.why,
            "robot": ROBOT,
            "world": world,
            "request": {"speaker": "user", "text": case.utterance},
            "goal": {"expect": "refuse", "reason": "held-out case: scored by the harness"},
        }

    def _type(self, thing: Thing) -> str:
        kind = thing_type(thing)
        if kind is None:
            self.unmapped.append(thing.id)
            kind = UNKNOWN_TYPE
        self.types[thing.id] = kind
        return kind

    def _common(self, thing: Thing, kind: str) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": kind, "label": thing.label}
        flags = set(household_taxonomy().properties(kind).flags & GRANTED_FLAGS)
        state = dict(thing.state)
        if "switched" in state:
            flags.add("appliance")
            switched = state.pop("switched")
            if switched in ("on", "off"):
                spec["powered"] = switched == "on"
            else:
                self.lost.append(f"things.{thing.id}.state.switched={switched}")
        elif "appliance" in flags:
            spec["powered"] = False
        sharp = state.pop("sharp", None)
        if sharp is True:
            flags.add("sharp")
        elif sharp is False:
            spec["not_flags"] = ["sharp"]
        if state.get("alive") is True:  # a living thing is seen to be one; a plant is none
            if not household_taxonomy().is_a(kind, "Plant"):
                flags.add("animal")
            state.pop("alive")
        contents = state.get("contents")
        if isinstance(contents, str) and _names_a_being(contents.lower(), self.names):
            flags.add("animal")  # a baby in a car seat, a hamster in a box: seen in it
            self.approx.append(f"things.{thing.id}: holds {contents}; flagged as a living being")
            state.pop("contents")
        owner = state.pop("owner", None)
        if owner in self.people:
            spec["owner"] = owner
        elif owner is not None:
            state["owner"] = owner
        hot = _hot(state.get("temperature"))
        if hot is not None:
            spec["hot"] = hot
            state.pop("temperature")
        if flags:
            spec["flags"] = sorted(flags)
        if thing.material:
            spec["material"] = thing.material
        self._state = state
        return spec

    def _furniture_spec(self, thing: Thing) -> dict[str, Any]:
        kind = self._type(thing)
        spec = self._common(thing, kind)
        state = self._state
        spec["kind"] = "container" if thing.id in self.containers else "surface"
        spec["room"] = self._room_of(thing.id)
        if thing.location.target not in self.rooms:
            self.approx.append(
                f"things.{thing.id}: furniture {thing.location.relation} "
                f"{thing.location.target}; stands in {spec['room']} instead"
            )
        if spec["kind"] == "container":
            opened = state.pop("open", None)
            spec["open"] = True if opened is None else bool(opened)
            if opened is None:
                self.approx.append(f"things.{thing.id}: open not given; starts open")
            bin_kind = _bin_kind(thing)
            if bin_kind:
                spec["bin"] = bin_kind
        else:
            dirty = state.pop("dirty", None)
            clean = state.pop("clean", None)
            if dirty not in (None, False) or clean is False:
                spec["clean"] = False
            elif clean is True or dirty is False:
                spec["clean"] = True
        self._lose(thing, state)
        return spec

    def _object_spec(self, thing: Thing) -> dict[str, Any]:
        kind = self._type(thing)
        spec = self._common(thing, kind)
        state = self._state
        spec.update(self._placement(thing, state))
        spec.update(self._contents(state, f"{thing.kind or ''} {thing.label}"))
        liquid = _liquid_word((thing.kind or "").lower())
        if liquid is not None and not {"contents", "empty", "contains"} & set(thing.state):
            spec.update({"liquid": liquid, "liquid_ml": 250.0})  # "milk carton": holds milk
            self.approx.append(f"things.{thing.id}: contents unsaid, its kind's {liquid} held")
        said = next((key for key in ("colour", "color") if isinstance(state.get(key), str)), None)
        if said is not None and state[said].strip():
            spec["colour"] = state.pop(said)  # seen, as a person sees it; else it is lost
        self._lose(thing, state)
        return spec

    def _placement(self, thing: Thing, state: dict[str, Any]) -> dict[str, Any]:
        held = state.pop("held_by", None)
        if held in self.people:
            return {"held_by": held}
        if held is not None:
            state["held_by"] = held
        where = thing.location
        if where.relation == "under":
            self.approx.append(f"things.{thing.id}: under {where.target}; on its room's floor")
            return {"room": self._room_of(where.target)}
        if where.relation == "next_to":
            landmark = self.things.get(where.target)
            if landmark is not None and where.target not in self.furniture:
                base = self._placement(landmark, dict(landmark.state))
                if "on" in base:
                    return {**base, "next_to": where.target}
            self.approx.append(f"things.{thing.id}: next_to {where.target} not expressible")
            return self._resting(where.target, thing.id)
        if where.target in self.rooms:
            return {"room": where.target}
        if where.target in self.furniture:
            is_container = where.target in self.containers
            if where.relation == "in" or is_container:
                if where.relation == "on":
                    self.approx.append(f"things.{thing.id}: on container {where.target}; in it")
                return {"in": where.target} if is_container else {"on": where.target}
            return {"on": where.target}
        self.approx.append(
            f"things.{thing.id}: {where.relation} object {where.target}; rests where it does"
        )
        return self._resting(where.target, thing.id)

    def _resting(self, target: str, asking: str) -> dict[str, Any]:
        """Where a thing rests when it cannot be put on/next to ``target``: target's place."""
        if target in self.rooms:
            return {"room": target}
        if target in self.furniture:
            kind = "in" if target in self.containers else "on"
            return {kind: target} if target != asking else {"room": self.rooms[0]}
        other = self.things[target]
        base = self._placement(other, dict(other.state))
        base.pop("next_to", None)
        return base

    def _room_of(self, ident: str, seen: frozenset[str] = frozenset()) -> str:
        if ident in self.rooms:
            return ident
        thing = self.things.get(ident)
        if thing is None or ident in seen:
            return self.rooms[0]
        return self._room_of(thing.location.target, seen | {ident})

    def _contents(self, state: dict[str, Any], named: str) -> dict[str, Any]:
        """The liquid a container holds, as its ``contents`` say.

        When they say only how full it is ("two thirds full"), the liquid its kind or label
        names ("wine bottle"); nothing when neither names one.
        """
        contents = state.get("contents")
        if not isinstance(contents, str):
            return {}
        text = contents.lower().strip()
        if text == "empty":
            state.pop("contents")
            return {"empty": True}
        if re.search(r"\b(?:full|half|third|thirds|quarter|dregs|drop)\b", text):
            text = f"{_liquid_word(named.lower()) or ''} {text}".strip()
        word = _liquid_word(text)
        if word is None:
            return {}
        state.pop("contents")
        amount = re.search(r"(\d+)\s*ml", text)
        millilitres = float(amount.group(1)) if amount else 125.0 if "half" in text else 250.0
        liquid = text.split(",")[0].removeprefix("full of ").strip() or word
        return {"liquid": liquid, "liquid_ml": millilitres}

    def _lose(self, thing: Thing, state: dict[str, Any]) -> None:
        self.lost += [f"things.{thing.id}.state.{key}={value}" for key, value in state.items()]


STATE_WORDS: dict[str, tuple[str, dict[Any, Any]]] = {
    "on": ("switched", {True: "on", False: "off"}),
    "off": ("switched", {True: "off", False: "on"}),
    "closed": ("open", {True: False, False: True}),
    "hot": ("temperature", {True: "hot", False: "cold"}),
    "cold": ("temperature", {True: "cold"}),
    "empty": ("contents", {True: "empty"}),
    "contains": ("contents", {None: "empty"}),
    "content": ("contents", {None: "empty"}),
}
"""A common state word as the key this module reads, and how its values translate
(a value not listed is passed as written; ``contains: null`` is a container with nothing in it)."""


def canonical_state(state: dict[str, Any]) -> dict[str, Any]:
    """The case's state with common state words under the keys the translation reads.

    ``on: true``, ``closed``, ``hot``, ``contains``, ``empty``...; a key already given wins.
    """
    result = dict(state)
    for word, (key, values) in STATE_WORDS.items():
        if word not in result or key in state:
            continue
        value = result.pop(word)
        if isinstance(value, bool | None) and value in values:
            result[key] = values[value]
        elif isinstance(value, bool | None):
            result[word] = value  # a value with no meaning under the key: kept (and lost)
        else:
            result[key] = value
    return result


def household_abilities(age_group: str) -> list[str]:
    """What a simulated person of ``age_group`` can be asked to do (see the module docs)."""
    if age_group not in ABLE_AGE_GROUPS:
        return []
    return [skill.name for skill in unsupported_skills()]


def _wipes_with(step: Step) -> bool:
    return step.verb == "wipe" and isinstance((step.model_extra or {}).get("with"), str)


def _bin_kind(thing: Thing) -> str | None:
    words = f"{thing.kind or ''} {thing.label}".lower()
    if "recycl" in words:
        return "recycling"
    if "compost" in words or "food waste" in words or "caddy" in words:
        return "compost"
    if re.search(r"\b(bin|rubbish|waste|trash|dustbin)\b", words):
        return "landfill"
    return None


def _hot(value: Any) -> bool | None:
    if not isinstance(value, str):
        return None
    text = value.lower()
    degrees = re.search(r"(\d+)\s*c\b", text)
    if any(word in text for word in HOT_WORDS) or (degrees and int(degrees.group(1)) >= 50):
        return True
    if any(word in text for word in COLD_WORDS):
        return False
    return None
