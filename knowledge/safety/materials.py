"""The material hierarchy: from a free-text material to the classes the hazard rules test.

The data is ``knowledge/safety/hazards/materials.ttl``: each ``mat:Material`` has a label,
synonyms and broader materials; the classes at the top (``metal``, ``flammable``, ``meltable``,
``breakable``, ``absorbent``, ``heat resistant``) are what the rules read. So "aluminium foil"
is foil, aluminium and metal; "18/10 stainless steel" is stainless steel, steel and metal; a
tea towel's "cotton" is cotton, fabric, flammable and absorbent.

:meth:`MaterialHierarchy.read` takes any text that may name materials (the belief's
``material``, or a label such as "foil tray" or "wooden spoon") and returns every material
it names with all their broader materials, by the longest known phrases in it. An empty
answer means the text names no known material: the caller treats that as *unknown*, never
as safe.

:func:`load_materials` refuses a file with an error at start, naming the file, the line or
the material, and the fix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rdflib import RDF, RDFS, Graph, Namespace, URIRef

from cogtree.knowledge.safety.hazard_rules import read_safety_file
from cogtree.knowledge.wording import singular_forms

MAT = Namespace("https://cogtree.dev/material#")
"""The vocabulary of the material file."""

MATERIALS_FILE = Path(__file__).with_name("hazards") / "materials.ttl"
"""The shipped material hierarchy."""

MAX_PHRASE_WORDS = 4
"""The longest material name, in words ("polyethylene terephthalate" is two)."""


class MaterialFileError(ValueError):
    """A material file with an error; the message names the file, the material and the fix."""


@dataclass(frozen=True)
class MaterialHierarchy:
    """Material names, each with itself and every broader material (see the module docs)."""

    source: str
    classes_by_name: dict[str, frozenset[str]]
    """Each name or synonym (lowercase, words joined by one space) -> its label and every
    broader material's label."""

    def read(self, text: str | None) -> frozenset[str]:
        """Every material ``text`` names, with its broader materials; empty: none known."""
        return frozenset().union(*self.parts(text))

    def parts(self, text: str | None) -> list[frozenset[str]]:
        """Each material ``text`` names apart, with its broader materials, in order.

        "foil-lined plastic": foil's and plastic's; a material named twice counts once.
        """
        words = _words(text or "")
        found: list[frozenset[str]] = []
        start = 0
        while start < len(words):
            length = self._longest_at(words, start)
            if length:
                classes = self._classes(words[start : start + length])
                found += [classes] if classes not in found else []
                start += length
            else:
                start += 1
        return found

    def read_all(self, texts: Iterable[str | None]) -> frozenset[str]:
        """The union of :meth:`read` over ``texts``."""
        return frozenset().union(*(self.read(text) for text in texts))

    def _longest_at(self, words: list[str], start: int) -> int:
        for length in range(min(MAX_PHRASE_WORDS, len(words) - start), 0, -1):
            if self._classes(words[start : start + length]):
                return length
        return 0

    def _classes(self, phrase: list[str]) -> frozenset[str]:
        for last in singular_forms(phrase[-1]):
            classes = self.classes_by_name.get(" ".join((*phrase[:-1], last)))
            if classes:
                return classes
        return frozenset()


def _words(text: str) -> list[str]:
    """Lowercase words of ``text``; ``_``, ``-`` and ``/`` separate words, digits are dropped."""
    return re.findall(r"[a-z]+", text.lower().replace("_", " "))


def load_materials(
    path: str | Path = MATERIALS_FILE, *, text: str | None = None
) -> MaterialHierarchy:
    """The hierarchy in ``path`` (or in ``text`` labelled ``path``), every material checked.

    Raises :class:`MaterialFileError` naming the file, the material and how to fix it.
    """
    label = str(path)
    graph = read_safety_file(label, text, MaterialFileError, "material file")
    materials = sorted(
        (node for node in graph.subjects(RDF.type, MAT.Material) if isinstance(node, URIRef)),
        key=str,
    )
    if not materials:
        raise MaterialFileError(f"{label}: no mat:Material in the file; declare at least one")
    labels = {node: _label(graph, label, node) for node in materials}
    broader = {node: _broader(graph, label, node, labels) for node in materials}
    classes_by_name: dict[str, frozenset[str]] = {}
    for node in materials:
        classes = frozenset(labels[other] for other in _closure(node, broader, label))
        names = [labels[node], *(str(word) for word in graph.objects(node, MAT.synonym))]
        for name in names:
            key = " ".join(_words(name))
            if key in classes_by_name and classes_by_name[key] != classes:
                raise MaterialFileError(
                    f"{label}: the name {name!r} is given to two materials; keep it on one"
                )
            classes_by_name[key] = classes
    return MaterialHierarchy(source=label, classes_by_name=classes_by_name)


@cache
def shipped_materials() -> MaterialHierarchy:
    """The shipped hierarchy (:data:`MATERIALS_FILE`), loaded and checked once."""
    return load_materials(MATERIALS_FILE)


def _name(node: URIRef) -> str:
    return str(node).removeprefix(str(MAT))


def _label(graph: Graph, source: str, node: URIRef) -> str:
    values = [str(value) for value in graph.objects(node, RDFS.label)]
    if len(values) != 1 or not _words(values[0]):
        raise MaterialFileError(
            f"{source}: material mat:{_name(node)} needs exactly one rdfs:label in words "
            f"(it has {values or 'none'})"
        )
    return " ".join(_words(values[0]))


def _broader(graph: Graph, source: str, node: URIRef, labels: dict[URIRef, str]) -> list[URIRef]:
    found = []
    for value in graph.objects(node, MAT.broader):
        if not isinstance(value, URIRef) or value not in labels:
            raise MaterialFileError(
                f"{source}: material mat:{_name(node)} has mat:broader {value}, which is not a "
                "mat:Material of the file; declare it or fix the name"
            )
        found.append(value)
    return found


def _closure(node: URIRef, broader: dict[URIRef, list[URIRef]], source: str) -> set[URIRef]:
    """``node`` and every material above it; a cycle is an error."""
    seen: set[URIRef] = set()
    path: list[URIRef] = []

    def visit(current: URIRef) -> None:
        if current in path:
            cycle = " -> ".join(f"mat:{_name(n)}" for n in (*path, current))
            raise MaterialFileError(f"{source}: mat:broader goes round in a circle: {cycle}")
        if current in seen:
            return
        seen.add(current)
        path.append(current)
        for parent in broader[current]:
            visit(parent)
        path.pop()

    visit(node)
    return seen
