"""The ledger of kept facts: how facts enter core memory C and move to the archive A.

Pure bookkeeping, no I/O: the store plans a write on a copy of the ledger and swaps it in
only once the write is committed, so a failed write leaves the ledger as it was.

Invariants:
- at most one *current* (not superseded) fact per key, across C and A;
- C holds only current facts; a replaced fact goes to A marked superseded;
- facts move from C to A, never back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from cogtree.knowledge.memory.model import Fact, FactRecord
from cogtree.knowledge.memory.revision import prevails


class FactLedger:
    """Every kept fact by id, which of them are core, and which one is current per key."""

    def __init__(self, records: Iterable[FactRecord] = ()) -> None:
        self._records: dict[int, FactRecord] = {}
        self._current: dict[str, int] = {}
        self._core: dict[int, None] = {}  # insertion-ordered set of core ids
        self._core_chars = 0
        self._touched: set[int] = set()
        self._next_id = 1
        for record in sorted(records, key=lambda item: item.id):
            self._put(record)
        self._touched.clear()

    def copy(self) -> FactLedger:
        """An independent ledger with the same records and no pending changes."""
        twin = FactLedger.__new__(FactLedger)
        twin._records = dict(self._records)
        twin._current = dict(self._current)
        twin._core = dict(self._core)
        twin._core_chars = self._core_chars
        twin._touched = set()
        twin._next_id = self._next_id
        return twin

    # -- reading -----------------------------------------------------------------------------

    def __getitem__(self, fact_id: int) -> FactRecord:
        return self._records[fact_id]

    def __contains__(self, fact_id: object) -> bool:
        return fact_id in self._records

    def core(self) -> list[FactRecord]:
        """Core facts in the order they entered C."""
        return [self._records[fact_id] for fact_id in self._core]

    def archive(self) -> Iterator[FactRecord]:
        """Archived facts (evicted or superseded), by id."""
        return (record for record in self._records.values() if record.tier == "archive")

    @property
    def core_chars(self) -> int:
        """The size of C: the characters of its facts' texts, summed."""
        return self._core_chars

    def current(self, key: str) -> FactRecord | None:
        """The believed fact on ``key`` (in C or A), if any."""
        fact_id = self._current.get(key)
        return None if fact_id is None else self._records[fact_id]

    def is_current(self, fact_id: int) -> bool:
        """Whether the fact is the one believed for its key (not superseded)."""
        return not self._records[fact_id].superseded

    def touched(self) -> list[FactRecord]:
        """Records added or changed since this ledger was created or copied, by id."""
        return [self._records[fact_id] for fact_id in sorted(self._touched)]

    # -- changing ----------------------------------------------------------------------------

    def admit(self, fact: Fact) -> FactRecord:
        """Add a stated or confirmed fact to C, applying the revision rule on its key.

        When the fact prevails over the current fact on its key, that one goes to A marked
        superseded; when it does not (a soft fact against a firmer one, no correction), the
        new fact itself goes straight to A marked superseded. Returns the new record.
        """
        fact_id = self._next_id
        held_id = self._current.get(fact.key)
        if held_id is not None and not prevails(fact, self._records[held_id].fact):
            return self._put(FactRecord(fact_id, fact, "archive", superseded_by=held_id))
        if held_id is not None:
            self._put(replace(self._records[held_id], tier="archive", superseded_by=fact_id))
        return self._put(FactRecord(fact_id, fact, "core"))

    def evict_to_budget(self, budget_chars: int) -> list[FactRecord]:
        """Move facts from C to A, lowest priority then oldest first, until C fits the budget.

        Returns the evicted records in eviction order.
        """
        evicted = []
        while self._core_chars > budget_chars:
            victim = min(
                self.core(), key=lambda item: (item.fact.priority, item.fact.turn, item.id)
            )
            evicted.append(self._put(replace(victim, tier="archive")))
        return evicted

    def _put(self, record: FactRecord) -> FactRecord:
        previous = self._records.get(record.id)
        if previous is not None and previous.tier == "core":
            del self._core[record.id]
            self._core_chars -= len(previous.fact.text)
        if record.tier == "core":
            self._core[record.id] = None
            self._core_chars += len(record.fact.text)
        if not record.superseded:
            self._current[record.fact.key] = record.id
        self._records[record.id] = record
        self._next_id = max(self._next_id, record.id + 1)
        self._touched.add(record.id)
        return record
