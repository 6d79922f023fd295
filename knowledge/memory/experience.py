"""Failure experience (RoBee's explainer memory): what failed, and the fix that worked.

A record says: this *skill* failed with this *error code* (and *error text*) in this
*context* (facets of the failure: the object's type, the room and place it was believed in,
the person; see :data:`CONTEXT_FACETS`) while serving this *request*; here is the
*suggestion* for the planner, in words and as *recovery* steps in the plan vocabulary
(``GOTO(kitchen)``, ``LOOK()``), which the task-level HTN replan puts before its plan.
Hand-written seed records ship in ``knowledge/memory/experience/seed.yaml`` (their recovery may
name facets, ``{room}``, filled from the failure); recoveries that reached the goal at run
time are added with their provenance (which run or scenario, what worked) and persisted in
SQLite (WAL, one transaction per record), so the robot keeps what it learnt across restarts.

Retrieval: keep the records of the same skill and error code (or, when there are none, the
same error code on any skill, flagged as a fallback) whose context fits the failure: every
facet a record names must have that value in the failure, and every facet its suggestion
names must be known. Records that do not fit are dropped, however similar their words. The
rest are ranked by how many facets they matched, then learnt before seed records, then by
cosine similarity between the request and error text of the failure and each record's.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal, get_args

import yaml
from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from typing_extensions import Self

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.language.similarity import Embedder, SimilarityIndex
from cogtree.knowledge.robot_skills import Skill
from cogtree.knowledge.sqlite_busy import retry_while_busy
from cogtree.knowledge.validation_errors import first_problem

log = logging.getLogger(__name__)


ErrorCode = Literal[
    "object_not_visible",
    "object_not_found",
    "out_of_reach",
    "hand_full",
    "not_holding",
    "container_closed",
    "door_closed",
    "path_blocked",
    "person_unavailable",
    "person_refused",
    "grasp_slipped",
    "payload_exceeded",
    "wrong_object",
    "capability_missing",
    "timeout",
    "unsafe_object",
    "no_free_space",
    "not_an_appliance",
    "container_full",
    "container_empty",
    "wrong_tool",
    "wrong_bin",
]
"""The closed vocabulary of failure kinds; :data:`ERROR_CODES` says what each one means."""

ERROR_CODES = MappingProxyType(
    {
        "object_not_visible": "the robot is where the belief puts an object (or target) but "
        "perception does not see it there: moved, occluded, or a stale belief",
        "object_not_found": "no object or place in the belief matches the skill's argument, "
        "or a search found none",
        "out_of_reach": "the target is outside the robot's reach: above its highest or below "
        "its lowest reach height, or too far from the base pose",
        "hand_full": "the hand the skill needs already holds something",
        "not_holding": "the skill needs the robot to hold an object that it no longer holds",
        "container_closed": "the object or target is inside a closed container (fridge, "
        "drawer, cupboard, dishwasher, locker)",
        "door_closed": "a door on the route is closed",
        "path_blocked": "navigation found no free path, or the approach pose is occupied",
        "person_unavailable": "the person is absent, busy, unreachable or does not answer",
        "person_refused": "the person declined the request or the handover",
        "grasp_slipped": "the grasp failed verification or the object slipped or dropped",
        "payload_exceeded": "the object is heavier than the robot's payload",
        "wrong_object": "the object handled is not the one the request described",
        "capability_missing": "the robot lacks what the skill needs (an arm, a hand, a locker)",
        "timeout": "the skill or the awaited event did not complete in its time limit",
        "unsafe_object": "handling the object could hurt someone or damage the robot (it is "
        "hot, or a blade); the robot must not do it and should say so or ask a person",
        "no_free_space": "the surface where the object should go (on it, or beside a landmark "
        "on it) has no free place left",
        "not_an_appliance": "the thing to switch on or off is not an appliance, a tap or a light",
        "container_full": "the container to fill or pour into is already full",
        "container_empty": "the container to pour from holds no liquid",
        "wrong_tool": "the held tool or source does not fit the skill (wiping needs a cloth or "
        "a sponge, filling needs a tap)",
        "wrong_bin": "the waste bin does not take that object according to the disposal table",
    }
)
"""Meaning of each :data:`ErrorCode`; the explainer may show it to a model."""

SKILLS: tuple[str, ...] = get_args(Skill)
"""The values of :data:`Skill`, in declaration order."""

DEFAULT_SEED = Path(__file__).with_name("experience") / "seed.yaml"
"""The hand-written records shipped with cogtree (package data of ``knowledge``)."""

SCHEMA_VERSION = 2
"""``PRAGMA user_version`` of the experience database this module writes (1 is upgraded)."""

CONTEXT_FACETS = MappingProxyType(
    {
        "object": "the object the skill handles (its id)",
        "object_type": "the object's type, lower case (bottle, keys)",
        "room": "the room the skill's object, target or person was believed in when it "
        "started: where the object was last seen",
        "place": "the furniture the object was believed on or in",
        "place_type": "that furniture's type, lower case (table, fridge)",
        "person": "the person the skill hands to or asks",
        "target": "the skill's target (a place, a room, a container)",
    }
)
"""The facets of a failure's context a record may require or its recovery may name."""

FailureContext = Mapping[str, str]
"""Facet name to value, for one failure (the facets that apply)."""

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")

MatchKind = Literal["skill_and_error", "error_only"]
"""How a retrieved record matched: same skill and error, or same error on another skill."""

NonBlank = Annotated[str, Field(min_length=1, pattern=r"\S")]


class ExperienceError(ValueError):
    """Bad experience data: a malformed seed file or database, or a bad record to add."""


class SeedProvenance(BaseModel):
    """A record written by hand and shipped in a seed file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["seed"] = "seed"


class RecoveredProvenance(BaseModel):
    """A record learnt from a recovery that reached the goal: which run, when, what worked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["recovered"] = "recovered"
    run_id: NonBlank
    scenario: str | None = Field(None, description="the simulator scenario, if any")
    recorded_at: AwareDatetime
    worked: str = Field("", description="the plan that reached the goal after the failure")
    suggested_by: tuple[str, ...] = Field((), description="records whose suggestion it used")


class RecoveryStep(BaseModel):
    """One step of a recovery in the plan vocabulary: ``GOTO(target=kitchen)``, ``LOOK()``.

    String arguments may name a context facet as ``{room}``; :meth:`bound` fills them.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Skill
    args: dict[str, str | float] = Field(default_factory=dict)

    def placeholders(self) -> set[str]:
        """The facets the arguments name."""
        return {
            name
            for value in self.args.values()
            if isinstance(value, str)
            for name in _PLACEHOLDER.findall(value)
        }

    def bound(self, context: FailureContext) -> RecoveryStep:
        """The step with its placeholders filled from ``context`` (KeyError when missing)."""
        args = {
            key: _PLACEHOLDER.sub(lambda m: context[m.group(1)], value)
            if isinstance(value, str)
            else value
            for key, value in self.args.items()
        }
        return self.model_copy(update={"args": args})

    def text(self) -> str:
        """``GOTO(kitchen)``, ``LOOK()``."""
        return f"{self.action}({', '.join(str(value) for value in self.args.values())})"


def recovery_text(steps: Sequence[RecoveryStep]) -> str:
    """``GOTO(kitchen), LOOK()``."""
    return ", ".join(step.text() for step in steps)


Provenance = Annotated[SeedProvenance | RecoveredProvenance, Field(discriminator="kind")]

_PROVENANCE: TypeAdapter[SeedProvenance | RecoveredProvenance] = TypeAdapter(Provenance)


class ExperienceRecord(BaseModel):
    """One failure and the fix to suggest to the planner when it happens again."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$", description="unique within a store")
    skill: Skill
    error_code: ErrorCode
    error_text: NonBlank = Field(description="the failure message, as the controller words it")
    request: str = Field(description="what the user asked for when the skill failed")
    context: dict[str, str] = Field(
        default_factory=dict, description="facets the failure must have for the record to apply"
    )
    suggestion: NonBlank = Field(description="the concrete fix for the planner, in words")
    recovery: tuple[RecoveryStep, ...] = Field(
        (), description="the fix in the plan vocabulary, done before planning the task again"
    )
    provenance: Provenance

    @model_validator(mode="after")
    def _known_facets(self) -> Self:
        named = set(self.context) | {f for step in self.recovery for f in step.placeholders()}
        named |= set(_PLACEHOLDER.findall(self.suggestion))
        unknown = sorted(named - set(CONTEXT_FACETS))
        if unknown:
            raise ValueError(
                f"unknown context facet(s) {', '.join(unknown)}; use {', '.join(CONTEXT_FACETS)}"
            )
        return self

    @property
    def similarity_text(self) -> str:
        """The text compared with a new failure: the request, then the error text."""
        return failure_text(self.request, self.error_text)

    @property
    def learnt(self) -> bool:
        """Whether the record was learnt from a recovery (not written by hand)."""
        return self.provenance.kind == "recovered"

    def fits(self, context: FailureContext) -> bool:
        """Whether ``context`` has every facet value this record requires and its fix names."""
        given = {key: value.lower() for key, value in context.items() if value}
        if any(given.get(key) != value.lower() for key, value in self.context.items()):
            return False
        needed = {f for step in self.recovery for f in step.placeholders()}
        needed |= set(_PLACEHOLDER.findall(self.suggestion))
        return needed <= set(given)


@dataclass(frozen=True)
class Suggestion:
    """A retrieved record with its cosine similarity to the failure and how it matched.

    ``context``: the failure's facets, which fill the record's placeholders.
    """

    record: ExperienceRecord
    score: float
    match: MatchKind
    context: FailureContext = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The fix to give the planner, its placeholders filled."""
        return _PLACEHOLDER.sub(lambda m: self.context[m.group(1)], self.record.suggestion)

    @property
    def recovery(self) -> tuple[RecoveryStep, ...]:
        """The fix in the plan vocabulary, its placeholders filled."""
        return tuple(step.bound(self.context) for step in self.record.recovery)

    @property
    def fallback(self) -> bool:
        """True when the record is for another skill (no record of this skill had the error)."""
        return self.match == "error_only"


def failure_text(request: str, error_text: str) -> str:
    """The text a failure is compared by: its request and its error text."""
    return f"{request}\n{error_text}"


def load_seed(path: str | Path) -> list[ExperienceRecord]:
    """The records of a seed file (YAML with a top-level ``records`` list), validated.

    Seed records get ``seed`` provenance; they must not carry a ``provenance`` field.
    Raises :class:`ExperienceError` naming the file and the record (position and id).
    """
    source = Path(path)
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available
        data = yaml.load(source.read_text(encoding="utf-8"), Loader=loader)
    except OSError as error:
        raise ExperienceError(f"cannot read seed file {source}: {error.strerror}") from error
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise ExperienceError(f"{source}{where}: malformed YAML ({error})") from error
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise ExperienceError(f"{source}: expected a mapping with a `records` list at the top")
    records: list[ExperienceRecord] = []
    for position, entry in enumerate(data["records"], start=1):
        label = _entry_label(position, entry)
        if not isinstance(entry, dict):
            raise ExperienceError(f"{source}: {label}: expected a mapping of fields")
        if "provenance" in entry:
            raise ExperienceError(
                f"{source}: {label}: remove `provenance`; seed records get `seed` provenance"
            )
        try:
            records.append(
                ExperienceRecord.model_validate({**entry, "provenance": {"kind": "seed"}})
            )
        except ValidationError as error:
            raise ExperienceError(f"{source}: {label}: {first_problem(error)}") from error
    _check_unique(records, str(source))
    return records


class ExperienceStore(Closeable):
    """Seed records plus learnt recoveries, with RoBee-style retrieval.

    ``db_path``: the SQLite file recoveries are persisted in (created, with its folders, if
    missing; WAL).
    Without it recoveries live only as long as the store. ``seeds``: seed files to load
    (the shipped one by default). ``embedder``: vectors for similarity instead of TF-IDF.
    ``lock_timeout``: seconds an add waits for another process's write lock before failing.
    ``scenario``: the simulator scenario this store serves, if any (the provenance of what
    it learns; ``run_id`` identifies the run or session, a new one by default).
    Records another process adds become visible when the store is opened again.
    Raises :class:`ExperienceError` for a malformed seed file or database.
    """

    def __init__(
        self,
        db_path: str | Path | None = None,
        *,
        seeds: Sequence[str | Path] = (DEFAULT_SEED,),
        embedder: Embedder | None = None,
        lock_timeout: float = 5.0,
        scenario: str | None = None,
        run_id: str | None = None,
    ) -> None:
        self.db_path = Path(db_path) if db_path is not None else None
        self.scenario = scenario
        self.run_id = run_id or f"run-{uuid.uuid4().hex[:12]}"
        self._lock = threading.Lock()
        self._records: list[ExperienceRecord] = []
        self._index = SimilarityIndex(embedder)
        self._db: _RecordTable | None = None
        loaded = [record for seed in seeds for record in load_seed(seed)]
        if self.db_path is not None:
            self._db = _RecordTable(self.db_path, lock_timeout)
            try:
                loaded.extend(self._db.load())
                _check_unique(loaded, f"seed files and {self.db_path}")
            except ExperienceError:
                self._db.close()
                raise
        self._append(loaded)
        log.info(
            "experience store: %d records (%d seed files, database %s)",
            len(loaded),
            len(seeds),
            self.db_path or "none",
        )

    def __len__(self) -> int:
        return len(self._records)

    @property
    def records(self) -> tuple[ExperienceRecord, ...]:
        """Every record, seeds first, then recoveries in the order they were added."""
        with self._lock:
            return tuple(self._records)

    def retrieve(
        self,
        skill: str,
        error_code: str,
        request: str,
        k: int = 3,
        *,
        error_text: str = "",
        context: FailureContext | None = None,
    ) -> list[Suggestion]:
        """Up to ``k`` suggestions for a failure, best first, distinct fixes only.

        Candidates are the records of the same skill and error code that fit ``context``
        (:meth:`ExperienceRecord.fits`); when there are none, the fitting records of the same
        error code on any skill (each marked ``error_only``). They are ranked by the number
        of facets they matched, then learnt records first, then by cosine similarity of
        ``request`` and ``error_text`` with the record's (0 when they share no words; store
        order then). An unknown skill or error code gives an empty list (and a warning
        naming the known values).
        """
        if skill not in SKILLS or error_code not in ERROR_CODES:
            log.warning(
                "no experience for skill %r / error %r: skills are %s; error codes are %s",
                skill,
                error_code,
                ", ".join(SKILLS),
                ", ".join(ERROR_CODES),
            )
            return []
        if k <= 0:
            return []
        with self._lock:
            records = list(self._records)
        facets = dict(context or {})
        match: MatchKind = "skill_and_error"
        same_code = [
            i for i, r in enumerate(records) if r.error_code == error_code and r.fits(facets)
        ]
        candidates = [i for i in same_code if records[i].skill == skill]
        if not candidates:
            match = "error_only"
            candidates = same_code
            if candidates:
                log.info("no %s experience for %s; using other skills' records", error_code, skill)
        query = failure_text(request, error_text)
        return self._ranked(records, candidates, query, k, match, facets)

    def add_recovery(
        self,
        *,
        skill: str,
        error_code: str,
        error_text: str,
        request: str,
        suggestion: str,
        run_id: str | None = None,
        scenario: str | None = None,
        recorded_at: datetime | None = None,
        context: FailureContext | None = None,
        recovery: Sequence[RecoveryStep] = (),
        worked: str = "",
        suggested_by: Sequence[str] = (),
    ) -> ExperienceRecord:
        """Record a recovery that reached the goal; retrievable at once and after reopening.

        ``run_id`` and ``scenario`` default to the store's; ``recorded_at`` to now (UTC).
        ``context``: the failure's facets the record will require; ``recovery``: what worked,
        in the plan vocabulary; ``worked``: the whole plan that reached the goal;
        ``suggested_by``: the records whose suggestion the recovery followed. Raises
        :class:`ExperienceError` naming the bad field, or the database problem; nothing is
        stored then.
        """
        fields = {
            "id": f"recovered-{uuid.uuid4().hex}",
            "skill": skill,
            "error_code": error_code,
            "error_text": error_text,
            "request": request,
            "context": dict(context or {}),
            "suggestion": suggestion,
            "recovery": [step.model_dump() for step in recovery],
            "provenance": {
                "kind": "recovered",
                "run_id": self.run_id if run_id is None else run_id,
                "scenario": scenario if scenario is not None else self.scenario,
                "recorded_at": recorded_at or datetime.now(timezone.utc),
                "worked": worked,
                "suggested_by": tuple(suggested_by),
            },
        }
        try:
            record = ExperienceRecord.model_validate(fields)
        except ValidationError as error:
            raise ExperienceError(f"add_recovery: {first_problem(error)}") from error
        with self._lock:
            if self._db is not None:
                self._db.insert(record)
            self._append_locked([record])
        log.info("experience: learnt %s for %s/%s (run %s)", record.id, skill, error_code, run_id)
        return record

    def close(self) -> None:
        """Close the database (if any); the store keeps answering from memory."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _append(self, records: Sequence[ExperienceRecord]) -> None:
        with self._lock:
            self._append_locked(records)

    def _append_locked(self, records: Sequence[ExperienceRecord]) -> None:
        self._index.add([record.similarity_text for record in records])
        self._records.extend(records)

    def _ranked(
        self,
        records: Sequence[ExperienceRecord],
        candidates: list[int],
        query: str,
        k: int,
        match: MatchKind,
        context: FailureContext,
    ) -> list[Suggestion]:
        allowed = set(candidates)
        similarity = {
            m.index: m.score
            for m in self._index.top_k(query, len(candidates), allowed=allowed.__contains__)
        }
        order = sorted(
            candidates,
            key=lambda i: (
                -len(records[i].context),
                not records[i].learnt,
                -similarity.get(i, 0.0),
                i,
            ),
        )
        suggestions: list[Suggestion] = []
        fixes: set[str] = set()
        for index in order:
            suggestion = Suggestion(records[index], similarity.get(index, 0.0), match, context)
            fix = " ".join(suggestion.text.lower().split())
            if fix in fixes:
                continue
            fixes.add(fix)
            suggestions.append(suggestion)
            if len(suggestions) == k:
                break
        return suggestions


class _RecordTable:
    """The SQLite table of learnt records: WAL journal, one transaction per insert."""

    def __init__(self, path: Path, lock_timeout: float) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ExperienceError(
                f"cannot make the folder of experience database {path}: {error.strerror}; "
                "check the path and its permissions"
            ) from error
        try:
            self._connection = sqlite3.connect(
                path, timeout=lock_timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise ExperienceError(
                f"cannot open experience database {path}: {error}; check the path and its "
                "permissions"
            ) from error
        try:
            retry_while_busy(self._prepare, lock_timeout)
        except ExperienceError:
            self._connection.close()
            raise
        except sqlite3.Error as error:
            self._connection.close()
            raise ExperienceError(self._explain(error)) from error

    def _prepare(self) -> None:
        connection = self._connection
        mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            log.warning(
                "%s: SQLite kept journal mode %r (no WAL on this file system)", self.path, mode
            )
        # the version read and the schema written in one transaction: another process
        # opening the same file at the same moment cannot upgrade it in between
        with self._transaction():
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            if version not in (0, 1, SCHEMA_VERSION):
                raise ExperienceError(
                    f"{self.path}: experience database schema version {version}, this cogtree "
                    f"reads versions 1 and {SCHEMA_VERSION}; use another file or upgrade cogtree"
                )
            connection.execute(
                "CREATE TABLE IF NOT EXISTS experience ("
                " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
                " id TEXT NOT NULL UNIQUE,"
                " skill TEXT NOT NULL,"
                " error_code TEXT NOT NULL,"
                " error_text TEXT NOT NULL,"
                " request TEXT NOT NULL,"
                " suggestion TEXT NOT NULL,"
                " provenance TEXT NOT NULL,"
                " context TEXT NOT NULL DEFAULT '{}',"
                " recovery TEXT NOT NULL DEFAULT '[]')"
            )
            if version == 1:  # version 1 had no context and no recovery
                for column, empty in (("context", "{}"), ("recovery", "[]")):
                    connection.execute(
                        f"ALTER TABLE experience ADD COLUMN {column} TEXT NOT NULL "
                        f"DEFAULT '{empty}'"
                    )
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def load(self) -> list[ExperienceRecord]:
        """Every stored record, oldest first; a bad row raises naming the file and row."""
        try:
            rows = self._connection.execute(
                "SELECT seq, id, skill, error_code, error_text, request, suggestion, context,"
                " recovery, provenance FROM experience ORDER BY seq"
            ).fetchall()
        except sqlite3.Error as error:
            raise ExperienceError(self._explain(error)) from error
        return [self._record(row) for row in rows]

    def insert(self, record: ExperienceRecord) -> None:
        """Store one record in its own transaction; on error nothing is written."""
        try:
            with self._transaction():
                self._connection.execute(
                    "INSERT INTO experience (id, skill, error_code, error_text, request,"
                    " suggestion, context, recovery, provenance)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.id,
                        record.skill,
                        record.error_code,
                        record.error_text,
                        record.request,
                        record.suggestion,
                        json.dumps(record.context),
                        json.dumps([step.model_dump() for step in record.recovery]),
                        record.provenance.model_dump_json(),
                    ),
                )
        except (sqlite3.Error, UnicodeEncodeError) as error:
            raise ExperienceError(self._explain(error)) from error

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()

    def _record(self, row: tuple[Any, ...]) -> ExperienceRecord:
        seq, *values, context, recovery, provenance = row
        fields: dict[str, Any] = dict(
            zip(
                ("id", "skill", "error_code", "error_text", "request", "suggestion"),
                values,
                strict=True,
            )
        )
        try:
            fields["context"] = json.loads(context)
            fields["recovery"] = json.loads(recovery)
        except json.JSONDecodeError as error:
            raise ExperienceError(
                f"{self.path}: row {seq} (id {fields['id']!r}): context or recovery is not "
                f"JSON ({error}); delete the row or use another database file"
            ) from error
        try:
            fields["provenance"] = _PROVENANCE.validate_json(provenance)
            return ExperienceRecord.model_validate(fields)
        except ValidationError as error:
            raise ExperienceError(
                f"{self.path}: row {seq} (id {fields['id']!r}): {first_problem(error)}; "
                "delete the row or use another database file"
            ) from error

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back when the block raises."""
        self._connection.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._connection.execute("COMMIT")
        except BaseException:
            if self._connection.in_transaction:
                self._connection.execute("ROLLBACK")
            raise

    def _explain(self, error: Exception) -> str:
        text = str(error)
        if "locked" in text or "busy" in text:
            hint = "another process holds the write lock; retry, or close the other writer"
        elif "not a database" in text or "malformed" in text:
            hint = "the file is not an intact SQLite database; move it away to start afresh"
        else:
            hint = "check the file, its directory and the disk"
        return f"experience database {self.path}: {text}; {hint}"


def _entry_label(position: int, entry: object) -> str:
    name = entry.get("id") if isinstance(entry, dict) else None
    return f"record {position}" + (f" (id {name!r})" if name is not None else "")


def _check_unique(records: Iterable[ExperienceRecord], where: str) -> None:
    seen: set[str] = set()
    for record in records:
        if record.id in seen:
            raise ExperienceError(f"{where}: duplicate record id {record.id!r}; ids must be unique")
        seen.add(record.id)
