"""What the ontology says about its properties, as a scene graph needs it to check writes.

:class:`PropertyVocabulary` is read once per load of the ontology: which ``cog:`` properties
are object or datatype properties, functional or inverse functional, placements or sides,
and each one's range. :meth:`PropertyVocabulary.predicate` turns an observation's predicate
name ("inRoom", "cog:colour", "type") into the property, or names the known ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from rdflib import OWL, RDF, RDFS, Graph, URIRef

from cogtree.knowledge.scene.taxonomy import COG

LOCAL_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
"""A node id or property name that may follow a namespace (``mug_1``, ``inRoom``)."""


@dataclass(frozen=True)
class PropertyVocabulary:
    """What the ontology says about properties, read once per load."""

    object_properties: frozenset[URIRef]
    datatype_properties: frozenset[URIRef]
    functional: frozenset[URIRef]
    inverse_functional: frozenset[URIRef]
    placement: frozenset[URIRef]
    side: frozenset[URIRef]
    ranges: Mapping[URIRef, URIRef]

    @classmethod
    def read(cls, graph: Graph) -> PropertyVocabulary:
        """The vocabulary the ontology in ``graph`` declares (``cog:`` properties only)."""

        def declared(kind: URIRef) -> frozenset[URIRef]:
            return frozenset(
                s for s in graph.subjects(RDF.type, kind) if isinstance(s, URIRef) and s in COG
            )

        abstract = {COG.placement, COG.side, COG.attribute, COG.source, COG.lastSeen}
        object_properties = declared(OWL.ObjectProperty) - abstract
        datatype_properties = declared(OWL.DatatypeProperty) - abstract
        ranges = {
            prop: rng
            for prop in object_properties | datatype_properties
            if isinstance(rng := graph.value(prop, RDFS.range), URIRef)
        }
        placement = frozenset(
            s for s in graph.subjects(RDFS.subPropertyOf, COG.placement) if isinstance(s, URIRef)
        )
        side = frozenset(
            s for s in graph.subjects(RDFS.subPropertyOf, COG.side) if isinstance(s, URIRef)
        )
        return cls(
            object_properties=object_properties,
            datatype_properties=datatype_properties,
            functional=declared(OWL.FunctionalProperty),
            inverse_functional=declared(OWL.InverseFunctionalProperty),
            placement=placement,
            side=side,
            ranges=ranges,
        )

    def predicate(self, name: str) -> URIRef:
        """The property an observation's predicate names; ValueError lists the known ones."""
        if name == "type":
            return RDF.type
        if name == "label":
            return RDFS.label
        local = name.removeprefix("cog:")
        candidate = COG[local] if LOCAL_ID.fullmatch(local) else None
        if candidate in self.object_properties | self.datatype_properties:
            assert candidate is not None
            return candidate
        known = sorted(
            ["type", "label"]
            + [str(p).removeprefix(str(COG)) for p in self.object_properties]
            + [str(p).removeprefix(str(COG)) for p in self.datatype_properties]
        )
        raise ValueError(
            f"unknown predicate {name!r}: use an ontology property ({', '.join(known)})"
        )
