"""``VersionedMemo``: values derived from something that changes, kept until it changes.

The robot's belief is read by several nodes in one turn (the readiness gate's hazard
readings, the planner, the dry run, the outcome report), each of which used to derive the
same immutable view of it (a :class:`~skills.action_model.belief.Belief`) from the whole scene
graph. A memo keyed by what is derived, and labelled with the source's version, lets the
second reader take the first one's result, and nobody take a result the source has since
outgrown.

The version is read before a value is built and again after: a value whose source changed
while it was being built is returned to its caller but not kept (the next read builds it
again). A source whose version is None (a change under way) has nothing kept either. A build
that raises keeps nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class VersionedMemo:
    """``get(key, build)``: ``build()`` once per version of the source, per key.

    ``version``: the source's version now (any hashable; it must change with every change of
    the source; None while a change is under way). Values must be immutable: every reader
    gets the same object. Only the values of the current version are kept.
    """

    def __init__(self, version: Callable[[], Hashable]) -> None:
        self._version = version
        self._lock = threading.Lock()
        self._values: dict[Hashable, Any] = {}
        self._of: Hashable = None

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value of ``key`` at the source's current version, built now if it is not kept."""
        version = self._version()
        if version is None:
            return build()
        with self._lock:
            if self._of == version and key in self._values:
                value: T = self._values[key]
                return value
        value = build()
        with self._lock:
            if self._version() != version:
                return value
            if self._of != version:
                self._values, self._of = {}, version
            self._values[key] = value
        return value
