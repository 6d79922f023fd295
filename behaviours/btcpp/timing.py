"""BT.CPP v4's timing nodes on the tree's clock: Delay, Timeout and Sleep.

They read the ``clock`` handle (seconds; the simulator's clock in scenario runs, the wall's
monotonic clock otherwise) at each tick and never wait inside one: where BT.CPP starts a
timer thread, these compare the clock with the time they started.
"""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.behaviour import Behaviour
from py_trees.common import Status

from cogtree.behaviours.btcpp.steering import (
    Clock,
    SteeredDecorator,
    Ticking,
    halt,
    take_clock,
    tick_child,
)


def _milliseconds(name: str, label: str, value: int) -> int:
    if value < 0:
        raise ValueError(f"{name}: {label} is a number of milliseconds >= 0, got {value}")
    return value


class Delay(SteeredDecorator):
    """Wait ``delay_msec`` milliseconds of the tree's clock, then run the child (BT.CPP ``Delay``).

    RUNNING: the delay has not passed (the child is not ticked), or the child is running.
    SUCCESS or FAILURE: what the child ended with; the next tick waits again.
    """

    def __init__(self, child: Behaviour, delay_msec: int, name: str = "Delay") -> None:
        super().__init__(name=name, child=child)
        self.delay_msec = _milliseconds(name, "delay_msec", delay_msec)
        self.clock: Clock = take_clock(self, {})
        self._started: float | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the optional ``clock`` handle."""
        self.clock = take_clock(self, kwargs)

    def initialise(self) -> None:
        """The delay starts now."""
        self._started = self.clock()

    def steer(self) -> Ticking:
        """RUNNING until the delay has passed (its first tick always waits); then the child."""
        started = self._started if self._started is not None else self.clock()
        waited = self.clock() - started
        if self.status != Status.RUNNING or waited * 1000 < self.delay_msec:
            self.feedback_message = f"waiting {self.delay_msec} ms ({waited * 1000:.0f} so far)"
            return Status.RUNNING
        self.feedback_message = ""
        status = yield from tick_child(self.decorated)
        return status


class Timeout(SteeredDecorator):
    """Run the child for at most ``msec`` milliseconds of the tree's clock (BT.CPP ``Timeout``).

    FAILURE: the deadline passed while the child was running (it is halted), or the child
    failed. SUCCESS: the child succeeded in time. RUNNING: the child is running.
    """

    def __init__(self, child: Behaviour, msec: int, name: str = "Timeout") -> None:
        super().__init__(name=name, child=child)
        self.msec = _milliseconds(name, "msec", msec)
        self.clock: Clock = take_clock(self, {})
        self._started = 0.0

    def setup(self, **kwargs: Any) -> None:
        """Take the optional ``clock`` handle."""
        self.clock = take_clock(self, kwargs)

    def initialise(self) -> None:
        """The deadline is ``msec`` from now."""
        self._started = self.clock()

    def steer(self) -> Ticking:
        """Halt the running child at the deadline (FAILURE); else tick it."""
        waited_ms = (self.clock() - self._started) * 1000
        child = self.decorated
        if self.msec > 0 and waited_ms >= self.msec and child.status == Status.RUNNING:
            halt([child])
            self.feedback_message = f"timed out after {waited_ms:.0f} ms (limit {self.msec})"
            return Status.FAILURE
        status = yield from tick_child(child)
        return status


class Sleep(py_trees.behaviour.Behaviour):
    """Wait ``msec`` milliseconds of the tree's clock (BT.CPP ``Sleep``).

    RUNNING: the time has not passed (always on the first tick when ``msec`` > 0).
    SUCCESS: it has.
    """

    def __init__(self, msec: int, name: str = "Sleep") -> None:
        super().__init__(name)
        self.msec = _milliseconds(name, "msec", msec)
        self.clock: Clock = take_clock(self, {})
        self._started = 0.0
        self._first = True

    def setup(self, **kwargs: Any) -> None:
        """Take the optional ``clock`` handle."""
        self.clock = take_clock(self, kwargs)

    def initialise(self) -> None:
        """The sleep starts now."""
        self._started = self.clock()
        self._first = True

    def update(self) -> Status:
        """RUNNING until ``msec`` have passed on the clock, then SUCCESS."""
        first, self._first = self._first, False
        if self.msec == 0:
            return Status.SUCCESS
        waited_ms = (self.clock() - self._started) * 1000
        if first or waited_ms < self.msec:
            self.feedback_message = f"sleeping {self.msec} ms ({waited_ms:.0f} so far)"
            return Status.RUNNING
        return Status.SUCCESS
