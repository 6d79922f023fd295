"""Replay a tick log: rebuild the tree's shape and re-render it tick by tick."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import py_trees
from py_trees.common import Status

from cogtree.trees.recording.display import render_tick
from cogtree.trees.recording.tick_log import NodeShape, TickEntry, read_tick_log


class ReplayedLeaf(py_trees.behaviour.Behaviour):
    """A leaf standing in for a logged behaviour; shows the status it had in the log."""

    def update(self) -> Status:
        """Never ticked during replay; the logged status is set directly."""
        return self.status


class ReplayedDecorator(py_trees.decorators.Decorator):
    """A decorator standing in for a logged one."""

    def update(self) -> Status:
        """Never ticked during replay; the logged status is set directly."""
        return self.status


class Replay:
    """A tick log made walkable: ``at(n)`` sets every node to its status at tick ``n``."""

    def __init__(self, path: str | Path) -> None:
        self.header, self.ticks = read_tick_log(path)
        self._nodes: dict[str, py_trees.behaviour.Behaviour] = {}
        self._built_from = 0
        self.root = self._build(self.header.structure)

    def _build(self, structure: list[NodeShape]) -> py_trees.behaviour.Behaviour:
        shapes = {shape.id: shape for shape in structure}
        self._nodes = {}

        def build(shape: NodeShape) -> py_trees.behaviour.Behaviour:
            children = [build(shapes[child]) for child in shape.children]
            node: py_trees.behaviour.Behaviour
            if shape.kind == "sequence":
                node = py_trees.composites.Sequence(shape.name, memory=bool(shape.memory))
                node.add_children(children)
            elif shape.kind == "selector":
                node = py_trees.composites.Selector(shape.name, memory=bool(shape.memory))
                node.add_children(children)
            elif shape.kind == "parallel":
                node = py_trees.composites.Parallel(
                    shape.name, policy=py_trees.common.ParallelPolicy.SuccessOnAll()
                )
                node.add_children(children)
            elif shape.kind == "decorator":
                node = ReplayedDecorator(name=shape.name, child=children[0])
            else:
                node = ReplayedLeaf(shape.name)
            self._nodes[shape.id] = node
            return node

        return build(structure[0])

    def at(self, index: int) -> TickEntry:
        """Put the tree in the state of the ``index``-th logged tick and return that entry."""
        entry = self.ticks[index]
        source, structure = next(
            (
                (i + 1, self.ticks[i].structure)
                for i in range(index, -1, -1)
                if self.ticks[i].structure
            ),
            (0, self.header.structure),
        )
        if source != self._built_from:
            self.root = self._build(structure or self.header.structure)
            self._built_from = source
        for state in entry.nodes:
            node = self._nodes.get(state.id)
            if node is not None:
                node.status = Status(state.status)
                node.feedback_message = state.feedback
        return entry

    def render(self, index: int) -> str:
        """The tree at the ``index``-th logged tick, as ``--show-ticks`` printed it."""
        return render_tick(self.root, self.at(index))

    def __iter__(self) -> Iterator[str]:
        return (self.render(index) for index in range(len(self.ticks)))
