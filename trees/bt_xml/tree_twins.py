"""Compare two trees node by node, to prove an XML tree is its Python factory's twin.

Two trees are twins when they have the same shape (``shape_of`` without ids: names, classes,
kinds, memory flags, children), and every pair of nodes has the same constructor state (the
instance attributes the constructor set, e.g. ``robot``, ``judge``, ``num_failures``, the
``compose`` function) and the same blackboard registrations (keys, access, remappings).
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
from typing import Any

from py_trees.behaviour import Behaviour
from pydantic import BaseModel

from cogtree.trees.recording.tick_log import shape_of

RUNTIME_ATTRIBUTES = frozenset(
    {
        "id",
        "parent",
        "children",
        "decorated",
        "current_child",
        "blackboards",
        "blackboard",
        "status",
        "iterator",
        "logger",
        "feedback_message",
    }
)
"""Attributes that identify or link a node rather than configure it (compared elsewhere)."""

SCALARS = (type(None), bool, int, float, str)


def registrations(node: Behaviour) -> list[dict[str, Any]]:
    """The blackboard registrations of ``node``: per client, keys by access and remappings."""
    return sorted(
        (
            {
                "client": client.name,
                "namespace": client.namespace,
                "read": sorted(client.read),
                "write": sorted(client.write),
                "exclusive": sorted(client.exclusive),
                "required": sorted(client.required),
                "remappings": dict(sorted(client.remappings.items())),
            }
            for client in node.blackboards
        ),
        key=repr,
    )


def constructor_state(node: Behaviour) -> dict[str, Any]:
    """The instance attributes of ``node`` that configure it, in a comparable form."""
    return {
        name: comparable(value)
        for name, value in sorted(vars(node).items())
        if name not in RUNTIME_ATTRIBUTES
    }


def comparable(value: Any) -> Any:
    """A form of ``value`` that compares by content; objects of other kinds by their type."""
    if isinstance(value, SCALARS):
        return value
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if isinstance(value, list | tuple):
        return [comparable(item) for item in value]
    if isinstance(value, dict):
        return {repr(key): comparable(item) for key, item in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(repr(comparable(item)) for item in value)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: repr(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if inspect.isclass(value) or inspect.isroutine(value):
        return f"{value.__module__}.{value.__qualname__}"
    if isinstance(value, Behaviour):
        return f"<node {value.name}>"
    return f"<{type(value).__module__}.{type(value).__qualname__}>"


def tree_differences(left: Behaviour, right: Behaviour) -> list[str]:
    """Every way ``right`` differs from ``left``; empty when they are twins."""
    left_shape = [s.model_dump(exclude={"id", "children"}) for s in shape_of(left)]
    right_shape = [s.model_dump(exclude={"id", "children"}) for s in shape_of(right)]
    left_nodes, right_nodes = list(left.iterate()), list(right.iterate())
    if left_shape != right_shape or _arity(left_nodes) != _arity(right_nodes):
        return [_first_shape_difference(left_shape, right_shape, left_nodes, right_nodes)]
    problems = []
    for a, b in zip(left_nodes, right_nodes, strict=True):
        state_a, state_b = constructor_state(a), constructor_state(b)
        for name in sorted(set(state_a) | set(state_b)):
            if state_a.get(name) != state_b.get(name):
                problems.append(
                    f"{a.name}: attribute {name} is {state_a.get(name)!r} and {state_b.get(name)!r}"
                )
        if registrations(a) != registrations(b):
            problems.append(
                f"{a.name}: blackboard registrations differ: {registrations(a)} "
                f"and {registrations(b)}"
            )
    return problems


def _arity(nodes: list[Behaviour]) -> list[int]:
    return [len(node.children) for node in nodes]


def _first_shape_difference(
    left: list[dict[str, Any]],
    right: list[dict[str, Any]],
    left_nodes: list[Behaviour],
    right_nodes: list[Behaviour],
) -> str:
    for index, (a, b) in enumerate(zip(left, right, strict=False)):
        if a != b or len(left_nodes[index].children) != len(right_nodes[index].children):
            return (
                f"node {index} (under {_path(left_nodes[index])}) differs: {a} with "
                f"{len(left_nodes[index].children)} children, and {b} with "
                f"{len(right_nodes[index].children)} children"
            )
    return f"one tree has {len(left)} nodes, the other {len(right)}"


def _path(node: Behaviour) -> str:
    names = []
    parent = node.parent
    while parent is not None:
        names.append(parent.name)
        parent = parent.parent
    return " / ".join(reversed(names)) or "the root"
