"""Memory-store calls off the tick thread: submit one, poll it, never block a tick."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Generic, TypeVar

from behaviours import keys
from knowledge.memory import MemoryStoreError
from knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class CallOutcome(Generic[T]):
    """How a background memory call ended: its value, or the reason it failed."""

    value: T | None = None
    error: str | None = None


class MemoryCall(Generic[T]):
    """One memory-store call at a time on a worker thread, polled without blocking a tick.

    ``start`` submits; ``poll`` returns None while the call runs (and on the tick it was
    started, so a node always spans two ticks), then its :class:`CallOutcome`. A failure of
    the store (:class:`MemoryStoreError`, a bad argument, any bug) becomes an outcome with the
    reason, never an exception on the tick thread. The worker thread starts on first use and
    stops with :meth:`close` (the node's ``shutdown``).
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._pool: WorkerPool | None = None
        self._future: Future[T] | None = None
        self._fresh = False

    def start(self, call: Callable[[], T]) -> None:
        """Run ``call`` on the worker (a call still running is abandoned, not waited for)."""
        if self._pool is None:
            self._pool = WorkerPool(1, f"cogtree-memory-{keys.node_slug(self.owner)}")
        self._future = self._pool.submit(call)
        self._fresh = True

    @property
    def running(self) -> bool:
        """Whether a started call has not been collected yet."""
        return self._future is not None

    def poll(self) -> CallOutcome[T] | None:
        """None while the call runs; its outcome once done (then the call is forgotten)."""
        future = self._future
        if future is None:
            return CallOutcome(error="no memory call was started")
        if self._fresh or not future.done():
            self._fresh = False
            return None
        self._future = None
        try:
            return CallOutcome(value=future.result())
        except (MemoryStoreError, ValueError) as error:
            return CallOutcome(error=str(error))
        except Exception as error:  # a store bug must not escape the tick
            log.exception("%s: the memory call failed", self.owner)
            return CallOutcome(error=f"memory call crashed: {type(error).__name__}: {error}")

    def cancel(self) -> None:
        """Drop the call in flight (one already running finishes and is ignored)."""
        if self._future is not None:
            self._future.cancel()
            self._future = None

    def close(self) -> None:
        """Stop the worker thread."""
        self.cancel()
        if self._pool is not None:
            self._pool.close()
            self._pool = None
