"""RDF graphs on the Oxigraph store, in memory or on disk; Turtle loading that names the line.

rdflib's default in-memory store runs multi-pattern SPARQL joins thousands of times slower
than Oxigraph, so every graph cogtree queries inside the tick loop is created here. Pass
query *strings* to ``graph.query``: a prepared query makes rdflib fall back to its own engine.

Oxigraph keeps a graph in memory (about 290 bytes a triple, most of a big belief's memory) or
on disk (RocksDB, with a bounded cache: what a robot with storage can afford for a home of
100k objects). A graph on disk lives in a directory of its own, made for it in a parent
directory (:class:`Storage`) and removed when the graph is closed (:func:`close_graph`); it
loads and scans a few times slower, so small homes stay in memory (:data:`ON_DISK_FROM`).

:class:`TripleReader` reads a graph's triples as plain strings, from the Oxigraph store
directly: rdflib's own reads make an rdflib term of every subject, predicate, object and
graph name they pass over, several times the cost of the read.
"""

from __future__ import annotations

import gc
import logging
import re
import shutil
import tempfile
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from sys import intern

import pyoxigraph
from oxrdflib.store import OxigraphStore
from pyoxigraph import Literal as OxLiteral
from pyoxigraph import NamedNode
from rdflib import Graph, Literal, URIRef

logger = logging.getLogger(__name__)

STORE = "Oxigraph"
"""The rdflib store plugin name that oxrdflib registers."""

ON_DISK_FROM = 16_000_000
"""Turtle of this many characters or more is loaded into a store on disk when the storage does
not say (about 30k objects of ``benchmarks/living_world.py``'s homes, 520 characters each)."""


class TurtleError(ValueError):
    """Turtle that does not parse; the message names the source and the line."""


class StorageError(OSError):
    """A store on disk could not be made: the message names the directory and the fix."""


class DiskStore(OxigraphStore):
    """An Oxigraph store in ``directory`` (RocksDB), which :meth:`close` removes.

    A store never closed is removed when it is collected or when the interpreter exits (an
    uncaught error included); a process that is killed leaves its directory behind.
    """

    def __init__(self, directory: Path) -> None:
        super().__init__(store=pyoxigraph.Store(str(directory)))
        self.directory = directory
        self._remove = weakref.finalize(self, remove_store_directory, directory)

    def close(self, commit_pending_transaction: bool = False) -> None:
        """Drop the store and remove its directory (later use raises AttributeError)."""
        super().close(commit_pending_transaction)
        self._remove()


REMOVE_ATTEMPTS = 5
"""How many times :func:`remove_store_directory` tries before it warns."""


def remove_store_directory(directory: Path) -> None:
    """Remove a store's ``directory``; a warning names it if it stays.

    While something still holds the store (an iterator left in a reference cycle), RocksDB
    stays open and its background work (a compaction after a bulk load) can write a file
    into the directory as it is removed: such garbage is collected and the removal tried
    again, after a short wait, up to :data:`REMOVE_ATTEMPTS` times.
    """
    for attempt in range(REMOVE_ATTEMPTS):
        shutil.rmtree(directory, ignore_errors=True)
        if not directory.exists():
            return
        gc.collect()
        time.sleep(0.05 * (attempt + 1))
    logger.warning("the belief's store %s could not be removed; remove it by hand", directory)


@dataclass(frozen=True)
class Storage:
    """Where a belief's triples live: Oxigraph in memory, or on disk (module docs)."""

    on_disk: bool | None = None
    """True: on disk; False: in memory; None: by size (:data:`ON_DISK_FROM`)."""
    directory: Path | None = None
    """The parent of a store's own directory; None: the system's temporary directory."""

    def graph_for(self, source: str | Path, text: str | None = None) -> Graph:
        """An empty graph for Turtle ``text``, or else the file ``source``: in memory or on disk."""
        on_disk = self.on_disk
        if on_disk is None:
            path = Path(source)
            size = len(text) if text is not None else path.stat().st_size if path.is_file() else 0
            on_disk = size >= ON_DISK_FROM
        return disk_graph(self.directory) if on_disk else new_graph()


def new_graph() -> Graph:
    """An empty rdflib graph backed by the Oxigraph store, in memory."""
    return Graph(store=STORE)


def disk_graph(parent: Path | None = None) -> Graph:
    """An empty graph on an Oxigraph store on disk, in a new directory under ``parent``.

    ``parent`` None: the system's temporary directory. Close it with :func:`close_graph`.
    Raises :class:`StorageError` naming the directory when it cannot be written.
    """
    try:
        directory = Path(tempfile.mkdtemp(prefix="cogtree-belief-", dir=parent))
    except OSError as error:
        where = parent if parent is not None else tempfile.gettempdir()
        raise StorageError(
            f"cannot make the belief's store in {where}: {error.strerror}; give a writable "
            "directory (Storage(directory=...)) or keep the belief in memory"
        ) from error
    try:
        return Graph(store=DiskStore(directory))
    except OSError as error:
        shutil.rmtree(directory, ignore_errors=True)
        raise StorageError(f"cannot open the belief's store in {directory}: {error}") from error


def is_on_disk(graph: Graph) -> bool:
    """Whether ``graph`` is on a store on disk."""
    return isinstance(graph.store, DiskStore)


def close_graph(graph: Graph) -> None:
    """Close ``graph`` if its store is on disk (its directory removed); one in memory stays."""
    if isinstance(graph.store, DiskStore):
        graph.store.close()


def load_turtle(
    graph: Graph, source: str | Path, *, text: str | None = None, fresh: bool = False
) -> Graph:
    """Parse Turtle from ``source`` (a path), or from ``text`` labelled ``source``, into ``graph``.

    ``fresh``: the graph was made for this load (nobody reads it yet, and it is dropped if the
    load fails), so a store on disk takes it without a transaction: several times faster and
    without holding the whole load in memory (a syntax error leaves what was read before it).
    Raises :class:`TurtleError` naming the source and the line of the first syntax error.
    """
    label = str(source)
    if text is None:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as error:
            raise TurtleError(f"cannot read Turtle file {label}: {error.strerror}") from error
    try:
        graph.parse(data=text, format="ox-turtle", transactional=not (fresh and is_on_disk(graph)))
    except SyntaxError as error:
        line = _line_of(str(error))
        where = f" line {line}" if line else ""
        raise TurtleError(f"{label}{where}: malformed Turtle ({error})") from error
    return graph


def _line_of(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


# -- reading the store directly ----------------------------------------------------------------

XSD = "http://www.w3.org/2001/XMLSchema#"
TRUE, STRING = "true", "string"
Term = tuple[str, str]
"""An object of a triple: (text, what it is): an IRI, a string literal, true, or another literal."""


def _ox_term(term: object) -> Term:
    if isinstance(term, NamedNode):
        return term.value, "iri"
    if isinstance(term, OxLiteral):
        datatype = term.datatype.value
        if term.language is None and datatype == XSD + "string":
            return intern(term.value), STRING
        if datatype == XSD + "boolean" and term.value in ("true", "1"):
            return term.value, TRUE
        return term.value, "literal"
    return str(term), "blank"


def _rdflib_term(term: object) -> Term:
    if isinstance(term, URIRef):
        return str(term), "iri"
    if isinstance(term, Literal):
        if term.language is None and term.datatype in (None, URIRef(XSD + "string")):
            return intern(str(term)), STRING
        if term.datatype == URIRef(XSD + "boolean") and term.toPython() is True:
            return str(term), TRUE
        return str(term), "literal"
    return str(term), "blank"


class TripleReader:
    """Triples of the graph as (subject IRI, predicate IRI, term); the Oxigraph store directly."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        store = graph.store
        self.store = store._inner if isinstance(store, OxigraphStore) else None

    def with_predicate(self, predicate: str, obj: str | None = None) -> Iterator[tuple[str, Term]]:
        """(subject, object) of every triple with ``predicate`` (and the IRI ``obj``, if given)."""
        if self.store is not None:
            wanted = None if obj is None else NamedNode(obj)
            for quad in self.store.quads_for_pattern(None, NamedNode(predicate), wanted, None):
                if isinstance(quad.subject, NamedNode):
                    yield quad.subject.value, _ox_term(quad.object)
            return
        target = None if obj is None else URIRef(obj)
        for subject, _, value in self.graph.triples((None, URIRef(predicate), target)):
            if isinstance(subject, URIRef):
                yield str(subject), _rdflib_term(value)

    def about(self, subject: str) -> Iterator[tuple[str, Term]]:
        """(predicate, object) of every triple about ``subject``."""
        if self.store is not None:
            for quad in self.store.quads_for_pattern(NamedNode(subject), None, None, None):
                yield quad.predicate.value, _ox_term(quad.object)
            return
        for _, predicate, value in self.graph.triples((URIRef(subject), None, None)):
            yield str(predicate), _rdflib_term(value)
