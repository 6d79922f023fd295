"""The scene index's nodes and reverse maps, in a small shape (issue 32: memory per object).

Kept apart from ``knowledge.scene`` (whose modules it must not import): the plain tables of
:class:`~knowledge.scene.scene_index.SceneIndex`, which reads the graph into them.

A :class:`Node` keeps its own labels, owners and placements, and a *shape* shared by every
node alike (classes, synonyms, types, values, flags, attributes, what it holds: a home's red
wooden mugs share one); a field of one value keeps the value alone. A reverse map keeps a key's
nodes as one id, a tuple of a few, or, from :data:`FEW` on, a :class:`Sorted` list probed by
bisection (8 bytes a node; a set costs 30 to 80). :func:`among` and :func:`without` intersect
and subtract such parts at the cost of the smaller side.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable, Iterator
from sys import intern
from typing import Any

ANYONE = "\u0000anyone"  # the owner every owned node is also kept under (never a node id)
NONE = frozenset[str]()  # one empty set for nodes without attributes (frozenset() makes one)

SHAPED = ("classes", "synonyms", "types", "values", "flags", "attributes", "held")
"""The fields of a node kept in its shape (shared by nodes alike), in the shape's order."""
OWN = ("labels", "owners", "placements")
"""The fields of a node kept on the node."""
FIELDS = (*SHAPED, *OWN)
HUES = frozenset(["colour"])
"""Attributes whose value of several words is its last word too: a shade of it ("sage green")."""
_AT = {name: position for position, name in enumerate(SHAPED)}
EMPTY_SHAPE: tuple[object, ...] = ((), (), (), (), (), NONE, ())


class Node:
    """What the index knows of one node (every field a tuple; empty when unknown)."""

    __slots__ = ("_labels", "_placements", "owners", "shape")

    def __init__(self) -> None:
        self.shape: tuple[object, ...] = EMPTY_SHAPE
        self._labels: str | tuple[str, ...] = ()
        self.owners: tuple[str, ...] = ()
        self._placements: tuple[str, str] | tuple[tuple[str, str], ...] = ()

    @property
    def classes(self) -> tuple[str, ...]:
        """The node's classes (``Object``, ``Room``...)."""
        return self.shape[0]  # type: ignore[return-value]

    @property
    def labels(self) -> tuple[str, ...]:
        """Its labels."""
        labels = self._labels
        return (labels,) if isinstance(labels, str) else labels

    @property
    def synonyms(self) -> tuple[str, ...]:
        """Its synonyms."""
        return self.shape[1]  # type: ignore[return-value]

    @property
    def types(self) -> tuple[str, ...]:
        """Its object types."""
        return self.shape[2]  # type: ignore[return-value]

    @property
    def placements(self) -> tuple[tuple[str, str], ...]:
        """(relation, support): on, in, inRoom, mountedOn."""
        found = self._placements
        return (found,) if found and isinstance(found[0], str) else found

    @property
    def values(self) -> tuple[tuple[str, str], ...]:
        """(attribute, string value)."""
        return self.shape[3]  # type: ignore[return-value]

    @property
    def flags(self) -> tuple[str, ...]:
        """Attributes whose value is true."""
        return self.shape[4]  # type: ignore[return-value]

    @property
    def attributes(self) -> frozenset[str]:
        """Every attribute the node has a value for."""
        return self.shape[5]  # type: ignore[return-value]

    @property
    def held(self) -> tuple[str, ...]:
        """What the node holds (``cog:holds``)."""
        return self.shape[6]  # type: ignore[return-value]

    def naming(self) -> tuple[object, ...]:
        """What the lexicons read of the node (its classes, names and types)."""
        return (self.classes, self.labels, self.synonyms, self.types)

    def field(self, name: str) -> tuple[Any, ...] | frozenset[str]:
        """The field ``name`` (one of :data:`FIELDS`)."""
        return getattr(self, name)  # type: ignore[no-any-return]


class Facts:
    """One read of the graph: its nodes share equal values, fields and shapes (``shapes``).

    A shape is made once for each way from one to the next (the nodes a build reads one
    predicate at a time go through the same few), and kept in ``shapes`` (of the tables).
    """

    def __init__(self, shapes: dict[tuple[object, ...], tuple[object, ...]]) -> None:
        self.shapes = shapes
        self._shared: dict[object, Any] = {}
        self._next: dict[tuple[int, int, int], tuple[object, ...]] = {}

    def one(self, value: Any) -> Any:
        """The value equal to ``value`` that this read keeps (so equal values are one)."""
        return self._shared.setdefault(value, value)

    def add(self, nodes: dict[str, Node], node_id: str, name: str, value: Any) -> None:
        """Add ``value`` to the field ``name`` of the node ``node_id`` (made on its first).

        Each field stays sorted, so equal facts give equal nodes, whatever their order.
        """
        node = nodes.get(node_id)
        if node is None:
            node = nodes[self.one(node_id)] = Node()
        old = node.field(name)
        if value in old:
            return
        value = self.one(tuple(map(self.one, value)) if isinstance(value, tuple) else value)
        kept = frozenset((*old, value)) if name == "attributes" else tuple(sorted((*old, value)))
        at = _AT.get(name)
        if at is not None:
            kept = self.one(kept)
            key = (id(node.shape), at, id(kept))  # both kept alive: by the shapes, by this read
            shape = self._next.get(key)
            if shape is None:
                made = (*node.shape[:at], kept, *node.shape[at + 1 :])
                shape = self._next[key] = self.shapes.setdefault(made, made)
            node.shape = shape
        elif name == "owners":
            node.owners = self.one(kept)
        else:  # a label or a placement alone, not in a tuple of one
            setattr(node, "_" + name, value if len(kept) == 1 else self.one(kept))


Members = tuple[str, ...] | list[str] | set[str]
"""The nodes under one key of a reverse map: a tuple while they are fewer than :data:`FEW`,
then a :class:`Sorted` list, or a set in the maps whose keys are probed by many nodes at once
(:data:`PROBED_MAPS`)."""

FEW = 16
PROBED_MAPS = frozenset(["by_class", "by_owner"])
"""The reverse maps kept in sets: a referent's every candidate is probed in a class (a thing?)
and, for "my", in the owned; a class or "owned by anyone" holds about every object."""


class Sorted(list[str]):
    """Node ids in order, probed by bisection (a list: 8 bytes a node)."""

    __slots__ = ()

    def __contains__(self, node: object) -> bool:
        if not isinstance(node, str):
            return False
        at = bisect_left(self, node)
        return at < len(self) and self[at] == node


_Kept = str | tuple[str, ...] | Sorted | set[str]
"""How a reverse map keeps a key's nodes: one (a room's name, most shelves) as itself."""
Table = dict[str, _Kept]
_Edit = Callable[[Table, str, str, type[Sorted | set[str]]], None]
PROBED = 32
"""A sorted part this many times bigger than the nodes it is intersected with is probed by
them (a bisection costs about 30 times a step of walking the part, its strings in order)."""


def _big(table: str) -> type[Sorted | set[str]]:
    return set if table in PROBED_MAPS else Sorted


def get(table: Table, key: str) -> Members:
    """The nodes under ``key`` of ``table`` (a tuple or a sorted list; empty if none)."""
    found = table.get(key, ())
    return (found,) if isinstance(found, str) else found


class Part(Collection[str]):
    """A sorted list of a reverse map as one read sees it (:meth:`SceneIndex.members`).

    Intersected with many nodes, it is made a set, once for the read: walking the list of a
    big home's ids costs about what copying it does (their strings are all over the heap),
    and one read intersects the same part several times (a referent's rules, one by one).
    """

    __slots__ = ("_set", "nodes")

    def __init__(self, nodes: Sorted) -> None:
        self.nodes = nodes
        self._set: set[str] | None = None

    def __contains__(self, node: object) -> bool:
        return node in (self.nodes if self._set is None else self._set)

    def __iter__(self) -> Iterator[str]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def probed(self, nodes: set[str]) -> bool:
        """Whether ``nodes`` are better probed in this part one by one than by a set of it."""
        return self._set is None and len(self.nodes) > PROBED * len(nodes)

    def as_set(self) -> set[str]:
        """The part as a set (made on the first need)."""
        if self._set is None:
            self._set = set(self.nodes)
        return self._set


def among(nodes: set[str], part: Collection[str]) -> set[str]:
    """The nodes of ``nodes`` in ``part``: a few probe a big :class:`Part`, else its set."""
    if isinstance(part, Part):
        if part.probed(nodes):
            return {node for node in nodes if node in part}
        part = part.as_set()
    return nodes.intersection(part)


def without(nodes: set[str], parts: Iterable[Collection[str]]) -> set[str]:
    """The nodes of ``nodes`` in none of ``parts`` (as :func:`among`)."""
    for part in parts:
        if isinstance(part, Part) and part.probed(nodes):
            nodes = {node for node in nodes if node not in part}
        else:
            nodes = nodes.difference(part.as_set() if isinstance(part, Part) else part)
    return nodes


def union(sets: Iterable[Iterable[str]]) -> set[str]:
    """Every node of ``sets``."""
    return set[str]().union(*sets)


class Tables:
    """The nodes and their reverse maps (swapped whole when the index is rebuilt).

    ``states``: the unfit states a label says ("dirty sponge": dirty), for :attr:`by_state`;
    ``words``: the words a label describes its node by, and those of them it names the node
    by ("can of cola": can, cola; both name it), for :attr:`by_word` and :attr:`by_head`;
    ``also_called``: other names a node goes by beside its labels and synonyms (a room's, from
    the English dictionary: the hallway is the hall), for :attr:`by_name`.
    """

    def __init__(
        self,
        states: Callable[[str], Iterable[str]],
        words: Callable[[str], tuple[Iterable[str], Iterable[str]]],
        also_called: Callable[[Node], Iterable[str]] = lambda node: (),
    ) -> None:
        self.states = states
        self.words = words
        self.also_called = also_called
        self.shapes: dict[tuple[object, ...], tuple[object, ...]] = {EMPTY_SHAPE: EMPTY_SHAPE}
        self.nodes: dict[str, Node] = {}
        self.by_name: Table = {}
        self.by_word: Table = {}
        """A word of a label (singular forms too) -> the nodes so labelled ("blue mug": blue)."""
        self.by_head: Table = {}
        """A word a label names its node by -> the nodes ("can of cola": can, cola)."""
        self.by_type: Table = {}
        self.by_value: Table = {}
        """``attribute=value`` -> the nodes with that string value of that attribute, or of a
        colour of several words that ends on it ("volcanic orange": orange)."""
        self.by_flag: Table = {}
        self.by_state: Table = {}
        """Unfit state -> the nodes whose label says it ("dirty sponge": dirty)."""
        self.by_attribute: Table = {}
        """Attribute -> the nodes whose value is neither a string nor true (:meth:`having`)."""
        self.valued: dict[str, set[str]] = {}  # attribute -> its "attribute=value" keys
        self.by_owner: Table = {}
        self.by_class: Table = {}
        self.placed: Table = {}
        self.held: Table = {}

    def put(self, node_id: str, node: Node | None) -> None:
        """Replace what is known of ``node_id`` (None: nothing is)."""
        old = self.nodes.pop(node_id, None)
        if old is not None:
            self._reverse(node_id, old, _discard)
        if node is not None:
            self.nodes[node_id] = node
            self._reverse(node_id, node, _add)

    def _reverse(self, node_id: str, node: Node, edit: _Edit) -> None:
        labels = node.labels
        for form in (*labels, *node.synonyms, *self.also_called(node)):
            edit(self.by_name, form, node_id, _big("by_name"))
        words, heads = set[str](), set[str]()
        for label in labels:
            said, named = self.words(label)
            words.update(said)
            heads.update(named)
        for word in words:
            edit(self.by_word, word, node_id, _big("by_word"))
        for word in heads:
            edit(self.by_head, word, node_id, _big("by_head"))
        for name in node.types:
            edit(self.by_type, name, node_id, _big("by_type"))
        for attribute, value in node.values:
            hues = [p.rsplit(" ", 1)[-1] for p in value.split(" and ")] if attribute in HUES else []
            for said in dict.fromkeys((value, *hues)):  # "volcanic orange", "red and white"
                key = intern(f"{attribute}={said}")
                edit(self.by_value, key, node_id, _big("by_value"))
                keys = self.valued.setdefault(attribute, set())
                (keys.add if key in self.by_value else keys.discard)(key)
        for flag in node.flags:
            edit(self.by_flag, flag, node_id, _big("by_flag"))
        for state in self.states(" ".join(labels)) if labels else ():
            edit(self.by_state, state, node_id, _big("by_state"))
        for attribute in node.attributes.difference(node.flags, (a for a, _ in node.values)):
            edit(self.by_attribute, attribute, node_id, _big("by_attribute"))
        for owner in (*node.owners, ANYONE) if node.owners else ():
            edit(self.by_owner, owner, node_id, _big("by_owner"))
        for name in node.classes:
            edit(self.by_class, name, node_id, _big("by_class"))
        for _, support in node.placements:
            edit(self.placed, support, node_id, _big("placed"))
        for thing in node.held:
            edit(self.held, node_id, thing, _big("held"))

    def compact(self) -> None:
        """Make the sets of :data:`PROBED_MAPS` as small as they go (a copy is sized to fit)."""
        for name in PROBED_MAPS:
            table: Table = getattr(self, name)
            for key, found in table.items():
                if isinstance(found, set):
                    table[key] = set(found)

    def having(self, attribute: str) -> list[Members]:
        """The nodes with any value of ``attribute``, in parts (one per table and value)."""
        parts = [get(self.by_attribute, attribute), get(self.by_flag, attribute)]
        return parts + [get(self.by_value, key) for key in self.valued.get(attribute, ())]


def _add(table: Table, key: str, node_id: str, big: type[Sorted | set[str]]) -> None:
    found = table.get(key)
    if found is None:
        table[key] = node_id
    elif isinstance(found, set):
        found.add(node_id)
    elif isinstance(found, Sorted):
        at = bisect_left(found, node_id)
        if at == len(found) or found[at] != node_id:
            found.insert(at, node_id)  # at the end while a build puts nodes in order
    elif isinstance(found, str):
        if found != node_id:
            table[key] = (found, node_id)
    elif node_id not in found:
        table[key] = (*found, node_id) if len(found) < FEW else big(sorted((*found, node_id)))


def _discard(table: Table, key: str, node_id: str, _: object) -> None:
    found = table.get(key)
    if isinstance(found, set):
        found.discard(node_id)
    elif isinstance(found, Sorted):
        at = bisect_left(found, node_id)
        if at < len(found) and found[at] == node_id:
            del found[at]
    elif isinstance(found, tuple) and node_id in found:
        rest = tuple(member for member in found if member != node_id)
        found = table[key] = rest[0] if len(rest) == 1 else rest
    elif found == node_id:
        found = ()
    if found is not None and not found:
        del table[key]
