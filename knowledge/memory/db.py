"""SQLite persistence of the memory store: versioned schema, checks on open, one transaction.

The database runs in WAL mode with ``synchronous=FULL``: a committed turn survives a crash of
the process or of the machine, and a turn whose write did not commit leaves nothing behind.
On open the file must be a SQLite database that passes ``PRAGMA integrity_check`` and holds
the schema of :data:`SCHEMA_VERSION` (an empty file or a missing one gets the schema). Any
problem is a :class:`MemoryStoreError` that names the file and the fix.

Several processes may use one file. A turn is written inside :meth:`MemoryDatabase.writing`,
a ``BEGIN IMMEDIATE`` transaction: one writer at a time (the next waits up to the busy
timeout), and inside it the writer reads the stored last turn, so a store whose view is
stale reloads what the others wrote before it numbers its own turn and facts. Opening reads
the schema version and creates or upgrades the schema in one such transaction, and is tried
again while SQLite reports the file locked without waiting (another process switching a new
file to WAL), up to the busy timeout.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from cogtree.knowledge.memory.model import Fact, FactRecord, TurnTrace
from cogtree.knowledge.sqlite_busy import is_busy, retry_while_busy

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
"""Stored in ``PRAGMA user_version``; version 1 files are upgraded (facts gain a polarity),
files of any other version are refused."""

_TABLES: dict[str, str] = {
    "meta": """
        CREATE TABLE IF NOT EXISTS meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
    "history": """
        CREATE TABLE IF NOT EXISTS history (
            turn INTEGER PRIMARY KEY,
            timestamp REAL NOT NULL,
            domain TEXT NOT NULL,
            user TEXT NOT NULL,
            robot TEXT NOT NULL,
            claims TEXT NOT NULL
        )""",
    "facts": """
        CREATE TABLE IF NOT EXISTS facts (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL,
            kind TEXT NOT NULL,
            slot TEXT,
            source TEXT NOT NULL CHECK (source IN ('stated', 'confirmed')),
            correction INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            timestamp REAL NOT NULL,
            domain TEXT NOT NULL,
            tier TEXT NOT NULL CHECK (tier IN ('core', 'archive')),
            superseded_by INTEGER,
            polarity TEXT NOT NULL DEFAULT 'positive'
                CHECK (polarity IN ('positive', 'negative')),
            CHECK (tier = 'archive' OR superseded_by IS NULL)
        )""",
}
_COLUMNS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "history": ("turn", "timestamp", "domain", "user", "robot", "claims"),
    "facts": (
        "id",
        "text",
        "kind",
        "slot",
        "source",
        "correction",
        "turn",
        "timestamp",
        "domain",
        "tier",
        "superseded_by",
        "polarity",
    ),
}
_FACT_FIELDS = (*_COLUMNS["facts"][1:9], "polarity")  # the Fact model's fields, stored
_UPGRADE_FROM_1 = (
    "ALTER TABLE facts ADD COLUMN polarity TEXT NOT NULL DEFAULT 'positive' "
    "CHECK (polarity IN ('positive', 'negative'))"
)
_SET_ASIDE = "move the file aside (it is not modified) to start an empty memory there, or "
_SET_ASIDE += "restore it from a backup"


class MemoryStoreError(RuntimeError):
    """The memory database cannot be used as asked; the message names the file and the fix."""


@dataclass(frozen=True)
class Snapshot:
    """Everything a memory database holds: recent history, kept facts, the last turn number."""

    history: tuple[TurnTrace, ...]
    records: tuple[FactRecord, ...]
    last_turn: int


class MemoryWrite:
    """What a turn's write transaction may do (from :meth:`MemoryDatabase.writing`).

    A handle of the database's own, in this module: it uses the database's row helpers.
    """

    def __init__(self, database: MemoryDatabase) -> None:
        self._database = database

    def last_turn(self) -> int:
        """The last turn stored, by any process, as this transaction sees it."""
        return self._database._last_turn()

    def snapshot(self) -> Snapshot:
        """Everything stored, as this transaction sees it."""
        return self._database._snapshot()

    def commit_turn(
        self, trace: TurnTrace, *, dropped_turns: Sequence[int], records: Sequence[FactRecord]
    ) -> None:
        """Store one turn: ``trace``, the ``dropped_turns`` and the fact ``records``.

        Appends the trace to history, removes the consolidated turns and inserts or updates
        the records; all of it is committed when the transaction ends.
        """
        if trace.turn is None:
            raise ValueError("the trace has no turn number: the memory store numbers turns")
        self._database._insert_trace(trace)
        self._database._drop_traces(dropped_turns)
        self._database._upsert_facts(records)
        self._database._connection.execute(
            "INSERT INTO meta (key, value) VALUES ('last_turn', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (str(trace.turn),),
        )


class MemoryDatabase:
    """One SQLite file holding the memory of every domain; see the module docstring."""

    def __init__(self, path: str | Path, *, busy_timeout_s: float) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        try:
            self._connection = sqlite3.connect(
                self.path,
                timeout=busy_timeout_s,
                isolation_level=None,  # autocommit: transactions are explicit
                check_same_thread=False,  # the store serialises access with its own lock
            )
        except sqlite3.Error as error:
            raise self._explain(error) from error
        try:
            retry_while_busy(self._prepare, self.busy_timeout_s)
        except sqlite3.Error as error:
            self._connection.close()
            raise self._explain(error) from error
        except MemoryStoreError:
            self._connection.close()
            raise

    def close(self) -> None:
        """Close the connection (the last one to close folds the WAL into the file)."""
        self._connection.close()

    def load(self) -> Snapshot:
        """Read the whole memory, in one read transaction."""
        try:
            with self._transaction("BEGIN"):
                return self._snapshot()
        except sqlite3.Error as error:
            raise self._explain(error) from error

    @contextmanager
    def writing(self) -> Iterator[MemoryWrite]:
        """The one write transaction of a turn: all of it is committed, or (on error) none.

        Waits up to the busy timeout while another connection writes; a lock not freed by
        then, and any SQLite error, is a :class:`MemoryStoreError`.
        """
        try:
            with self._transaction("BEGIN IMMEDIATE"):
                yield MemoryWrite(self)
        except sqlite3.Error as error:
            raise self._explain(error) from error

    def _snapshot(self) -> Snapshot:
        """Everything stored, read inside the caller's transaction."""
        history = [
            self._trace_from_row(row)
            for row in self._connection.execute(
                "SELECT turn, timestamp, domain, user, robot, claims FROM history ORDER BY turn"
            )
        ]
        records = [
            self._record_from_row(row)
            for row in self._connection.execute(
                f"SELECT {', '.join(_COLUMNS['facts'])} FROM facts ORDER BY id"
            )
        ]
        return Snapshot(tuple(history), tuple(records), self._last_turn())

    def _last_turn(self) -> int:
        row = self._connection.execute("SELECT value FROM meta WHERE key = 'last_turn'").fetchone()
        return int(row[0]) if row else 0

    # -- steps of a turn's transaction -------------------------------------------------------

    def _insert_trace(self, trace: TurnTrace) -> None:
        claims = json.dumps([claim.model_dump(mode="json") for claim in trace.claims])
        self._connection.execute(
            "INSERT INTO history (turn, timestamp, domain, user, robot, claims) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (trace.turn, trace.timestamp, trace.domain, trace.user, trace.robot, claims),
        )

    def _drop_traces(self, turns: Sequence[int]) -> None:
        self._connection.executemany(
            "DELETE FROM history WHERE turn = ?", [(turn,) for turn in turns]
        )

    def _upsert_facts(self, records: Sequence[FactRecord]) -> None:
        columns = _COLUMNS["facts"]
        self._connection.executemany(
            f"INSERT INTO facts ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' for _ in columns)}) "
            "ON CONFLICT(id) DO UPDATE SET "
            "tier = excluded.tier, superseded_by = excluded.superseded_by",
            [
                (
                    record.id,
                    *(getattr(record.fact, field) for field in _FACT_FIELDS[:-1]),
                    record.tier,
                    record.superseded_by,
                    record.fact.polarity,
                )
                for record in records
            ],
        )

    # -- opening -----------------------------------------------------------------------------

    def _prepare(self) -> None:
        mode = self._connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            log.warning("memory database %s runs in %s journal mode, not WAL", self.path, mode)
        self._connection.execute("PRAGMA synchronous=FULL")
        problems = [row[0] for row in self._connection.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise MemoryStoreError(
                f"memory database {self.path} is corrupt (PRAGMA integrity_check: "
                f"{'; '.join(problems[:3])}): {_SET_ASIDE}"
            )
        # one writer at a time: the version read and the schema written by one opener are
        # never interleaved with another's (two processes opening a new file at once)
        with self._transaction("BEGIN IMMEDIATE"):
            self._create_or_upgrade()
        self._check_columns()

    def _create_or_upgrade(self) -> None:
        """Give an empty file the schema, upgrade version 1; refuse anything else."""
        version = self._connection.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            row[0]
            for row in self._connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
            )
        }
        if version == 0 and not tables:
            for statement in _TABLES.values():
                self._connection.execute(statement)
            self._connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            log.info("created memory database %s (schema version %d)", self.path, SCHEMA_VERSION)
        elif version == 0:
            raise MemoryStoreError(
                f"{self.path} is a SQLite database but not a cogtree memory store (it has tables "
                f"{', '.join(sorted(tables))}): give the memory store a file of its own"
            )
        elif version == 1:
            # version 1 -> 2: facts gain a polarity (every fact kept so far is positive)
            self._connection.execute(_UPGRADE_FROM_1)
            self._connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            log.info("memory database %s upgraded to schema version %d", self.path, SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise MemoryStoreError(
                f"memory database {self.path} has schema version {version}, but this cogtree "
                f"reads version {SCHEMA_VERSION}: open it with the cogtree release that wrote "
                f"it, or {_SET_ASIDE}"
            )

    def _check_columns(self) -> None:
        for table, expected in _COLUMNS.items():
            found = tuple(row[1] for row in self._connection.execute(f"PRAGMA table_info({table})"))
            if found != expected:
                raise MemoryStoreError(
                    f"memory database {self.path} does not match schema version "
                    f"{SCHEMA_VERSION}: table {table} has columns {list(found)}, expected "
                    f"{list(expected)}; {_SET_ASIDE}"
                )

    # -- helpers -----------------------------------------------------------------------------

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[None]:
        self._connection.execute(begin)
        try:
            yield
        except BaseException:
            self._rollback()
            raise
        self._connection.execute("COMMIT")

    def _rollback(self) -> None:
        if self._connection.in_transaction:
            try:
                self._connection.execute("ROLLBACK")
            except sqlite3.Error as error:  # the transaction is rolled back when we close
                log.warning("rollback failed on memory database %s: %s", self.path, error)

    def _trace_from_row(self, row: tuple[object, ...]) -> TurnTrace:
        turn, timestamp, domain, user, robot, claims = row
        try:
            return TurnTrace.model_validate(
                {
                    "turn": turn,
                    "timestamp": timestamp,
                    "domain": domain,
                    "user": user,
                    "robot": robot,
                    "claims": json.loads(str(claims)),
                }
            )
        except (ValidationError, json.JSONDecodeError) as error:
            raise self._bad_row("history", f"turn {turn}", error) from error

    def _record_from_row(self, row: tuple[object, ...]) -> FactRecord:
        fact_id, *fields, tier, superseded_by, polarity = row
        fields.append(polarity)
        try:
            fact = Fact.model_validate(dict(zip(_FACT_FIELDS, fields, strict=True)))
        except ValidationError as error:
            raise self._bad_row("facts", f"id {fact_id}", error) from error
        if not isinstance(fact_id, int) or tier not in ("core", "archive"):
            raise self._bad_row("facts", f"id {fact_id}", ValueError(f"tier {tier!r}"))
        if superseded_by is not None and not isinstance(superseded_by, int):
            raise self._bad_row("facts", f"id {fact_id}", ValueError("superseded_by"))
        return FactRecord(fact_id, fact, "core" if tier == "core" else "archive", superseded_by)

    def _bad_row(self, table: str, row: str, error: Exception) -> MemoryStoreError:
        return MemoryStoreError(
            f"memory database {self.path}: {row} of table {table} is invalid ({error}); the file "
            f"was changed outside cogtree: {_SET_ASIDE}"
        )

    def _explain(self, error: sqlite3.Error) -> MemoryStoreError:
        name = getattr(error, "sqlite_errorname", "")
        if is_busy(error):
            return MemoryStoreError(
                f"memory database {self.path} is locked by another connection (waited "
                f"{self.busy_timeout_s:g} s): close the other program writing to it, or give "
                "the store a longer busy timeout (MemoryConfig.busy_timeout_s)"
            )
        if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
            return MemoryStoreError(
                f"memory database {self.path} is not a usable SQLite database ({error}): "
                f"{_SET_ASIDE}"
            )
        if name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM")):
            return MemoryStoreError(
                f"cannot open memory database {self.path} for writing ({error}): check that "
                "its folder exists and that the file and folder are writable"
            )
        return MemoryStoreError(f"memory database {self.path}: {error}")
