"""Building long-lived structures without the garbage collector walking them as they grow.

Python's cyclic collector walks every container object it tracks, and it runs a full walk
each time the objects that survived grow by a quarter: building a structure of millions of
objects (the scene index of a big belief, the lexicons over it) walks it again and again,
half the build at 30k objects. The structures built here make no reference cycles, so they
need no collection while they are built: :func:`collector_paused` holds collections back for
the duration of a block, in every thread, and lets them run again after it (unless they were
already held back when it started, by the application or by another block that is still
running: the first block to pause them is the one that lets them run).

A build also leaves the scratch memory it freed (its drafts, the Turtle a store parsed) in the
C allocator, which keeps it for reuse rather than giving it back: :func:`collector_paused` ends
by handing free heap pages back to the system (glibc's ``malloc_trim``; nothing elsewhere), so
the process's resident memory is what it holds.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection during the ``with`` block (module docs)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        release_free_memory()


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system (glibc); elsewhere nothing."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):  # not glibc, or no C library to open
        return None
    return trim


_MALLOC_TRIM = _malloc_trim()
