"""A read-only, bounded and time-limited runner for SPARQL that a language model wrote.

The model's text is parsed with rdflib's SPARQL parser before anything runs, and refused with a
reason unless it is a single SELECT or ASK query that

- calls no remote endpoint (no ``SERVICE``, at any depth),
- declares only prefixes that map to the allowed namespaces, uses no ``BASE``,
- names only IRIs inside the allowed namespaces or the rdf, rdfs, owl and xsd vocabularies,
- fits in ``max_chars`` characters.

The allowed prefixes may be used without declaring them: their declarations are prepended. The
query is then executed as a *string* through ``graph.query`` (a prepared query would make rdflib
leave the Oxigraph store for its own, much slower engine) on a worker thread owned by the runner.
At most ``max_rows`` rows come back, whatever the query's own LIMIT says: iteration stops at the
first row past the cap and the outcome is marked ``truncated``. A query that is not finished after
``timeout_s`` is refused. Python cannot stop the worker thread: a streaming query notices the
refusal at its next row and stops, but a query whose engine is busy before producing a row (a
large join under a COUNT or ORDER BY, say) runs on until Oxigraph is done, and its result is
discarded. Until then the runner refuses new queries as busy instead of queueing them.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pyparsing import ParseBaseException, ParseResults
from rdflib import BNode, Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS, XSD
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.query import Result, ResultRow
from rdflib.term import Node

from knowledge.closing import Closeable

logger = logging.getLogger(__name__)

STANDARD_PREFIXES: Mapping[str, str] = {
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "owl": str(OWL),
    "xsd": str(XSD),
}
"""Vocabularies every query may use, declared or not, besides the runner's own namespaces."""

ALLOWED_FORMS = "Only SELECT and ASK queries are allowed."

_QUERY_FORMS: Mapping[str, Literal["select", "ask"]] = {
    "SelectQuery": "select",
    "AskQuery": "ask",
}
_REFUSED_FORMS: Mapping[str, str] = {
    "ConstructQuery": "CONSTRUCT builds a graph instead of answering a question",
    "DescribeQuery": "DESCRIBE returns whatever the store holds about a resource",
}
_UPDATE_KEYWORDS: Mapping[str, str] = {
    "InsertData": "INSERT DATA",
    "DeleteData": "DELETE DATA",
    "DeleteWhere": "DELETE WHERE",
    "Load": "LOAD",
    "Clear": "CLEAR",
    "Drop": "DROP",
    "Create": "CREATE",
    "Add": "ADD",
    "Move": "MOVE",
    "Copy": "COPY",
}
_UPDATE_VERBS = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"}
)
_PREFIX_NAME = re.compile(r"(?:[A-Za-z][\w.-]*)?")
_IRI_TEXT = re.compile(r'[^\s<>"{}|^`\\]+')


class QueryRefused(ValueError):
    """A query not run, or whose result was discarded; the message says why and what is allowed."""


class QueryOutcome(BaseModel):
    """What a read-only query returned, with every term rendered as a short string.

    IRIs in an allowed namespace read ``prefix:local``, other IRIs in full, literals as their
    lexical form, blank nodes as ``_:id`` and unbound variables as ``None``.
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["select", "ask"]
    variables: list[str] = Field(description="SELECT's projected variables, without '?'")
    rows: list[dict[str, str | None]] = Field(description="at most max_rows rows, variable → term")
    boolean: bool | None = Field(description="ASK's answer; None for SELECT")
    truncated: bool = Field(description="the query had more rows than max_rows")
    elapsed_ms: float = Field(description="wall time of run(), parsing and checks included")


@dataclass
class _Inspection:
    """What a walk over the parse tree found that the whitelist rules care about."""

    declared: dict[str, str] = field(default_factory=dict)
    bases: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)
    prefixes_used: set[str] = field(default_factory=set)
    iris: set[str] = field(default_factory=set)


class ReadOnlyQueryRunner(Closeable):
    """Runs model-written SPARQL against ``graph``: SELECT/ASK only, whitelisted, bounded, timed.

    ``prefixes`` maps prefix names to the namespace IRIs a query may touch (for example
    ``{"cog": "https://cogtree.dev/ontology#"}``); rdf, rdfs, owl and xsd are always allowed.
    :meth:`run` returns a :class:`QueryOutcome` or raises :class:`QueryRefused`. Calls are
    serialised; call :meth:`close` (or use the runner as a context manager) to release the worker.
    """

    def __init__(
        self,
        graph: Graph,
        prefixes: Mapping[str, str],
        *,
        max_rows: int = 200,
        timeout_s: float = 0.5,
        max_chars: int = 4000,
    ) -> None:
        if max_rows < 1:
            raise ValueError(f"max_rows must be at least 1, got {max_rows}")
        if not timeout_s > 0:
            raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s}")
        if max_chars < 1:
            raise ValueError(f"max_chars must be at least 1, got {max_chars}")
        for name, namespace in prefixes.items():
            if not _PREFIX_NAME.fullmatch(name):
                raise ValueError(
                    f"prefix name {name!r} is not a SPARQL prefix: use a letter followed by "
                    "letters, digits, '_', '-' or '.'"
                )
            if not _IRI_TEXT.fullmatch(namespace):
                raise ValueError(
                    f"namespace {namespace!r} for prefix {name!r} is not an absolute IRI "
                    'without spaces or <>"{}|^`\\'
                )
        self.graph = graph
        self.max_rows = max_rows
        self.timeout_s = timeout_s
        self.max_chars = max_chars
        self.prefixes: dict[str, str] = {**STANDARD_PREFIXES, **prefixes}
        self._own_prefixes = dict(prefixes)
        self._allowed_namespaces = set(self.prefixes.values())
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="readonly-sparql")
        self._lock = threading.Lock()
        self._runaway: Future[QueryOutcome] | None = None
        self._closed = False

    def run(self, text: str) -> QueryOutcome:
        """Check ``text`` and run it; raise :class:`QueryRefused` naming the reason if refused."""
        try:
            return self._run(text, started=time.perf_counter())
        except QueryRefused as refusal:
            logger.info("refused a read-only query: %s", refusal)
            raise

    def _run(self, text: str, *, started: float) -> QueryOutcome:
        if not isinstance(text, str):
            raise QueryRefused(f"expected the query as a string, got {type(text).__name__}")
        if len(text) > self.max_chars:
            raise QueryRefused(
                f"query is {len(text)} characters long; the limit is {self.max_chars}. "
                "Ask a smaller question, one query at a time."
            )
        if not text.strip():
            raise QueryRefused(f"query is empty. {ALLOWED_FORMS}")
        kind, inspection = self._parse(text)
        self._check_whitelist(inspection)
        executed = self._header(inspection) + text
        with self._lock:
            if self._closed:
                raise RuntimeError(
                    "this ReadOnlyQueryRunner is closed; create a new one to run queries"
                )
            if self._runaway is not None and not self._runaway.done():
                raise QueryRefused(
                    "the previous query is still running after exceeding its time limit; "
                    "try again once it has finished"
                )
            cancelled = threading.Event()
            future = self._executor.submit(self._execute, kind, executed, cancelled, started)
            try:
                return future.result(timeout=self.timeout_s)
            except FutureTimeout:
                cancelled.set()
                self._runaway = future
                raise QueryRefused(
                    f"query exceeded its time limit of {self.timeout_s:g} s and its result was "
                    "discarded; use more selective patterns, fewer joins or a LIMIT"
                ) from None

    def close(self) -> None:
        """Stop accepting queries; a query still running past its time limit finishes on its own."""
        with self._lock:
            self._closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)

    def _parse(self, text: str) -> tuple[Literal["select", "ask"], _Inspection]:
        """The query form and what the whitelist checks need, or a refusal."""
        try:
            parsed = parseQuery(text)
        except ParseBaseException as error:
            raise self._not_a_query(text, error) from None
        except RecursionError:
            raise QueryRefused(
                f"query is nested too deeply to check; flatten its brackets. {ALLOWED_FORMS}"
            ) from None
        prologue, body = parsed[0], parsed[1]
        if body.name in _REFUSED_FORMS:
            form = _REFUSED_FORMS[body.name]
            raise QueryRefused(f"{form}. {ALLOWED_FORMS}")
        if body.name not in _QUERY_FORMS:
            raise QueryRefused(f"unsupported query form {body.name}. {ALLOWED_FORMS}")
        return _QUERY_FORMS[body.name], _inspect([prologue, body])

    def _not_a_query(self, text: str, query_error: ParseBaseException) -> QueryRefused:
        """Why ``text``, which is not a query, is refused: an update or a syntax error."""
        keywords = _update_keywords(text)
        first_word = query_error.found.strip("'").upper()
        if not keywords and first_word in _UPDATE_VERBS:
            keywords = [first_word]
        if keywords:
            return QueryRefused(
                f"{', '.join(keywords)} is a SPARQL update, which would change the graph; "
                f"updates never run here. {ALLOWED_FORMS}"
            )
        return QueryRefused(
            f"syntax error at line {query_error.lineno}, column {query_error.col}: "
            f"{query_error.msg}, found {query_error.found} "
            f"(line {query_error.lineno} reads {query_error.line.strip()!r}). {ALLOWED_FORMS}"
        )

    def _check_whitelist(self, inspection: _Inspection) -> None:
        """Refuse BASE, SERVICE, foreign prefixes and IRIs outside the allowed namespaces."""
        allowed = self._describe_allowed()
        if inspection.bases:
            raise QueryRefused(
                f"BASE <{inspection.bases[0]}> is not allowed; write IRIs with the prefixes "
                f"{allowed}"
            )
        if inspection.services:
            raise QueryRefused(
                f"SERVICE {inspection.services[0]} would query a remote endpoint, and only "
                "the local graph may be queried"
            )
        for prefix, namespace in inspection.declared.items():
            if namespace not in self._allowed_namespaces:
                raise QueryRefused(
                    f"PREFIX {prefix}: <{namespace}> is not an allowed namespace; use {allowed}"
                )
        unknown = sorted(
            inspection.prefixes_used - inspection.declared.keys() - self.prefixes.keys()
        )
        if unknown:
            raise QueryRefused(
                f"prefix {unknown[0]}: is not declared and not allowed; use {allowed}"
            )
        outside = sorted(iri for iri in inspection.iris if not self._is_allowed(iri))
        if outside:
            raise QueryRefused(
                f"IRI <{outside[0]}> is outside the allowed namespaces; use {allowed}"
            )

    def _header(self, inspection: _Inspection) -> str:
        """PREFIX declarations for the allowed prefixes the query uses without declaring them."""
        missing = sorted(inspection.prefixes_used - inspection.declared.keys())
        return "".join(f"PREFIX {name}: <{self.prefixes[name]}>\n" for name in missing)

    def _execute(
        self,
        kind: Literal["select", "ask"],
        executed: str,
        cancelled: threading.Event,
        started: float,
    ) -> QueryOutcome:
        """Run the checked query on the worker thread and render at most ``max_rows`` rows."""
        variables: list[str] = []
        rows: list[dict[str, str | None]] = []
        truncated = False
        try:
            result = self.graph.query(executed)
            if kind == "select":
                variables = [str(variable) for variable in result.vars or []]
                try:
                    truncated = self._take_rows(result, variables, rows, cancelled)
                finally:
                    _release_cursor(result)
        except (SyntaxError, ValueError, OSError) as error:
            raise QueryRefused(f"the store could not run the query: {error}") from error
        return QueryOutcome(
            kind=kind,
            variables=variables,
            rows=rows,
            boolean=bool(result.askAnswer) if kind == "ask" else None,
            truncated=truncated,
            elapsed_ms=_ms_since(started),
        )

    def _take_rows(
        self,
        result: Result,
        variables: list[str],
        rows: list[dict[str, str | None]],
        cancelled: threading.Event,
    ) -> bool:
        """Append up to ``max_rows`` rendered rows; True when the result had more."""
        for row in result:
            if cancelled.is_set():
                return False
            if len(rows) == self.max_rows:
                return True
            if isinstance(row, ResultRow):
                rows.append(
                    {name: self._render(value) for name, value in zip(variables, row, strict=True)}
                )
        return False

    def _render(self, term: Node | None) -> str | None:
        """A term as a short string: ``prefix:local``, a lexical form, ``_:id`` or the IRI."""
        if term is None:
            return None
        if isinstance(term, URIRef):
            return self._compact(str(term))
        if isinstance(term, BNode):
            return f"_:{term}"
        return str(term)

    def _compact(self, iri: str) -> str:
        """``prefix:local`` for the longest allowed namespace that starts ``iri``, else ``iri``."""
        best: tuple[str, str] | None = None
        for name, namespace in self.prefixes.items():
            if iri.startswith(namespace) and (best is None or len(namespace) > len(best[1])):
                best = (name, namespace)
        if best is None:
            return iri
        return f"{best[0]}:{iri[len(best[1]) :]}"

    def _is_allowed(self, iri: str) -> bool:
        return any(iri.startswith(namespace) for namespace in self._allowed_namespaces)

    def _describe_allowed(self) -> str:
        own = ", ".join(f"{name}: <{iri}>" for name, iri in self._own_prefixes.items())
        standard = ", ".join(STANDARD_PREFIXES)
        return f"{own} (and {standard})" if own else standard


def _inspect(tree: Any) -> _Inspection:
    """Walk a parse tree without recursion, collecting prefixes, IRIs, BASE and SERVICE."""
    inspection = _Inspection()
    for node in _nodes(tree):
        if isinstance(node, CompValue):
            if node.name == "PrefixDecl":
                inspection.declared[str(_field(node, "prefix") or "")] = str(node["iri"])
            elif node.name == "Base":
                inspection.bases.append(str(node["iri"]))
            elif node.name == "ServiceGraphPattern":
                inspection.services.append(_field(node, "term").n3())
            elif node.name == "pname":
                inspection.prefixes_used.add(str(_field(node, "prefix") or ""))
        elif isinstance(node, URIRef):
            inspection.iris.add(str(node))
    return inspection


def _nodes(tree: Any) -> Iterator[Any]:
    """Every node of a parse tree, depth first, without the IRIs of PREFIX and BASE lines."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, CompValue):
            if node.name not in ("PrefixDecl", "Base"):
                stack.extend(node.values())
        elif isinstance(node, ParseResults | list | tuple):
            stack.extend(node)


def _field(node: CompValue, name: str) -> Any:
    """A CompValue field, or None (``CompValue.get`` returns the key itself when it is missing)."""
    return dict.get(node, name)


def _update_keywords(text: str) -> list[str]:
    """The update keywords of ``text`` if it parses as a SPARQL update, else an empty list."""
    try:
        update = parseUpdate(text)
    except (ParseBaseException, RecursionError):
        return []
    return list(dict.fromkeys(_update_keyword(operation) for operation in update.request or []))


def _update_keyword(operation: CompValue) -> str:
    """The SPARQL keyword a parsed update operation was written with."""
    if operation.name != "Modify":
        return _UPDATE_KEYWORDS.get(operation.name, operation.name.upper())
    parts = [
        keyword
        for key, keyword in (("withClause", "WITH"), ("delete", "DELETE"), ("insert", "INSERT"))
        if key in operation
    ]
    return " ... ".join(parts)


def _release_cursor(result: Result) -> None:
    """Free, on this thread, the Oxigraph cursor behind rows that were not all read.

    oxrdflib streams rows from a generator that refers back to its Result, a reference cycle,
    so a cursor left half-read is freed by the cyclic garbage collector on whichever thread it
    happens to run. pyoxigraph's cursor may only be dropped on the thread that created it;
    elsewhere it raises RuntimeError ("unsendable") and leaks. Closing the pending generator
    (rdflib keeps it in ``Result._genbindings``) frees the cursor here, on the worker.
    """
    pending = getattr(result, "_genbindings", None)
    if pending is not None:
        pending.close()


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0
