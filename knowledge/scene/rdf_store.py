"""RDF graphs on the Oxigraph store, and Turtle loading with errors that name the line.

rdflib's default in-memory store runs multi-pattern SPARQL joins thousands of times slower
than Oxigraph, so every graph cogtree queries inside the tick loop is created here. Pass
query *strings* to ``graph.query``: a prepared query makes rdflib fall back to its own engine.
"""

from __future__ import annotations

import re
from pathlib import Path

from rdflib import Graph

STORE = "Oxigraph"
"""The rdflib store plugin name that oxrdflib registers."""


class TurtleError(ValueError):
    """Turtle that does not parse; the message names the source and the line."""


def new_graph() -> Graph:
    """An empty rdflib graph backed by the Oxigraph store."""
    return Graph(store=STORE)


def load_turtle(graph: Graph, source: str | Path, *, text: str | None = None) -> Graph:
    """Parse Turtle from ``source`` (a path), or from ``text`` labelled ``source``, into ``graph``.

    Raises :class:`TurtleError` naming the source and the line of the first syntax error.
    """
    label = str(source)
    if text is None:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as error:
            raise TurtleError(f"cannot read Turtle file {label}: {error.strerror}") from error
    try:
        graph.parse(data=text, format="ox-turtle")
    except SyntaxError as error:
        line = _line_of(str(error))
        where = f" line {line}" if line else ""
        raise TurtleError(f"{label}{where}: malformed Turtle ({error})") from error
    return graph


def _line_of(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None
