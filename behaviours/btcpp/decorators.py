"""BT.CPP v4's decorators that count or force: Repeat, RetryUntilSuccessful, RunOnce, ...

Here: ForceSuccess, ForceFailure, Repeat, RetryUntilSuccessful, KeepRunningUntilFailure and
RunOnce (timing decorators are in :mod:`behaviours.btcpp.timing`; ``Inverter`` is py_trees'
own, which means the same).

A loop ticks its child again in the same tick when the child finished at once (as BT.CPP
does), but a loop without end (``-1``) hands the tick back after each round, so it never
blocks a tick.
"""

from __future__ import annotations

from typing import ClassVar

import py_trees
from py_trees.behaviour import Behaviour
from py_trees.common import Status

from cogtree.behaviours.btcpp.steering import SteeredDecorator, Ticking, skip_status, tick_child


class ForceSuccess(py_trees.decorators.FailureIsSuccess):
    """Report the child's failure as success (BT.CPP ``ForceSuccess``).

    SUCCESS: the child succeeded or failed. RUNNING: the child is running.
    """

    def __init__(self, child: Behaviour, name: str = "ForceSuccess") -> None:
        super().__init__(name=name, child=child)


class ForceFailure(py_trees.decorators.SuccessIsFailure):
    """Report the child's success as failure (BT.CPP ``ForceFailure``).

    FAILURE: the child succeeded or failed. RUNNING: the child is running.
    """

    def __init__(self, child: Behaviour, name: str = "ForceFailure") -> None:
        super().__init__(name=name, child=child)


class _Loop(SteeredDecorator):
    """Tick the child again each time it ends with ``again``, ``limit`` times in all (-1: no end).

    Another ending is passed on at once (and the count starts again); ``limit`` endings with
    ``again`` are ``again``.
    """

    again: ClassVar[Status]

    def __init__(self, name: str, child: Behaviour, limit: int, label: str) -> None:
        super().__init__(name=name, child=child)
        if limit < -1:
            raise ValueError(f"{name}: {label} is a count, or -1 for no end; got {limit}")
        self.limit = limit
        self.count = 0

    def terminate(self, new_status: Status) -> None:
        """A halt starts the count again."""
        if new_status == Status.INVALID:
            self.count = 0

    def steer(self) -> Ticking:
        """Tick the child while it ends with ``again`` and the limit is not reached."""
        while self.limit == -1 or self.count < self.limit:
            status = yield from tick_child(self.decorated)
            if status != self.again:
                if status != Status.RUNNING:
                    self.count = 0
                return status
            self.count += 1
            if self.limit == -1:
                return Status.RUNNING  # a loop without end hands the tick back
        self.count = 0
        return self.again


class Repeat(_Loop):
    """Run the child ``num_cycles`` times while it succeeds (BT.CPP ``Repeat``; -1: forever).

    SUCCESS: the child succeeded ``num_cycles`` times. FAILURE: the child failed (the count
    starts again). RUNNING: the child is running, or a round of a loop without end is done.
    """

    again = Status.SUCCESS

    def __init__(self, child: Behaviour, num_cycles: int, name: str = "Repeat") -> None:
        super().__init__(name, child, num_cycles, "num_cycles")


class RetryUntilSuccessful(_Loop):
    """Run the child again after a failure, up to ``num_attempts`` times (-1: no limit).

    SUCCESS: the child succeeded. FAILURE: it failed ``num_attempts`` times. RUNNING: the
    child is running, or an attempt of a retry without limit failed.
    """

    again = Status.FAILURE

    def __init__(self, child: Behaviour, num_attempts: int, name: str = "RetryUntilSuccessful"):
        super().__init__(name, child, num_attempts, "num_attempts")


class KeepRunningUntilFailure(SteeredDecorator):
    """Run the child again and again while it does not fail (BT.CPP ``KeepRunningUntilFailure``).

    FAILURE: the child failed. RUNNING: the child is running or succeeded (it runs again on
    the next tick).
    """

    def __init__(self, child: Behaviour, name: str = "KeepRunningUntilFailure") -> None:
        super().__init__(name=name, child=child)

    def steer(self) -> Ticking:
        """FAILURE when the child fails, RUNNING otherwise."""
        status = yield from tick_child(self.decorated)
        return Status.FAILURE if status == Status.FAILURE else Status.RUNNING


class RunOnce(SteeredDecorator):
    """Run the child to its end once; afterwards do not tick it again (BT.CPP ``RunOnce``).

    ``then_skip=true``: afterwards the node is skipped (SUCCESS, or FAILURE under a fallback);
    ``then_skip=false``: afterwards it reports what the child ended with. RUNNING: the child
    is running its one run.
    """

    def __init__(self, child: Behaviour, name: str = "RunOnce", then_skip: bool = True) -> None:
        super().__init__(name=name, child=child)
        self.then_skip = then_skip
        self.outcome: Status | None = None
        self.skipped = False

    def steer(self) -> Ticking:
        """Tick the child until its one run ends, then report the run (or skip)."""
        if self.outcome is not None:
            self.skipped = self.then_skip
            if self.then_skip:
                self.feedback_message = "skipped: it has run once"
                return skip_status(self)
            return self.outcome
        status = yield from tick_child(self.decorated)
        if status != Status.RUNNING:
            self.outcome = status
        return status
