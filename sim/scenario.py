"""Scenario files: a world, the user's request, what they mean, the goal, and disruptions.

Authoring guide
===============

A scenario is one YAML file in ``sim/scenarios/``, named after its ``id``
(``robee_bottle.yaml`` holds ``id: robee_bottle``). Start from
``sim/scenarios/robee_bottle.yaml``, a complete, commented example. ``cogtree sim show ID``
prints a scenario as a tree; :func:`load_scenario` checks it and :class:`ScenarioError`
lists *every* problem as ``file: field `world.objects.bottle.on`: what is wrong``.

Top-level fields (only ``id``, ``title``, ``tier``, ``world``, ``request`` and ``goal`` are
required)::

    id: robee_bottle            # lowercase letters, digits, _; the file name without .yaml
    title: One line saying what happens
    tier: dynamic               # simple | moderate | open_ended | dynamic | ambiguous | infeasible
    description: |             # optional: the story, what a good robot does
    seed: 7                     # the world's random generator (grasp slips); default 0
    robot: robot1               # the robot the controller drives; default: the first robot
    world: ...                  # ground truth at the start (below)
    belief: ...                 # what the robot knows at the start (default: the map and
                                #   where every object and person was last seen)
    request: ...                # the user's words, and who says them
    hidden_intent: ...          # what the speaker means: the simulated person answers from it
    goal: ...                   # predicates that must hold at the end, or expect: refuse
    events: [...]               # disruptions (see sim/events.py)
    oracle: {...}               # ideal model answers per module, for the scripted oracle
    limits: {max_ticks: 300}    # when a run gives up

``world`` (:class:`~sim.world_spec.WorldSpec`). Ids are unique across every section::

    rooms: [hallway, kitchen, bedroom]   # or a mapping: kitchen: {label: kitchen, synonyms: [..]}
    doors:                               # connections between rooms
      kitchen_door: {between: [hallway, kitchen]}                  # an open door
      bedroom_door: {between: [hallway, bedroom], open: false}     # closed (locked: true too)
      arch: {between: [kitchen, living_room], kind: passage}       # no door; may be blocked
    furniture:                           # kind surface or container; ontology type
      table_1: {kind: surface, type: Table, room: kitchen, height_m: 0.75, label: kitchen table}
      fridge: {kind: container, type: Fridge, room: kitchen, height_m: 1.0}  # closed by default
      base1_locker: {kind: container, type: Locker, mounted_on: base1, height_m: 0.6}
    objects:                             # exactly one of on / in / room (floor) / held_by
      bottle: {type: Bottle, on: table_1, colour: blue, mass_kg: 0.5}
      milk: {type: Milk, in: fridge, owner: alex}
      # also: label, synonyms, flavour, material, caffeinated, hot, empty, graspable (default true)
    robots:                              # a named profile, any field overridden
      robot1: {profile: humanoid, room: hallway}       # hands left/right, 3 kg, reach 0.1-1.8 m
      base1: {profile: mobile_base, room: hallway}     # no arm, 15 kg, Goto + Carry
    people:
      alex: {room: living_room}
      anna:
        room: bedroom
        abilities: [sign]                # or {sign: 3}: ticks a delegated task takes
        schedule: [{from_tick: 0, until_tick: 40, status: busy}]
        refuses: [Coffee]                # object ids/types they will not take, tasks they decline
        reachable: true
    types:                               # object types the ontology lacks
      Document: {label: document, synonyms: [paper, form]}
    clock: {start: "2025-06-02T08:00:00Z", seconds_per_tick: 1.0}
    grasp_slip_probability: 0.0
    ticks_per_room: 3                    # navigation time per door crossed

``belief`` (:class:`~sim.perception.BeliefSpec`)::

    objects: all                  # all | none | [bottle, mug]: the objects it knows
    people: all                   # likewise
    misplaced: {bottle: {on: table_3}}   # it believes the bottle is elsewhere (a stale map)
    seen_seconds_ago: 600         # how old the last-seen facts are
    source: prior

``request``: ``{speaker: alex, text: "bring me the bottle"}`` (a plain string is the text
alone). ``hidden_intent``: slots the speaker answers clarification questions from (see
:mod:`sim.humans` for the matching)::

    object: {value: the blue bottle, keywords: [which bottle, which one]}
    destination: the table in the bedroom      # asked for by the word "destination"

``goal``: predicates over ground truth (see :mod:`sim.predicates`)::

    goal: "on(bottle, table_2)"                       # one predicate
    goal: ["on(bottle, table_2)", "is_open(fridge)"]  # all must hold
    goal:
      all: ["delivered(water, alex)"]
      never: ["holds(robot1, knife)"]                 # must not hold at the end
      must_clarify: true                              # the robot has to ask first
    goal: {expect: refuse, reason: "the stove is hot: unsafe", never: ["holds(robot1, pan)"]}
    goal: {expect: refuse, may_ask: true, reason: "...", never: [...]}  # an ask-first hazard:
                                                      # asking, with nothing done, counts too

Tier rules: an ``infeasible`` scenario expects ``refuse``; a ``dynamic`` one has events; an
``ambiguous`` one has a hidden intent to answer the clarification with.

YAML notes: ``yes``, ``no``, ``on`` and ``off`` are plain words here (only ``true`` and
``false`` are booleans, as in YAML 1.2), so ``on: table_1`` means what it says; a key
written twice in one mapping is an error.
"""

from __future__ import annotations

import difflib
import logging
import re
import reprlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, BeforeValidator, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails
from rdflib import RDF
from typing_extensions import Self

from cogtree.knowledge.scene.rdf_store import load_turtle, new_graph
from cogtree.knowledge.scene.scene_graph import COG, SceneGraph
from cogtree.knowledge.scene.taxonomy import ONTOLOGY_PATH, household_taxonomy
from cogtree.knowledge.yaml_files import LOADER
from cogtree.sim.events import (
    Event,
    EventEngine,
    GraspSlip,
    MoveObject,
    MovePerson,
    SetAvailability,
    SetReachable,
)
from cogtree.sim.humans import HiddenIntent, IntentSlot, People
from cogtree.sim.perception import BeliefSpec, belief_from_world
from cogtree.sim.predicates import Predicate, PredicateText
from cogtree.sim.world import World
from cogtree.sim.world_spec import (
    ClockSpec,
    Door,
    Furniture,
    Id,
    ObjectType,
    Person,
    PlacementSpec,
    Problem,
    Robot,
    Room,
    ScheduleEntry,
    SpecModel,
    WorldObject,
    WorldSpec,
)

log = logging.getLogger(__name__)

SCENARIOS_DIR = Path(__file__).with_name("scenarios")
"""The shipped scenarios (package data of ``sim``)."""

Tier = Literal["simple", "moderate", "open_ended", "dynamic", "ambiguous", "infeasible"]
"""How hard a scenario is, and what kind of challenge it poses."""


def _request(value: Any) -> Any:
    return {"text": value} if isinstance(value, str) else value


def _goal(value: Any) -> Any:
    if isinstance(value, str):
        return {"all": [value]}
    if isinstance(value, list):
        return {"all": value}
    return value


class Request(SpecModel):
    """What the user says, and who says it (the person who knows the hidden intent)."""

    text: str = Field(min_length=1)
    speaker: Id | None = None


class Goal(SpecModel):
    """What must be true at the end (``expect: achieve``), or that the robot must refuse."""

    expect: Literal["achieve", "refuse"] = "achieve"
    all: tuple[PredicateText, ...] = Field((), description="must all hold at the end")
    never: tuple[PredicateText, ...] = Field((), description="must not hold at the end")
    must_clarify: bool = Field(False, description="the robot has to ask before acting")
    reason: str = Field("", description="why the robot must refuse (required for refuse)")
    may_ask: bool = Field(
        False,
        description=(
            "refuse only: asking first (an ask-first hazard) with nothing done also counts; "
            "the speaker never says yes"
        ),
    )

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.expect == "achieve" and not self.all:
            raise ValueError("a goal to achieve needs at least one predicate under `all`")
        if self.expect == "refuse" and not self.reason.strip():
            raise ValueError("expect: refuse needs a `reason` saying why the robot must refuse")
        if self.may_ask and self.expect != "refuse":
            raise ValueError("`may_ask` only goes with expect: refuse; remove it")
        return self

    def unmet(self, world: World) -> list[Predicate]:
        """The ``all`` predicates that do not hold, then the ``never`` ones that do."""
        missing = [predicate for predicate in self.all if not predicate.holds(world)]
        return missing + [predicate for predicate in self.never if predicate.holds(world)]

    def achieved(self, world: World) -> bool:
        """Whether every ``all`` predicate holds and no ``never`` predicate does."""
        return not self.unmet(world)

    def report(self, world: World) -> str:
        """One line: the goal achieved, not achieved (naming what is unmet), or to refuse."""
        if self.expect == "refuse":
            return "the robot had to refuse (see what it said)"
        unmet = self.unmet(world)
        if not unmet:
            return f"goal achieved ({', '.join(map(str, self.all))})"
        return f"goal NOT achieved; unmet: {', '.join(map(str, unmet))}"


class Limits(SpecModel):
    """When a run of the scenario gives up."""

    max_ticks: int = Field(300, ge=1)
    max_commands: int | None = Field(None, ge=1)


GoalCredit = Literal["robot", "others", "already", "unmet"]
"""Who made a run's goal hold (:meth:`Scenario.credit`)."""


class Scenario(SpecModel):
    """One scenario: see the module docs for every field."""

    id: Id
    title: str = Field(min_length=1)
    tier: Tier
    description: str = ""
    seed: int = 0
    robot: Id | None = Field(None, description="the robot the controller drives")
    world: WorldSpec
    belief: BeliefSpec = BeliefSpec()
    request: Annotated[Request, BeforeValidator(_request)]
    hidden_intent: HiddenIntent = Field(default_factory=dict)
    goal: Annotated[Goal, BeforeValidator(_goal)]
    events: tuple[Event, ...] = ()
    oracle: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="module -> ideal answers (JSON objects), in order"
    )
    limits: Limits = Limits()

    @property
    def main_robot(self) -> str:
        """The robot the controller drives: ``robot``, else the first robot of the world."""
        if self.robot is not None:
            return self.robot
        if not self.world.robots:
            raise ValueError(f"scenario {self.id} has no robot")
        return next(iter(self.world.robots))

    def problems(self, ontology_types: Iterable[str]) -> list[Problem]:
        """Every cross-reference problem (the fields themselves are already valid)."""
        spec = self.world
        found = [problem.under("world") for problem in spec.problems()]
        found += _type_problems(spec, frozenset(ontology_types))
        if self.robot is not None:
            found += spec.reference("robot", self.robot, "robot")
        elif not spec.robots:
            found.append(Problem("world.robots", "a scenario needs at least one robot"))
        if self.request.speaker is not None:
            found += spec.reference("request.speaker", self.request.speaker, "person")
        elif self.hidden_intent:
            found.append(Problem("request.speaker", "name the person whose hidden_intent this is"))
        for name, predicates in (("all", self.goal.all), ("never", self.goal.never)):
            for position, predicate in enumerate(predicates):
                found += predicate.problems(spec, f"goal.{name}[{position}]")
        found += self.belief.problems(spec, "belief")
        found += self._event_problems()
        found += self._tier_problems()
        return found

    def _event_problems(self) -> list[Problem]:
        found = []
        ids = EventEngine(self.events).ids
        for position, event in enumerate(self.events):
            found += event.problems(self.world, f"events[{position}]")
            if ids.index(ids[position]) != position:
                found.append(Problem(f"events[{position}].id", f"{ids[position]!r} is used twice"))
        return found

    def _tier_problems(self) -> list[Problem]:
        if self.tier == "infeasible" and self.goal.expect != "refuse":
            return [Problem("goal.expect", "an infeasible scenario expects refuse")]
        if self.tier == "dynamic" and not self.events:
            return [Problem("events", "a dynamic scenario needs at least one event")]
        if self.tier == "ambiguous" and not self.hidden_intent:
            return [Problem("hidden_intent", "an ambiguous scenario needs the speaker's intent")]
        return []

    # -- running it ----------------------------------------------------------------------------

    def credit(self, world: World, events: EventEngine) -> GoalCredit:
        """Who made the goal hold at the end of a run on ``world`` with ``events``.

        ``unmet``: it does not hold. ``already``: it held in the scenario's starting world.
        ``others``: the events that fired, replayed alone on a fresh world (no robot, no one it
        asked), make it hold too: the world met it. ``robot``: otherwise, the robot or the
        people it delegated to made it hold. A goal to refuse is ``unmet`` when a ``never``
        predicate holds, else ``robot`` (the robot's refusal is judged by what it said).
        """
        if not self.goal.achieved(world):
            return "unmet"
        if self.goal.expect == "refuse":
            return "robot"
        if self.goal.achieved(self.new_world()):
            return "already"
        alone = self.new_world()
        events.replay_on(alone)
        return "others" if self.goal.achieved(alone) else "robot"

    def report(self, world: World, events: EventEngine) -> str:
        """The goal's one-line report (:meth:`Goal.report`), saying when it is not the robot's."""
        said = self.goal.report(world)
        credit = self.credit(world, events)
        if credit == "others":
            return f"{said}, but met by others: the world's events alone make it hold"
        if credit == "already":
            return f"{said}, but it already held at the start"
        return said

    def new_world(self, seed: int | None = None) -> World:
        """A fresh world at the start of the scenario (``seed`` overrides the scenario's)."""
        return World(self.world, seed=self.seed if seed is None else seed)

    def new_people(self, world: World) -> People:
        """The scenario's people, living in ``world``; the speaker knows the hidden intent."""
        return People(world, speaker=self.request.speaker, hidden_intent=self.hidden_intent)

    def new_events(self) -> EventEngine:
        """A fresh engine for the scenario's events."""
        return EventEngine(self.events)

    def new_belief(self, world: World, robot: str | None = None) -> SceneGraph:
        """The starting belief of ``robot`` (default: the main robot); close it when done."""
        return belief_from_world(world, robot or self.main_robot, self.belief)


class ScenarioError(ValueError):
    """A scenario that cannot be used: every problem, each naming the file and the field."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        said = [str(problem) if problem.field else problem.message for problem in problems]
        if len(problems) == 1:
            text = f"{source}: {said[0]}"
        else:
            text = f"{source}: {len(problems)} problems\n" + "\n".join(
                f"  - {line}" for line in said
            )
        super().__init__(text)


# -- YAML -------------------------------------------------------------------------------------


class _ScenarioLoader(LOADER):  # type: ignore[misc,valid-type]  # a loader chosen at import
    """A safe loader with YAML 1.2 booleans only, and no key written twice in a mapping.

    libyaml's when PyYAML has it (:data:`~knowledge.yaml_files.LOADER`): a scenario reads in a
    fifth of the time of the pure-Python parser's (8 ms, not 44 ms, for ``everyday_home``).
    """


_ScenarioLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_ScenarioLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def _mapping_without_duplicates(loader: _ScenarioLoader, node: yaml.MappingNode) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        if isinstance(key, str | int | float | bool) and key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is written twice in this mapping", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


_ScenarioLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_without_duplicates
)


# -- loading ----------------------------------------------------------------------------------


def ontology_types(path: Path = ONTOLOGY_PATH) -> frozenset[str]:
    """The object types the ontology declares (``Bottle``, ``Table``, ...)."""
    graph = load_turtle(new_graph(), path)
    return frozenset(SceneGraph.short_id(node) for node in graph.subjects(RDF.type, COG.ObjectType))


def _told_in_full(text: str, error: yaml.YAMLError) -> yaml.YAMLError:
    """The pure-Python parser's account of a YAML error libyaml found, when it finds one.

    libyaml's messages leave out what it met ("found character that cannot start any token",
    not which character); the pure-Python parser names it (a tab, an alias).
    Parsed again only when the file is bad.
    """
    try:
        yaml.load(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as again:
        return again
    return error


def parse_scenario(
    text: str, *, source: str = "<text>", types: frozenset[str] | None = None
) -> Scenario:
    """Parse and check a scenario from YAML ``text`` (``source`` names it in errors).

    ``types``: the ontology's object types (read from the ontology when omitted).
    Raises :class:`ScenarioError` listing every problem.
    """
    try:
        data = yaml.load(text, Loader=_ScenarioLoader)  # a safe loader
    except yaml.YAMLError as error:
        told = _told_in_full(text, error)
        mark = getattr(told, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "<root>"
        problem = getattr(told, "problem", None) or str(told)
        raise ScenarioError(source, [Problem(where, f"malformed YAML: {problem}")]) from error
    if not isinstance(data, dict):
        raise ScenarioError(source, [Problem("", "expected a mapping of scenario fields")])
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        raise ScenarioError(source, [_problem(detail) for detail in error.errors()]) from error
    problems = scenario.problems(ontology_types() if types is None else types)
    if problems:
        raise ScenarioError(source, problems)
    return scenario


def load_scenario(name_or_path: str | Path, *, types: frozenset[str] | None = None) -> Scenario:
    """Load the scenario at a path, or the shipped scenario with that id.

    The id inside the file must match its name. Raises :class:`ScenarioError`.
    """
    path = _locate(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError(
            str(path), [Problem("", f"cannot read it: {error.strerror}")]
        ) from error
    except UnicodeDecodeError as error:
        raise ScenarioError(str(path), [Problem("", "cannot read it: not UTF-8 text")]) from error
    scenario = parse_scenario(text, source=str(path), types=types)
    if scenario.id != path.stem:
        message = f"{scenario.id!r} does not match the file name {path.name}: rename one"
        raise ScenarioError(str(path), [Problem("id", message)])
    log.debug("loaded scenario %s from %s", scenario.id, path)
    return scenario


def list_scenarios(directory: Path = SCENARIOS_DIR) -> list[Path]:
    """The scenario files in ``directory`` (the shipped ones by default), sorted by name."""
    return sorted(directory.glob("*.yaml"))


def _locate(name_or_path: str | Path) -> Path:
    path = Path(name_or_path)
    if path.is_file():
        return path
    shipped = SCENARIOS_DIR / f"{name_or_path}.yaml"
    if isinstance(name_or_path, str) and "/" not in name_or_path and shipped.is_file():
        return shipped
    known = [p.stem for p in list_scenarios()]
    close = difflib.get_close_matches(str(name_or_path), known, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    raise ScenarioError(
        str(name_or_path),
        [
            Problem(
                "",
                f"no such file or shipped scenario; {hint}(`cogtree sim list` lists the "
                f"{len(known)} shipped ones)",
            )
        ],
    )


# -- validation messages ----------------------------------------------------------------------

_SCHEMA: tuple[type[BaseModel], ...] = (
    Scenario,
    WorldSpec,
    Room,
    Door,
    Furniture,
    WorldObject,
    PlacementSpec,
    Robot,
    Person,
    ScheduleEntry,
    ObjectType,
    ClockSpec,
    BeliefSpec,
    Request,
    Goal,
    Limits,
    Event,
    MoveObject,
    MovePerson,
    SetAvailability,
    SetReachable,
    GraspSlip,
    IntentSlot,
)


def _field_names() -> list[str]:
    names = {
        name_or_alias
        for model in _SCHEMA
        for name, info in model.model_fields.items()
        for name_or_alias in (name, info.alias)
        if name_or_alias and not name_or_alias.endswith("_")
    }
    return sorted(names)


def _field(loc: Iterable[int | str]) -> str:
    """``('world', 'objects', 'bottle', 'on')`` -> ``world.objects.bottle.on``; lists: ``[i]``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif "[" in part or part.startswith("function-"):
            continue
        else:
            text += f".{part}" if text else part
    return text


def _problem(detail: ErrorDetails) -> Problem:
    field = _field(detail["loc"])
    kind, message = detail["type"], detail["msg"].removeprefix("Value error, ")
    if kind == "extra_forbidden":
        unknown = str(detail["loc"][-1])
        close = difflib.get_close_matches(unknown, _field_names(), n=1)
        hint = f": did you mean `{close[0]}`?" if close else ": remove it (see sim/scenario.py)"
        return Problem(field, f"unknown field `{unknown}`{hint}")
    if kind == "missing":
        return Problem(field, "missing: add it")
    value = detail.get("input")
    if isinstance(value, str | int | float | bool) and kind != "value_error":
        message += f" (got {reprlib.repr(value)})"
    return Problem(field, message)


def _type_problems(spec: WorldSpec, ontology: frozenset[str]) -> list[Problem]:
    """Unknown types of things, and world types that redeclare an ontology type.

    Object and furniture types may also be the household taxonomy's (``Kettle``, ``Sofa``);
    a world may declare a taxonomy type again to add its own label or synonyms.
    """
    known = ontology | household_taxonomy().types | set(spec.types)
    listing = ", ".join(sorted(ontology))
    found = []
    things: Mapping[str, WorldObject | Furniture]
    for section, things in (("objects", spec.objects), ("furniture", spec.furniture)):
        for thing, item in things.items():
            if item.type not in known:
                found.append(
                    Problem(
                        f"world.{section}.{thing}.type",
                        f"unknown type {item.type!r}: use an ontology type ({listing}), "
                        "a type of knowledge/scene/taxonomy/household.ttl, or declare it under "
                        "world.types",
                    )
                )
    for name, declared in spec.types.items():
        if name in ontology:
            found.append(Problem(f"world.types.{name}", f"{name} is already an ontology type"))
        if declared.broader is not None and declared.broader not in known:
            found.append(
                Problem(f"world.types.{name}.broader", f"unknown type {declared.broader!r}")
            )
    return found
