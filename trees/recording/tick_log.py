"""The tick log: one JSON object per line, a header then one entry per tick.

Each tick entry holds the status and feedback of the nodes the tick changed or visited (and
whether it visited them; the first tick and a tick that changed the tree's shape list every
node), the blackboard writes and reads of that tick and the model calls that finished during
it, so a run can be replayed, audited and measured afterwards. Reading a log gives every
node's state at every tick (:func:`whole_ticks`). The file is flushed after every line: a
crash loses at most the tick in progress.

Version 1 listed every node on every tick; it reads the same way.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal

import py_trees
from pydantic import BaseModel, ValidationError

from cogtree.knowledge.llm.errors import first_problem
from cogtree.knowledge.llm.types import CallRecord

FORMAT_VERSION = 2
"""2: a tick lists the nodes it changed or visited (1: every node)."""

NodeKind = Literal["sequence", "selector", "parallel", "decorator", "leaf"]


class NodeShape(BaseModel):
    """A node of the tree's structure: identity, type and children."""

    id: str
    name: str
    behaviour: str
    kind: NodeKind
    memory: bool | None = None
    children: list[str] = []


class NodeState(BaseModel):
    """A node's status after one tick."""

    id: str
    status: str
    feedback: str = ""
    visited: bool = False


class BlackboardWrite(BaseModel):
    """One write to the blackboard during a tick, the value as JSON."""

    key: str
    client: str
    value: Any


class BlackboardRead(BaseModel):
    """A blackboard key a client read during a tick (once per key and client).

    ``missing`` is True when the key was not set at the time (the client asked for it
    anyway). ``value`` is the value read when it is a short scalar (an utterance, an id, a
    flag), which may have been set outside the tree; larger values are found in the writes.
    Logs written before reads were recorded simply have none.
    """

    key: str
    client: str
    missing: bool = False
    value: str | int | float | bool | None = None


READ_VALUE_CHARS = 500
"""Longest string value a :class:`BlackboardRead` records."""


def read_value(value: Any) -> str | int | float | bool | None:
    """What a :class:`BlackboardRead` records of a value: short scalars, else None."""
    if isinstance(value, str):
        return value if len(value) <= READ_VALUE_CHARS else None
    return value if isinstance(value, (int, float, bool)) else None


class LogHeader(BaseModel):
    """First line of a tick log."""

    type: Literal["header"] = "header"
    version: int = FORMAT_VERSION
    tree: str
    started_at: float
    llm: dict[str, str] = {}
    blackboard: dict[str, Any] = {}
    structure: list[NodeShape]

    @classmethod
    def of_tree(
        cls,
        root: py_trees.behaviour.Behaviour,
        *,
        tree: str,
        started_at: float,
        llm: dict[str, str] | None = None,
        leave_out: Collection[str] = (),
    ) -> LogHeader:
        """The header of a run of ``root``: its shape and the blackboard as it is now.

        The blackboard is py_trees' global storage, every value as JSON
        (:func:`to_json_value`), except the keys in ``leave_out`` (those a tick that already
        ran wrote: its entry carries them).
        """
        storage = py_trees.blackboard.Blackboard.storage
        return cls(
            tree=tree,
            started_at=started_at,
            llm=dict(llm or {}),
            blackboard={
                key: to_json_value(value) for key, value in storage.items() if key not in leave_out
            },
            structure=shape_of(root),
        )


class TickEntry(BaseModel):
    """One tick. ``structure`` is present when the tree's shape changed during the tick.

    ``nodes``: every node's state, parents first (as the runner hands it over and as a log
    is read); in the log's lines, only the states the tick changed or visited.
    """

    type: Literal["tick"] = "tick"
    tick: int
    wall_time: float
    duration_ms: float
    root_status: str
    nodes: list[NodeState]
    writes: list[BlackboardWrite] = []
    reads: list[BlackboardRead] = []
    llm_calls: list[CallRecord] = []
    structure: list[NodeShape] | None = None


class TickLogError(ValueError):
    """A tick log could not be read; the message names the file and line."""


def _composite_memory(node: py_trees.behaviour.Behaviour) -> bool | None:
    """A Sequence's or Selector's ``memory`` flag; None for other nodes.

    Leaves may have an attribute of that name for something else entirely (a memory store).
    """
    memory = getattr(node, "memory", None)
    is_composite = isinstance(node, py_trees.composites.Composite)
    return memory if is_composite and isinstance(memory, bool) else None


def shape_of(root: py_trees.behaviour.Behaviour) -> list[NodeShape]:
    """The structure of the tree under ``root``, parents before children."""
    shapes = [
        NodeShape(
            id=str(root.id),
            name=root.name,
            behaviour=f"{type(root).__module__}.{type(root).__qualname__}",
            kind=_kind(root),
            memory=_composite_memory(root),
            children=[str(child.id) for child in root.children],
        )
    ]
    for child in root.children:
        shapes.extend(shape_of(child))
    return shapes


def _kind(node: py_trees.behaviour.Behaviour) -> NodeKind:
    if isinstance(node, py_trees.composites.Selector):
        return "selector"
    if isinstance(node, py_trees.composites.Sequence):
        return "sequence"
    if isinstance(node, py_trees.composites.Parallel):
        return "parallel"
    if isinstance(node, py_trees.decorators.Decorator):
        return "decorator"
    return "leaf"


def to_json_value(value: Any) -> Any:
    """A JSON-friendly form of a blackboard value (pydantic models dumped, others repr'd)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [to_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json_value(item) for key, item in value.items()}
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
    return value


class TickLogWriter:
    """Appends a header and tick entries to a JSON Lines file, flushing each line."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = self.path.open("w", encoding="utf-8")

    def write(self, entry: LogHeader | TickEntry) -> None:
        """Write one line and flush it to the OS."""
        self._file.write(entry.model_dump_json(exclude_none=True) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def read_tick_log(path: str | Path) -> tuple[LogHeader, list[TickEntry]]:
    """Read a whole tick log, every entry listing every node; errors name the file and line."""
    lines = list(_lines(Path(path)))
    if not lines:
        raise TickLogError(f"{path}: empty file, not a cogtree tick log")
    header_number, header_data = lines[0]
    header = _parse(LogHeader, header_data, path, header_number)
    ticks = [_parse(TickEntry, data, path, number) for number, data in lines[1:]]
    return header, whole_ticks(ticks)


def whole_ticks(ticks: Iterable[TickEntry]) -> list[TickEntry]:
    """``ticks`` as read from a log, each listing every node (deltas folded, in order).

    A node a tick does not list keeps its state from the tick before, not visited; a tick
    that changed the tree's shape lists every node of the new shape.
    """
    states: dict[str, NodeState] = {}
    whole: list[TickEntry] = []
    for entry in ticks:
        if entry.structure is not None:
            states = {}
        states = {
            node_id: state.model_copy(update={"visited": False}) if state.visited else state
            for node_id, state in states.items()
        }
        states.update((state.id, state) for state in entry.nodes)
        whole.append(entry.model_copy(update={"nodes": list(states.values())}))
    return whole


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise TickLogError(f"cannot read tick log {path}: {error.strerror}") from error
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as error:
            if number == len(text.splitlines()):
                return  # a torn last line from a crash: keep everything before it
            raise TickLogError(f"{path} line {number}: not JSON ({error.msg})") from error


def _parse(model: type[Any], data: dict[str, Any], path: str | Path, number: int) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise TickLogError(f"{path} line {number}: {first_problem(error)}") from error
