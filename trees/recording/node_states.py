"""What a tick changed in the tree: node states kept as changes, and read back whole.

A tick visits a few nodes of a tree that may hold hundreds, so the runner does not walk and
serialise every node on every tick. :class:`NodeStates` keeps the state each node had after
the last tick and looks only at the nodes a tick can have changed: those it visited, and
those that were active (not INVALID) after the tick before, which a visited parent may have
stopped. Its :meth:`NodeStates.after_tick` gives the states that changed and every visited
one: the *delta* the tick log records (version 2 of its format). A node not in a delta kept
its status and feedback and was not visited. The first tick, and a tick that changed the
tree's shape, list every node.

Reading a log folds the deltas back (:func:`~trees.recording.tick_log.whole_ticks`), so every
entry read, like every entry the runner hands to ``on_tick``, lists every node.
"""

from __future__ import annotations

from collections.abc import Iterable

import py_trees

from cogtree.trees.recording.tick_log import NodeState

INVALID = py_trees.common.Status.INVALID.value


class NodeStates:
    """Every node's state after the last tick, kept up to date at the cost of what a tick did.

    Changes made to the tree outside a tick (a node's status set by hand) are seen only once
    that node is visited or stopped; stopping and ticking are how a tree changes.
    """

    def __init__(self, root: py_trees.behaviour.Behaviour) -> None:
        self._order: list[str] = []
        self._position: dict[str, int] = {}
        self._nodes: dict[str, py_trees.behaviour.Behaviour] = {}
        self._children: dict[str, tuple[str, ...]] = {}
        self._states: dict[str, NodeState] = {}
        self._live: set[str] = set()
        self._visited: set[str] = set()
        self._read(root, set())

    def _read(self, root: py_trees.behaviour.Behaviour, visited: set[str]) -> None:
        """Walk the whole tree (at the start, and after its shape changed)."""
        self._order, self._nodes, self._children, self._states = [], {}, {}, {}
        for node in root.iterate():
            node_id = str(node.id)
            self._order.append(node_id)
            self._nodes[node_id] = node
            self._children[node_id] = _children(node)
            self._states[node_id] = _state(node, node_id in visited)
        self._position = {node_id: position for position, node_id in enumerate(self._order)}
        self._live = {node_id for node_id, state in self._states.items() if state.status != INVALID}
        self._visited = visited

    def whole(self) -> list[NodeState]:
        """Every node's state after the last tick, parents before children."""
        return [self._states[node_id] for node_id in self._order]

    def after_tick(
        self, root: py_trees.behaviour.Behaviour, visited: Iterable[py_trees.behaviour.Behaviour]
    ) -> tuple[list[NodeState], bool]:
        """The states the tick changed or visited, and whether the tree's shape changed.

        ``visited``: the nodes the tick visited. When the shape changed (a node was added,
        removed or moved), the whole tree is read again and every node listed.
        """
        ticked = {str(node.id): node for node in visited}
        if any(node_id not in self._nodes for node_id in ticked) or any(
            _children(self._nodes[node_id]) != self._children[node_id]
            for node_id in (*ticked, *self._live)
        ):
            self._read(root, set(ticked))
            return self.whole(), True
        changed: list[NodeState] = []
        for node_id in self._live | ticked.keys():
            node = self._nodes[node_id]
            before = self._states[node_id]
            if node_id in ticked or (node.status.value, node.feedback_message) != (
                before.status,
                before.feedback,
            ):
                self._states[node_id] = _state(node, node_id in ticked)
                changed.append(self._states[node_id])
        for node_id in self._visited - ticked.keys():
            state = self._states[node_id]
            if state.visited:
                self._states[node_id] = state.model_copy(update={"visited": False})
        self._visited = set(ticked)
        self._live = {
            node_id
            for node_id in self._live | ticked.keys()
            if self._states[node_id].status != INVALID
        }
        return sorted(changed, key=lambda state: self._position[state.id]), False


def _children(node: py_trees.behaviour.Behaviour) -> tuple[str, ...]:
    return tuple(str(child.id) for child in node.children)


def _state(node: py_trees.behaviour.Behaviour, visited: bool) -> NodeState:
    return NodeState(
        id=str(node.id), status=node.status.value, feedback=node.feedback_message, visited=visited
    )
