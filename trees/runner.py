"""The tick runner: set a tree up with its handles, tick it, record every tick.

``TreeRunner`` passes the handles (the LLM client now; scene graph and executor later) to
every behaviour's ``setup(**kwargs)``, ticks at a fixed rate or as fast as asked, stops on a
terminal state, a predicate or a tick budget, and writes the tick log.

A tick costs what it does, not what the tree holds: the runner looks only at the nodes the
tick visited and those it may have stopped (:class:`~trees.recording.node_states.NodeStates`),
and the log records only the nodes whose state changed or that were visited. Setup ends by
moving what it built (the belief, its index, the lexicons) out of the garbage collector's
reach (:func:`gc.freeze`): a full collection would otherwise walk every object of a big
belief, hundreds of milliseconds at 10k objects, in whichever tick it fell.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.llm.client import LLMClient
from cogtree.trees.recording.node_states import NodeStates
from cogtree.trees.recording.tick_log import (
    BlackboardRead,
    BlackboardWrite,
    LogHeader,
    TickEntry,
    TickLogWriter,
    read_value,
    shape_of,
    to_json_value,
)

log = logging.getLogger(__name__)

TERMINAL = (Status.SUCCESS, Status.FAILURE)
WRITE_ACTIVITIES = {
    py_trees.blackboard.ActivityType.WRITE.value,
    py_trees.blackboard.ActivityType.INITIALISED.value,
}
READ_ACTIVITIES = {
    py_trees.blackboard.ActivityType.READ.value,
    py_trees.blackboard.ActivityType.ACCESSED.value,
    py_trees.blackboard.ActivityType.NO_KEY.value,
}


@dataclass
class RunResult:
    """How a run ended."""

    status: Status
    ticks: int
    stopped_because: str
    entries: list[TickEntry] = field(default_factory=list)


class TreeRunner(Closeable):
    """Owns a ``py_trees`` tree for one run.

    Args:
        root: the tree's root behaviour (from a ``create_root()`` factory).
        llm: the LLM client handed to every behaviour's ``setup(llm=...)``.
        handles: further ``setup`` keyword arguments (scene graph, executor, ...).
        log_path: where to write the tick log (JSON Lines); no log when None.
        tree_name: recorded in the log header (e.g. ``cogtree.trees.examples.x:create_root``).
        on_tick: called after every tick with the tree root and the tick entry.
        before_tick: called before every tick (e.g. to advance a simulator by one step).

    """

    def __init__(
        self,
        root: py_trees.behaviour.Behaviour,
        *,
        llm: LLMClient,
        handles: Mapping[str, Any] | None = None,
        log_path: str | Path | None = None,
        tree_name: str = "",
        on_tick: Callable[[py_trees.behaviour.Behaviour, TickEntry], None] | None = None,
        before_tick: Callable[[], None] | None = None,
    ) -> None:
        self.tree = py_trees.trees.BehaviourTree(root)
        self.llm = llm
        self.handles = dict(handles or {})
        self.tree_name = tree_name or root.name
        self.on_tick = on_tick
        self.before_tick = before_tick
        self.notices: list[str] = []
        self._log = TickLogWriter(log_path) if log_path is not None else None
        self._states = NodeStates(root)
        self._call_cursor = len(llm.call_log)
        self._count = 0
        self._frozen = False

    @property
    def root(self) -> py_trees.behaviour.Behaviour:
        """The tree's root."""
        return self.tree.root

    def setup(self, timeout_s: float = 15.0) -> None:
        """Call every behaviour's ``setup`` with the handles; write the log header.

        The header records the blackboard as it is now (presets such as the utterance); the
        tick entries record every write after that. What exists once the tree is set up is
        frozen out of garbage collection until :meth:`close` (module docs).
        """
        self.tree.setup(timeout=timeout_s, llm=self.llm, **self.handles)
        self._states = NodeStates(self.root)  # setup may have built children
        gc.freeze()
        self._frozen = True
        if py_trees.blackboard.Blackboard.activity_stream is None:
            py_trees.blackboard.Blackboard.enable_activity_stream(maximum_size=100_000)
        described = self.llm.describe()
        if self.llm.offline:
            first = next(iter(described.values()), "no modules configured")
            notice = f"no LLM available; gates run their fast paths alone ({first})"
            self.notices.append(notice)
            log.info(notice)  # the command line says which backend runs, once, at its start
        if self._log is not None:
            self._log.write(
                LogHeader.of_tree(
                    self.root, tree=self.tree_name, started_at=time.time(), llm=described
                )
            )

    def tick(self) -> TickEntry:
        """Tick once and return (and log) what happened.

        The entry lists every node's state; the log gets only the states the tick changed
        or visited (the first tick, and a tick that changed the tree's shape, list all).
        """
        if self.before_tick is not None:
            self.before_tick()
        wall = time.time()
        started = time.perf_counter()
        visited = list(self.root.tick())
        self.tree.count += 1
        duration_ms = (time.perf_counter() - started) * 1000.0
        self._count += 1
        changed, reshaped = self._states.after_tick(self.root, visited)
        calls, self._call_cursor = self.llm.call_log.since(self._call_cursor)
        writes, reads = _drain_activity()
        entry = TickEntry(
            tick=self._count,
            wall_time=wall,
            duration_ms=round(duration_ms, 4),
            root_status=self.root.status.value,
            nodes=self._states.whole(),
            writes=writes,
            reads=reads,
            llm_calls=calls,
            structure=shape_of(self.root) if reshaped else None,
        )
        if self._log is not None:
            whole = reshaped or self._count == 1
            self._log.write(entry if whole else entry.model_copy(update={"nodes": changed}))
        if self.on_tick is not None:
            self.on_tick(self.root, entry)
        return entry

    def run(
        self,
        *,
        max_ticks: int = 1000,
        rate_hz: float | None = None,
        until: Callable[[TickEntry], bool] | None = None,
        stop_on_terminal: bool = True,
    ) -> RunResult:
        """Tick until a terminal root status, ``until(entry)``, or ``max_ticks``.

        With ``rate_hz`` the runner sleeps between ticks to hold the rate; without it, it
        ticks back to back.
        """
        period = 1.0 / rate_hz if rate_hz else 0.0
        entries: list[TickEntry] = []
        reason = f"tick budget of {max_ticks} reached"
        for _ in range(max_ticks):
            started = time.monotonic()
            entry = self.tick()
            entries.append(entry)
            if stop_on_terminal and self.root.status in TERMINAL:
                reason = f"root reached {self.root.status.value}"
                break
            if until is not None and until(entry):
                reason = "stop condition met"
                break
            if period:
                time.sleep(max(0.0, period - (time.monotonic() - started)))
        return RunResult(self.root.status, self._count, reason, entries)

    def close(self) -> None:
        """Stop the tree (RUNNING nodes terminate, which cancels model calls), close the log."""
        if self.root.status == Status.RUNNING:
            self.root.stop(Status.INVALID)
        self.tree.shutdown()
        if self._log is not None:
            self._log.close()
        if self._frozen:
            gc.unfreeze()
            self._frozen = False


def _drain_activity() -> tuple[list[BlackboardWrite], list[BlackboardRead]]:
    """The writes and reads in the blackboard's activity stream since the last tick.

    Reads are kept once per key and client, in the order they first happened; a read of a
    key that was not set is marked ``missing``.
    """
    stream = py_trees.blackboard.Blackboard.activity_stream
    if stream is None:
        return [], []
    writes: list[BlackboardWrite] = []
    reads: dict[tuple[str, str], BlackboardRead] = {}
    for item in stream.data:
        if item.activity_type in WRITE_ACTIVITIES:
            value = to_json_value(item.current_value)
            writes.append(BlackboardWrite(key=item.key, client=item.client_name, value=value))
        elif item.activity_type in READ_ACTIVITIES:
            missing = item.activity_type == py_trees.blackboard.ActivityType.NO_KEY.value
            reads.setdefault(
                (item.key, item.client_name),
                BlackboardRead(
                    key=item.key,
                    client=item.client_name,
                    missing=missing,
                    value=read_value(item.current_value),
                ),
            )
    stream.clear()
    return writes, list(reads.values())
