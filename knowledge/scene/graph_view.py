"""A graph as a query may see it when some of its things are withheld (identity, not words).

A person's constraints name things (dishes) that must not be offered. Filtering a query's rows
by the words they hold misses a row that projects a word the query made up (a dish's name cut
short, concatenated, translated); hiding the things themselves does not: a query run on
:meth:`GraphViews.without` ``(nodes)`` cannot reach a withheld node, whatever it projects.

A view is a copy of the graph without

- every triple whose subject or object is one of the nodes, and
- the description of those nodes held in blank nodes (a dish's ``[ adv:ingredient ... ]``
  lines), followed through blank nodes at any depth.

Named things the nodes point to (an ingredient, a cuisine) stay: other things share them.
:class:`GraphViews` keeps the last few views per set of nodes (a view is built once per set and
graph version, not per query).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from oxrdflib._converter import to_ox
from oxrdflib.store import OxigraphStore
from pyoxigraph import BlankNode, DefaultGraph, NamedNode, Quad
from rdflib import BNode, Graph, URIRef
from rdflib.term import Node

from cogtree.knowledge.scene.rdf_store import new_graph

T = TypeVar("T", Quad, tuple[Node, Node, Node])


@dataclass(frozen=True)
class GraphView:
    """A graph to query, and the key of its snapshot (None: key it by its content)."""

    graph: Graph
    key: Hashable


class GraphViews:
    """Views of ``graph`` without sets of nodes, the last ``keep`` of them kept.

    ``version`` says when ``graph`` changed (a view of an older version is built again);
    without it, every call builds the view. Thread-safe.
    """

    def __init__(
        self, graph: Graph, *, version: Callable[[], Hashable] | None = None, keep: int = 8
    ) -> None:
        if keep < 1:
            raise ValueError(f"keep must be at least 1, got {keep}")
        self.graph = graph
        self.keep = keep
        self._version = version
        self._views: OrderedDict[Hashable, GraphView] = OrderedDict()
        self._lock = threading.Lock()

    def without(self, nodes: frozenset[str]) -> GraphView:
        """The view of the graph without ``nodes`` (full IRIs) and their blank-node descriptions.

        No nodes: the graph itself, keyed by its version. The version is read before the view
        is made, so a snapshot of it is never older than its key.
        """
        version = None if self._version is None else self._version()
        if not nodes:
            return GraphView(self.graph, key=version)
        if version is None:
            return GraphView(graph_without(self.graph, nodes), key=None)
        key = ("without", version, nodes)
        with self._lock:
            view = self._views.get(key)
            if view is not None:
                self._views.move_to_end(key)
                return view
        view = GraphView(graph_without(self.graph, nodes), key=key)
        with self._lock:
            self._views[key] = view
            while len(self._views) > self.keep:
                self._views.popitem(last=False)
        return view


def graph_without(graph: Graph, nodes: Iterable[str]) -> Graph:
    """A copy of ``graph`` (on the Oxigraph store) without ``nodes``; see the module.

    A graph on the Oxigraph store is copied store to store, in Oxigraph's terms: through
    rdflib, every triple became rdflib terms and back (the advisor's 2,800 triples, 0.15 s).
    """
    view = new_graph()
    target = view.store
    assert isinstance(target, OxigraphStore), "new_graph makes Oxigraph graphs"
    # Oxigraph iterates newest first: added in reverse, the view iterates in the graph's order,
    # so a query's aggregates (GROUP_CONCAT, a SUM of doubles) read the same on both
    if isinstance(graph.store, OxigraphStore):
        quads = list(graph.store._inner.quads_for_pattern(None, None, None, _stored_as(graph)))
        kept = _kept(quads, set(_named(nodes)), BlankNode)
        name = _stored_as(view)
        target._inner.extend([Quad(q.subject, q.predicate, q.object, name) for q in kept[::-1]])
    else:
        triples = _kept(list(graph), {URIRef(node) for node in nodes}, BNode)
        view.addN((subject, predicate, obj, view) for subject, predicate, obj in triples[::-1])
    return view


def _named(nodes: Iterable[str]) -> Iterator[NamedNode]:
    """The ``nodes`` as Oxigraph IRIs; a text that is no IRI names nothing in the store."""
    for node in nodes:
        try:
            yield NamedNode(node)
        except ValueError:
            continue


def _stored_as(graph: Graph) -> NamedNode | BlankNode | DefaultGraph:
    """The graph name of ``graph``'s triples in its Oxigraph store (as oxrdflib writes them)."""
    name = to_ox(graph)
    assert isinstance(name, NamedNode | BlankNode | DefaultGraph)
    return name


def _kept(triples: list[T], hidden: set[object], blank: type) -> list[T]:
    """The ``triples`` that touch neither a ``hidden`` node nor a blank node describing one."""
    blanks: dict[object, list[object]] = {}
    for triple in triples:
        if isinstance(triple[2], blank):
            blanks.setdefault(triple[0], []).append(triple[2])
    described = [obj for node in hidden for obj in blanks.get(node, ())]
    while described:  # blank nodes describing a hidden node are hidden with it
        node = described.pop()
        if node not in hidden:
            hidden.add(node)
            described.extend(blanks.get(node, ()))
    return [triple for triple in triples if triple[0] not in hidden and triple[2] not in hidden]


def nodes_named(cells: Iterable[str | None], prefixes: Mapping[str, str]) -> frozenset[str]:
    """The IRIs among ``cells`` as a runner renders them (``prefix:local`` or a full IRI)."""
    found: set[str] = set()
    for cell in cells:
        if not cell:
            continue
        name, colon, local = cell.partition(":")
        if colon and name in prefixes:
            found.add(prefixes[name] + local)
        elif colon and local.startswith("//"):
            found.add(cell)
    return frozenset(found)
