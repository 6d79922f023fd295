"""``BackgroundWork``: the one way a behaviour waits, on a thread, a query, a person or a robot.

The lifecycle is written once, here (like py_trees_ros's action client, Nav2's
``BtActionNode`` and BehaviorTree.CPP's ``StatefulActionNode``), and subclasses fill in hooks:

* ``initialise`` calls :meth:`~BackgroundWork.start` on the tick thread. It reads the inputs and
  either starts the work and returns its handle (a :class:`concurrent.futures.Future`, or
  anything :class:`Pending`: ``done()``, ``result()``, ``cancel()``), or decides at once and
  returns a :class:`~py_trees.common.Status` (no work needed; it sets ``feedback_message``).
* ``update`` returns RUNNING while the work is not done (``feedback_message`` from
  :meth:`~BackgroundWork.waiting`); after ``timeout_s`` it gives up
  (:meth:`~BackgroundWork.on_timeout`: cancel and FAILURE by default). When the work is done
  its result goes to :meth:`~BackgroundWork.finish`, which picks the status; an exception
  raised by the work goes to :meth:`~BackgroundWork.on_error` (FAILURE with the reason by
  default), never out of the tick.
* ``terminate`` cancels work still in flight when the node is interrupted while RUNNING
  (:meth:`~BackgroundWork.on_cancel`).

``initialise``, ``update`` and ``terminate`` are final: a subclass that overrides one is
refused when it is defined. Ticking a node whose ``setup`` was not called is an error that
says so. Work on a thread goes to the ``workers`` handle
(:class:`~knowledge.worker_pool.WorkerPool`) through :meth:`~BackgroundWork.submit`.
:class:`InFlight` holds the polling rules, for composites and decorators that wait too.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from typing import Any, ClassVar, Generic, Protocol, TypeVar, final

import py_trees
from py_trees.common import Status

from cogtree.behaviours.setup_handles import missing_handle
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
T = TypeVar("T")

Clock = Callable[[], float]
"""Seconds on a monotonic clock (wall time by default; simulated time in the simulator)."""

LIFECYCLE = ("initialise", "update", "terminate")
"""The py_trees methods a waiting base class owns; its subclasses implement hooks instead."""


class Pending(Protocol[R_co]):
    """Work in progress that a tick can poll: what a ``Future`` offers, and all this base uses."""

    def done(self) -> bool:
        """Whether the work has ended (finished, failed or been cancelled)."""

    def result(self, timeout: float | None = None) -> R_co:
        """The work's result; raises what the work raised."""

    def cancel(self) -> bool:
        """Stop the work if it can be stopped; whether it was."""


def refuse_overrides(cls: type, base: type, names: Iterable[str], hooks: str) -> None:
    """Raise TypeError when ``cls`` defines one of ``names``, which ``base`` makes final."""
    for name in names:
        if name in vars(cls):
            raise TypeError(
                f"{cls.__qualname__} overrides {base.__name__}.{name}(), which is final: "
                f"implement {hooks} instead"
            )


class BackgroundWork(py_trees.behaviour.Behaviour, ABC, Generic[R]):
    """Base of every behaviour that waits: start the work, poll it each tick, cancel it.

    Subclasses implement :meth:`start` and :meth:`finish`, and where needed :meth:`on_cancel`,
    :meth:`on_error`, :meth:`on_timeout` and :meth:`waiting`. A subclass with handles takes
    them in its own ``setup`` (``workers`` when it calls :meth:`submit`) and calls
    ``super().setup(**kwargs)``, which marks the node as set up.

    Status: what :meth:`start` decided (no work needed); RUNNING while the work runs; then
    what :meth:`finish` returns, or FAILURE (by default) when the work raised or timed out.
    Work started in a tick's ``initialise`` is first polled on the next tick when
    ``first_poll_next_tick`` is set, so such a node spans at least two ticks whatever the
    worker's speed.

    Blackboard: none of its own; subclasses declare theirs.
    """

    first_poll_next_tick: ClassVar[bool] = True
    """Whether work started in ``initialise`` is polled first on the next tick (else at once)."""

    def __init__(self, name: str, *, timeout_s: float | None = None) -> None:
        super().__init__(name)
        if timeout_s is not None and not timeout_s > 0:
            raise ValueError(f"{name}: timeout_s must be a number of seconds > 0, got {timeout_s}")
        self.timeout_s = timeout_s
        self.clock: Clock = time.monotonic
        self.workers: WorkerPool | None = None
        self._set_up = False
        self._work: InFlight[R] | None = None
        self._decided: Status | None = None
        self._started_at = 0.0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        hooks = "start(), finish() and on_cancel() (behaviours/background.py)"
        refuse_overrides(cls, BackgroundWork, LIFECYCLE, hooks)

    # -- hooks for subclasses ----------------------------------------------------------------

    @abstractmethod
    def start(self) -> Pending[R] | Status:
        """Read the inputs and start the work (its handle), or decide now (a status)."""

    @abstractmethod
    def finish(self, result: R) -> Status:
        """Act on the result: write the outputs, set ``feedback_message``, pick the status."""

    def on_cancel(self, work: Pending[R]) -> None:
        """Stop ``work`` (the node was interrupted, or gave up waiting); cancels the handle."""
        work.cancel()
        self.feedback_message = f"cancelled while waiting for {self.name}"

    def on_error(self, error: Exception) -> Status:
        """The work raised ``error``: FAILURE with the reason (logged with its traceback)."""
        log.error("%s: the background work failed", self.name, exc_info=error)
        self.feedback_message = f"{self.name} failed: {type(error).__name__}: {error}"
        return Status.FAILURE

    def on_timeout(self, work: Pending[R], waited: float) -> Status:
        """``timeout_s`` passed with ``work`` not done: cancel it, FAILURE with the reason."""
        self.on_cancel(work)
        limit = f"{self.timeout_s:g}s"
        self.feedback_message = f"{self.name} gave up after {waited:.1f}s (limit {limit})"
        return Status.FAILURE

    def waiting(self, waited: float) -> str:
        """The ``feedback_message`` while RUNNING, ``waited`` seconds after the start."""
        return f"waiting for {self.name} ({waited:.1f}s)"

    # -- handles -------------------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Mark the node as set up: it may be ticked from now on.

        A subclass takes its handles (``workers`` among them when it calls :meth:`submit`)
        in its own ``setup`` and calls ``super().setup(**kwargs)``.
        """
        self._set_up = True

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Future[T]:
        """Run ``fn(*args)`` on the ``workers`` pool; an error naming the fix without one."""
        if self.workers is None:
            raise missing_handle(self, "workers", WorkerPool)
        return self.workers.submit(fn, *args)

    # -- the py_trees lifecycle (final) ----------------------------------------------------------

    @final
    def initialise(self) -> None:
        """Start the work, or take the decision :meth:`start` made without any."""
        if not self._set_up:
            raise RuntimeError(
                f"{self.name} ({type(self).__name__}) was ticked before setup: call "
                "tree.setup(**handles) (or TreeRunner.setup()) first"
            )
        self._work, self._decided = None, None
        self._started_at = self.clock()
        started = self.start()
        if isinstance(started, Status):
            self._decided = started
        else:
            self._work = InFlight(started, poll_next_tick=self.first_poll_next_tick)

    @final
    def update(self) -> Status:
        """RUNNING while the work runs; then :meth:`finish`, :meth:`on_error` or the timeout."""
        if self._decided is not None:
            return self._decided
        work = self._work
        assert work is not None, "initialise() started the work or decided"
        waited = self.clock() - self._started_at
        if not work.ended():
            if self.timeout_s is not None and waited >= self.timeout_s:
                self._work = None
                return self.on_timeout(work.work, waited)
            self.feedback_message = self.waiting(waited)
            return Status.RUNNING
        self._work = None
        try:
            result = work.result()
        except Exception as error:  # the work's failure is a status, never a crashed tick
            return self.on_error(error)
        return self.finish(result)

    @final
    def terminate(self, new_status: Status) -> None:
        """Cancel the work still in flight (interrupted while RUNNING)."""
        work, self._work = self._work, None
        if work is not None and new_status == Status.INVALID:
            self.on_cancel(work.work)


class InFlight(Generic[R]):
    """Work started from a tick and polled from later ones: the waiting rules, written once.

    :class:`BackgroundWork` keeps one for its leaf. A composite or decorator that waits for
    work of its own (``ExecutePlan`` setting its steps up, ``ReflectedStep`` checking the
    belief) ticks children, so it cannot be a ``BackgroundWork`` leaf: it keeps one too.
    """

    def __init__(self, work: Pending[R], *, poll_next_tick: bool) -> None:
        self.work = work
        self._fresh = poll_next_tick

    def ended(self) -> bool:
        """Whether the work has ended; never in the tick it started when ``poll_next_tick``."""
        if self._fresh:
            self._fresh = False
            return False
        return self.work.done()

    def result(self) -> R:
        """The ended work's result; raises what the work raised."""
        return self.work.result(timeout=0)

    def cancel(self) -> bool:
        """Stop the work if it has not started; whether it was stopped."""
        return self.work.cancel()


class AllDone:
    """Several futures polled as one piece of work: done when every one has ended.

    Its ``result`` is None: the owner reads each future (a value or an error) itself.
    """

    def __init__(self, futures: Sequence[Future[Any]]) -> None:
        self.futures = list(futures)

    def done(self) -> bool:
        """Whether every future has ended."""
        return all(future.done() for future in self.futures)

    def result(self, timeout: float | None = None) -> None:
        """Nothing: each future holds its own result."""

    def cancel(self) -> bool:
        """Cancel those not started; whether all of them were."""
        return all([future.cancel() for future in self.futures])

    def running(self) -> int:
        """How many have not ended."""
        return sum(not future.done() for future in self.futures)
