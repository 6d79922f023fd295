"""Partial observability: what a robot sees becomes observations for its scene-graph belief.

A robot sees the room it is in: the furniture there (and whether each container is open),
the objects on surfaces, in *open* containers and on the floor, what anyone there holds,
the people there (and whether they look available) and the robots there (itself included).
Nothing in other rooms, nothing inside a closed container. :func:`observe` turns that into
:class:`~knowledge.scene.scene_models.Observation` s stamped with the simulated time and the source
``sim:<robot>``; :func:`update_belief` feeds them to :meth:`SceneGraph.observe
<knowledge.scene.scene_graph.SceneGraph.observe>`. Things the robot does not see again keep their
old facts in the belief (stale, with their old ``lastSeen``), until a later observation
replaces them or :meth:`SceneGraph.retract_stale
<knowledge.scene.scene_graph.SceneGraph.retract_stale>` drops them.

An object the belief does not know yet is introduced when first seen: its class, type,
label and attributes come with the observation. Known things only get their placement and
state refreshed, so prior knowledge (the map, a known object's type) never becomes an
observed, retractable fact.

:func:`belief_from_world` builds a robot's starting belief from a world: the *prior map*
(rooms and their connections, furniture with its height, robot profiles, the people it knows
with their abilities, the objects it knows, without provenance, like
``knowledge/scene/scenes/home.ttl``) plus the last-seen places of the objects and people it knows
(observed ``seen_seconds_ago`` before the start, by ``prior``), and the robots' own positions
(by ``sim:<robot>``, now). A :class:`BeliefSpec` says which objects and people the robot
knows and which it wrongly believes elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BeforeValidator, Field
from rdflib import RDF, RDFS, XSD, Graph, Literal, URIRef
from rdflib.term import Node

from cogtree.knowledge.scene.rdf_store import load_turtle, new_graph
from cogtree.knowledge.scene.scene_graph import COG, SceneGraph
from cogtree.knowledge.scene.scene_models import AttributeValue, ObjectInfo, Observation
from cogtree.knowledge.scene.taxonomy import with_ontology
from cogtree.sim.world import World
from cogtree.sim.world_spec import (
    Furniture,
    Id,
    Kitchen,
    Placement,
    PlacementSpec,
    Problem,
    SpecModel,
    WorldObject,
    WorldSpec,
)
from cogtree.skills.action_model.belief import FLAG_ATTRIBUTES

FLAG_PROPERTIES = {flag: name for name, flag in FLAG_ATTRIBUTES.items()}
"""The ontology attribute of each hazard flag (``heat_source`` → ``heatSource``)."""

SOURCE_PREFIX = "sim:"
"""Observations a robot makes in the simulator have the source ``sim:<robot>``."""

PRIOR_SOURCE = "prior"
"""The default source of what a robot knows at the start."""


def source_of(robot: str) -> str:
    """The provenance of ``robot``'s observations: ``sim:robot1``."""
    return f"{SOURCE_PREFIX}{robot}"


def _all_or_ids(value: Any) -> Any:
    if value == "all":
        return None
    if value == "none":
        return ()
    if isinstance(value, str):
        raise ValueError(f"write all, none, or a list of ids, got {value!r}")
    return value


class BeliefSpec(SpecModel):
    """What the robot knows at the start, beyond the map (a scenario's ``belief:`` section).

    By default it knows every object and person, where they were last seen (which is where
    they are), and every robot's room.
    """

    objects: Annotated[tuple[Id, ...] | None, BeforeValidator(_all_or_ids)] = Field(
        None, description="all (default), none, or the ids of the objects it knows"
    )
    people: Annotated[tuple[Id, ...] | None, BeforeValidator(_all_or_ids)] = Field(
        None, description="all (default), none, or the ids of the people it knows"
    )
    misplaced: dict[Id, PlacementSpec] = Field(
        default_factory=dict, description="objects it believes are elsewhere (a stale map)"
    )
    seen_seconds_ago: float = Field(600.0, ge=0.0, description="age of the last-seen facts")
    source: str = Field(PRIOR_SOURCE, min_length=1, description="provenance of those facts")

    def knows_object(self, obj: str) -> bool:
        """Whether the robot starts knowing ``obj`` (misplaced objects are known)."""
        return self.objects is None or obj in self.objects or obj in self.misplaced

    def knows_person(self, person: str) -> bool:
        """Whether the robot starts knowing ``person``."""
        return self.people is None or person in self.people

    def problems(self, spec: WorldSpec, field: str) -> list[Problem]:
        """References to unknown objects or people, and impossible believed places."""
        found: list[Problem] = []
        for position, obj in enumerate(self.objects or ()):
            found += spec.reference(f"{field}.objects[{position}]", obj, "object")
        for position, person in enumerate(self.people or ()):
            found += spec.reference(f"{field}.people[{position}]", person, "person")
        for obj, place in self.misplaced.items():
            where = f"{field}.misplaced.{obj}"
            found += spec.reference(where, obj, "object")
            found += spec.placement_problems(where, place.placement)
        return found


# -- observing --------------------------------------------------------------------------------


def visible(world: World, robot: str) -> list[str]:
    """What ``robot`` sees now: furniture, objects, people, robots of its room, in that order."""
    sections = (
        world.spec.furniture,
        world.spec.objects,
        world.spec.people,
        world.spec.robots,
    )
    return [thing for section in sections for thing in section if world.visible_to(robot, thing)]


def observe(world: World, robot: str, scene: SceneGraph | None = None) -> list[Observation]:
    """Observations of everything ``robot`` sees now (see the module docs).

    With ``scene``, things the belief does not know yet are introduced (class, type, label,
    attributes); without it, only placements and states are reported.
    """
    return facts_about(world, visible(world, robot), robot=robot, scene=scene)


def facts_about(
    world: World,
    things: Iterable[str],
    *,
    robot: str,
    scene: SceneGraph | None = None,
) -> list[Observation]:
    """Observations of ``things`` as they are now, by ``robot`` (things it cannot see skipped)."""
    time, source = world.now(), source_of(robot)
    facts: list[Observation] = []
    for thing in things:
        if not world.visible_to(robot, thing):
            continue
        new = scene is not None and not _known(scene, thing)
        for subject, predicate, value in _facts(world, thing, identity=new):
            facts.append(
                Observation(
                    subject=subject, predicate=predicate, object=value, source=source, time=time
                )
            )
    return facts


def update_belief(scene: SceneGraph, world: World, robot: str) -> list[Observation]:
    """Observe what ``robot`` sees and apply it to ``scene``; returns the observations.

    Looking is also evidence of absence: an object the belief places in this room (on or in
    furniture the robot can see into) that the robot does not see there loses that
    placement, so the next plan does not send the robot back to an empty table.
    """
    observations = observe(world, robot, scene)
    scene.observe(observations)
    room = world.room_of(robot)
    if room is not None:
        seen = {o.subject for o in observations}
        seen |= {str(o.object) for o in observations if o.predicate == "holds"}
        for info in scene.objects_in_room(room):
            if info.kind == "object" and info.id not in seen and _could_see(world, robot, info):
                scene.forget_placement(info.id)
    return observations


def _could_see(world: World, robot: str, info: ObjectInfo) -> bool:
    """Whether ``robot`` would see an object where ``info`` places it (not in a closed box)."""
    if info.relation == "heldBy":
        return info.support == robot
    if info.relation == "in" and info.support is not None:
        return info.support in world.spec.furniture and world.is_open(info.support)
    return True


def _known(scene: SceneGraph, thing: str) -> bool:
    node = SceneGraph.iri(thing)
    return any((node, RDF.type, cls) in scene.graph for cls in (COG.Object, COG.Human))


Fact = tuple[str, str, AttributeValue]


def _facts(world: World, thing: str, *, identity: bool) -> Iterator[Fact]:
    """What can be seen of ``thing``: its state, and its identity if asked."""
    spec, kind = world.spec, world.kind_of(thing)
    if kind in ("surface", "container"):
        if kind == "container":
            yield thing, "isOpen", world.is_open(thing)
        yield from _kitchen_state(world, thing)
        if thing in world.state.clean:
            yield thing, "clean", world.state.clean[thing]
    elif kind == "object":
        if identity:
            yield from _object_identity(spec, thing)
        yield from _placement_facts(thing, world.placement(thing))
        yield from _side_facts(world, thing)
        yield from _kitchen_state(world, thing)
    elif kind == "person":
        if identity:
            yield thing, "type", "Human"
            yield thing, "label", spec.label(thing)
        room = world.room_of(thing)
        if room is not None:
            yield thing, "inRoom", room
        yield thing, "availability", world.availability(thing)
    elif kind == "robot":
        yield thing, "inRoom", world.state.robots[thing].room


def _side_facts(world: World, thing: str) -> Iterator[Fact]:
    """What ``thing`` stands beside (next to, left of...), when it was set or starts so."""
    beside = world.state.beside.get(thing)
    if beside is not None:
        yield thing, SIDE_PREDICATES[beside[0]], beside[1]


SIDE_PREDICATES = {
    "next_to": "nextTo",
    "near": "near",
    "left_of": "leftOf",
    "right_of": "rightOf",
    "behind": "behind",
    "in_front_of": "inFrontOf",
}
"""The ontology property of each side relation a robot can see (``next_to`` → ``nextTo``)."""


def _kitchen_state(world: World, thing: str) -> Iterator[Fact]:
    """Whether an appliance is on; what liquid a vessel holds ("" and 0 when empty).

    A vessel is a thing with a capacity or a liquid at the start, or one filled since.
    """
    if "appliance" in world.flags_of(thing):
        yield thing, "powered", world.is_powered(thing)
    item, held = world.spec.objects.get(thing), world.liquid_in(thing)
    if item is not None and (item.capacity_ml is not None or item.liquid is not None or held):
        yield thing, "liquid", held.liquid if held is not None else ""
        yield thing, "liquidMl", held.ml if held is not None else 0.0


def _kitchen_identity(item: Kitchen) -> list[tuple[str, AttributeValue]]:
    """The ontology attributes of a thing's hazard flags, bin kind and free places."""
    facts: list[tuple[str, AttributeValue]] = [
        (FLAG_PROPERTIES[flag], True) for flag in item.flags if flag in FLAG_PROPERTIES
    ]
    facts.extend((FLAG_PROPERTIES[flag], False) for flag in item.not_flags)
    if isinstance(item, Furniture):
        if item.bin is not None:
            facts.append(("binKind", item.bin))
        if item.slots is not None:
            facts.append(("slots", item.slots))
        if item.material is not None:
            facts.append(("material", item.material))
        if item.hot is not None:
            facts.append(("hot", item.hot))
    if isinstance(item, WorldObject) and item.capacity_ml is not None:
        facts.append(("capacityMl", item.capacity_ml))
    return facts


def _object_identity(spec: WorldSpec, obj: str) -> Iterator[Fact]:
    item = spec.objects[obj]
    yield obj, "type", "Object"
    yield obj, "objectType", item.type
    yield obj, "label", spec.label(obj)
    yield from ((obj, name, value) for name, value in item.attributes().items())
    yield from ((obj, name, value) for name, value in _kitchen_identity(item))
    yield obj, "graspable", item.graspable
    yield obj, "massKg", item.mass_kg
    if item.owner is not None:
        yield obj, "ownedBy", item.owner


def _placement_facts(obj: str, placement: Placement) -> Iterator[Fact]:
    """Where ``obj`` is: one placement fact, then the hand when it is held in one."""
    if placement.relation != "held_by":
        yield obj, {"on": "on", "in": "in", "room": "inRoom"}[placement.relation], placement.support
        return
    yield placement.support, "holds", obj
    if placement.hand is not None:
        yield obj, "heldIn", placement.hand


# -- the starting belief ----------------------------------------------------------------------


def belief_from_world(
    world: World,
    robot: str,
    belief: BeliefSpec | None = None,
    *,
    graph: Graph | None = None,
) -> SceneGraph:
    """``robot``'s belief at the start: the prior map plus what ``belief`` says it knows.

    ``graph``: the rdflib graph to build it in (a new Oxigraph-backed one by default).
    Raises ValueError for an unknown robot or a ``belief`` that names unknown things.
    """
    belief = belief or BeliefSpec()
    if robot not in world.spec.robots:
        raise ValueError(f"no robot {robot!r} (robots: {', '.join(world.spec.robots)})")
    problems = belief.problems(world.spec, "belief")
    if problems:
        raise ValueError("; ".join(str(problem) for problem in problems))
    graph = with_ontology(graph if graph is not None else new_graph())
    load_turtle(graph, f"<prior map of {robot}>", text=prior_map(world, belief, graph))
    scene = SceneGraph(graph)  # indexed once, with the prior map
    scene.observe(_starting_observations(world, robot, belief))
    return scene


def _starting_observations(world: World, robot: str, belief: BeliefSpec) -> list[Observation]:
    then = world.now() - timedelta(seconds=belief.seen_seconds_ago)
    spec = world.spec

    def seen(fact: Fact, source: str = belief.source, time: datetime = then) -> Observation:
        subject, predicate, value = fact
        return Observation(
            subject=subject, predicate=predicate, object=value, source=source, time=time
        )

    furniture = spec.ids("surface", "container")
    facts = [seen(fact) for f in furniture for fact in _facts(world, f, identity=False)]
    for obj in spec.objects:
        if belief.knows_object(obj):
            place = belief.misplaced.get(obj)
            placement = place.placement if place is not None else world.placement(obj)
            if placement.relation == "held_by" and placement.support == robot:
                placement = world.placement(obj)
            facts += [seen(fact) for fact in _placement_facts(obj, placement)]
            if place is None:
                facts += [seen(fact) for fact in _side_facts(world, obj)]
            facts += [seen(fact) for fact in _kitchen_state(world, obj)]
    for person in spec.people:
        if belief.knows_person(person):
            facts += [seen(fact) for fact in _facts(world, person, identity=False)]
    for other in spec.robots:
        facts.append(
            seen((other, "inRoom", world.state.robots[other].room), source_of(other), world.now())
        )
    return facts


def prior_map(world: World, belief: BeliefSpec, graph: Graph) -> str:
    """The map as Turtle: rooms, connections, furniture, robots, known people and objects.

    A person's abilities (the keys of ``people.<id>.abilities``, whether the scenario wrote a
    list or a mapping to ticks) become ``cog:ability`` strings.

    Object types the ontology in ``graph`` lacks are declared (from the world's ``types``,
    else with a label made from the type name). Facts here carry no provenance.
    """
    spec = world.spec
    triples: list[tuple[Node, Node, Node]] = []
    node = SceneGraph.iri

    def labelled(thing: str, cls: URIRef, synonyms: Iterable[str] = ()) -> None:
        triples.append((node(thing), RDF.type, cls))
        triples.append((node(thing), RDFS.label, Literal(spec.label(thing))))
        triples.extend((node(thing), COG.synonym, Literal(word)) for word in synonyms)

    for room_id, room in spec.rooms.items():
        labelled(room_id, COG.Room, room.synonyms)
    for door in spec.doors.values():
        triples.append((node(door.between[0]), COG.connectedTo, node(door.between[1])))
    for furniture_id, furniture in spec.furniture.items():
        labelled(
            furniture_id,
            COG.Surface if furniture.kind == "surface" else COG.Container,
            furniture.synonyms,
        )
        triples.append((node(furniture_id), COG.objectType, COG[furniture.type]))
        triples.append((node(furniture_id), COG.heightM, _decimal(furniture.height_m)))
        if furniture.room is not None:
            triples.append((node(furniture_id), COG.inRoom, node(furniture.room)))
        if furniture.mounted_on is not None:
            triples.append((node(furniture_id), COG.mountedOn, node(furniture.mounted_on)))
        if furniture.owner is not None:
            triples.append((node(furniture_id), COG.ownedBy, node(furniture.owner)))
        triples += [
            (node(furniture_id), COG[name], _typed(value))
            for name, value in _kitchen_identity(furniture)
        ]
    for robot_id, robot in spec.robots.items():
        labelled(robot_id, COG.Robot)
        subject = node(robot_id)
        triples.append(
            (subject, COG.hands, Literal(len(robot.hands), datatype=XSD.nonNegativeInteger))
        )
        triples.append((subject, COG.payloadKg, _decimal(robot.payload_kg)))
        if robot.min_reach_m is not None:
            triples.append((subject, COG.minReachM, _decimal(robot.min_reach_m)))
        if robot.max_reach_m is not None:
            triples.append((subject, COG.maxReachM, _decimal(robot.max_reach_m)))
        triples.extend((subject, COG.hasSkill, COG[skill]) for skill in robot.skills)
    for person_id, person in spec.people.items():
        if belief.knows_person(person_id):
            labelled(person_id, COG.Human)
            triples.extend(
                (node(person_id), COG.ability, Literal(ability)) for ability in person.abilities
            )
            if person.age_group is not None:
                triples.append((node(person_id), COG.ageGroup, Literal(person.age_group)))
            if person.relation is not None:
                triples.append((node(person_id), COG.relation, Literal(person.relation)))
            triples.extend(
                (node(person_id), COG.vulnerability, Literal(what))
                for what in person.vulnerabilities
            )
    for obj, item in spec.objects.items():
        if belief.knows_object(obj):
            labelled(obj, COG.Object, item.synonyms)
            triples += _object_facts(spec, obj)
    triples += _type_declarations(spec, graph)
    return "\n".join(f"{s.n3()} {p.n3()} {o.n3()} ." for s, p, o in triples) + "\n"


def _object_facts(spec: WorldSpec, obj: str) -> list[tuple[Node, Node, Node]]:
    """An object's type, attributes, mass and owner (its class and label come first)."""
    item, subject = spec.objects[obj], SceneGraph.iri(obj)
    triples: list[tuple[Node, Node, Node]] = [
        (subject, COG.objectType, COG[item.type]),
        (subject, COG.graspable, Literal(item.graspable)),
        (subject, COG.massKg, _decimal(item.mass_kg)),
    ]
    triples += [(subject, COG[name], Literal(value)) for name, value in item.attributes().items()]
    triples += [(subject, COG[name], _typed(value)) for name, value in _kitchen_identity(item)]
    if item.owner is not None:
        triples.append((subject, COG.ownedBy, SceneGraph.iri(item.owner)))
    return triples


def _type_declarations(spec: WorldSpec, graph: Graph) -> list[tuple[Node, Node, Node]]:
    used = {item.type for item in spec.objects.values()}
    used |= {furniture.type for furniture in spec.furniture.values()}
    used |= set(spec.types)
    triples: list[tuple[Node, Node, Node]] = []
    for name in sorted(used):
        declared = spec.types.get(name)
        if (COG[name], RDF.type, COG.ObjectType) in graph and declared is None:
            continue
        label = declared.label if declared is not None and declared.label else _words(name)
        triples += [(COG[name], RDF.type, COG.ObjectType), (COG[name], RDFS.label, Literal(label))]
        if declared is not None:
            if declared.broader is not None:
                triples.append((COG[name], COG.broaderType, COG[declared.broader]))
            triples += [(COG[name], COG.synonym, Literal(word)) for word in declared.synonyms]
    return triples


def _words(type_name: str) -> str:
    """``CoffeeTable`` -> ``coffee table``."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", type_name).lower()


def _typed(value: AttributeValue) -> Literal:
    """A prior-map literal: numbers that are not whole counts become decimals."""
    return _decimal(value) if isinstance(value, float) else Literal(value)


def _decimal(value: float) -> Literal:
    return Literal(Decimal(str(value)))
