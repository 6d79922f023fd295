"""The tree as a ``cogtree_interfaces/msg/BehaviourTree``, shaped like py_trees_ros's snapshot.

:func:`tree_message` describes a live tree after a tick: every behaviour with its id (the
py_trees uuid as text), its parent's and children's ids, the tip, its kind, status and feedback
message, whether the tick visited it, and the blackboard keys it reads and writes; then the
blackboard's values on the visited path and the tick's blackboard activity (reads and writes
from the :class:`~trees.recording.tick_log.TickEntry`). Values are rendered as text, clipped.
"""

from __future__ import annotations

import json
from typing import Any

import py_trees
from builtin_interfaces.msg import Time
from cogtree_interfaces.msg import Behaviour, BehaviourTree, BlackboardActivity, KeyValue
from py_trees.common import Status

from cogtree.knowledge.wording import clip
from cogtree.trees.recording.tick_log import TickEntry

VALUE_CHARS = 200
"""Longest rendering of a blackboard value in a message."""

_STATUS = {
    Status.INVALID: Behaviour.INVALID,
    Status.RUNNING: Behaviour.RUNNING,
    Status.SUCCESS: Behaviour.SUCCESS,
    Status.FAILURE: Behaviour.FAILURE,
}


def tree_message(
    root: py_trees.behaviour.Behaviour,
    *,
    tree_name: str,
    entry: TickEntry | None,
    stamp: Time,
) -> BehaviourTree:
    """The message of ``root`` after the tick ``entry`` (None: the idle tree, tick 0)."""
    visited = {node.id for node in entry.nodes if node.visited} if entry is not None else set()
    behaviours = [_behaviour(node, visited) for node in root.iterate()]
    keys = sorted(
        {key for node in root.iterate() if str(node.id) in visited for key in _keys(node)}
    )
    storage = py_trees.blackboard.Blackboard.storage
    return BehaviourTree(
        stamp=stamp,
        tree_name=tree_name,
        tick=entry.tick if entry is not None else 0,
        changed=True,
        behaviours=behaviours,
        blackboard_on_visited_path=[
            KeyValue(key=key, value=_text(storage.get(key))) for key in keys if key in storage
        ],
        blackboard_activity=_activity(entry),
    )


def _behaviour(node: py_trees.behaviour.Behaviour, visited: set[str]) -> Behaviour:
    tip = node.tip()
    access = {key: "read" for key in _keys(node, "read")}
    for key in _keys(node, "write"):
        access[key] = "read,write" if key in access else "write"
    return Behaviour(
        name=node.name,
        class_name=f"{type(node).__module__}.{type(node).__qualname__}",
        own_id=str(node.id),
        parent_id=str(node.parent.id) if node.parent is not None else "",
        child_ids=[str(child.id) for child in node.children],
        tip_id=str(tip.id) if tip is not None else "",
        type=_kind(node),
        status=_STATUS[node.status],
        message=node.feedback_message,
        is_active=str(node.id) in visited,
        blackboard_access=[KeyValue(key=key, value=how) for key, how in sorted(access.items())],
    )


def _kind(node: py_trees.behaviour.Behaviour) -> int:
    kinds: list[tuple[type[Any], int]] = [
        (py_trees.composites.Sequence, Behaviour.SEQUENCE),
        (py_trees.composites.Selector, Behaviour.SELECTOR),
        (py_trees.composites.Parallel, Behaviour.PARALLEL),
        (py_trees.decorators.Decorator, Behaviour.DECORATOR),
    ]
    return next((kind for cls, kind in kinds if isinstance(node, cls)), Behaviour.BEHAVIOUR)


def _keys(node: py_trees.behaviour.Behaviour, how: str = "") -> set[str]:
    """The blackboard keys ``node``'s clients read (``how="read"``), write, or either."""
    keys: set[str] = set()
    for client in node.blackboards:
        if how in ("", "read"):
            keys |= {client.remappings.get(key, key) for key in client.read}
        if how in ("", "write"):
            keys |= {client.remappings.get(key, key) for key in client.write}
    return keys


def _activity(entry: TickEntry | None) -> list[BlackboardActivity]:
    if entry is None:
        return []
    reads = [
        BlackboardActivity(
            key=read.key,
            client_name=read.client,
            activity_type=BlackboardActivity.NO_KEY if read.missing else BlackboardActivity.READ,
            current_value=_text(read.value),
        )
        for read in entry.reads
    ]
    writes = [
        BlackboardActivity(
            key=write.key,
            client_name=write.client,
            activity_type=BlackboardActivity.WRITE,
            current_value=_text(write.value),
        )
        for write in entry.writes
    ]
    return reads + writes


def _text(value: Any) -> str:
    """A value as short text (JSON where it can be)."""
    try:
        text = value if isinstance(value, str) else json.dumps(value, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return clip(text, VALUE_CHARS)
