"""``SceneGraph``: the robot's belief about the home, as RDF on the Oxigraph store.

The graph holds the ontology (``knowledge/scene/ontology.ttl``) and a scene (e.g.
``knowledge/scene/scenes/home.ttl``); perception updates it with :class:`Observation` records and
the tree reads it through named queries (``knowledge/scene/queries/*.rq``) that return typed models.

Provenance design. Every observed fact is stored twice over: as the plain triple itself
(``:mug_red cog:on :kitchen_counter``) and as one ``cog:Observation`` node per fact, a
standard RDF reification (``rdf:subject`` / ``rdf:predicate`` / ``rdf:object``) carrying
``cog:source`` and ``cog:lastSeen``. The alternatives were worse for the tick loop: rdflib
cannot represent RDF-star's quoted triples; named graphs per source would force every hot
query into ``GRAPH ?g { ... }`` patterns and still need a node per fact for the last-seen
time; one observation node per *subject* cannot say when each of its facts was seen.

With a node per fact, the hot perception queries (rooms, objects in a room, referents) are
plain triple patterns that never touch provenance; the few that report it (locate, humans)
join it by ``rdf:subject`` and ``rdf:predicate``, which the store indexes; stale retraction is
one filtered pattern. Facts without an observation node are prior knowledge (the map, furniture,
robot profiles) and are never retracted as stale.

Observations follow the ontology: functional properties (``inRoom``, ``colour``,
``isOpen``, ...) replace their old value; a new placement (``on``, ``in``, ``inRoom``)
replaces the old one and ends any ``holds`` and any side relation (``nextTo``, ``leftOf``,
...: so a placement is observed before the side relation it comes with); ``holds`` ends the
object's placement, its side relation, any other holder and the hand it was in (``heldIn``,
observed after the ``holds`` it comes with); a side relation replaces the object's other one.
Replaced facts lose their observation nodes with them.

Queries are strings with parameters bound as RDF terms (see :mod:`knowledge.scene.named_queries`),
so text from a user is only ever a literal. Their shapes follow what keeps Oxigraph's planner
fast (measured at 50k triples, ``benchmarks/scene_graph_latency.py``): the parameter's
``VALUES`` block comes first, and constant sets are ``FILTER ... IN`` (a ``VALUES`` of
classes made the join start from it and scan every instance); ``OPTIONAL`` groups hold one or
two patterns that start from a bound variable, never a property path (larger groups were
evaluated over the whole graph, so such facts come from ``UNION`` branches or a second small
query); and answers stay small, because rdflib converts every returned term to a Python
object (about 10 us a literal).

pyoxigraph reads are thread-safe: behaviours run queries on the ``workers`` pool they are given
(the scene graph owns no threads) and poll them; writes are serialised by a lock (a reader
during a batch of observations may see part of it).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

from rdflib import RDF, RDFS, XSD, Graph, Literal, Namespace, URIRef
from rdflib.query import ResultRow
from rdflib.term import Identifier, Node

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.scene.named_queries import Binding, QueryLibrary
from cogtree.knowledge.scene.property_vocabulary import LOCAL_ID, PropertyVocabulary
from cogtree.knowledge.scene.rdf_store import Storage, close_graph, load_turtle, new_graph
from cogtree.knowledge.scene.readonly_query import QueryOutcome, ReadOnlyQueryRunner
from cogtree.knowledge.scene.referents.resolution import resolve_referent
from cogtree.knowledge.scene.scene_index import SceneChange, SceneIndex
from cogtree.knowledge.scene.scene_models import (
    AttributeValue,
    Candidate,
    HumanInfo,
    Location,
    ObjectInfo,
    Observation,
    Relation,
    RobotState,
    Room,
    ThingKind,
)
from cogtree.knowledge.scene.taxonomy import materialise_kinds, with_ontology
from cogtree.knowledge.versioned_memo import VersionedMemo

log = logging.getLogger(__name__)

COG = Namespace("https://cogtree.dev/ontology#")
"""The ontology's namespace (prefix ``cog:``)."""

SCENE = Namespace("https://cogtree.dev/scene#")
"""The namespace of scene nodes; their local names are the short ids."""

OBSERVATION_NS = "urn:cogtree:observation:"
"""Prefix of the observation nodes this module creates."""

SCENES_DIR = Path(__file__).with_name("scenes")
"""Shipped scenes, e.g. ``SCENES_DIR / "home.ttl"``."""

PREFIXED_ID = re.compile(r"(cog|scene):([A-Za-z_][A-Za-z0-9_.-]*)")
FULL_IRI = re.compile(r"(https?://|urn:)[^\s<>\"{}|\\^`]+")

KINDS: Mapping[Node, ThingKind] = {
    COG.Object: "object",
    COG.Surface: "surface",
    COG.Container: "container",
    COG.Room: "room",
}
SIDE_RELATIONS: Mapping[Node, str] = {
    COG.nextTo: "next_to",
    COG.near: "near",
    COG.leftOf: "left_of",
    COG.rightOf: "right_of",
    COG.behind: "behind",
    COG.inFrontOf: "in_front_of",
}
"""Side relations of the ontology and the spatial relation (``action_model.specs``) of each."""

RELATIONS: Mapping[Node, Relation] = {
    COG.on: "on",
    COG["in"]: "in",
    COG.inRoom: "inRoom",
    COG.mountedOn: "mountedOn",
    COG.holds: "heldBy",
}
PLACEMENT_PRIORITY: tuple[Relation, ...] = ("heldBy", "on", "in", "mountedOn", "inRoom")
"""When the belief holds several placements for one thing, the most specific one wins."""
OBJECT_NUMBERS = dict(graspable="graspable", mass="mass_kg", open="is_open", height="height_m")
ROBOT_NUMBERS = dict(hands="hands", payload="payload_kg", minReach="min_reach_m")
ROBOT_NUMBERS["maxReach"] = "max_reach_m"
"""Values of the objects_in_room and robot_state rows, and the model field each one fills."""


class UnknownEntityError(LookupError):
    """A query named a node that is not in the scene graph (the message lists known ones)."""


class SceneGraph(Closeable):
    """The robot's belief: the ontology plus a scene, with perception queries and updates.

    ``graph``: the rdflib graph to use (a new Oxigraph-backed one when omitted); the ontology
    and the household taxonomy are loaded into it unless they are already there
    (:func:`~knowledge.scene.taxonomy.with_ontology`). A scene loaded into ``graph`` before
    is indexed with them: the index is built once, not before a load and again after it.
    """

    def __init__(self, graph: Graph | None = None) -> None:
        self.graph = with_ontology(graph if graph is not None else new_graph())
        self._vocabulary = PropertyVocabulary.read(self.graph)
        materialise_kinds(self.graph)
        self._queries = QueryLibrary.load()
        self._write_lock = threading.Lock()
        self._version = 0
        self._readonly = ReadOnlyQueryRunner(
            self.graph, {"cog": str(COG), "scene": str(SCENE)}, version=lambda: self._version
        )
        self.index = SceneIndex(self.graph)
        """The belief's names, kinds, places and owners, kept current with every write."""
        self.derived = VersionedMemo(lambda: None if self._version % 2 else self._version)

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_turtle_file(
        cls, path: str | Path, *, graph: Graph | None = None, storage: Storage | None = None
    ) -> SceneGraph:
        """A scene graph holding the ontology and the scene in the Turtle file ``path``.

        Without ``graph``, a new one in memory or on disk as ``storage`` says (by default by
        the scene's size; ``rdf_store.Storage``); :meth:`close` closes one on disk. Raises
        :class:`~knowledge.scene.rdf_store.TurtleError` (with the line) for malformed Turtle.
        """
        return cls._made_from(path, None, graph, storage)

    @classmethod
    def from_turtle_text(
        cls, text: str, *, source: str = "<text>", graph: Graph | None = None,
        storage: Storage | None = None,
    ) -> SceneGraph:  # fmt: skip
        """A scene graph of the ontology and the scene in ``text`` (``source``; as the above)."""
        return cls._made_from(source, text, graph, storage)

    @classmethod
    def _made_from(
        cls, source: str | Path, text: str | None, graph: Graph | None, storage: Storage | None
    ) -> SceneGraph:
        made = (storage or Storage()).graph_for(source, text) if graph is None else graph
        try:
            load_turtle(with_ontology(made), source, text=text, fresh=graph is None)
            return cls(made)
        except BaseException:
            close_graph(made)
            raise

    def load_file(self, path: str | Path) -> None:
        """Add the Turtle file ``path`` to the belief (TurtleError names the line)."""
        self._load(path, None)

    def load_text(self, text: str, *, source: str = "<text>") -> None:
        """Add Turtle ``text`` to the belief (TurtleError names ``source`` and the line)."""
        self._load(source, text)

    def _load(self, source: str | Path, text: str | None) -> None:
        with self._writing(bulk=True):
            load_turtle(self.graph, source, text=text)
            self._vocabulary = PropertyVocabulary.read(self.graph)
            materialise_kinds(self.graph)

    def __len__(self) -> int:
        return len(self.graph)

    @property
    def version(self) -> int:
        """A counter that changes with every write to the belief (to refresh derived data).

        It changes when a write starts and again when it ends, so data derived while a write
        was under way (read the version first) is never labelled with the final version.
        """
        return self._version

    @contextmanager
    def _writing(self, *, bulk: bool = False) -> Iterator[set[Node]]:
        """Hold the write lock for one change of the belief, count it and tell the index.

        The block adds the subject of every fact it adds or removes to the set it is given;
        the :attr:`index` reads those nodes again (``bulk``: everything) before the lock is
        released, in the writer's thread.
        """
        with self._write_lock:
            self._version += 1
            touched: set[Node] = set()
            try:
                yield touched
            finally:
                subjects = frozenset(str(node) for node in touched if isinstance(node, URIRef))
                self.index.apply(SceneChange(subjects, bulk=bulk))
                self._version += 1

    # -- ids -----------------------------------------------------------------------------------

    @staticmethod
    def iri(node_id: str, namespace: Namespace = SCENE) -> URIRef:
        """The IRI of a short id (``kitchen``), a prefixed one (``cog:Bottle``) or a full IRI.

        Raises ValueError for anything else, so no text reaches a query as an IRI.
        """
        if LOCAL_ID.fullmatch(node_id):
            return namespace[node_id]
        prefixed = PREFIXED_ID.fullmatch(node_id)
        if prefixed:
            return (COG if prefixed.group(1) == "cog" else SCENE)[prefixed.group(2)]
        if FULL_IRI.fullmatch(node_id):
            return URIRef(node_id)
        raise ValueError(
            f"{node_id!r} is not a node id: use a local name such as 'kitchen' or "
            "'bottle_blue' (letters, digits, _ . -), 'cog:Bottle', or a full IRI"
        )

    @staticmethod
    def short_id(node: Node) -> str:
        """The short id of a scene or ontology node (its local name); other IRIs in full."""
        text = str(node)
        for namespace in (SCENE, COG):
            if text.startswith(str(namespace)):
                return text[len(str(namespace)) :]
        return text

    @staticmethod
    def kind_of(node_class: Node) -> ThingKind:
        """What a thing of the ontology class ``node_class`` is (object, surface, ...)."""
        return KINDS[node_class]

    # -- observations --------------------------------------------------------------------------

    def observe(self, observations: Iterable[Observation]) -> None:
        """Add or update observed facts, each with its source and last-seen time.

        Every observation is checked before any is applied, so a bad one (unknown predicate,
        bad id, a value of the wrong kind) raises ValueError naming it and changes nothing.
        """
        checked = []
        for index, observation in enumerate(observations):
            try:
                checked.append((observation, self._fact(observation)))
            except ValueError as error:
                raise ValueError(f"observation {index} ({observation}): {error}") from error
        with self._writing() as touched:
            for observation, fact in checked:
                for old in self._displaced(fact):
                    self._remove_fact(old)
                    touched.add(old[0])
                self.graph.add(fact)
                touched.add(fact[0])
                self._stamp(fact, observation.source, observation.time)
        log.debug("applied %d observations", len(checked))

    def forget_placement(self, thing: str) -> bool:
        """Drop where ``thing`` is believed to be (a negative observation: looked, not there).

        Removes its placement (on / in / inRoom) or who holds it, with provenance; prior
        knowledge is removed too, since it has just been contradicted. Returns whether the
        belief had a placement to forget. The thing itself stays known.
        """
        node = self.iri(thing)
        with self._writing() as touched:
            old = self._displaced((node, COG.inRoom, node))  # every placement of the thing
            for fact in old:
                self._remove_fact(fact)
                touched.add(fact[0])
        if old:
            log.debug("forgot where %s was", thing)
        return bool(old)

    def retract_stale(self, older_than: datetime, source: str | None = None) -> list[Observation]:
        """Forget observed facts last seen before ``older_than`` (only ``source``'s if given).

        Returns what was removed, with its provenance. Prior knowledge is never removed.
        """
        if older_than.tzinfo is None:
            raise ValueError(
                "older_than must be timezone-aware, e.g. datetime.now(timezone.utc) - delta"
            )
        with self._writing() as touched:
            rows = self.select(
                "stale_observations",
                cutoff=Literal(older_than.astimezone(timezone.utc)),
                source=None if source is None else Literal(source),
            )
            removed = []
            for row in rows:
                fact = (row["subject"], row["predicate"], row["object"])
                self.graph.remove(fact)
                touched.add(fact[0])
                self.graph.remove((row["observation"], None, None))
                removed.append(self._as_observation(fact, row["source"], row["seen"]))
        log.debug("retracted %d stale facts", len(removed))
        return sorted(removed, key=lambda o: (o.subject, o.predicate))

    def observations_of(self, subject: str) -> list[Observation]:
        """The observed facts about ``subject`` with their provenance (prior facts excluded)."""
        node = self.iri(subject)
        found = []
        for observation in self.graph.subjects(RDF.subject, node):
            predicate = self.graph.value(observation, RDF.predicate)
            obj = self.graph.value(observation, RDF.object)
            source = self.graph.value(observation, COG.source)
            seen = self.graph.value(observation, COG.lastSeen)
            if predicate is not None and obj is not None and source is not None and seen:
                found.append(self._as_observation((node, predicate, obj), source, seen))
        return sorted(found, key=lambda o: (o.predicate, str(o.object)))

    def _fact(self, observation: Observation) -> tuple[URIRef, URIRef, Node]:
        predicate = self._vocabulary.predicate(observation.predicate)
        subject = self.iri(observation.subject)
        value = observation.object
        if predicate == RDF.type or predicate in self._vocabulary.object_properties:
            if not isinstance(value, str):
                raise ValueError(f"{observation.predicate} takes a node id, got {value!r}")
            in_ontology = predicate == RDF.type or self._vocabulary.ranges.get(predicate) in (
                COG.ObjectType,
                COG.Skill,
            )
            return subject, predicate, self.iri(value, COG if in_ontology else SCENE)
        return subject, predicate, self._literal(predicate, value)

    def _literal(self, predicate: URIRef, value: AttributeValue) -> Literal:
        datatype = self._vocabulary.ranges.get(predicate, XSD.string)
        name = self.short_id(predicate)
        if datatype == XSD.boolean:
            if not isinstance(value, bool):
                raise ValueError(f"{name} takes true or false, got {value!r}")
            return Literal(value)
        if datatype in (XSD.decimal, XSD.nonNegativeInteger, XSD.integer):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{name} takes a number, got {value!r}")
            if datatype != XSD.decimal:
                if not isinstance(value, int) or value < 0:
                    raise ValueError(f"{name} takes a whole number >= 0, got {value!r}")
                return Literal(value)
            return Literal(Decimal(str(value)))
        if not isinstance(value, str):
            raise ValueError(f"{name} takes text, got {value!r}")
        return Literal(value)

    def _displaced(self, fact: tuple[URIRef, URIRef, Node]) -> list[tuple[Node, Node, Node]]:
        """Facts that ``fact`` replaces (see the module docstring)."""
        subject, predicate, obj = fact
        vocabulary = self._vocabulary
        patterns: list[tuple[Node | None, Node | None, Node | None]] = []
        if predicate in vocabulary.placement:
            patterns += [(subject, other, None) for other in vocabulary.placement]
            patterns += [(subject, side, None) for side in vocabulary.side]
            patterns += [(None, COG.holds, subject), (subject, COG.heldIn, None)]
        if predicate == COG.holds:
            patterns += [(obj, other, None) for other in vocabulary.placement]
            patterns += [(obj, side, None) for side in vocabulary.side]
            patterns.append((obj, COG.heldIn, None))
        if predicate in vocabulary.side:
            patterns += [(subject, side, None) for side in vocabulary.side]
        if predicate in vocabulary.inverse_functional:
            patterns.append((None, predicate, obj))
        if predicate in vocabulary.functional:
            patterns.append((subject, predicate, None))
        old = {triple for pattern in patterns for triple in self.graph.triples(pattern)}
        old.discard(fact)
        return sorted(old)

    def _observation_nodes(self, fact: tuple[Node, Node, Node]) -> list[Node]:
        subject, predicate, obj = fact
        return [
            node
            for node in self.graph.subjects(RDF.subject, subject)
            if (node, RDF.predicate, predicate) in self.graph
            and (node, RDF.object, obj) in self.graph
        ]

    def _remove_fact(self, fact: tuple[Node, Node, Node]) -> None:
        for node in self._observation_nodes(fact):
            self.graph.remove((node, None, None))
        self.graph.remove(fact)

    def _stamp(self, fact: tuple[URIRef, URIRef, Node], source: str, seen: datetime) -> None:
        existing = self._observation_nodes(fact)
        if existing:
            node = existing[0]
            self.graph.remove((node, COG.source, None))
            self.graph.remove((node, COG.lastSeen, None))
        else:
            digest = hashlib.sha1(" ".join(term.n3() for term in fact).encode()).hexdigest()
            node = URIRef(OBSERVATION_NS + digest[:20])
            self.graph.add((node, RDF.type, COG.Observation))
            self.graph.add((node, RDF.subject, fact[0]))
            self.graph.add((node, RDF.predicate, fact[1]))
            self.graph.add((node, RDF.object, fact[2]))
        self.graph.add((node, COG.source, Literal(source)))
        self.graph.add((node, COG.lastSeen, Literal(seen.astimezone(timezone.utc))))

    def _as_observation(
        self, fact: tuple[Node, Node, Node], source: Node, seen: Node
    ) -> Observation:
        subject, predicate, obj = fact
        names: dict[Node, str] = {RDF.type: "type", RDFS.label: "label"}
        name = names.get(predicate, self.short_id(predicate))
        value = obj if isinstance(obj, Literal) else None
        return Observation(
            subject=self.short_id(subject),
            predicate=name,
            object=self.short_id(obj) if value is None else _python_value(value),
            source=str(source),
            time=_datetime(seen),
        )

    # -- perception queries --------------------------------------------------------------------

    def rooms(self) -> list[Room]:
        """Every room with the rooms it opens onto, sorted by id."""
        labels: dict[str, str] = {}
        neighbours: dict[str, set[str]] = {}
        for row in self.select("rooms"):
            room = self.short_id(row["room"])
            labels[room], known = str(row.get("label", room)), neighbours.setdefault(room, set())
            if "neighbour" in row:
                known.add(self.short_id(row["neighbour"]))
        return [
            Room(id=room, label=labels[room], connected_to=sorted(neighbours[room]))
            for room in sorted(labels)
        ]

    def objects_in_room(self, room: str) -> list[ObjectInfo]:
        """Objects and furniture in ``room`` (on, in, held or stored there), sorted by id.

        Raises :class:`UnknownEntityError` when ``room`` is not a room of the belief (an
        empty list means a known room with nothing in it).
        """
        node = self.iri(room)
        if (node, RDF.type, COG.Room) not in self.graph:
            known = ", ".join(r.id for r in self.rooms())
            raise UnknownEntityError(f"no room {room!r} in the scene graph; rooms: {known}")
        found: dict[str, dict[str, Any]] = {}
        for row in self.select("objects_in_room", room=node):
            thing = self.short_id(row["thing"])
            info = found.setdefault(
                thing,
                {
                    "id": thing,
                    "label": str(row.get("label", thing)),
                    "kind": self.kind_of(row["class"]),
                    "room": self.short_id(node),
                    "attributes": {},
                },
            )
            if "type" in row:
                info["type"] = self.short_id(row["type"])
            if "holder" in row:
                info["relation"], info["support"] = "heldBy", self.short_id(row["holder"])
            elif "relation" in row:
                info["relation"] = RELATIONS[row["relation"]]
                info["support"] = self.short_id(row["support"])
            for key, field in OBJECT_NUMBERS.items():
                if key in row:
                    info[field] = _python_value(row[key])
            if "home" in row:
                info["home"] = self.short_id(row["home"])
            if "attribute" in row:
                info["attributes"][self.short_id(row["attribute"])] = _python_value(row["value"])
            if "side" in row:
                side = (SIDE_RELATIONS[row["side"]], self.short_id(row["landmark"]))
                if side not in info.setdefault("beside", []):
                    info["beside"].append(side)
        return [ObjectInfo.model_validate(found[thing]) for thing in sorted(found)]

    def locate_object(self, thing: str) -> Location | None:
        """Where ``thing`` (an object, a person, a robot) is believed to be; None if unknown."""
        node = self.iri(thing)
        placements: dict[tuple[Relation, str], dict[str, Any]] = {}
        believed_keys: set[tuple[Relation, str]] = set()
        for row in self.select("locate_object", thing=node):
            key = (RELATIONS[row["relation"]], self.short_id(row["support"]))
            fields = placements.setdefault(key, {})
            if "source" in row:
                fields.update(source=str(row["source"]), last_seen=_datetime(row["seen"]))
            else:
                believed_keys.add(key)
        if not believed_keys:
            return None
        relation, support = min(believed_keys, key=lambda k: (PLACEMENT_PRIORITY.index(k[0]), k[1]))
        rooms = self.select("room_of", thing=node)
        return Location(
            thing=self.short_id(node),
            relation=relation,
            support=support,
            room=self.short_id(rooms[0]["room"]) if rooms else None,
            **placements[(relation, support)],
        )

    def robot_state(self, robot: str | None = None) -> list[RobotState]:
        """The state of ``robot``, or of every robot when omitted; [] for an unknown robot."""
        found: dict[str, dict[str, Any]] = {}
        node = None if robot is None else self.iri(robot)
        for row in self.select("robot_state", robot=node):
            robot_id = self.short_id(row["robot"])
            state = found.setdefault(
                robot_id,
                {
                    "id": robot_id,
                    "label": str(row.get("label", robot_id)),
                    "skills": set(),
                    "holding": set(),
                    "storage": set(),
                    "held_in": {},
                },
            )
            for key, field in ROBOT_NUMBERS.items():
                if key in row:
                    state[field] = _python_value(row[key])
            if "room" in row:
                state["room"] = self.short_id(row["room"])
            for key, field in (("skill", "skills"), ("held", "holding"), ("storage", "storage")):
                if key in row:
                    state[field].add(self.short_id(row[key]))
            if "hand" in row:
                state["held_in"][self.short_id(row["held"])] = str(row["hand"])
        lists = ("skills", "holding", "storage")
        return [
            RobotState.model_validate({**state, **{f: sorted(state[f]) for f in lists}})
            for _, state in sorted(found.items())
        ]

    def humans(self, human: str | None = None) -> list[HumanInfo]:
        """Where people are, whether they are available and what they can be asked to do.

        Only ``human``, if given. Abilities come sorted.
        """
        node = None if human is None else self.iri(human)
        found: dict[str, HumanInfo] = {}
        abilities: dict[str, set[str]] = {}
        for row in self.select("humans", human=node):
            human_id = self.short_id(row["human"])
            found[human_id] = HumanInfo(
                id=human_id,
                label=str(row.get("label", human_id)),
                room=self.short_id(row["room"]) if "room" in row else None,
                availability=str(row["availability"]) if "availability" in row else None,
                source=str(row["source"]) if "source" in row else None,
                last_seen=_datetime(row["seen"]) if "seen" in row else None,
            )
            known = abilities.setdefault(human_id, set())
            if "ability" in row:
                known.add(str(row["ability"]))
        return [
            found[h].model_copy(update={"abilities": sorted(abilities[h])}) for h in sorted(found)
        ]

    def resolve_referent(
        self, description: str, speaker: str | None = None, *, limit: int | None = None
    ) -> list[Candidate]:
        """What ``description`` may refer to (``speaker`` owns "my"): at most ``limit`` nodes.

        :func:`~knowledge.scene.referents.resolution.resolve_referent` over the :attr:`index`,
        costing what it finds. ValueError for a ``speaker`` that is no node id.
        """
        speaker_id = None if speaker is None else self.short_id(self.iri(speaker))
        return resolve_referent(self.index, description, speaker_id, limit=limit)

    def query_readonly(self, text: str, template: bool = False) -> QueryOutcome:
        """Run SPARQL that a model wrote: SELECT/ASK only, ``cog:``/``scene:`` IRIs, bounded.

        A model's query runs in the runner's worker process over a snapshot of this graph
        (re-sent when :attr:`version` changes); ``template=True`` (a pack's own template) runs
        in-process. Raises :class:`~knowledge.scene.readonly_query.QueryRefused` (a ValueError) with
        the reason for anything else (an update, SERVICE, a foreign namespace, a syntax error,
        a query over its time or memory limit). Blocks up to the runner's time limit: a behaviour
        runs it on its ``workers`` pool.
        """
        return self._readonly.run(text, template=template)

    # -- running queries -----------------------------------------------------------------------

    def select(self, name: str, **params: Binding) -> list[dict[str, Identifier]]:
        """Run the named query with ``params`` bound; rows as {variable: term} (bound only)."""
        text = self._queries[name].bind(**params)
        return [row.asdict() for row in self.graph.query(text) if isinstance(row, ResultRow)]

    def close(self) -> None:
        """Stop the read-only query runner (a running query finishes); close a graph on disk."""
        self._readonly.close()
        close_graph(self.graph)


def _python_value(value: Node) -> AttributeValue:
    """A literal as str, bool, int or float (decimals become floats)."""
    python = value.toPython() if isinstance(value, Literal) else str(value)
    if isinstance(python, bool | int | float | str):
        return python
    if isinstance(python, Decimal):
        return float(python)
    return str(python)


def _datetime(value: Node) -> datetime:
    python = value.toPython() if isinstance(value, Literal) else None
    if not isinstance(python, datetime):
        raise ValueError(f"expected an xsd:dateTime, got {value!r}")
    return python if python.tzinfo else python.replace(tzinfo=timezone.utc)
