"""A pack task's post-processing of its query's rows: a pure function the pack declares.

A ``knowledge_query`` task may name, as ``post_process`` in ``pack.yaml``, a function of its
pack's ``tasks.py`` (:data:`RowsHook`) that rewrites the rows its template returned before
they become the turn's evidence: arithmetic or wording a query is a poor place for (a
nutrient's share of the user's daily target, say). It takes the rows and what the working
context binds (``avoid``, ``favour``, ``diet``, ``daily_target``: see
:func:`~knowledge.understanding.evidence_needs.memory_bindings`) and returns new rows. It is
pure (no I/O, no state, nothing but its arguments read) and idempotent: a held answer that a
later turn reuses goes through it again, with that turn's context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType

Row = dict[str, str | None]
"""One row of a query: column -> value (None: unbound)."""

RowsHook = Callable[[Sequence[Row], Mapping[str, Sequence[str]]], list[Row]]
"""``hook(rows, context) -> rows``: a task's post-processing (see the module docs)."""


def find_hook(module: ModuleType, name: str) -> RowsHook | None:
    """The function ``name`` of the pack's ``module``; None when it has no such function."""
    found = getattr(module, name, None)
    return found if callable(found) and not isinstance(found, type) else None


def post_processed(
    hook: RowsHook | None, rows: Sequence[Row], context: Mapping[str, Sequence[str]]
) -> list[Row]:
    """``rows`` after ``hook`` (a copy of them when the task has none)."""
    return hook(rows, context) if hook is not None else [dict(row) for row in rows]
