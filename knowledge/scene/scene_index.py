"""``SceneIndex``: the belief's names, kinds, places and owners in plain Python, kept current.

SPARQL over the whole belief costs what the belief holds: the lexicons, referent resolution
and the scene reads of a turn would grow with every object the robot has seen. The index
keeps what they ask in dictionaries and sets, node by node:

- every node's classes (``Object``, ``Surface``, ``Human``...), labels, synonyms, object
  types, owners, placements (``on`` / ``in`` / ``inRoom`` / ``mountedOn``) and what it holds,
  and its attributes (string values, true flags, and which attributes it has at all);
- the reverse of each: the nodes by name, type, attribute value, true flag, other attribute,
  owner, class, unfit state the label says ("dirty"), and what is on, in or held by each;
- the vocabulary: object types with their labels, synonyms and broader types (the household
  taxonomy's ``cog:kindOf`` closure, with itself), what each kind is used for, typically
  like (qualities, and the flags sharp, fragile, electrical) or can become, and the
  attributes with their labels and synonyms.

The scene graph calls :meth:`SceneIndex.apply` with a :class:`SceneChange` after every write:
an observation batch or an action effect names the subjects whose facts it added or removed,
and only those nodes are read again (a few triples each); a bulk load, or a change to the
vocabulary (a subject in the ontology's namespace), rebuilds the whole index from the graph
(the Oxigraph store read directly; no collection while it is built), and swaps it in.

Reads take a lock held only for one read or one node's update, never for a rebuild. Reads
cost what they return (a dictionary probe and a copy; :meth:`SceneIndex.members` no copy).
:attr:`SceneIndex.names_version` moves only when a node's names, classes or types change
(what the lexicons are made of); :meth:`SceneIndex.renamed_since` says which nodes.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from sys import intern
from typing import Any, Final

from rdflib import Graph

from cogtree.knowledge.collector import collector_paused
from cogtree.knowledge.node_tables import (
    ANYONE,
    Facts,
    Members,
    Part,
    Sorted,
    Table,
    Tables,
    among,
    get,
    union,
    without,
)
from cogtree.knowledge.node_tables import (
    Node as Node,
)
from cogtree.knowledge.scene.fit_for_use import states_in
from cogtree.knowledge.scene.rdf_store import STRING, TRUE, Term, TripleReader
from cogtree.knowledge.wording import compound_head, label_words, singular
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import ARTEFACTS, PEOPLE, shipped_nouns

ONTOLOGY_NS = "https://cogtree.dev/ontology#"
SCENE_NS = "https://cogtree.dev/scene#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SUB_PROPERTY = "http://www.w3.org/2000/01/rdf-schema#subPropertyOf"
SYNONYM = ONTOLOGY_NS + "synonym"
OBJECT_TYPE = ONTOLOGY_NS + "objectType"
OWNED_BY = ONTOLOGY_NS + "ownedBy"
HOLDS = ONTOLOGY_NS + "holds"
KIND_OF = ONTOLOGY_NS + "kindOf"
PLACEMENTS = {ONTOLOGY_NS + name: name for name in ("on", "in", "inRoom", "mountedOn")}
"""The placement properties, by IRI, with the relation each is."""

CLASSES = frozenset(["Object", "Furniture", "Surface", "Container", "Room", "Human", "Robot"])
"""The classes of scene nodes the index keeps."""

SCENE_CLASSES: Mapping[str, frozenset[str]] = {
    "objects": frozenset(["Object"]),
    "furniture": frozenset(["Furniture", "Surface", "Container"]),
    "rooms": frozenset(["Room"]),
    "people": frozenset(["Human"]),
    "places": frozenset(["Furniture", "Surface", "Container", "Room"]),
}
"""The ``cog:`` classes whose nodes make up each scene family."""

KIND_PROPERTIES = {"usedFor": "use", "typicalQuality": "quality", "typicalFlag": "quality"}
KIND_PROPERTIES.update(canBe="state", keepsContents="kept")
"""What a kind says of its things (or, ``kept``, of what is in them), and how a word matches
through it (referent resolution)."""

FLAG_ADJECTIVES = frozenset(["sharp", "fragile", "electrical"])
"""The typical flags that describe a thing ("the sharp one"); other flags are not adjectives."""

_Fact = tuple[str, Any]  # a field of a Node and one value it gains


def short(iri: str) -> str:
    """The local name of a scene or ontology IRI; other IRIs in full (ontology names interned)."""
    if iri.startswith(SCENE_NS):  # a node's id: a build shares one string, not intern's table
        return iri[_SCENE_LENGTH:]
    if iri.startswith(ONTOLOGY_NS):
        return intern(iri[_ONTOLOGY_LENGTH:])
    return iri


_SCENE_LENGTH, _ONTOLOGY_LENGTH = len(SCENE_NS), len(ONTOLOGY_NS)


@dataclass(frozen=True)
class SceneChange:
    """What one write changed: the IRIs of the subjects whose facts it added or removed.

    ``bulk``: anything may have changed (a Turtle load): the index is rebuilt.
    """

    subjects: frozenset[str] = frozenset()
    bulk: bool = False


@dataclass
class Vocabulary:
    """Object types and attributes, as the ontology, the taxonomy and the scene declare them."""

    type_labels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    type_synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    types_named: dict[str, set[str]] = field(default_factory=dict)
    """Label or synonym -> the types it names; a plural label's singular too, when it may be
    (``_singular_name``: "tissue" for tissues; never "glass" for the glasses one wears)."""
    headed: dict[str, set[str]] = field(default_factory=dict)
    """The last word of a compound label or synonym -> the types it heads ("bottle": the
    water bottle; :func:`~knowledge.wording.compound_head`)."""
    kinds: dict[str, set[str]] = field(default_factory=dict)
    """Type -> itself and every broader type."""
    narrower: dict[str, set[str]] = field(default_factory=dict)
    """Kind -> itself and every type under it."""
    kind_words: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Word -> (kind, how): what kinds are used for, typically like, can become, or keep
    what is in them as (``kept``: "cold" for a fridge)."""
    labels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Every labelled node of the vocabulary (kinds, attributes) -> its labels."""
    attributes: set[str] = field(default_factory=set)
    attributes_named: dict[str, set[str]] = field(default_factory=dict)
    """Label or synonym -> the attributes it names."""
    type_words: tuple[str, ...] = ()
    """Every one-word label and synonym of a type, sorted (a clipped word is completed here)."""


class _Tables(Tables):
    """The nodes and their reverse maps, and the vocabulary they were read with."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        super().__init__(states_in, label_words, self.other_names)
        self.vocabulary = vocabulary

    def other_names(self, node: Node) -> tuple[str, ...]:
        """The node's :func:`other_names` with this vocabulary."""
        return other_names(node, self.vocabulary.types_named)


ROOM_KINDS: Final = ("room", "passage")
"""What a room of a home is in the English dictionary (a kitchen is a room, a hallway a passage)."""


def other_names(node: Node, types_named: Mapping[str, object]) -> tuple[str, ...]:
    """The names a node goes by beside its labels, but for words that name a type.

    A room's words in the English dictionary (:func:`room_names`) and a person's for who they
    are to the user (:func:`relation_names`); "cleaner" for a person whose relation is
    cleaner stays the cleaning spray's (``types_named``: the vocabulary's type names).
    """
    found = (*room_names(node), *relation_names(node))
    return tuple(name for name in found if name not in types_named)


AGE_GROUPS: Final = ("toddler", "child", "adult", "elderly")
"""The values of ``cog:ageGroup`` (the ontology's comment lists them)."""
YOUNGER_STILL: Final = {"toddler": ("infant", "newborn")}
"""The youngest age group holds everyone younger too: a toddler is called "the baby" as well."""


@cache
def _age_group_senses() -> dict[str, int]:
    """Each age group's first sense among people in the English dictionary (its offset)."""
    nouns = shipped_nouns()
    firsts = {
        group: next(nouns.broader(group, frozenset([PEOPLE])), None) if nouns else None
        for group in AGE_GROUPS
    }
    return {group: first.offset for group, first in firsts.items() if first is not None}


def relation_names(node: Node) -> tuple[str, ...]:
    """What a person is called for who they are to the user or their age ("dad", "kid").

    From the English dictionary (:meth:`~knowledge.wordnet.nouns.NounDatabase.person_words`):
    a father is "dad"; an age group as :func:`age_group_names` says.
    """
    nouns = shipped_nouns() if "Human" in node.classes else None
    if nouns is None:
        return ()
    said = [value for attribute, value in node.values if attribute == "relation"]
    words = [word for relation in said for word in nouns.person_words(relation)]
    for age in (value for attribute, value in node.values if attribute == "ageGroup"):
        words += age_group_names(age)
    return tuple(dict.fromkeys(words))


def age_group_names(age: str) -> tuple[str, ...]:
    """What someone of age group ``age`` is called ("kid", "tot", "baby" for a toddler).

    The dictionary's words of every age group it puts above ``age`` too (a toddler is a
    child: "the kids" are both), and the youngest group's words for those younger still
    (:data:`YOUNGER_STILL`). () without the dictionary.
    """
    nouns = shipped_nouns()
    if nouns is None:
        return ()
    above = {synset.offset for synset in nouns.broader(age, frozenset([PEOPLE]))}
    groups = [group for group, first in _age_group_senses().items() if first in above]
    groups += YOUNGER_STILL.get(age, ())
    return tuple(dict.fromkeys(word for group in groups for word in nouns.person_words(group)))


def room_names(node: Node) -> tuple[str, ...]:
    """The words the English dictionary has for a room beside its labels ("hall": hallway).

    Only a label's most frequent sense, when it is a room (WordNet's artefacts under "room":
    "study" is first an act of studying, "lounge" a sofa, so they get none), and only words
    whose own first sense it is (:meth:`~knowledge.wordnet.nouns.NounDatabase.same_as`).
    """
    nouns = shipped_nouns() if "Room" in node.classes else None
    if nouns is None:
        return ()
    names = (nouns.same_as(label, ARTEFACTS, ROOM_KINDS) for label in node.labels)
    return tuple(word for same in names for word in same)


# -- reading the graph ------------------------------------------------------------------------


def _vocabulary(
    reader: TripleReader, labels: dict[str, list[str]], synonyms: dict[str, list[str]]
) -> Vocabulary:
    """Types, kinds and attributes of the ontology (``labels``, ``synonyms``: of its nodes)."""
    vocabulary = Vocabulary()
    types = {short(s) for s, _ in reader.with_predicate(RDF_TYPE, ONTOLOGY_NS + "ObjectType")}
    attribute = ONTOLOGY_NS + "attribute"
    vocabulary.attributes = {short(s) for s, _ in reader.with_predicate(SUB_PROPERTY, attribute)}
    vocabulary.labels = {name: tuple(sorted(words)) for name, words in labels.items()}
    for name in types:
        vocabulary.type_labels[name] = vocabulary.labels.get(name, ())
        vocabulary.type_synonyms[name] = tuple(sorted(synonyms.get(name, ())))
    pairs = ((types, vocabulary.types_named), (vocabulary.attributes, vocabulary.attributes_named))
    for names, named in pairs:
        for name in names:
            for word in (*labels.get(name, ()), *synonyms.get(name, ())):
                named.setdefault(word, set()).add(name)
    for name in types:  # "a tissue": tissues
        for word in labels.get(name, ()):
            if (one := _singular_name(word, vocabulary.types_named)) is not None:
                vocabulary.types_named[one] = {name}
    vocabulary.type_words = tuple(sorted(w for w in vocabulary.types_named if " " not in w))
    for name in types:
        for word in (*labels.get(name, ()), *synonyms.get(name, ())):
            if (head := compound_head(word)) is not None:
                vocabulary.headed.setdefault(head, set()).add(name)
    for subject, (text, _) in reader.with_predicate(KIND_OF):
        narrower, wider = short(subject), short(text)
        vocabulary.kinds.setdefault(narrower, set()).add(wider)
        vocabulary.narrower.setdefault(wider, set()).add(narrower)
    for prop, how in KIND_PROPERTIES.items():
        for subject, (text, kind) in reader.with_predicate(ONTOLOGY_NS + prop):
            if kind != STRING or (prop == "typicalFlag" and text not in FLAG_ADJECTIVES):
                continue
            vocabulary.kind_words.setdefault(text, []).append((short(subject), how))
    return vocabulary


def _singular_name(label: str, named: Mapping[str, set[str]]) -> str | None:
    """The singular a plural type label is said in too ("tissues": tissue), if it may be.

    Only a label's (never a synonym's or a brand's: "walkers" is no walker), only a noun of
    the English dictionary that is no adjective ("shorts" gives no "short", "clothes" no
    "clothe"), and only when no type is named by it already ("glasses" gives no "glass").
    """
    one = singular(label)
    lemmas = shipped_lemmas() if one != label and " " not in one else None
    if lemmas is None or one in named or lemmas.lemma_of(one, "adj") is not None:
        return None
    return one if lemmas.lemma_of(one, "noun") == one else None


def _facts(predicate: str, term: Term, attributes: Mapping[str, str]) -> Iterator[_Fact]:
    """The fields the fact (``predicate``, ``term``) adds to its subject (attributes by IRI)."""
    text, kind = term
    if predicate == RDF_TYPE:
        if kind == "iri" and text.startswith(ONTOLOGY_NS) and short(text) in CLASSES:
            yield "classes", short(text)
    elif predicate in (LABEL, SYNONYM):
        if kind not in ("iri", "blank"):
            yield ("labels" if predicate == LABEL else "synonyms"), text
    elif kind == "iri":
        if predicate == OBJECT_TYPE:
            yield "types", short(text)
        elif predicate == OWNED_BY:
            yield "owners", short(text)
        elif predicate == HOLDS:
            yield "held", short(text)
        elif predicate in PLACEMENTS:
            yield "placements", (PLACEMENTS[predicate], short(text))
    elif predicate in attributes:
        name = attributes[predicate]
        yield "attributes", name
        if kind == STRING:
            yield "values", (name, text)
        elif kind == TRUE:
            yield "flags", name


def _attribute_iris(vocabulary: Vocabulary) -> dict[str, str]:
    """The attributes of ``vocabulary`` by IRI."""
    return {ONTOLOGY_NS + name: name for name in sorted(vocabulary.attributes)}


def _of(reader: TripleReader, name: str) -> Iterator[tuple[str, Term]]:
    """The nodes of the class ``name`` (subject IRI, class)."""
    return reader.with_predicate(RDF_TYPE, ONTOLOGY_NS + name)


def _build(reader: TripleReader) -> _Tables:
    """Every node of the graph, read predicate by predicate (names first: see the body)."""
    nodes: dict[str, Node] = {}
    names: dict[str, dict[str, list[str]]] = {LABEL: {}, SYNONYM: {}}
    shapes: dict[tuple[object, ...], tuple[object, ...]] = {}
    facts = Facts(shapes)  # a Node per node, made on its first fact, never a draft

    def read(predicate: str, obj: str | None, attributes: Mapping[str, str]) -> None:
        for subject, term in reader.with_predicate(predicate, obj):
            if not subject.startswith(ONTOLOGY_NS):
                for name, value in _facts(predicate, term, attributes):
                    facts.add(nodes, short(subject), name, value)
            elif predicate in names and term[1] == STRING:
                names[predicate].setdefault(short(subject), []).append(term[0])

    classed = [(subject, name) for name in sorted(CLASSES) for subject, _ in _of(reader, name)]
    for subject, name in sorted(classed):  # ids made in order: a walk of a sorted part (an
        if not subject.startswith(ONTOLOGY_NS):  # index's list) reads the heap in order
            facts.add(nodes, short(subject), "classes", name)
    del classed
    for predicate in names:  # one read of every name: the ontology's go to the vocabulary
        read(predicate, None, {})
    tables = _Tables(_vocabulary(reader, names[LABEL], names[SYNONYM]))
    attributes = _attribute_iris(tables.vocabulary)
    reads = [(p, None) for p in (OBJECT_TYPE, OWNED_BY, HOLDS, *PLACEMENTS, *attributes)]
    for predicate, obj in reads:
        read(predicate, obj, attributes)
    tables.shapes = shapes
    for node_id in sorted(nodes):  # in order: each sorted list of the reverse maps grows at its end
        tables.put(node_id, nodes[node_id])
    tables.compact()
    return tables


# -- the index ----------------------------------------------------------------------------------

RENAMED_KEPT = 1000
"""How many changes of names the index remembers for :meth:`SceneIndex.renamed_since`."""

Listener = Callable[[frozenset[str] | None, frozenset[str]], None]
"""Told, after each change, which nodes' names changed (None: any may have: a rebuild), and
which nodes changed otherwise (a new node object, the same names: a move)."""


class SceneIndex:
    """The belief's nodes in dictionaries and sets (module docs); built from ``graph``."""

    def __init__(self, graph: Graph) -> None:
        self._reader = TripleReader(graph)
        self._lock = threading.RLock()
        self._tables = _build(self._reader)
        self._renamed: list[tuple[int, frozenset[str] | None]] = []
        self._listeners: list[weakref.WeakMethod[Listener]] = []
        self.names_version = 0
        """Moves when any node's names, classes or types change (see :meth:`renamed_since`)."""

    # -- keeping current ------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Call the method ``listener`` (held weakly) after a change, with the nodes renamed."""
        self._listeners.append(weakref.WeakMethod(listener))

    def apply(self, change: SceneChange) -> None:
        """Bring the index up to date with ``change`` (in the writer's thread)."""
        vocabulary = any(subject.startswith(ONTOLOGY_NS) for subject in change.subjects)
        if change.bulk or vocabulary:
            self.rebuild()
            return
        tables = self._tables
        attributes, facts = _attribute_iris(tables.vocabulary), Facts(tables.shapes)
        read: dict[str, Node | None] = {}
        for subject in change.subjects:
            node_id, read_now = short(subject), dict[str, Node]()
            for predicate, term in self._reader.about(subject):
                for name, value in _facts(predicate, term, attributes):
                    facts.add(read_now, node_id, name, value)
            read[node_id] = read_now.get(node_id)
        renamed, changed = set[str](), set[str]()
        with self._lock:
            for node_id, node in read.items():
                old = tables.nodes.get(node_id)
                tables.put(node_id, node)
                same = (old and old.naming()) == (node and node.naming())
                (changed if same else renamed).add(node_id)
        if renamed or changed:
            self._renamed_now(frozenset(renamed), frozenset(changed))

    def rebuild(self) -> None:
        """Read the whole graph again (outside the lock) and swap the new tables in."""
        with collector_paused():
            tables = _build(self._reader)
        with self._lock:
            self._tables = tables
        self._renamed_now(None)

    def _renamed_now(
        self, nodes: frozenset[str] | None, changed: frozenset[str] = frozenset()
    ) -> None:
        if nodes is None or nodes:
            with self._lock:
                self.names_version += 1
                self._renamed.append((self.names_version, nodes))
                del self._renamed[:-RENAMED_KEPT]
        alive = [(ref, ref()) for ref in self._listeners]
        self._listeners = [ref for ref, listener in alive if listener is not None]
        for _, listener in alive:
            if listener is not None:
                listener(nodes, changed)

    def renamed_since(self, version: int) -> set[str] | None:
        """The nodes whose names changed after ``version``; None if it cannot say (rebuilt)."""
        with self._lock:
            if version == self.names_version:
                return set()
            if not self._renamed or self._renamed[0][0] > version + 1:
                return None
            found: set[str] = set()
            for at, nodes in self._renamed:
                if at <= version:
                    continue
                if nodes is None:
                    return None
                found |= nodes
            return found

    # -- reading ------------------------------------------------------------------------------

    def reading(self) -> threading.RLock:
        """Hold this (``with index.reading():``) for several reads that must agree."""
        return self._lock

    @property
    def vocabulary(self) -> Vocabulary:
        """Types, kinds and attributes (replaced whole on a rebuild, never changed in place)."""
        return self._tables.vocabulary

    def node(self, node_id: str) -> Node | None:
        """What is known of ``node_id`` (a short id); None if nothing."""
        return self._tables.nodes.get(node_id)

    def of_class(self, *classes: str) -> set[str]:
        """The nodes of any of ``classes`` (``Human``, ``Room``...)."""
        with self._lock:
            return union(get(self._tables.by_class, name) for name in classes)

    def named(self, form: str) -> set[str]:
        """The nodes labelled ``form`` or with it as a synonym."""
        with self._lock:
            return set(get(self._tables.by_name, form))

    def of_types(self, types: Iterable[str]) -> set[str]:
        """The nodes whose object type is one of ``types``."""
        with self._lock:
            return union(get(self._tables.by_type, name) for name in types)

    def members(self, table: str, keys: Iterable[str]) -> list[Members | Part]:
        """The nodes under ``keys`` of ``table`` (``by_type``), uncopied: hold :meth:`reading`."""
        if table == "by_attribute":
            parts = [part for key in keys for part in self._tables.having(key) if part]
        else:
            found: Table = getattr(self._tables, table)
            parts = [get(found, key) for key in keys if key in found]
        return [Part(part) if isinstance(part, Sorted) else part for part in parts]

    def of_kind(self, kind: str) -> set[str]:
        """The nodes whose object type is ``kind`` or a type under it."""
        return self.of_types(self.vocabulary.narrower.get(kind, {kind}))

    def with_flag(self, attributes: Iterable[str]) -> set[str]:
        """The nodes for which one of ``attributes`` is true."""
        with self._lock:
            return union(get(self._tables.by_flag, name) for name in attributes)

    def owned_by(self, owners: Iterable[str]) -> set[str]:
        """The nodes owned by one of ``owners``."""
        with self._lock:
            return union(get(self._tables.by_owner, owner) for owner in owners)

    def unowned(self, nodes: set[str]) -> set[str]:
        """The nodes of ``nodes`` nobody is known to own (a set difference: costs ``nodes``)."""
        with self._lock:
            return without(nodes, [get(self._tables.by_owner, ANYONE)])

    def among_classes(self, nodes: set[str], classes: Iterable[str]) -> set[str]:
        """The nodes of ``nodes`` of any of ``classes`` (intersections: cost ``nodes``)."""
        with self._lock:
            return union(among(nodes, get(self._tables.by_class, n)) for n in classes)

    def other_names(self, node: Node) -> tuple[str, ...]:
        """The names ``node`` goes by beside its labels (:func:`other_names`: "dad", "hall")."""
        return self._tables.other_names(node)

    def within(self, place: str) -> set[str]:
        """Every node on, in, in the room of or held by ``place``, at any depth."""
        with self._lock:
            found: set[str] = set()
            frontier = [place]
            while frontier:
                current = frontier.pop()
                for table in (self._tables.placed, self._tables.held):
                    for child in get(table, current):
                        if child not in found:
                            found.add(child)
                            frontier.append(child)
            return found

    def __len__(self) -> int:
        return len(self._tables.nodes)
