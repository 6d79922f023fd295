"""Shared pieces of the BT.CPP built-in tests: scripted children and a hand-set clock."""

from __future__ import annotations

from collections.abc import Callable

import py_trees
from py_trees.behaviour import Behaviour
from py_trees.common import Status

from cogtree.trees.testing import TreeHarness

S, F, R = Status.SUCCESS, Status.FAILURE, Status.RUNNING


def child(name: str, *statuses: Status, then: Status | None = None) -> Behaviour:
    """A leaf answering ``statuses`` in turn, then ``then`` (or the same list again)."""
    return py_trees.behaviours.StatusQueue(name, list(statuses), then)


class HandClock:
    """The ``clock`` handle of a test: seconds that move only when the test says."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


Harness = Callable[..., TreeHarness]
"""``harness(root, **handles)``: a TreeHarness of ``root`` (the ``harness`` fixture)."""
