"""The one signal handler of the command line: SIGINT and SIGTERM set a stop event.

``cogtree ros``, ``sim-ros``, ``view`` and ``--view-wait`` stop through it, so a command
started with SIGINT ignored (a script's background job) still stops on SIGTERM.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a command cleanly."""


@contextmanager
def signals_stop(stop: threading.Event) -> Iterator[None]:
    """Set ``stop`` on SIGINT and SIGTERM (the main loop then shuts down in order).

    The previous handlers come back on exit. Call it from the main thread.
    """

    def handler(signum: int, frame: FrameType | None) -> None:
        log.info("signal %d: stopping", signum)
        stop.set()

    previous = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    for number in STOP_SIGNALS:
        signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)
