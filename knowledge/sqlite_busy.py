"""Opening a SQLite file that other processes may be opening at the same moment.

SQLite waits up to the connection's busy timeout for a lock, except in a few cases where it
answers "database is locked" at once: typically while another connection switches a new file
to WAL. Opening a store changes nothing twice (WAL mode, ``CREATE TABLE IF NOT EXISTS``, a
version check and upgrade inside one ``BEGIN IMMEDIATE``), so :func:`retry_while_busy` runs
the opening again until the busy timeout has passed.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

BUSY_RETRY_S = 0.02
"""Seconds between two tries."""


def is_busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` is SQLite's "database is locked" (any busy or locked code)."""
    return getattr(error, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def retry_while_busy(step: Callable[[], None], timeout_s: float) -> None:
    """Run ``step``; while it raises a busy error, again, until ``timeout_s`` has passed.

    Any other error, or a busy one after ``timeout_s``, is raised.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
        time.sleep(BUSY_RETRY_S)
