"""What BT.CPP's controls and decorators share: halting, skipping, steering, the clock.

Halting a child, a skipped child, a decorator that decides each tick whether (and how
often) to tick its child, and the tree's clock.

BT.CPP's ``SKIPPED`` status has no py_trees twin: a node skipped by a pre-condition
(:class:`~behaviours.btcpp.conditions.PrePostConditions`) sets ``skipped`` and reports the
status that lets its parent carry on as if it were not there (FAILURE under a fallback,
SUCCESS elsewhere); :func:`was_skipped` lets the controls that count skips (``Parallel``,
``ParallelAll``) tell.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

import py_trees
from py_trees.behaviour import Behaviour
from py_trees.common import Status

from cogtree.behaviours.setup_handles import MissingHandleError

Clock = Callable[[], float]
"""Seconds on a monotonic clock: the ``clock`` handle (the simulator's), else the wall's."""

Ticking = Generator[Behaviour, None, Status]
"""A generator that ticks children (yielding what they yield) and returns a status."""


def was_skipped(node: Behaviour) -> bool:
    """Whether ``node`` was skipped by a pre-condition on its last tick (BT.CPP's SKIPPED)."""
    return bool(getattr(node, "skipped", False))


def skip_status(node: Behaviour) -> Status:
    """What a skipped node reports: FAILURE under a fallback (Selector), SUCCESS elsewhere."""
    if isinstance(node.parent, py_trees.composites.Selector):
        return Status.FAILURE
    return Status.SUCCESS


def halt(children: Iterable[Behaviour]) -> None:
    """Halt the running ones among ``children`` (BT.CPP's ``haltChild``)."""
    for child in children:
        if child.status == Status.RUNNING:
            child.stop(Status.INVALID)


def tick_child(child: Behaviour) -> Ticking:
    """Tick ``child`` once (yielding what it yields); its status."""
    yield from child.tick()
    return child.status


def take_clock(owner: Behaviour, kwargs: dict[str, Any]) -> Clock:
    """The ``clock`` handle of ``setup(**kwargs)``, or the wall's monotonic clock."""
    clock = kwargs.get("clock")
    if clock is None:
        return time.monotonic
    if not callable(clock):
        raise MissingHandleError(
            f"{owner.name}: handle `clock` must be a callable giving seconds, "
            f"got {type(clock).__name__}"
        )
    return clock  # type: ignore[no-any-return]


class Steered(py_trees.behaviour.Behaviour, ABC):
    """Base of the BT.CPP controls and decorators written here: :meth:`steer` decides.

    Each tick, :meth:`steer` (a generator) ticks the children as the node's rule says,
    through :func:`tick_child`, and returns the node's status; a status that ends the node
    halts the children still running.
    """

    def tick(self) -> Iterator[Behaviour]:
        """Initialise when not running, steer, then settle the status."""
        if self.status != Status.RUNNING:
            self.initialise()
        status = yield from self.steer()
        if status == Status.RUNNING:
            self.status = status
        else:
            halt(self.children)
            self.stop(status)
        yield self

    def update(self) -> Status:
        """Unused: :meth:`steer` decides."""
        return self.status

    @abstractmethod
    def steer(self) -> Ticking:
        """Tick the children as needed; the node's status."""


class SteeredDecorator(Steered, py_trees.decorators.Decorator):
    """Base of decorators that decide each tick whether, and how often, to tick their child."""
