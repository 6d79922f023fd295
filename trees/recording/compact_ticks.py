"""``--show-ticks compact``: one line per tick, the visited path and the decisions taken.

A line reads ``tick 12 RUNNING 0.41 ms | DetectScope S > RecognizeIntent R | DetectScope:
domain=advisor [fast_path] closest to advisor``: the leaves the tick visited with their
status letters (S, F, R, - for invalid), then each gate that decided in the tick with its
decision, how it decided and why, then the model calls that finished. A tree waiting on a
model ticks many identical ticks; those are folded into one ``(N more ticks like that)``
line, printed when something changes or the run ends, so a log over SSH stays readable.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, TextIO

import py_trees

from cogtree.knowledge.wording import clip, counted
from cogtree.trees.recording.display import status_letter
from cogtree.trees.recording.snapshot import RATIONALE_PREFIX, call_summary, decision_summary
from cogtree.trees.recording.tick_log import TickEntry

RATIONALE_CHARS = 100
"""Longest rationale text on a compact line."""


def compact_line(entry: TickEntry, leaves: Mapping[str, str]) -> str:
    """The tick as one line; ``leaves`` maps the id of every leaf to its name."""
    path = " > ".join(
        f"{leaves[node.id]} {status_letter(node.status)}"
        for node in entry.nodes
        if node.visited and node.id in leaves
    )
    parts = [f"tick {entry.tick} {entry.root_status} {entry.duration_ms:.2f} ms", path or "-"]
    parts += [
        _decision(write.value)
        for write in entry.writes
        if write.key.startswith(RATIONALE_PREFIX) and isinstance(write.value, dict)
    ]
    parts += [f"llm {call.module}: {call_summary(call)}" for call in entry.llm_calls]
    return " | ".join(parts)


def _decision(rationale: Mapping[str, Any]) -> str:
    decision = rationale.get("decision")
    summary = decision_summary(decision) if isinstance(decision, dict) else ""
    how = str(rationale.get("source", "")) + (" VETOED" if rationale.get("vetoed") else "")
    why = clip(str(rationale.get("rationale", "")), RATIONALE_CHARS)
    return f"{rationale.get('node', '?')}: {summary or '-'} [{how}] {why}".rstrip()


class CompactTicks:
    """An ``on_tick`` callback printing :func:`compact_line` for each tick to ``out``.

    Consecutive ticks with the same visited path and statuses and nothing decided are
    counted instead of printed; :meth:`flush` prints the count still pending.
    """

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self._previous: tuple[str, tuple[tuple[str, str, bool], ...]] | None = None
        self._repeats = 0

    def __call__(self, root: py_trees.behaviour.Behaviour, entry: TickEntry) -> None:
        """Print the tick, or count it when it repeats the one before."""
        shape = (entry.root_status, tuple((n.id, n.status, n.visited) for n in entry.nodes))
        quiet = not entry.llm_calls and not any(
            write.key.startswith(RATIONALE_PREFIX) for write in entry.writes
        )
        if quiet and shape == self._previous:
            self._repeats += 1
            return
        self.flush()
        self._previous = shape
        leaves = {str(node.id): node.name for node in root.iterate() if not node.children}
        print(compact_line(entry, leaves), file=self.out)

    def flush(self) -> None:
        """Print how many ticks repeated the last printed one, if any."""
        if self._repeats:
            print(f"  ({counted(self._repeats, 'more tick')} like that)", file=self.out)
            self._repeats = 0
