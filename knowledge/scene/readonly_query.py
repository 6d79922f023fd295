r"""Checks for SPARQL that a language model wrote, and a bounded runner for checked queries.

**Oxigraph reads the query.** The engine that runs a query is the only one that parses it:
its syntax errors, its form (SELECT and ASK run; CONSTRUCT and DESCRIBE are refused; an update
cannot be run by ``Store.query`` at all) and its projected variables are Oxigraph's, read in
the sandbox process where the query runs (:mod:`knowledge.scene.query_sandbox`), never on
the caller's thread. No second parser reads the text, so none can read it otherwise.

**The text rules hold for every reading.** What must never run is refused on the text itself,
by rules that do not depend on how a parser splits it into tokens (they look at the raw
characters: in code, a string or a comment alike). :class:`QueryChecker` applies them, in one
pass over at most ``max_chars`` characters, and refuses, with a reason:

- text over ``max_chars`` characters, or empty;
- ``\uXXXX``/``\UXXXXXXXX`` escapes (parsers expand them in different places; a model can
  write the character itself), and control, format and line-separator characters; line ends
  are normalised to ``\n`` (``\r`` ends a ``#`` comment for one parser and not another) and
  the normalised text is the one that runs;
- the word ``SERVICE`` anywhere, case-insensitively: it is Oxigraph's only way to reach the
  network from a query, so no reading can turn it into a call, at any depth;
- ``BASE``, ``FROM`` (``FROM NAMED``) and ``GRAPH`` wherever they are followed by what would
  make them clauses (an IRI, a prefixed name, a variable): only the default graph is queried;
- any ``<...>`` that has the shape of an IRI and is not in an allowed namespace (``cog:``,
  the pack's own, rdf, rdfs, owl, xsd): every IRI Oxigraph can read is one of these, so no
  foreign IRI runs, whether the text declares it as a prefix or names it; a prefix that is
  neither declared nor allowed is refused by Oxigraph (an unknown prefix is a syntax error);
- brackets nested deeper than :data:`MAX_NESTING` (the parser recurses on them).

The allowed prefixes may be used without declaring them: Oxigraph is given them.

:class:`ReadOnlyQueryRunner` runs checked queries on one graph. A model's query (the default)
runs in a :class:`~knowledge.scene.query_sandbox.QuerySandbox`: a worker process over a snapshot of
the graph, with memory and CPU limits, killed at ``timeout_s``; the next query starts a new
worker. A pack's template query (``template=True``) is the pack author's and runs in-process as
a *string* through ``graph.query`` (Oxigraph, through oxrdflib; a prepared query would make
rdflib leave the Oxigraph store for its own, much slower engine) on a worker thread owned by
the runner; one not finished after ``timeout_s`` is refused, and until it ends (Python cannot
stop the thread) the runner refuses new template queries as busy instead of queueing them.
Either way at most ``max_rows`` rows and ``max_bytes`` bytes of rendered terms come back,
whatever the query's own LIMIT says, and the outcome is marked ``truncated``. A query run
``without`` some nodes runs the same way on a view of the graph that does not hold them
(:mod:`knowledge.scene.graph_view`): it cannot reach them, whatever it projects.

:class:`QueryVetter` checks a model's query before it is sent to the runner (so that a refused
query can go back to the model): the text rules, then Oxigraph's reading in a sandbox over an
empty graph. It blocks (the worker starts on first use): call it on a worker, never on a tick.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rdflib import BNode, Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS, XSD
from rdflib.query import Result, ResultRow
from rdflib.term import Node

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.scene.graph_view import GraphView, GraphViews
from cogtree.knowledge.scene.query_sandbox import (
    GRAPH_FORMS,
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

MAX_NESTING = 40
"""Brackets (``(``, ``{``, ``[``) may nest this deep, counted over the raw text."""

_UPDATE_VERBS = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"}
)
_PREFIX_NAME = re.compile(r"(?:[A-Za-z][\w.-]*)?")
_IRI_TEXT = re.compile(r'[^\s<>"{}|^`\\]+')
_LINE_END = re.compile(r"\r\n?")
_CODEPOINT_ESCAPE = re.compile(r"\\[uU]")
_SERVICE_WORD = re.compile("service", re.IGNORECASE)
_GAP = r"(?:\s|#[^\n]*(?:\n|$))*"
"""What may stand between two tokens: white space and comments (a superset of SPARQL's)."""
_NAME_THEN_COLON = r"[^\s#<>{}()]*:"
"""A superset of a prefixed name's start (``cog:``, ``:``)."""
_CLAUSES = re.compile(
    rf"(?P<base>base){_GAP}<|(?P<from>from){_GAP}(?:<|named|{_NAME_THEN_COLON})"
    rf"|(?P<graph>graph){_GAP}(?:[?$<]|{_NAME_THEN_COLON})",
    re.IGNORECASE,
)
_IRI_SHAPE = re.compile(r'<([^<>"{}|^`\\\x00-\x20]*)>')
_TEMPLATE_SPANS = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'(?:[^'\\\n]|\\.)*'"
    r"|#[^\n]*"
    r'|<([^<>"{}|^`\\\x00-\x20]*)>',
    re.DOTALL,
)
"""In a template: its strings, comments and IRIs, read left to right (only its IRIs count)."""
_PREFIX_DECL = re.compile(rf"prefix{_GAP}({_PREFIX_NAME.pattern}):{_GAP}<$", re.IGNORECASE)
_SYNTAX_ERROR = re.compile(r"error at (\d+):(\d+): (.*)", re.DOTALL)
_PNAME_BEFORE = re.compile(r"([A-Za-z][\w.-]*)?:[^\s]*$")
_FIRST_WORDS = re.compile(r"(?:^|;)\s*([A-Za-z]+)")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_ALLOWED_CONTROLS = frozenset("\t\n")
_OPENING = frozenset("({[")
_CLOSING = frozenset(")}]")


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
    """A text that passed every text rule, as it will run (line ends normalised)."""

    text: str


TEMPLATE_LENGTH_FACTOR = 2
"""A bound template may be this many times a model query's ``max_chars`` (its parameters'
values are terms the memory and the slots supply, several per parameter)."""


class QueryChecker:
    """The text rules a query must pass before Oxigraph reads it (see the module).

    ``prefixes`` maps prefix names to the namespace IRIs a query may touch (for example
    ``{"cog": "https://cogtree.dev/ontology#"}``); rdf, rdfs, owl and xsd are always allowed.
    One pass over the text, no parser: it decides nothing Oxigraph reads (form, variables,
    syntax); :meth:`explain` words what Oxigraph refused.
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
        self._allowed_namespaces = tuple(sorted(set(self.prefixes.values())))

    def check(self, text: str, *, template: bool = False) -> CheckedQuery:
        """The query as it will run, or :class:`QueryRefused` naming the rule it breaks.

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
        _refuse_service_word(text)
        self._refuse_clauses(text)
        self._refuse_foreign_iris(text, template=template)
        _refuse_deep_nesting(text)
        return CheckedQuery(text=text)

    def explain(self, refused: SandboxRefused | SyntaxError, text: str) -> str:
        """Why Oxigraph would not run ``text``: a syntax error, an update, a form or a prefix."""
        if isinstance(refused, SandboxRefused) and not refused.syntax:
            return f"{refused}. {ALLOWED_FORMS}"
        words = [word.upper() for word in _FIRST_WORDS.findall(text)]
        updates = [word for word in words if word in _UPDATE_VERBS]
        if updates:
            return (
                f"{', '.join(dict.fromkeys(updates))} is a SPARQL update, which would change the "
                f"graph; updates never run here. {ALLOWED_FORMS}"
            )
        found = _SYNTAX_ERROR.match(str(refused).strip())
        if found is None:
            return f"syntax error: {refused}. {ALLOWED_FORMS}"
        line, column, expected = int(found[1]), int(found[2]), " ".join(found[3].split())
        lines = text.split("\n")
        said = lines[line - 1] if 0 < line <= len(lines) else ""
        if "Prefix not found" in expected:
            name = _PNAME_BEFORE.search(said[: column - 1])
            prefix = (name[1] or "") if name else "?"
            return f"prefix {prefix}: is not declared and not allowed; use {self._describe()}"
        if len(expected) > 200:
            expected = expected[:200] + "..."
        return (
            f"syntax error at line {line}, column {column}: {expected} "
            f"(line {line} reads {said.strip()!r}). {ALLOWED_FORMS}"
        )

    def _refuse_clauses(self, text: str) -> None:
        """Refuse BASE, FROM, FROM NAMED and GRAPH wherever they could be clauses."""
        found = _CLAUSES.search(text)
        if found is None:
            return
        if found["base"]:
            raise QueryRefused(
                f"BASE at offset {found.start()} is not allowed; write IRIs with the prefixes "
                f"{self._describe()}"
            )
        clause = "FROM" if found["from"] else "GRAPH"
        raise QueryRefused(
            f"{clause} at offset {found.start()} names a graph; only the default graph may be "
            "queried, so write the patterns without FROM, FROM NAMED or GRAPH"
        )

    def _refuse_foreign_iris(self, text: str, *, template: bool) -> None:
        """Refuse every IRI-shaped ``<...>`` outside the allowed namespaces (see the module).

        In a model's text, wherever it is; in a template (the pack author's text with terms
        rdflib wrote into it) only outside its strings and comments: a speaker named
        "<https://x>" is bound as a string.
        """
        for found in (_TEMPLATE_SPANS if template else _IRI_SHAPE).finditer(text):
            iri = found[1]
            if iri is None or iri.startswith(self._allowed_namespaces):
                continue
            declared = _PREFIX_DECL.search(text, max(0, found.start() - 200), found.start() + 1)
            if declared is not None:
                raise QueryRefused(
                    f"PREFIX {declared[1]}: <{iri}> is not an allowed namespace; use "
                    f"{self._describe()}"
                )
            raise QueryRefused(
                f"IRI <{iri}> is outside the allowed namespaces; use {self._describe()} "
                "(a comparison such as ?a<?b needs spaces: ?a < ?b)"
            )

    def _describe(self) -> str:
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
        template_timeout_s: float | None = None,
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
        self.template_timeout_s = template_timeout_s or timeout_s
        """How long a pack's own template may run (its author's code; default ``timeout_s``)."""
        self.max_chars = max_chars
        self.prefixes = self.checker.prefixes
        self._views = GraphViews(graph, version=version)
        self._sandbox = QuerySandbox(self.limits, self.prefixes)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="readonly-sparql")
        self._lock = threading.Lock()
        self._runaway: Future[QueryOutcome] | None = None
        self._closed = False

    def run(
        self, text: str, *, template: bool = False, without: frozenset[str] = frozenset()
    ) -> QueryOutcome:
        """Check ``text`` and run it; raise :class:`QueryRefused` naming the reason if refused.

        ``template=True`` for a pack's own query template (runs in-process); otherwise the text
        is a model's and runs in the sandbox process. ``without``: IRIs of nodes the query must
        not reach (it runs on a view of the graph without them). Blocks up to ``timeout_s``
        (plus the worker's start and the snapshot's loading): never call it on the tick thread.
        """
        started = time.perf_counter()
        try:
            checked = self.checker.check(text, template=template)
            view = self._views.without(without)
            with self._lock:
                if self._closed:
                    raise RuntimeError(
                        "this ReadOnlyQueryRunner is closed; create a new one to run queries"
                    )
                if template:
                    return self._run_in_process(checked, view, started)
                return self._run_in_sandbox(checked, view, started)
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

    def _run_in_sandbox(
        self, checked: CheckedQuery, view: GraphView, started: float
    ) -> QueryOutcome:
        """A model's query, in the worker process over an up-to-date snapshot of ``view``."""
        if view.key is not None:
            key: Hashable = view.key

            def snapshot() -> bytes:
                return _ntriples(view.graph)

        else:
            data = _ntriples(view.graph)
            key = hashlib.sha256(data).hexdigest()

            def snapshot() -> bytes:
                return data

        try:
            result = self._sandbox.run(checked.text, snapshot_key=key, snapshot=snapshot)
        except SandboxStopped as stopped:
            raise QueryRefused(
                f"query {stopped}; it was stopped and its result discarded. Use more selective "
                "patterns, fewer joins or a LIMIT"
            ) from None
        except SandboxRefused as refused:
            raise QueryRefused(self.checker.explain(refused, checked.text)) from None
        return QueryOutcome(
            kind=result.kind,
            variables=result.variables,
            rows=result.rows,
            boolean=result.boolean,
            truncated=result.truncated,
            elapsed_ms=_ms_since(started),
        )

    def _run_in_process(
        self, checked: CheckedQuery, view: GraphView, started: float
    ) -> QueryOutcome:
        """A template query on the runner's thread, waited for up to ``template_timeout_s``."""
        if self._runaway is not None and not self._runaway.done():
            raise QueryRefused(
                "the previous query is still running after exceeding its time limit; "
                "try again once it has finished"
            )
        cancelled = threading.Event()
        future = self._executor.submit(self._execute, checked, view.graph, cancelled, started)
        try:
            return future.result(timeout=self.template_timeout_s)
        except FutureTimeout:
            cancelled.set()
            self._runaway = future
            raise QueryRefused(
                f"query exceeded its time limit of {self.template_timeout_s:g} s and its result "
                "was discarded; use more selective patterns, fewer joins or a LIMIT"
            ) from None

    def _execute(
        self, checked: CheckedQuery, graph: Graph, cancelled: threading.Event, started: float
    ) -> QueryOutcome:
        """Run the checked query on the worker thread and render the rows the caps admit."""
        variables: list[str] = []
        rows: list[dict[str, str | None]] = []
        truncated = False
        try:
            result = graph.query(checked.text, initNs=self.prefixes)
            if result.type not in ("SELECT", "ASK"):
                raise QueryRefused(f"{GRAPH_FORMS}. {ALLOWED_FORMS}")
            if result.type == "SELECT":
                variables = [str(variable) for variable in result.vars or []]
                try:
                    truncated = self._take_rows(result, variables, rows, cancelled)
                finally:
                    _release_cursor(result)
        except SyntaxError as error:
            raise QueryRefused(self.checker.explain(error, checked.text)) from None
        except (ValueError, OSError) as error:
            if isinstance(error, QueryRefused):
                raise
            raise QueryRefused(f"the store could not run the query: {error}") from error
        return QueryOutcome(
            kind="ask" if result.type == "ASK" else "select",
            variables=variables,
            rows=rows,
            boolean=bool(result.askAnswer) if result.type == "ASK" else None,
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


class QueryVetter(Closeable):
    """Whether the runner would refuse a model's query, decided without running it on data.

    The text rules of :class:`QueryChecker`, then Oxigraph's reading of the text in a
    :class:`~knowledge.scene.query_sandbox.QuerySandbox` over an empty graph (no row is read;
    an ASK is answered over nothing, within ``timeout_s``). Blocks: the worker process starts
    on the first call, then a check takes about a millisecond; call it on a worker, never on a
    tick. Thread-safe; :meth:`close` stops the worker.
    """

    def __init__(
        self, prefixes: Mapping[str, str], *, max_chars: int = 4000, timeout_s: float = 0.5
    ) -> None:
        self.checker = QueryChecker(prefixes, max_chars=max_chars)
        self._sandbox = QuerySandbox(SandboxLimits(timeout_s=timeout_s), self.checker.prefixes)
        self._lock = threading.Lock()

    def refusal(self, text: str) -> str | None:
        """Why the runner would refuse ``text``, or None when it would run it."""
        try:
            checked = self.checker.check(text)
            with self._lock:
                self._sandbox.run(
                    checked.text, snapshot_key="empty", snapshot=lambda: b"", check_only=True
                )
        except QueryRefused as refused:
            return str(refused)
        except SandboxRefused as refused:
            return self.checker.explain(refused, checked.text)
        except SandboxStopped as stopped:
            return f"query {stopped} while Oxigraph read it; write a simpler query"
        return None

    def close(self) -> None:
        """Stop the worker process."""
        with self._lock:
            self._sandbox.close()


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
            f"SERVICE (the word {found.group()!r} at offset {found.start()}) would query a remote "
            "endpoint, and only the local graph may be queried; the word is refused anywhere "
            "in a query, in a name, a string or a comment too"
        )


def _ntriples(graph: Graph) -> bytes:
    """``graph``'s triples as N-Triples (blank node labels kept), serialised by Oxigraph."""
    data = graph.serialize(format="ox-nt", encoding="utf-8")
    assert isinstance(data, bytes)
    return data


def _refuse_deep_nesting(text: str) -> None:
    """Refuse brackets nested deeper than :data:`MAX_NESTING` (counted in strings too)."""
    depth = 0
    for position, char in enumerate(text):
        if char in _OPENING:
            depth += 1
            if depth > MAX_NESTING:
                raise QueryRefused(
                    f"query is nested too deeply to check (more than {MAX_NESTING} brackets "
                    f"deep at offset {position}); flatten its brackets. {ALLOWED_FORMS}"
                )
        elif char in _CLOSING:
            depth = max(0, depth - 1)


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
