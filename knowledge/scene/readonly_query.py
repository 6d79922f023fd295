r"""Checks for SPARQL that a language model wrote, and a bounded runner for checked queries.

:class:`QueryChecker` decides, without running anything, whether a text may run. It refuses,
with a reason, anything but a single SELECT or ASK query over the default graph that

- calls no remote endpoint (no ``SERVICE`` at any depth; the word appears nowhere in the text),
- declares only prefixes that map to the allowed namespaces, uses no ``BASE``, ``FROM``,
  ``FROM NAMED`` or ``GRAPH``,
- names only IRIs inside the allowed namespaces or the rdf, rdfs, owl and xsd vocabularies,
- fits in ``max_chars`` characters.

The allowed prefixes may be used without declaring them: their declarations are prepended.

**Two parsers, one reading.** The checker walks rdflib's parse tree; Oxigraph runs the query.
The two tokenisers differ in exactly the places where text can mean two things, so the checker
removes those places instead of hoping the parsers agree:

- ``\r`` ends a ``#`` comment for Oxigraph and not for rdflib (a ``SERVICE`` after ``\r``
  is code to one and a comment to the other): line ends are normalised to ``\n`` and the
  normalised text is the one that runs;
- ``\uXXXX``/``\UXXXXXXXX`` escapes are expanded over the whole text by rdflib (SPARQL 1.1
  §19.2) and only inside IRIs and strings by Oxigraph: they are refused anywhere (a model can
  write the character itself); so are control, format and line-separator characters;
- ``SERVICE`` is Oxigraph's only way to reach the network from a query (updates, ``LOAD``
  included, cannot be run by ``Store.query`` at all): the word is refused anywhere in the
  text, case-insensitively, whether a parser would read it as a keyword, a name, a string or a
  comment, so no difference between parsers can turn it into a call.

Refusing is chosen over normalising more (re-writing strings and comments) because the
refusals cost a model nothing it needs, and a normaliser would be a third tokeniser that can be
wrong. What remains, Oxigraph checks itself where it runs the query: the sandbox refuses the
query when Oxigraph reads another form (SELECT/ASK) or other projected variables than rdflib.

:class:`ReadOnlyQueryRunner` runs checked queries on one graph. A model's query (the default)
runs in a :class:`~knowledge.scene.query_sandbox.QuerySandbox`: a worker process over a snapshot of
the graph, with memory and CPU limits, killed at ``timeout_s``; the next query starts a new
worker. A pack's template query (``template=True``) is the pack author's and runs in-process as
a *string* through ``graph.query`` (a prepared query would make rdflib leave the Oxigraph store
for its own, much slower engine) on a worker thread owned by the runner; one not finished after
``timeout_s`` is refused, and until it ends (Python cannot stop the thread) the runner refuses
new template queries as busy instead of queueing them. Either way at most ``max_rows`` rows and
``max_bytes`` bytes of rendered terms come back, whatever the query's own LIMIT says, and the
outcome is marked ``truncated``.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Hashable, Iterator, Mapping
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

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.scene.query_sandbox import (
    QuerySandbox,
    ResultCap,
    SandboxLimits,
    SandboxRefused,
    SandboxStopped,
    compact_iri,
)

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
_LINE_END = re.compile(r"\r\n?")
_CODEPOINT_ESCAPE = re.compile(r"\\[uU]")
_SERVICE_WORD = re.compile("service", re.IGNORECASE)
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_ALLOWED_CONTROLS = frozenset("\t\n")


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
    truncated: bool = Field(description="the query had more rows than max_rows, or more bytes")
    elapsed_ms: float = Field(description="wall time of run(), parsing and checks included")


@dataclass(frozen=True)
class CheckedQuery:
    """A query that passed every check, as it will run.

    ``text``: the normalised text with the allowed prefixes it uses declared; ``variables``:
    the projected variables rdflib read (None for ``SELECT *`` and for ASK).
    """

    kind: Literal["select", "ask"]
    text: str
    variables: list[str] | None


@dataclass
class _Inspection:
    """What a walk over the parse tree found that the whitelist rules care about."""

    declared: dict[str, str] = field(default_factory=dict)
    bases: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)
    datasets: list[str] = field(default_factory=list)
    graphs: list[str] = field(default_factory=list)
    prefixes_used: set[str] = field(default_factory=set)
    iris: set[str] = field(default_factory=set)


TEMPLATE_LENGTH_FACTOR = 2
"""A bound template may be this many times a model query's ``max_chars`` (its parameters'
values are terms the memory and the slots supply, several per parameter)."""


class QueryChecker:
    """Decides whether model-written SPARQL may run, without running it (see the module).

    ``prefixes`` maps prefix names to the namespace IRIs a query may touch (for example
    ``{"cog": "https://cogtree.dev/ontology#"}``); rdf, rdfs, owl and xsd are always allowed.
    Cheap enough for a tick: it parses and walks the text once.
    """

    def __init__(self, prefixes: Mapping[str, str], *, max_chars: int = 4000) -> None:
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
        self.max_chars = max_chars
        self.prefixes: dict[str, str] = {**STANDARD_PREFIXES, **prefixes}
        self._own_prefixes = dict(prefixes)
        self._allowed_namespaces = set(self.prefixes.values())

    def check(self, text: str, *, template: bool = False) -> CheckedQuery:
        """The query as it will run, or :class:`QueryRefused` naming the reason.

        ``template``: a pack's own template, whose length is the pack author's; it may be up to
        :data:`TEMPLATE_LENGTH_FACTOR` times ``max_chars`` once its parameters are bound.
        """
        if not isinstance(text, str):
            raise QueryRefused(f"expected the query as a string, got {type(text).__name__}")
        limit = self.max_chars * (TEMPLATE_LENGTH_FACTOR if template else 1)
        if len(text) > limit:
            raise QueryRefused(
                f"query is {len(text)} characters long; the limit is {limit}. "
                "Ask a smaller question, one query at a time."
            )
        if not text.strip():
            raise QueryRefused(f"query is empty. {ALLOWED_FORMS}")
        text = _normalised(text)
        kind, variables, inspection = self._parse(text)
        self._check_whitelist(inspection)
        _refuse_service_word(text)
        return CheckedQuery(kind=kind, text=self._header(inspection) + text, variables=variables)

    def _parse(self, text: str) -> tuple[Literal["select", "ask"], list[str] | None, _Inspection]:
        """The query form, its projection and what the whitelist checks need, or a refusal."""
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
        return _QUERY_FORMS[body.name], _projection(body), _inspect([prologue, body])

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
        """Refuse BASE, SERVICE, foreign prefixes and IRIs, and graphs but the default one."""
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
        for clause in (*inspection.datasets, *inspection.graphs):
            raise QueryRefused(
                f"{clause} names a graph; only the default graph may be queried, so write the "
                "patterns without FROM, FROM NAMED or GRAPH"
            )

    def _header(self, inspection: _Inspection) -> str:
        """PREFIX declarations for the allowed prefixes the query uses without declaring them."""
        missing = sorted(inspection.prefixes_used - inspection.declared.keys())
        return "".join(f"PREFIX {name}: <{self.prefixes[name]}>\n" for name in missing)

    def _is_allowed(self, iri: str) -> bool:
        return any(iri.startswith(namespace) for namespace in self._allowed_namespaces)

    def _describe_allowed(self) -> str:
        own = ", ".join(f"{name}: <{iri}>" for name, iri in self._own_prefixes.items())
        standard = ", ".join(STANDARD_PREFIXES)
        return f"{own} (and {standard})" if own else standard


class ReadOnlyQueryRunner(Closeable):
    """Runs checked SPARQL against ``graph``: SELECT/ASK only, whitelisted, bounded, timed.

    :meth:`run` returns a :class:`QueryOutcome` or raises :class:`QueryRefused`; a model's query
    runs in a worker process over a snapshot of ``graph`` (taken again when ``version()``
    changes, read before the snapshot is taken; without ``version``, when the snapshot's bytes
    change), a template query in-process.
    Calls are serialised; call :meth:`close` (or use the runner as a context manager) to stop
    the worker process and thread.
    """

    def __init__(
        self,
        graph: Graph,
        prefixes: Mapping[str, str],
        *,
        max_rows: int = 200,
        timeout_s: float = 0.5,
        max_chars: int = 4000,
        max_bytes: int = 256 * 1024,
        memory_mb: int = 1024,
        version: Callable[[], Hashable] | None = None,
    ) -> None:
        if max_rows < 1:
            raise ValueError(f"max_rows must be at least 1, got {max_rows}")
        if not timeout_s > 0:
            raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s}")
        self.checker = QueryChecker(prefixes, max_chars=max_chars)
        self.limits = SandboxLimits(
            timeout_s=timeout_s, memory_mb=memory_mb, max_rows=max_rows, max_bytes=max_bytes
        )
        self.graph = graph
        self.max_rows = max_rows
        self.timeout_s = timeout_s
        self.max_chars = max_chars
        self.prefixes = self.checker.prefixes
        self._version = version
        self._sandbox = QuerySandbox(self.limits, self.prefixes)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="readonly-sparql")
        self._lock = threading.Lock()
        self._runaway: Future[QueryOutcome] | None = None
        self._closed = False

    def run(self, text: str, *, template: bool = False) -> QueryOutcome:
        """Check ``text`` and run it; raise :class:`QueryRefused` naming the reason if refused.

        ``template=True`` for a pack's own query template (runs in-process); otherwise the text
        is a model's and runs in the sandbox process. Blocks up to ``timeout_s`` (plus the
        worker's start and the snapshot's loading): never call it on the tick thread.
        """
        started = time.perf_counter()
        try:
            checked = self.checker.check(text, template=template)
            with self._lock:
                if self._closed:
                    raise RuntimeError(
                        "this ReadOnlyQueryRunner is closed; create a new one to run queries"
                    )
                if template:
                    return self._run_in_process(checked, started)
                return self._run_in_sandbox(checked, started)
        except QueryRefused as refusal:
            logger.info("refused a read-only query: %s", refusal)
            raise

    def close(self) -> None:
        """Stop accepting queries and the worker; a template query past its limit runs on."""
        with self._lock:
            self._closed = True
            self._sandbox.close()
        self._executor.shutdown(wait=False, cancel_futures=True)

    @property
    def sandbox(self) -> QuerySandbox:
        """The worker process's handle (for tests and benchmarks)."""
        return self._sandbox

    def _run_in_sandbox(self, checked: CheckedQuery, started: float) -> QueryOutcome:
        """A model's query, in the worker process over an up-to-date snapshot of the graph."""
        if self._version is not None:
            key: Hashable = self._version()

            def snapshot() -> bytes:
                return _ntriples(self.graph)

        else:
            data = _ntriples(self.graph)
            key = hashlib.sha256(data).hexdigest()

            def snapshot() -> bytes:
                return data

        try:
            result = self._sandbox.run(
                checked.text,
                kind=checked.kind,
                variables=checked.variables,
                snapshot_key=key,
                snapshot=snapshot,
            )
        except SandboxStopped as stopped:
            raise QueryRefused(
                f"query {stopped}; it was stopped and its result discarded. Use more selective "
                "patterns, fewer joins or a LIMIT"
            ) from None
        except SandboxRefused as refused:
            raise QueryRefused(f"{refused}. {ALLOWED_FORMS}") from None
        return QueryOutcome(
            kind=checked.kind,
            variables=result.variables,
            rows=result.rows,
            boolean=result.boolean,
            truncated=result.truncated,
            elapsed_ms=_ms_since(started),
        )

    def _run_in_process(self, checked: CheckedQuery, started: float) -> QueryOutcome:
        """A template query on the runner's thread, waited for up to ``timeout_s``."""
        if self._runaway is not None and not self._runaway.done():
            raise QueryRefused(
                "the previous query is still running after exceeding its time limit; "
                "try again once it has finished"
            )
        cancelled = threading.Event()
        future = self._executor.submit(self._execute, checked, cancelled, started)
        try:
            return future.result(timeout=self.timeout_s)
        except FutureTimeout:
            cancelled.set()
            self._runaway = future
            raise QueryRefused(
                f"query exceeded its time limit of {self.timeout_s:g} s and its result was "
                "discarded; use more selective patterns, fewer joins or a LIMIT"
            ) from None

    def _execute(
        self, checked: CheckedQuery, cancelled: threading.Event, started: float
    ) -> QueryOutcome:
        """Run the checked query on the worker thread and render the rows the caps admit."""
        variables: list[str] = []
        rows: list[dict[str, str | None]] = []
        truncated = False
        try:
            result = self.graph.query(checked.text)
            if checked.kind == "select":
                variables = [str(variable) for variable in result.vars or []]
                try:
                    truncated = self._take_rows(result, variables, rows, cancelled)
                finally:
                    _release_cursor(result)
        except (SyntaxError, ValueError, OSError) as error:
            raise QueryRefused(f"the store could not run the query: {error}") from error
        return QueryOutcome(
            kind=checked.kind,
            variables=variables,
            rows=rows,
            boolean=bool(result.askAnswer) if checked.kind == "ask" else None,
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
        """Append the rendered rows the caps admit; True when the result had more."""
        cap = ResultCap(self.limits.max_rows, self.limits.max_bytes)
        for row in result:
            if cancelled.is_set():
                return False
            if isinstance(row, ResultRow):
                rendered = {
                    name: self._render(value) for name, value in zip(variables, row, strict=True)
                }
                if not cap.admit(rendered):
                    return True
                rows.append(rendered)
        return False

    def _render(self, term: Node | None) -> str | None:
        """A term as a short string: ``prefix:local``, a lexical form, ``_:id`` or the IRI."""
        if term is None:
            return None
        if isinstance(term, URIRef):
            return compact_iri(str(term), self.prefixes)
        if isinstance(term, BNode):
            return f"_:{term}"
        return str(term)


def _normalised(text: str) -> str:
    """``text`` with newline line ends, or a refusal of escapes and invisible characters."""
    if _CODEPOINT_ESCAPE.search(text):
        raise QueryRefused(
            "\\u and \\U escapes are not allowed (parsers expand them in different places); "
            "write the character itself"
        )
    text = _LINE_END.sub("\n", text)
    for position, char in enumerate(text):
        if char not in _ALLOWED_CONTROLS and unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise QueryRefused(
                f"character U+{ord(char):04X} at offset {position} is not allowed in a query; "
                "use plain spaces, tabs and line breaks"
            )
    return text


def _refuse_service_word(text: str) -> None:
    """Refuse ``SERVICE`` anywhere: no parser may read it as a remote call (see the module)."""
    found = _SERVICE_WORD.search(text)
    if found is not None:
        raise QueryRefused(
            f"the word {found.group()!r} at offset {found.start()} is not allowed anywhere in a "
            "query (not in a name, a string or a comment): SERVICE would query a remote "
            "endpoint, and only the local graph may be queried"
        )


def _projection(body: CompValue) -> list[str] | None:
    """The SELECT's projected variable names in order; None for ``SELECT *`` and ASK."""
    projection = _field(body, "projection")
    if body.name != "SelectQuery" or not projection:
        return None
    return [str(_field(item, "evar") or _field(item, "var")) for item in projection]


def _ntriples(graph: Graph) -> bytes:
    """``graph``'s triples as N-Triples (blank node labels kept), serialised by Oxigraph."""
    data = graph.serialize(format="ox-nt", encoding="utf-8")
    assert isinstance(data, bytes)
    return data


def _inspect(tree: Any) -> _Inspection:
    """Walk a parse tree without recursion: prefixes, IRIs, BASE, SERVICE, FROM and GRAPH."""
    inspection = _Inspection()
    for node in _nodes(tree):
        if isinstance(node, CompValue):
            if node.name == "PrefixDecl":
                inspection.declared[str(_field(node, "prefix") or "")] = str(node["iri"])
            elif node.name == "Base":
                inspection.bases.append(str(node["iri"]))
            elif node.name == "ServiceGraphPattern":
                inspection.services.append(_field(node, "term").n3())
            elif node.name == "DatasetClause":
                named = _field(node, "named")
                clause = f"FROM NAMED {named.n3()}" if named is not None else None
                inspection.datasets.append(clause or f"FROM {_field(node, 'default').n3()}")
            elif node.name == "GraphGraphPattern":
                inspection.graphs.append(f"GRAPH {_field(node, 'term').n3()}")
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
