"""The grounding-backend protocol: what answers a pack's knowledge queries (JANUS's adapters).

A domain pack grounds its knowledge tasks through one backend, chosen by its manifest
(:meth:`knowledge.packs.domain_pack.DomainPack.open_backend`):

- RDF: :class:`~knowledge.scene.readonly_query.ReadOnlyQueryRunner` runs SPARQL on the pack's graph
  (Oxigraph), a model's query in a sandboxed worker process;
- relational: :class:`~knowledge.packs.sql_query.ReadOnlySqlRunner` runs SQL on the pack's SQLite
  database, read-only by the engine's own rules.

Both refuse with :class:`~knowledge.scene.readonly_query.QueryRefused` (saying why) and answer with
the same :class:`~knowledge.scene.readonly_query.QueryOutcome`, so the behaviours that generate and
run queries, and the evidence they produce, do not depend on the store.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from cogtree.knowledge.scene.readonly_query import QueryOutcome


@runtime_checkable
class GroundingBackend(Protocol):
    """Runs one read-only query of a pack and answers in rows; safe to call from a worker."""

    def run(self, text: str, *, template: bool = False) -> QueryOutcome:
        """Run ``text`` (``template``: the pack's own template, bound) or raise QueryRefused."""

    def close(self) -> None:
        """Release the connection, worker or process."""
