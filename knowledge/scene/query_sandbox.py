"""A worker process that runs one checked SPARQL query at a time, and can be stopped.

Python cannot stop a thread inside Oxigraph, so model-written queries run in a child process
that the parent can kill. :class:`QuerySandbox` starts the child on first use (this file run as
a script, ``python -I query_sandbox.py FD``: the child imports nothing but the standard library
and pyoxigraph, nor re-imports the parent's program), sends it a snapshot of the graph
(N-Triples, loaded into the child's own in-memory Oxigraph store, default graph only) whenever
the snapshot's key changes, then the query. Oxigraph's memory store iterates newest first, and
the snapshot lists triples in the parent's iteration order: the child inserts them in reverse,
so it iterates them in the parent's order and aggregates (a SUM of doubles, say) add in the same
order, giving the same figures in-process and in the sandbox. The child

- leaves the network where the kernel allows it (a new, empty network namespace, Linux), so
  that even a query that reached Oxigraph with a ``SERVICE`` call could not connect anywhere
  (pyoxigraph has no option to turn SERVICE off); :attr:`QuerySandbox.offline` says whether it
  did;
- caps its address space (``RLIMIT_AS``) at its size after start-up plus ``memory_mb`` MiB,
  so an allocation bomb fails inside the child (Rust aborts, Python raises MemoryError);
- caps its CPU time (``RLIMIT_CPU``) at what it has used plus the query's budget, so a runaway
  query ends with SIGXCPU even if the parent is gone;
- runs only ``Store.query`` (Oxigraph's query parser: no update form can run) with no base
  IRI and the allowed prefixes, and refuses what Oxigraph reads as CONSTRUCT or DESCRIBE:
  Oxigraph, which runs the query, is the one that reads it (its form, its variables, its
  syntax errors), so no second parser can read the text otherwise;
- answers a check (``check_only``) with the form and variables Oxigraph read, without reading
  any row, so that a query can be checked before it runs (over an empty graph);
- renders at most ``max_rows`` rows and ``max_bytes`` bytes of terms.

The parent waits ``timeout_s`` for the answer and kills the child when it is late, reads at
most a bounded reply, and maps a dead child to :class:`SandboxStopped`. The next query starts
a fresh child (and re-sends the snapshot): the sandbox recovers from every kill.
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import resource
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

QueryKind = Literal["select", "ask"]

_MIB = 1024 * 1024
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_REPLY_SLACK = 64 * 1024
"""Bytes of JSON framing allowed in a reply on top of ``max_bytes`` of rendered terms."""


GRAPH_FORMS = (
    "CONSTRUCT and DESCRIBE build a graph (DESCRIBE: whatever the store holds about a "
    "resource) instead of answering a question"
)
"""Why a query Oxigraph reads as CONSTRUCT or DESCRIBE is refused."""


class SandboxStopped(Exception):
    """The worker did not answer: it was killed at its deadline or died over a limit."""


class SandboxRefused(Exception):
    """Oxigraph would not run the query: a syntax error (``syntax``), or not SELECT or ASK."""

    def __init__(self, message: str, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax


@dataclass(frozen=True)
class SandboxLimits:
    """What one query in the sandbox may use.

    ``timeout_s``: wall-clock time for the query (start-up and snapshot loading excluded; they
    have ``startup_s``); ``memory_mb``: address space over the worker's size after start-up;
    ``max_rows`` and ``max_bytes``: the rows and rendered bytes kept.
    """

    timeout_s: float = 0.5
    memory_mb: int = 1024
    max_rows: int = 200
    max_bytes: int = 256 * 1024
    startup_s: float = 30.0

    def __post_init__(self) -> None:
        for name in ("timeout_s", "memory_mb", "max_rows", "max_bytes", "startup_s"):
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"{name} must be positive, got {value}")


@dataclass(frozen=True)
class SandboxResult:
    """Rows of a SELECT (rendered terms), or an ASK's answer, as Oxigraph returned them."""

    kind: QueryKind
    variables: list[str]
    rows: list[dict[str, str | None]]
    boolean: bool | None
    truncated: bool


class ResultCap:
    """Counts rows and rendered bytes; says when the next row would pass either cap."""

    def __init__(self, max_rows: int, max_bytes: int) -> None:
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self.rows = 0
        self.bytes = 0

    def admit(self, row: Mapping[str, str | None]) -> bool:
        """Count ``row`` and return True, or return False when it would pass a cap."""
        size = sum(len(value.encode("utf-8")) for value in row.values() if value is not None)
        if self.rows == self.max_rows or self.bytes + size > self.max_bytes:
            return False
        self.rows += 1
        self.bytes += size
        return True


def compact_iri(iri: str, prefixes: Mapping[str, str]) -> str:
    """``prefix:local`` for the longest namespace of ``prefixes`` that starts ``iri``, else it."""
    best: tuple[str, str] | None = None
    for name, namespace in prefixes.items():
        if iri.startswith(namespace) and (best is None or len(namespace) > len(best[1])):
            best = (name, namespace)
    if best is None:
        return iri
    return f"{best[0]}:{iri[len(best[1]) :]}"


class QuerySandbox:
    """Runs checked query text in a killable worker process over a snapshot of a graph.

    Not thread-safe: the caller serialises :meth:`run` and :meth:`close`.
    """

    def __init__(self, limits: SandboxLimits, prefixes: Mapping[str, str]) -> None:
        self.limits = limits
        self.prefixes = dict(prefixes)
        self._process: subprocess.Popen[bytes] | None = None
        self._channel: Connection | None = None
        self._loaded: Hashable | None = None
        self._exit_status: int | None = None
        self.offline: bool | None = None
        """Whether the last worker started has no network (None before the first start)."""

    def run(
        self,
        text: str,
        *,
        snapshot_key: Hashable,
        snapshot: Callable[[], bytes],
        check_only: bool = False,
    ) -> SandboxResult:
        """Run ``text`` over the graph ``snapshot()`` serialises (N-Triples, UTF-8).

        The snapshot is taken and sent only when ``snapshot_key`` differs from the loaded one.
        ``check_only``: Oxigraph reads the query and no row is read (an ASK is still answered:
        Oxigraph answers it as it reads it). Raises :class:`SandboxRefused` or
        :class:`SandboxStopped`.
        """
        self._ready()
        if self._loaded != snapshot_key:
            self._loaded = None
            self._send("loading the graph", json.dumps({"op": "load"}).encode(), snapshot())
            self._reply(self.limits.startup_s, "loading the graph")
            self._loaded = snapshot_key
        request = {
            "op": "query",
            "text": text,
            "check_only": check_only,
            "prefixes": self.prefixes,
            "max_rows": self.limits.max_rows,
            "max_bytes": self.limits.max_bytes,
            "cpu_s": math.ceil(self.limits.timeout_s) + 1,
        }
        self._send("the query", json.dumps(request).encode())
        reply = self._reply(self.limits.timeout_s, "the query")
        return SandboxResult(
            kind="ask" if reply["boolean"] is not None else "select",
            variables=list(reply["variables"]),
            rows=list(reply["rows"]),
            boolean=reply["boolean"],
            truncated=bool(reply["truncated"]),
        )

    def close(self) -> None:
        """Stop the worker process (a query still running in it is killed)."""
        self._stop()

    @property
    def worker_pid(self) -> int | None:
        """The worker process's id, or None while none runs (for tests and benchmarks)."""
        return self._process.pid if self._process is not None else None

    def _ready(self) -> None:
        """Make sure a worker runs, starting one (and waiting for it) if needed."""
        if self._process is not None and self._process.poll() is None and self._channel:
            return
        self._stop()
        parent, child = socket.socketpair()
        try:
            self._process = subprocess.Popen(
                [
                    sys.executable,
                    "-I",
                    os.path.abspath(__file__),
                    str(child.fileno()),
                    str(self.limits.memory_mb),
                ],
                pass_fds=(child.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        self._channel = Connection(parent.detach())
        self.offline = bool(self._reply(self.limits.startup_s, "starting the worker")["offline"])

    def _send(self, doing: str, *frames: bytes) -> None:
        """Send ``frames`` to the worker; raise :class:`SandboxStopped` if it is gone."""
        assert self._channel is not None
        try:
            for frame in frames:
                self._channel.send_bytes(frame)
        except OSError:
            raise SandboxStopped(self._death(doing)) from None

    def _reply(self, timeout_s: float, doing: str) -> dict[str, Any]:
        """The worker's next reply within ``timeout_s``; kill it and raise when none comes."""
        assert self._channel is not None and self._process is not None
        try:
            if not self._channel.poll(timeout_s):
                self._stop()
                raise SandboxStopped(f"exceeded its time limit of {timeout_s:g} s")
            data = self._channel.recv_bytes(self.limits.max_bytes + _REPLY_SLACK)
        except EOFError:
            raise SandboxStopped(self._death(doing)) from None
        except OSError as error:
            # multiprocessing refuses a reply over the cap with an OSError that carries no
            # errno; a channel broken by a dying worker carries one (ECONNRESET, EPIPE), and
            # a worker killed a moment ago may not be reaped yet, so poll() alone cannot tell.
            if error.errno is None and self._process.poll() is None:
                self._stop()
                raise SandboxStopped(
                    f"sent a reply larger than {self.limits.max_bytes} bytes while {doing}"
                ) from None
            raise SandboxStopped(self._death(doing)) from None
        reply: dict[str, Any] = json.loads(data)
        if reply.get("error"):
            if reply.get("stopped"):
                self._stop()
                raise SandboxStopped(str(reply["error"]))
            raise SandboxRefused(str(reply["error"]), syntax=bool(reply.get("syntax")))
        return reply

    def _death(self, doing: str) -> str:
        """Why the worker stopped answering while ``doing``; the worker is gone afterwards."""
        self._stop()
        code = self._exit_status
        if code in (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS):
            return (
                f"ran out of its memory limit of {self.limits.memory_mb} MiB while {doing} "
                "and was stopped"
            )
        if code == -signal.SIGXCPU:
            return f"used up its CPU time limit while {doing} and was stopped"
        return f"the query worker stopped while {doing} (exit status {code})"

    def _stop(self) -> None:
        """Kill the worker (if any) and forget it and what it had loaded."""
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._exit_status = self._process.wait()
            self._process = None
        self._loaded = None


# --- the worker (this file run as a script) ---------------------------------------------------


def _serve(fd: int, memory_mb: int) -> None:
    """The worker's loop: apply the limits, then answer load and query requests until EOF."""
    import pyoxigraph

    offline = _leave_network()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    page = os.sysconf("SC_PAGE_SIZE")
    with open("/proc/self/statm", encoding="ascii") as statm:
        size = int(statm.read().split()[0]) * page
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (size + memory_mb * _MIB, hard))
    channel = Connection(fd)
    store = pyoxigraph.Store()
    channel.send_bytes(json.dumps({"ready": True, "offline": offline}).encode())
    while True:
        try:
            request = json.loads(channel.recv_bytes())
        except EOFError:
            return
        try:
            if request["op"] == "load":
                _lift_cpu_limit()  # a query's CPU limit does not bound loading the next graph
                store = pyoxigraph.Store()
                data = channel.recv_bytes()
                triples = list(pyoxigraph.parse(data, format=pyoxigraph.RdfFormat.N_TRIPLES))
                store.extend(reversed(triples))
                reply: dict[str, Any] = {"loaded": len(store)}
            else:
                _limit_cpu(int(request["cpu_s"]))
                reply = _answer(pyoxigraph, store, request)
        except MemoryError:
            reply = {"error": f"ran out of its memory limit of {memory_mb} MiB", "stopped": True}
        except SyntaxError as error:
            reply = {"error": str(error), "syntax": True}
        except (ValueError, OSError) as error:
            reply = {"error": f"Oxigraph could not run the query: {error}"}
        channel.send_bytes(json.dumps(reply).encode())


def _leave_network() -> bool:
    """Move into a new network namespace (as root, or in a new user namespace); True if done."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    return any(
        libc.unshare(flags) == 0 for flags in (_CLONE_NEWNET, _CLONE_NEWUSER | _CLONE_NEWNET)
    )


def _lift_cpu_limit() -> None:
    """Take back the soft CPU limit :func:`_limit_cpu` set (up to the hard limit)."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))


def _limit_cpu(seconds: int) -> None:
    """Let this process use ``seconds`` more CPU seconds, then SIGXCPU ends it."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = math.ceil(usage.ru_utime + usage.ru_stime)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (used + seconds, hard))


def _answer(pyoxigraph: Any, store: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Run one query, SELECT or ASK as Oxigraph reads it; a check reads no row."""
    prefixes = request["prefixes"]
    result = store.query(request["text"], base_iri=None, prefixes=prefixes)
    if isinstance(result, pyoxigraph.QueryBoolean):
        return {"variables": [], "rows": [], "boolean": bool(result), "truncated": False}
    if not isinstance(result, pyoxigraph.QuerySolutions):
        return {"error": GRAPH_FORMS}
    variables = [variable.value for variable in result.variables]
    rows: list[dict[str, str | None]] = []
    truncated = False
    if not request["check_only"]:
        cap = ResultCap(int(request["max_rows"]), int(request["max_bytes"]))
        for solution in result:
            row = {name: _render(pyoxigraph, solution[name], prefixes) for name in variables}
            if not cap.admit(row):
                truncated = True
                break
            rows.append(row)
    return {"variables": variables, "rows": rows, "boolean": None, "truncated": truncated}


def _render(pyoxigraph: Any, term: Any, prefixes: Mapping[str, str]) -> str | None:
    """A term as the runner renders it: ``prefix:local``, ``_:id``, a lexical form or None."""
    if term is None:
        return None
    if isinstance(term, pyoxigraph.NamedNode):
        return compact_iri(term.value, prefixes)
    if isinstance(term, pyoxigraph.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, pyoxigraph.Literal):
        return str(term.value)
    return str(term)


if __name__ == "__main__":
    _serve(int(sys.argv[1]), int(sys.argv[2]))
