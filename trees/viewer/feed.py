"""``TickFeed``: the ticks the viewer shows, live from a running tree or from a tick log.

A live feed keeps the log header and the last ``keep`` tick entries (older ones are folded
into the blackboard state and tree shape it started from, so memory stays bounded). Ticks
come from any source as :class:`~trees.recording.tick_log.LogHeader` and
:class:`~trees.recording.tick_log.TickEntry` objects:

* a :class:`~trees.runner.TreeRunner`: pass :meth:`TickFeed.on_tick` as its ``on_tick``;
* a message ``{"header": <LogHeader JSON>, "tick": <TickEntry JSON>}`` (the ROS 2 host's
  snapshot topic): :meth:`TickFeed.push_json`;
* anything else: :meth:`TickFeed.push` with a header first, then entries.

A feed is thread-safe: the tree ticks in one thread, the web server reads in others, and
readers may wait for the next tick (:meth:`TickFeed.index` with ``wait_s``).
"""

from __future__ import annotations

import bisect
import threading
import time
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import py_trees
from pydantic import BaseModel, ValidationError

from cogtree.knowledge.llm.errors import first_problem
from cogtree.trees.recording.snapshot import (
    RATIONALE_PREFIX,
    BlackboardState,
    apply_writes,
    build_snapshot,
    initial_state,
    ticks_differ,
)
from cogtree.trees.recording.tick_log import (
    BlackboardWrite,
    LogHeader,
    NodeShape,
    TickEntry,
    read_tick_log,
)
from cogtree.trees.viewer import DEFAULT_KEEP
from cogtree.trees.viewer.errors import ViewerError
from cogtree.trees.viewer.story import MARK_KINDS, StoryBuilder, StoryEntry

MAX_WAIT_S = 30.0
"""The longest a reader may wait for a new tick in one request."""


class FeedError(ViewerError, ValueError):
    """A tick the feed cannot take or a tick it does not hold; the message says why."""


class TickSummary(BaseModel):
    """One line of the tick index the page scrubs through."""

    tick: int
    root_status: str
    wall_time: float
    duration_ms: float
    changed: bool
    calls: int
    decided: list[str]
    marks: list[str] = []
    """What makes the tick worth a mark on the timeline (kinds of :data:`MARK_KINDS`)."""


class TickIndex(BaseModel):
    """Ticks after a cursor, and what the feed holds overall."""

    tree: str
    first: int | None
    last: int | None
    finished: bool
    ticks: list[TickSummary]


class Story(BaseModel):
    """The story entries of the ticks a feed holds, oldest first."""

    tree: str
    entries: list[StoryEntry]


class _Held(NamedTuple):
    """A tick as the feed keeps it, in a quarter of the memory of a :class:`TickEntry`.

    What the index and the blackboard need is parsed; the rest is compact JSON, parsed
    again only to draw the tick.
    """

    summary: TickSummary
    writes: list[BlackboardWrite]
    structure: list[NodeShape] | None
    json: bytes

    @property
    def tick(self) -> int:
        return self.summary.tick


class TickFeed:
    """The header and the last ``keep`` ticks of one run (``keep=None``: every tick).

    Args:
        keep: how many tick entries to hold; older ones are dropped.
        source: what the ticks come from, shown on the page (``live``, a log's path).
        tree_name: the tree's name in the header :meth:`on_tick` makes (as the runner's
            ``tree_name``); "" takes the root's name.

    """

    def __init__(
        self, keep: int | None = DEFAULT_KEEP, *, source: str = "live", tree_name: str = ""
    ) -> None:
        if keep is not None and keep < 1:
            raise FeedError(f"a feed must keep at least one tick, not {keep}")
        self.keep = keep
        self.source = source
        self.tree_name = tree_name
        self._changed = threading.Condition()
        self._header: LogHeader | None = None
        self._entries: deque[_Held] = deque()
        self._last: TickEntry | None = None  # the newest tick, to tell what changed
        self._base_state: BlackboardState = {}
        self._base_structure: list[NodeShape] = []
        self._structure: list[NodeShape] = []  # the shape after the newest tick
        self._story = StoryBuilder()
        self._finished = False

    @classmethod
    def from_log(cls, path: str | Path) -> TickFeed:
        """A finished feed holding every tick of a tick log (TickLogError when unreadable)."""
        header, ticks = read_tick_log(path)
        feed = cls(keep=None, source=str(path))
        feed.push(header)
        for entry in ticks:
            feed.push(entry)
        feed.finish()
        return feed

    # -- writing -------------------------------------------------------------------------

    def push(self, item: LogHeader | TickEntry) -> None:
        """Take a header (a new run when it differs from the current one) or a tick entry.

        Entries must come after a header and in increasing tick order (FeedError); the
        newest tick delivered again is ignored.
        """
        with self._changed:
            if isinstance(item, LogHeader):
                self._start(item)
            else:
                self._append(item)
            self._changed.notify_all()

    def push_json(self, message: Mapping[str, Any]) -> None:
        """Take ``{"header": ..., "tick": ...}`` (either may be absent) as parsed JSON.

        This is the ROS 2 host's snapshot message; a repeated header (the same tree and
        start time as the feed's) is ignored without being parsed.
        """
        if not isinstance(message, Mapping):
            raise FeedError(f'expected an object {{"header": ..., "tick": ...}}, not {message!r}')
        unknown = sorted(set(message) - {"header", "tick"})
        if unknown:
            raise FeedError(f"unexpected members {', '.join(unknown)}; expected header and tick")
        if "header" in message and not self._is_current(message["header"]):
            self.push(_parse(LogHeader, message["header"], "header"))
        if "tick" in message:
            self.push(_parse(TickEntry, message["tick"], "tick"))

    def on_tick(self, root: py_trees.behaviour.Behaviour, entry: TickEntry) -> None:
        """A :class:`~trees.runner.TreeRunner` ``on_tick`` callback.

        The first call makes the header from the tree (its shape, and the blackboard as it
        was before the tick's writes).
        """
        if self._header is None:
            written = {write.key for write in entry.writes}
            self.push(
                LogHeader.of_tree(
                    root,
                    tree=self.tree_name or root.name,
                    started_at=entry.wall_time,
                    leave_out=written,
                )
            )
        self.push(entry)

    def finish(self) -> None:
        """Mark the run as over; readers waiting for a tick return at once."""
        with self._changed:
            self._finished = True
            self._changed.notify_all()

    def _is_current(self, header: Any) -> bool:
        """True when ``header`` (parsed JSON) names the run the feed holds: a repeat."""
        if not isinstance(header, Mapping):
            return False
        with self._changed:
            current = self._header
        return current is not None and _identity(current) == (
            header.get("tree"),
            header.get("started_at"),
        )

    def _start(self, header: LogHeader) -> None:
        current = self._header
        if current is not None and _identity(current) == _identity(header):
            return
        if not header.structure:
            raise FeedError("a header needs the tree's structure (at least the root)")
        self._header = header
        self._entries.clear()
        self._last = None
        self._base_state = initial_state(header.blackboard)
        self._base_structure = list(header.structure)
        self._structure = list(header.structure)
        self._story = StoryBuilder()
        self._finished = False

    def _append(self, entry: TickEntry) -> None:
        if self._header is None:
            raise FeedError(f"tick {entry.tick} came before any header; push the header first")
        if self._entries and entry.tick == self._entries[-1].tick:
            return  # delivered again (a latched topic does that to a new subscriber)
        if self._entries and entry.tick < self._entries[-1].tick:
            raise FeedError(
                f"tick {entry.tick} came after tick {self._entries[-1].tick}; "
                "ticks must arrive in order"
            )
        if entry.structure:
            self._structure = list(entry.structure)
        told = self._story.add(self._structure, entry)
        summary = _summary(entry, ticks_differ(self._last, entry))
        summary.marks = sorted({item.kind for item in told if item.kind in MARK_KINDS})
        json = entry.model_dump_json(exclude_none=True).encode("utf-8")
        self._entries.append(_Held(summary, entry.writes, entry.structure, json))
        self._last = entry
        while self.keep is not None and len(self._entries) > self.keep:
            dropped = self._entries.popleft()
            apply_writes(self._base_state, dropped.tick, dropped.writes)
            if dropped.structure:
                self._base_structure = list(dropped.structure)
            self._story.forget_before(self._entries[0].tick)

    # -- reading -------------------------------------------------------------------------

    @property
    def tree(self) -> str:
        """The tree's name from the header ("" before the first header)."""
        with self._changed:
            return self._header.tree if self._header is not None else ""

    @property
    def finished(self) -> bool:
        """True once the run is over (always, for a tick log)."""
        with self._changed:
            return self._finished

    def index(self, since: int = 0, *, wait_s: float = 0.0, limit: int = 500) -> TickIndex:
        """Summaries of the ticks after ``since`` (at most ``limit``, oldest first).

        With ``wait_s`` and nothing newer yet, wait up to that long (at most
        :data:`MAX_WAIT_S`) for a tick or the end of the run.
        """
        deadline = time.monotonic() + min(max(wait_s, 0.0), MAX_WAIT_S)
        with self._changed:
            while not self._finished and (not self._entries or self._entries[-1].tick <= since):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._changed.wait(remaining)
            entries = list(self._entries)
            finished = self._finished
            tree = self._header.tree if self._header is not None else ""
        start = bisect.bisect_right(entries, since, key=lambda held: held.tick)
        summaries = [held.summary for held in entries[start : start + max(limit, 0)]]
        return TickIndex(
            tree=tree,
            first=entries[0].tick if entries else None,
            last=entries[-1].tick if entries else None,
            finished=finished,
            ticks=summaries,
        )

    def story(self) -> Story:
        """The story of the ticks held: turns, decisions, plans, model calls, speech."""
        with self._changed:
            tree = self._header.tree if self._header is not None else ""
            entries = [entry.model_copy(deep=True) for entry in self._story.entries]
        return Story(tree=tree, entries=entries)

    def snapshot(self, tick: int | None = None) -> dict[str, Any]:
        """The py_trees_js snapshot of ``tick`` (the newest when None); FeedError if not held."""
        with self._changed:
            entries = list(self._entries)
            state = dict(self._base_state)
            structure = self._base_structure
        if not entries:
            raise FeedError("no tick yet: the tree has not ticked")
        wanted = entries[-1].tick if tick is None else tick
        position = bisect.bisect_left(entries, wanted, key=lambda held: held.tick)
        if position == len(entries) or entries[position].tick != wanted:
            span = f"ticks {entries[0].tick}..{entries[-1].tick}"
            kept = f" (a live feed keeps the last {self.keep})" if self.keep else ""
            raise FeedError(f"tick {wanted} is not held; the feed holds {span}{kept}")
        for held in entries[: position + 1]:
            apply_writes(state, held.tick, held.writes)
            if held.structure:
                structure = list(held.structure)
        shown = entries[position]
        entry = TickEntry.model_validate_json(shown.json)
        return build_snapshot(structure, entry, state, changed=shown.summary.changed)


def _identity(header: LogHeader) -> tuple[str, float]:
    """What tells one run from another: the tree's name and when the run started."""
    return header.tree, header.started_at


def _summary(entry: TickEntry, changed: bool) -> TickSummary:
    decided = [
        str(write.value.get("node", write.client))
        for write in entry.writes
        if write.key.startswith(RATIONALE_PREFIX) and isinstance(write.value, dict)
    ]
    return TickSummary(
        tick=entry.tick,
        root_status=entry.root_status,
        wall_time=entry.wall_time,
        duration_ms=entry.duration_ms,
        changed=changed,
        calls=len(entry.llm_calls),
        decided=decided,
    )


def _parse(model: type[Any], data: Any, what: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise FeedError(f"the {what} does not parse: {first_problem(error)}") from error
