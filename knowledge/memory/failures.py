"""Memory-store calls off the tick thread: how a failed call is told.

Memory nodes are :class:`~behaviours.background.BackgroundWork`: they run one store call on
the ``workers`` pool and poll it, never blocking a tick. A failure of the store
(:class:`~knowledge.memory.store.MemoryStoreError`, a bad argument, any bug) becomes a reason for
the node's feedback, never an exception on the tick thread.
"""

from __future__ import annotations

import logging

from cogtree.knowledge.memory.store import MemoryStoreError

log = logging.getLogger(__name__)


def memory_failure(owner: str, error: Exception) -> str:
    """Why a memory call by node ``owner`` failed; a bug (not a store refusal) is logged."""
    if isinstance(error, (MemoryStoreError, ValueError)):
        return str(error)
    log.error("%s: the memory call failed", owner, exc_info=error)
    return f"memory call crashed: {type(error).__name__}: {error}"
