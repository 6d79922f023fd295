"""``SnapshotStream``: a running tree as viewer messages, one per tick that changed something.

Each message is one JSON object ``{"header": <LogHeader>, "tick": <TickEntry>}`` (what
:meth:`trees.viewer.feed.TickFeed.push_json` takes), so a viewer that attaches late to a
latched topic gets everything it needs from the last message alone:

- the header keeps the run's identity (tree name and start time: a viewer that already has
  it ignores the repeat), the tree's *current* structure and the blackboard as it was
  *before* the tick (every write of the ticks before, folded in);
- the tick is the runner's :class:`~trees.recording.tick_log.TickEntry`.

The header's JSON is kept and made again only after a tick that wrote to the blackboard or
changed the tree's shape, so an unchanged header costs nothing to send again.

A tick is worth a message when the tree's shape, a status, the visited path or a feedback
message changed, or when it wrote to the blackboard or finished a model call. The stream
starts with a message for the idle tree (tick 0) so the tree can be seen before any turn.
"""

from __future__ import annotations

import time
from typing import Any

import py_trees

from cogtree.trees.recording.snapshot import ticks_differ
from cogtree.trees.recording.tick_log import LogHeader, NodeState, TickEntry


class SnapshotStream:
    """Turns a tree's tick entries into snapshot messages (see the module docs).

    Args:
        root: the tree's root (its shape starts the header).
        tree: the tree's name in the header.
        llm: each module's backend, as :meth:`LLMClient.describe` gives it.

    """

    def __init__(
        self, root: py_trees.behaviour.Behaviour, *, tree: str, llm: dict[str, str]
    ) -> None:
        self._header = LogHeader.of_tree(root, tree=tree, started_at=time.time(), llm=llm)
        self._header_json: str | None = None  # the header's JSON until it changes
        self._last: TickEntry | None = None

    def first(self, root: py_trees.behaviour.Behaviour) -> str:
        """The message of the tree as it stands before any tick (tick 0)."""
        entry = TickEntry(
            tick=0,
            wall_time=time.time(),
            duration_ms=0.0,
            root_status=root.status.value,
            nodes=[
                NodeState(id=str(node.id), status=node.status.value, feedback=node.feedback_message)
                for node in root.iterate()
            ],
        )
        return self._message(entry)

    def update(self, entry: TickEntry) -> str | None:
        """The message of ``entry``, or None when the tick changed nothing worth showing."""
        changed = (
            ticks_differ(self._last, entry)
            or bool(entry.writes or entry.llm_calls)
            or _feedback(self._last) != _feedback(entry)
        )
        return self._message(entry) if changed else None

    def _message(self, entry: TickEntry) -> str:
        if entry.structure is not None:
            self._change_header(structure=entry.structure)
        if self._header_json is None:
            self._header_json = self._header.model_dump_json(exclude_none=True)
        header = self._header_json
        tick = entry.model_dump_json(exclude_none=True)
        if entry.writes:
            blackboard = dict(self._header.blackboard)
            blackboard.update((write.key, write.value) for write in entry.writes)
            self._change_header(blackboard=blackboard)
        self._last = entry
        return f'{{"header": {header}, "tick": {tick}}}'

    def _change_header(self, **update: Any) -> None:
        """Change the header's fields; its JSON is made again for the next message."""
        self._header = self._header.model_copy(update=update)
        self._header_json = None


def _feedback(entry: TickEntry | None) -> dict[str, str]:
    return {} if entry is None else {state.id: state.feedback for state in entry.nodes}
