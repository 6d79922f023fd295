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

Node = py_trees.behaviour.Behaviour

INVALID = py_trees.common.Status.INVALID.value


class NodeStates:
    """Every node's state after the last tick, kept up to date at the cost of what a tick did.

    Changes made to the tree outside a tick (a node's status set by hand) are seen only once
    that node is visited or stopped; stopping and ticking are how a tree changes.

    Nodes are kept by themselves (hashed by identity, as py_trees leaves them), and the text
    of a node's id, which :class:`NodeState` records, is made once per node: at 2 kHz a tick
    spent most of its bookkeeping turning the same UUIDs into text, and hashing UUIDs (in
    Python) costs as much.
    """

    def __init__(self, root: Node) -> None:
        self._order: list[Node] = []
        self._position: dict[Node, int] = {}
        self._texts: dict[Node, str] = {}
        self._children: dict[Node, tuple[Node, ...]] = {}
        self._states: dict[Node, NodeState] = {}
        self._live: set[Node] = set()
        self._visited: set[Node] = set()
        self._read(root, set())

    def _read(self, root: Node, visited: set[Node]) -> None:
        """Walk the whole tree (at the start, and after its shape changed)."""
        self._order, self._texts, self._children, self._states = [], {}, {}, {}
        for node in root.iterate():
            self._order.append(node)
            self._texts[node] = str(node.id)
            self._children[node] = tuple(node.children)
            self._states[node] = self._state(node, node in visited)
        self._position = {node: position for position, node in enumerate(self._order)}
        self._live = {node for node, state in self._states.items() if state.status != INVALID}
        self._visited = visited

    def whole(self) -> list[NodeState]:
        """Every node's state after the last tick, parents before children."""
        return [self._states[node] for node in self._order]

    def after_tick(self, root: Node, visited: Iterable[Node]) -> tuple[list[NodeState], bool]:
        """The states the tick changed or visited, and whether the tree's shape changed.

        ``visited``: the nodes the tick visited. When the shape changed (a node was added,
        removed or moved), the whole tree is read again and every node listed.
        """
        ticked = set(visited)
        watched = ticked | self._live  # what the tick can have changed
        if any(node not in self._states for node in ticked) or any(
            tuple(node.children) != self._children[node] for node in watched
        ):
            self._read(root, ticked)
            return self.whole(), True
        changed: list[Node] = []
        for node in watched:
            before = self._states[node]
            if node in ticked or (node.status.value, node.feedback_message) != (
                before.status,
                before.feedback,
            ):
                self._states[node] = self._state(node, node in ticked)
                changed.append(node)
        for node in self._visited - ticked:
            state = self._states[node]
            if state.visited:
                self._states[node] = state.model_copy(update={"visited": False})
        self._visited = ticked
        self._live = {node for node in watched if self._states[node].status != INVALID}
        changed.sort(key=self._position.__getitem__)
        return [self._states[node] for node in changed], False

    def _state(self, node: Node, visited: bool) -> NodeState:
        return NodeState(
            id=self._texts[node],
            status=node.status.value,
            feedback=node.feedback_message,
            visited=visited,
        )
