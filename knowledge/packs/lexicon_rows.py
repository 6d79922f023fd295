"""The entries of a domain pack's lexicon drawn from its knowledge graph (a ``query`` lexicon).

:func:`query_entries` runs the lexicon's query (rows ``?id ?label`` and optionally ``?alias``)
and gives each id (the IRI's local name) its forms, for
:func:`~knowledge.understanding.lexicon.build_lexicons`.
"""

from __future__ import annotations

import re

from rdflib import Literal, URIRef

from cogtree.knowledge.packs.domain_pack import DomainPack, LexiconSpec, PackError


def query_entries(pack: DomainPack, name: str, spec: LexiconSpec) -> dict[str, list[str]]:
    """Canonical id -> forms from the lexicon's query over the pack's knowledge graph."""
    assert spec.query is not None
    query = pack.query(spec.query)
    text = query.bind(**dict.fromkeys(query.parameters))
    pack.knowledge_graph()  # a pack without one raises its own PackError, unwrapped
    try:
        rows = pack.select(text)
    except Exception as error:  # rdflib/Oxigraph raise several types for a bad query
        raise PackError(
            f"domain {pack.name}: lexicon {name}: query {spec.query}.rq failed: "
            f"{type(error).__name__}: {error}; it must SELECT ?id ?label (and optionally ?alias)"
        ) from error
    entries: dict[str, list[str]] = {}
    for row in rows:
        if "id" not in row or "label" not in row:
            raise PackError(
                f"domain {pack.name}: lexicon {name}: query {spec.query}.rq must SELECT "
                f"?id and ?label (got {', '.join(sorted(row)) or 'no columns'})"
            )
        forms = entries.setdefault(_local_name(row["id"]), [])
        for column in ("label", "alias"):
            value = row.get(column)
            if isinstance(value, Literal | URIRef) and str(value) not in forms:
                forms.append(str(value))
    return entries


def _local_name(term: object) -> str:
    """The local name of an IRI (after ``#`` or the last ``/``); a literal as it is."""
    text = str(term)
    if isinstance(term, URIRef):
        return re.split(r"[#/]", text)[-1] or text
    return text
