"""Read-only SQL on SQLite: the relational grounding backend of a domain pack.

A pack may ground its knowledge tasks on a SQLite database instead of an RDF graph (JANUS's
adapter layer: relational next to graph stores). The pack ships the database as a SQL script
(tables and rows, readable in review); :func:`build_database` runs it once into a file, and
:class:`ReadOnlySqlRunner` answers queries on that file under the same rules as SPARQL:

- the file is opened read-only by SQLite itself (a ``mode=ro`` URI) with ``PRAGMA
  query_only``, and an authorizer (``sqlite3.Connection.set_authorizer``) lets the engine read
  only the pack's declared tables and columns through SELECT statements: every write, every
  ``ATTACH``/``DETACH``, every ``PRAGMA``, schema change and transaction is denied by the
  engine while it compiles the statement, whatever the text looks like;
- one statement per call (sqlite3 refuses a second), at most ``max_chars`` characters;
- a deadline: a progress handler interrupts the statement once ``timeout_s`` has passed;
- at most ``max_rows`` rows and ``max_bytes`` bytes of values; more is cut and marked
  ``truncated``.

Templates are ``queries/*.sql`` files with named parameters ``:name``; :class:`SqlTemplate`
binds them to SQL literals (text quoted by the SQL rules, numbers as numbers, unbound as
NULL), so a value can never change the statement. Answers are the same
:class:`~knowledge.scene.readonly_query.QueryOutcome` the SPARQL runner returns.
"""

from __future__ import annotations

import re
import sqlite3
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rdflib import Literal, URIRef

from cogtree.knowledge.scene.named_queries import Binding, QueryFileError, check_arguments
from cogtree.knowledge.scene.readonly_query import QueryOutcome, QueryRefused

PARAMETER = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
"""A named parameter of a SQL template: ``:dish`` (``::`` and ``a:b`` are not parameters)."""

PROGRESS_STEPS = 1000
"""SQLite virtual-machine steps between two looks at the deadline."""

_ALLOWED_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION})
_DENIED_FUNCTIONS = frozenset({"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"})
_AUTHORIZER_ACTIONS = (
    "CREATE_INDEX", "CREATE_TABLE", "CREATE_TEMP_INDEX", "CREATE_TEMP_TABLE",
    "CREATE_TEMP_TRIGGER", "CREATE_TEMP_VIEW", "CREATE_TRIGGER", "CREATE_VIEW", "DELETE",
    "DROP_INDEX", "DROP_TABLE", "DROP_TEMP_INDEX", "DROP_TEMP_TABLE", "DROP_TEMP_TRIGGER",
    "DROP_TEMP_VIEW", "DROP_TRIGGER", "DROP_VIEW", "INSERT", "PRAGMA", "READ", "SELECT",
    "TRANSACTION", "UPDATE", "ATTACH", "DETACH", "ALTER_TABLE", "REINDEX", "ANALYZE",
    "CREATE_VTABLE", "DROP_VTABLE", "FUNCTION", "SAVEPOINT", "RECURSIVE",
)  # fmt: skip
"""SQLite's authorizer action codes by name (sqlite3 exports them as ``SQLITE_<name>``)."""
_QUOTED = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/", re.DOTALL)


class SqlTemplate:
    """A SQL query read from a ``.sql`` file, with its ``:name`` parameters.

    Same shape as :class:`~knowledge.scene.named_queries.NamedQuery`: ``name``, ``text``,
    ``parameters`` (parameter -> its one variable) and :meth:`bind`.
    """

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        found = PARAMETER.findall(_QUOTED.sub(" ", text))
        self.parameters: Mapping[str, tuple[str, ...]] = {
            parameter: (parameter,) for parameter in dict.fromkeys(found)
        }

    @classmethod
    def from_file(cls, path: Path) -> SqlTemplate:
        """Read ``path``; the template is named after the file's stem."""
        try:
            return cls(path.stem, path.read_text(encoding="utf-8"))
        except OSError as error:
            raise QueryFileError(f"cannot read query file {path}: {error.strerror}") from error

    def bind(self, **values: Binding) -> str:
        """The statement with every parameter a SQL literal; each must be passed (None: NULL).

        A kg id bound as an IRI becomes its local name (``pantry#rice`` -> ``'rice'``), a
        literal its Python value. A parameter takes one value: several raise TypeError.
        """
        check_arguments(self.name, self.parameters, values)
        rendered = {name: _sql_literal(self.name, name, value) for name, value in values.items()}
        parts: list[str] = []
        last = 0
        for quoted in _QUOTED.finditer(self.text):
            parts.append(_substitute(self.text[last : quoted.start()], rendered))
            parts.append(quoted.group(0))
            last = quoted.end()
        parts.append(_substitute(self.text[last:], rendered))
        return "".join(parts)


@dataclass(frozen=True)
class SqlLimits:
    """What one statement may use: time, rows, bytes of values, characters of text."""

    timeout_s: float = 0.5
    max_rows: int = 200
    max_bytes: int = 256 * 1024
    max_chars: int = 4000

    def __post_init__(self) -> None:
        for name in ("timeout_s", "max_rows", "max_bytes", "max_chars"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")


def build_database(script: Path, folder: Path | None = None) -> Path:
    """Run the SQL ``script`` (tables and rows) into a new SQLite file and return its path.

    The file lives in ``folder`` (a new temporary directory when None). Raises QueryFileError
    naming the script and SQLite's complaint when the script does not run.
    """
    target_dir = folder if folder is not None else Path(tempfile.mkdtemp(prefix="cogtree-sql-"))
    target = target_dir / f"{script.stem}.sqlite"
    try:
        text = script.read_text(encoding="utf-8")
    except OSError as error:
        raise QueryFileError(f"cannot read database script {script}: {error.strerror}") from error
    connection = sqlite3.connect(target)
    try:
        connection.executescript(text)
        connection.commit()
    except sqlite3.Error as error:
        raise QueryFileError(f"database script {script} failed: {error}") from error
    finally:
        connection.close()
    return target


class ReadOnlySqlRunner:
    """Runs one read-only SELECT at a time on a SQLite file, over the declared ``tables`` only.

    :meth:`run` returns a :class:`~knowledge.scene.readonly_query.QueryOutcome` or raises
    :class:`~knowledge.scene.readonly_query.QueryRefused` saying why (a write, ATTACH, an undeclared
    table, a second statement, the deadline). Calls are serialised; :meth:`close` releases the
    connection.
    """

    def __init__(
        self, path: Path, tables: Sequence[str], *, limits: SqlLimits | None = None
    ) -> None:
        if not tables:
            raise ValueError("a SQL runner needs the tables queries may read, e.g. ['pantry']")
        self.path = path
        self.tables = frozenset(table.casefold() for table in tables)
        self.limits = limits or SqlLimits()
        self._lock = threading.Lock()
        self._deadline = 0.0
        uri = f"{path.resolve().as_uri()}?mode=ro"
        self._connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._connection.execute("PRAGMA query_only = ON")
        self._connection.set_authorizer(self._authorize)
        self._connection.set_progress_handler(self._past_deadline, PROGRESS_STEPS)
        self._refusal = ""

    def run(self, text: str, *, template: bool = False) -> QueryOutcome:
        """Run ``text`` (one SELECT); ``template`` only says who wrote it (same rules)."""
        del template  # a template obeys the same engine rules as a model's statement
        started = time.perf_counter()
        if not isinstance(text, str) or not text.strip():
            raise QueryRefused("the statement is empty: write one SELECT over the pack's tables")
        if len(text) > self.limits.max_chars:
            raise QueryRefused(
                f"statement is {len(text)} characters long; the limit is {self.limits.max_chars}"
            )
        with self._lock:
            self._refusal = ""
            self._deadline = time.monotonic() + self.limits.timeout_s
            try:
                cursor = self._connection.execute(text)
                variables = [column[0] for column in cursor.description or ()]
                rows, truncated = self._take(cursor, variables)
            except sqlite3.Error as error:
                raise QueryRefused(self._why(error)) from None
            finally:
                self._deadline = 0.0
        return QueryOutcome(
            kind="select",
            variables=variables,
            rows=rows,
            boolean=None,
            truncated=truncated,
            elapsed_ms=(time.perf_counter() - started) * 1000.0,
        )

    def close(self) -> None:
        """Close the connection; later calls raise QueryRefused."""
        with self._lock:
            self._connection.close()

    def __enter__(self) -> ReadOnlySqlRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- engine-side rules --------------------------------------------------------------------

    def _authorize(
        self, action: int, first: str | None, second: str | None, *_rest: str | None
    ) -> int:
        """SQLite's authorizer: SELECT, reading declared tables, harmless functions; else deny."""
        if action not in _ALLOWED_ACTIONS:
            self._refusal = f"only SELECT may run (SQLite action {_action_name(action)} denied)"
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_READ and (first or "").casefold() not in self.tables:
            self._refusal = (
                f"table {first!r} is not one the pack declares ({', '.join(sorted(self.tables))})"
            )
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION and (second or "").casefold() in _DENIED_FUNCTIONS:
            self._refusal = f"function {second} is not allowed"
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def _past_deadline(self) -> int:
        """SQLite's progress handler: non-zero interrupts the statement."""
        if self._deadline and time.monotonic() > self._deadline:
            self._refusal = f"the statement ran past its {self.limits.timeout_s:g} s deadline"
            return 1
        return 0

    def _take(
        self, cursor: sqlite3.Cursor, variables: list[str]
    ) -> tuple[list[dict[str, str | None]], bool]:
        rows: list[dict[str, str | None]] = []
        size = 0
        for raw in cursor:
            row = {name: _text(value) for name, value in zip(variables, raw, strict=True)}
            size += sum(len(value.encode("utf-8")) for value in row.values() if value is not None)
            if len(rows) == self.limits.max_rows or size > self.limits.max_bytes:
                return rows, True
            rows.append(row)
        return rows, False

    def _why(self, error: sqlite3.Error) -> str:
        if self._refusal:
            return f"refused: {self._refusal}"
        return f"SQLite refused the statement: {error}. Write one SELECT over the pack's tables."


def _substitute(text: str, rendered: Mapping[str, str]) -> str:
    return PARAMETER.sub(lambda match: rendered[match.group(1)], text)


def _sql_literal(query: str, name: str, value: Binding) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, URIRef | Literal):
        term: object = value
    elif isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 1:
        term = value[0]
    else:
        raise TypeError(f"query {query}: parameter {name} takes one value, got {value!r}")
    if isinstance(term, URIRef):
        plain: Any = re.split(r"[#/]", str(term))[-1]
    elif isinstance(term, Literal):
        plain = term.toPython()
    else:
        raise TypeError(f"query {query}: parameter {name} takes an RDF term, got {term!r}")
    if isinstance(plain, bool):
        return "1" if plain else "0"
    if isinstance(plain, int | float):
        return repr(plain)
    text = str(plain)
    if "\x00" in text:
        raise ValueError(f"query {query}: parameter {name} holds a NUL character")
    return "'" + text.replace("'", "''") + "'"


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def _action_name(action: int) -> str:
    for name in _AUTHORIZER_ACTIONS:
        if getattr(sqlite3, f"SQLITE_{name}", None) == action:
            return name
    return str(action)
