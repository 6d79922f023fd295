"""Building long-lived structures without the garbage collector walking them as they grow.

Python's cyclic collector walks every container object it tracks, and it runs a full walk
each time the objects that survived grow by a quarter: building a structure of millions of
objects (the scene index of a big belief, the lexicons over it) walks it again and again,
half the build at 30k objects. The structures built here make no reference cycles, so they
need no collection while they are built: :func:`collector_paused` holds collections back for
the duration of a block, in every thread, and lets them run again after it (unless they were
already held back when it started, by the application or by another block that is still
running: the first block to pause them is the one that lets them run).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
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
