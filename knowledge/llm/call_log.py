"""A thread-safe, append-only log of every model call, so tokens per turn are measurable."""

from __future__ import annotations

import threading
from collections import defaultdict

from cogtree.knowledge.llm.types import CallRecord


class CallLog:
    """Records every :class:`CallRecord` in order; readers take what is new since a cursor."""

    def __init__(self) -> None:
        self._records: list[CallRecord] = []
        self._lock = threading.Lock()

    def append(self, record: CallRecord) -> None:
        """Add one record (called from worker threads)."""
        with self._lock:
            self._records.append(record)

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)

    def since(self, cursor: int) -> tuple[list[CallRecord], int]:
        """Records appended after ``cursor``, and the cursor to pass next time."""
        with self._lock:
            return list(self._records[cursor:]), len(self._records)

    def records(self) -> list[CallRecord]:
        """A copy of every record so far."""
        with self._lock:
            return list(self._records)

    def tokens_by_module(self) -> dict[str, tuple[int, int]]:
        """(prompt, completion) tokens summed per module."""
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for record in self.records():
            totals[record.module][0] += record.prompt_tokens
            totals[record.module][1] += record.completion_tokens
        return {module: (p, c) for module, (p, c) in totals.items()}
