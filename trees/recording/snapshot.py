"""One tick as the viewer draws it: a py_trees_js tree snapshot plus every node's details.

A snapshot is the JSON py_trees_js renders (``timestamp``, ``changed`` as the string
"true"/"false", ``visited_path``, ``behaviours`` with id, status, name, colour, children,
details and tooltip ``data``, and the ``blackboard`` view), with one extra member,
``cogtree``: the tick's number, root status and duration, and per node what the details
panel shows (status, feedback, the gate's decision and rationale, the model calls behind
it, the blackboard keys its client read and wrote in that tick).

py_trees_js puts names, details and tooltip data into the page as HTML, so every text in
those fields is escaped here; the ``cogtree`` member carries raw text for the page to set
as text.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.knowledge.llm.types import CallRecord
from cogtree.knowledge.wording import clip
from cogtree.trees.recording.tick_log import (
    BlackboardRead,
    BlackboardWrite,
    NodeShape,
    NodeState,
    TickEntry,
)

RATIONALE_PREFIX = keys.RATIONALE.name.removesuffix(keys.NODE)
"""Where every LLM-backed node writes its :class:`~behaviours.GateRationale`."""

KIND_COLOURS = {
    "sequence": "#FFA500",
    "selector": "#00FFFF",
    "parallel": "#FFFF00",
    "decorator": "#DDDDDD",
    "leaf": "#555555",
}
"""The colour band of each node kind on the canvas (py_trees' viewer conventions)."""

TOOLTIP_CHARS = 200
"""Longest text in a node's tooltip or in the blackboard view."""

PANEL_CHARS = 4000
"""Longest value preview in the details panel (evidence bundles can be large)."""


class Written(NamedTuple):
    """A blackboard value (as JSON) with the tick that wrote it (0: set before the run)."""

    value: Any
    tick: int


BlackboardState = dict[str, Written]
"""The blackboard at the end of a tick, as the tick log knows it."""


class RationaleView(BaseModel):
    """A gate's latest decision and why (its ``/rationale/<node>`` value).

    ``tick`` is when it was written; ``fresh`` says it was written in the tick shown.
    """

    module: str = ""
    source: str = ""
    vetoed: bool = False
    decision: dict[str, Any] = {}
    text: str = ""
    notes: list[str] = []
    tick: int
    fresh: bool


class KeyAccess(BaseModel):
    """A blackboard key a node read or wrote in the tick, with a preview of its value."""

    key: str
    value: str = ""
    missing: bool = False


class NodeDetails(BaseModel):
    """Everything the details panel shows for one node at one tick."""

    id: str
    name: str
    behaviour: str
    kind: str
    status: str
    feedback: str
    visited: bool
    decision: str = ""
    rationale: RationaleView | None = None
    calls: list[CallRecord] = []
    reads: list[KeyAccess] = []
    writes: list[KeyAccess] = []


def initial_state(presets: Mapping[str, Any]) -> BlackboardState:
    """The blackboard before the first tick (the header's presets)."""
    return {key: Written(value, 0) for key, value in presets.items()}


def apply_writes(state: BlackboardState, tick: int, writes: Iterable[BlackboardWrite]) -> None:
    """Fold the writes of tick number ``tick`` into ``state``."""
    for write in writes:
        state[write.key] = Written(write.value, tick)


def ticks_differ(previous: TickEntry | None, entry: TickEntry) -> bool:
    """True when the tree's shape, a status or the visited path changed since ``previous``."""
    if previous is None or entry.structure is not None:
        return True
    before = {(state.id, state.status, state.visited) for state in previous.nodes}
    return before != {(state.id, state.status, state.visited) for state in entry.nodes}


def decision_summary(decision: Mapping[str, Any], limit: int = 80) -> str:
    """A decision's non-empty fields as ``key=value, ...`` (without its rationale)."""
    return ", ".join(
        f"{key}={clip(_json(value), limit)}"
        for key, value in decision.items()
        if value not in (None, "", [], {}) and key != "rationale"
    )


def build_snapshot(
    structure: Sequence[NodeShape],
    entry: TickEntry,
    state: BlackboardState,
    *,
    changed: bool,
) -> dict[str, Any]:
    """The py_trees_js snapshot of ``entry`` (``state``: the blackboard after it)."""
    statuses = {node.id: node for node in entry.nodes}
    rationales = _rationales_by_node(state, entry.tick)
    details = [
        _details(shape, statuses.get(shape.id), rationales.get(shape.name), entry, state)
        for shape in structure
    ]
    pairs = zip(structure, details, strict=True)
    return {
        "timestamp": entry.wall_time,
        "changed": "true" if changed else "false",
        "visited_path": [node.id for node in details if node.visited],
        "behaviours": {shape.id: _behaviour(node, shape) for shape, node in pairs},
        "blackboard": _blackboard_view(details),
        "cogtree": {
            "tick": entry.tick,
            "root_status": entry.root_status,
            "duration_ms": entry.duration_ms,
            "wall_time": entry.wall_time,
            "nodes": {node.id: node.model_dump(mode="json") for node in details},
        },
    }


class _Rationale(NamedTuple):
    view: RationaleView
    calls: list[CallRecord]


def _details(
    shape: NodeShape,
    status: NodeState | None,
    rationale: _Rationale | None,
    entry: TickEntry,
    state: BlackboardState,
) -> NodeDetails:
    calls = list(rationale.calls) if rationale else []
    if rationale is not None and rationale.view.module:
        calls += [
            call
            for call in entry.llm_calls
            if call.module == rationale.view.module and call not in calls
        ]
    return NodeDetails(
        id=shape.id,
        name=shape.name,
        behaviour=shape.behaviour,
        kind=shape.kind,
        status=status.status if status is not None else "INVALID",
        feedback=status.feedback if status is not None else "",
        visited=bool(status is not None and status.visited),
        decision=decision_summary(rationale.view.decision) if rationale else "",
        rationale=rationale.view if rationale else None,
        calls=calls,
        reads=[_read(read, state) for read in entry.reads if read.client == shape.name],
        writes=[
            KeyAccess(key=write.key, value=clip(_json(write.value), PANEL_CHARS))
            for write in entry.writes
            if write.client == shape.name
        ],
    )


def _rationales_by_node(state: BlackboardState, tick: int) -> dict[str, _Rationale]:
    """Each node's latest rationale on the blackboard and the calls behind it, by node name."""
    found: dict[str, _Rationale] = {}
    for key, written in state.items():
        value = written.value
        if not key.startswith(RATIONALE_PREFIX) or not isinstance(value, dict):
            continue
        node = value.get("node")
        if not isinstance(node, str):
            continue
        decision = value.get("decision")
        view = RationaleView(
            module=str(value.get("module", "")),
            source=str(value.get("source", "")),
            vetoed=bool(value.get("vetoed", False)),
            decision=decision if isinstance(decision, dict) else {},
            text=str(value.get("rationale", "")),
            notes=[str(note) for note in value.get("notes", []) if note],
            tick=written.tick,
            fresh=written.tick == tick,
        )
        found[node] = _Rationale(view, list(_calls(value.get("calls", []))))
    return found


def _calls(records: Any) -> Iterable[CallRecord]:
    """The call records of a logged rationale; a record that does not parse is skipped."""
    for record in records if isinstance(records, list) else []:
        try:
            yield CallRecord.model_validate(record)
        except ValueError:
            continue


def _behaviour(node: NodeDetails, shape: NodeShape) -> dict[str, Any]:
    """One entry of the py_trees_js ``behaviours`` map, every text HTML-escaped."""
    data = {"Type": shape.behaviour, "Feedback": node.feedback or "-"}
    if node.rationale is not None:
        data["Decision"] = node.decision or "-"
        data["Why"] = node.rationale.text or "-"
        data["Decided by"] = node.rationale.source + (" (vetoed)" if node.rationale.vetoed else "")
    if node.calls:
        data["Model"] = "; ".join(call_summary(call) for call in node.calls)
    return {
        "id": shape.id,
        "status": node.status,
        "name": html.escape(shape.name),
        "colour": KIND_COLOURS.get(shape.kind, KIND_COLOURS["leaf"]),
        "children": list(shape.children),
        "details": html.escape(clip(node.decision or node.feedback or "...", TOOLTIP_CHARS)),
        "data": {key: html.escape(clip(value, TOOLTIP_CHARS)) for key, value in data.items()},
    }


def call_summary(call: CallRecord) -> str:
    """``backend model: outcome, P+C tokens, L s`` for one model call."""
    estimated = " (estimated)" if call.tokens_estimated else ""
    return (
        f"{call.backend} {call.model}: {call.outcome}, {call.prompt_tokens}+"
        f"{call.completion_tokens} tokens{estimated}, {call.latency_s:.3f} s"
    )


def _blackboard_view(nodes: Sequence[NodeDetails]) -> dict[str, Any]:
    """py_trees_js's blackboard view: the keys each node touched this tick, and their values."""
    behaviours: dict[str, dict[str, str]] = {}
    data: dict[str, str] = {}
    for node in nodes:
        access: dict[str, str] = {}
        touched = [(read, "r") for read in node.reads if not read.missing]
        touched += [(write, "w") for write in node.writes]
        for key_access, mode in touched:
            if key_access.key.startswith(RATIONALE_PREFIX):
                continue  # the details panel shows rationales in full
            key = html.escape(key_access.key)
            access[key] = "rw" if key in access and access[key] != mode else mode
            data[key] = html.escape(clip(key_access.value, TOOLTIP_CHARS))
        if access:
            behaviours[node.id] = access
    return {"behaviours": behaviours, "data": data}


def _read(read: BlackboardRead, state: BlackboardState) -> KeyAccess:
    """A read with the value it saw: as logged, else the last value the log knows."""
    if read.value is not None:
        value = clip(_json(read.value), PANEL_CHARS)
    else:
        written = state.get(read.key)
        value = clip(_json(written.value), PANEL_CHARS) if written is not None else ""
    return KeyAccess(key=read.key, value=value, missing=read.missing)


def _json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
