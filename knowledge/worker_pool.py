"""``WorkerPool``: the threads that keep slow work (model calls, queries) out of the ticks.

A thread pool that remembers which submitted calls are still running, so tests (and a clean
shutdown) can wait until it is idle.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, TypeVar

from cogtree.knowledge.closing import Closeable

T = TypeVar("T")


class WorkerPool(Closeable):
    """``submit`` work to ``workers`` threads; ``wait_idle`` until none is running."""

    def __init__(self, workers: int, name: str) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._in_flight: set[Future[Any]] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` on a worker and return its future at once."""
        future = self._pool.submit(fn, *args, **kwargs)
        with self._lock:
            self._in_flight.add(future)
        future.add_done_callback(self._forget)
        return future

    def _forget(self, future: Future[Any]) -> None:
        with self._lock:
            self._in_flight.discard(future)

    def wait_idle(self, timeout_s: float) -> bool:
        """Wait until no submitted call is running; False if some still are after the timeout."""
        with self._lock:
            running = list(self._in_flight)
        _, not_done = wait(running, timeout=timeout_s)
        return not not_done

    def close(self) -> None:
        """Accept no more work; calls already running finish in the background."""
        self._pool.shutdown(wait=False, cancel_futures=True)
