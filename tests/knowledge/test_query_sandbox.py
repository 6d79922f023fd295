"""Attacks on the read-only runner: what Oxigraph, which runs a model's query, would have done.

A loopback SPARQL endpoint counts the requests it receives: every attack must leave it at zero.
Control tests show that each trick is real (Oxigraph called the endpoint, or rdflib read the
text differently), so the refusals are not vacuous.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pyoxigraph
import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS
from rdflib.plugins.sparql.parser import parseQuery

from cogtree.knowledge.scene.query_sandbox import QuerySandbox, SandboxLimits, SandboxRefused
from cogtree.knowledge.scene.rdf_store import load_turtle, new_graph
from cogtree.knowledge.scene.readonly_query import QueryChecker, QueryRefused, ReadOnlyQueryRunner
from cogtree.knowledge.scene.scene_graph import SCENE, SceneGraph

COG = "https://cogtree.dev/ontology#"
HOME = "https://cogtree.dev/home/"
PREFIXES = {"cog": COG, "home": HOME}
EMPTY_RESULTS = json.dumps({"head": {"vars": ["s"]}, "results": {"bindings": []}}).encode()


class Endpoint:
    """A loopback SPARQL endpoint that answers every request with no rows, and counts them."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                endpoint.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "application/sparql-results+json")
                self.send_header("Content-Length", str(len(EMPTY_RESULTS)))
                self.end_headers()
                self.wfile.write(EMPTY_RESULTS)

            do_GET = do_POST = _answer

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/sparql"
        # serve_forever polls for shutdown every 0.5 s by default: each test's exit waited that
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    def __enter__(self) -> Endpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    with Endpoint() as running:
        yield running


@pytest.fixture
def scene() -> Graph:
    text = (
        f"@prefix cog: <{COG}> . @prefix home: <{HOME}> .\n"
        "home:kitchen a cog:Room . home:mug a cog:Object ; cog:inRoom home:kitchen ; cog:mass 3 ."
    )
    return load_turtle(new_graph(), "scene.ttl", text=text)


@pytest.fixture
def runner(scene: Graph, make_runner: Any) -> ReadOnlyQueryRunner:
    return make_runner(scene, timeout_s=5.0)


def items_graph(count: int) -> Graph:
    lines = [f"home:item{n} cog:mass {n} ." for n in range(count)]
    header = f"@prefix cog: <{COG}> .\n@prefix home: <{HOME}> .\n"
    return load_turtle(new_graph(), "items.ttl", text=header + "\n".join(lines))


def has_service(text: str) -> bool:
    """Whether rdflib's parse tree of ``text`` holds a SERVICE pattern."""
    return "ServiceGraphPattern" in repr(parseQuery(text))


def comment_trick(url: str) -> str:
    """A SERVICE call that rdflib reads as part of a comment, and Oxigraph as code."""
    return f"SELECT ?s WHERE {{ ?s a cog:Room # nothing to see\rSERVICE <{url}> {{ ?s ?p ?o }}\n}}"


# --- the tricks are real ----------------------------------------------------------------------


def test_control_oxigraph_calls_the_endpoint_that_rdflib_reads_as_a_comment(
    endpoint: Endpoint,
) -> None:
    text = f"PREFIX cog: <{COG}>\n" + comment_trick(endpoint.url)

    store = pyoxigraph.Store()
    kitchen = pyoxigraph.NamedNode(f"{HOME}kitchen")
    store.add(
        pyoxigraph.Quad(
            kitchen, pyoxigraph.NamedNode(str(RDF.type)), pyoxigraph.NamedNode(f"{COG}Room")
        )
    )

    assert not has_service(text)  # rdflib's check would have let it through
    list(store.query(text))

    assert endpoint.requests  # and Oxigraph called the remote endpoint


# --- refused, and nothing contacted -----------------------------------------------------------


@pytest.mark.parametrize(
    "attack",
    [
        "comment-cr",
        "comment-crlf-nested",
        "escaped-keyword",
        "escaped-iri",
        "lower-case",
        "base-relative",
        "variable-endpoint",
        "service-in-string",
        "line-separator",
    ],
)
def test_remote_calls_are_refused_and_nothing_is_contacted(
    runner: ReadOnlyQueryRunner, endpoint: Endpoint, attack: str
) -> None:
    url = endpoint.url
    texts = {
        "comment-cr": comment_trick(url),
        "comment-crlf-nested": (
            "SELECT ?s WHERE { ?s a cog:Room { SELECT ?s WHERE { ?s ?p ?o #\r\n"
            f"# hidden\rSERVICE SILENT <{url}> {{ ?s ?p ?o }}\n}} }} }}"
        ),
        "escaped-keyword": f"SELECT * WHERE {{ \\u0053ERVICE <{url}> {{ ?s ?p ?o }} }}",
        "escaped-iri": "SELECT * WHERE { SERVICE <http://127.0.0.1\\u003A1/> { ?s ?p ?o } }",
        "lower-case": f"SELECT * WHERE {{ sErViCe <{url}> {{ ?s ?p ?o }} }}",
        "base-relative": f"BASE <{url}> SELECT * WHERE {{ SERVICE <> {{ ?s ?p ?o }} }}",
        "variable-endpoint": (
            f"SELECT * WHERE {{ VALUES ?e {{ <{url}> }} SERVICE ?e {{ ?s ?p ?o }} }}"
        ),
        "service-in-string": (
            f'SELECT * WHERE {{ ?s ?p "x" # " SERVICE <{url}> {{ ?s ?p ?o }}\n}}'
        ),
        "line-separator": f"SELECT * WHERE {{ ?s ?p ?o # x\u2028SERVICE <{url}> {{ }}\n}}",
    }

    with pytest.raises(QueryRefused):
        runner.run(texts[attack])

    assert endpoint.requests == []


def test_the_comment_trick_is_read_as_oxigraph_reads_it(runner: ReadOnlyQueryRunner) -> None:
    text = comment_trick("http://127.0.0.1:1/sparql")

    with pytest.raises(QueryRefused, match="^SERVICE .* would query a remote endpoint"):
        runner.run(text)


@pytest.mark.parametrize(
    "update",
    [
        "LOAD <{url}>",
        "INSERT DATA { home:mug cog:colour 'red' }",
        "DELETE WHERE { ?s ?p ?o }",
        "SELECT * WHERE { ?s ?p ?o } ; LOAD <{url}>",
        "CLEAR DEFAULT",
    ],
)
def test_the_engine_itself_runs_no_update(
    scene: Graph, endpoint: Endpoint, update: str, make_runner: Any
) -> None:
    runner = make_runner(scene, timeout_s=5.0)
    text = update.replace("{url}", endpoint.url)
    size = len(scene)

    # past the checker, straight to the worker: Oxigraph's query parser refuses it
    with pytest.raises(SandboxRefused, match="^error at 1:") as refused:
        runner.sandbox.run(text, snapshot_key=1, snapshot=lambda: b"")
    assert refused.value.syntax
    with pytest.raises(QueryRefused):
        runner.run(text)

    assert endpoint.requests == []
    assert len(scene) == size
    assert runner.run("ASK { home:mug a cog:Object }").boolean is True


def test_the_worker_has_no_network_where_the_platform_allows(endpoint: Endpoint) -> None:
    sandbox = QuerySandbox(SandboxLimits(timeout_s=5.0), PREFIXES)
    try:
        text = f"SELECT * WHERE {{ SERVICE <{endpoint.url}> {{ ?s ?p ?o }} }}"
        try:
            sandbox.run(text, snapshot_key=1, snapshot=lambda: b"")
        except SandboxRefused as refused:
            assert "Oxigraph could not run the query" in str(refused)
        if not sandbox.offline:
            pytest.skip("this kernel gives the worker no network namespace of its own")
        assert endpoint.requests == []
    finally:
        sandbox.close()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (f"SELECT ?s FROM <{HOME}g> WHERE {{ ?s ?p ?o }}", "FROM at offset 10 names a graph"),
        (f"SELECT ?s FROM NAMED <{HOME}g> WHERE {{ ?s ?p ?o }}", "FROM at offset 10"),
        ("SELECT ?s FROM#x\n home:g WHERE { ?s ?p ?o }", "FROM at offset 10"),
        ("SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }", "GRAPH at offset 18 names a graph"),
        ("SELECT ?s WHERE { graph<urn:g> { ?s ?p ?o } }", "GRAPH at offset 18 names a graph"),
        ("SELECT ?s WHERE { 1GRAPH ?g { ?s ?p ?o } }", "GRAPH at offset 19 names a graph"),
        ('SELECT ?s WHERE { ?s rdfs:label "room service" }', "SERVICE (the word 'service'"),
        ('SELECT ?s WHERE { ?s rdfs:label "<urn:x>" }', "IRI <urn:x> is outside"),
        ("SELECT ?s WHERE { ?s ?p ?o }\0", "character U+0000"),
        ("SELECT ?s WHERE { ?s ?p ?o\u200b }", "character U+200B"),
        ('SELECT ?s WHERE { ?s ?p "\\u0041" }', "\\u and \\U escapes are not allowed"),
    ],
)
def test_the_text_rules_refuse_whatever_a_parser_would_read(text: str, reason: str) -> None:
    with pytest.raises(QueryRefused, match="^" + re.escape(reason)):
        QueryChecker(PREFIXES).check(text)


def test_the_checker_normalises_line_ends_and_leaves_the_reading_to_oxigraph() -> None:
    checked = QueryChecker(PREFIXES).check("SELECT ?s ?n\r\nWHERE { ?s cog:mass ?n }\r")

    assert checked.text == "SELECT ?s ?n\nWHERE { ?s cog:mass ?n }\n"


def test_the_form_and_variables_are_those_oxigraph_read(runner: ReadOnlyQueryRunner) -> None:
    star = runner.run("SELECT * WHERE { ?thing cog:inRoom ?room }")
    checked = runner.sandbox.run(
        "SELECT ?o WHERE { ?s ?p ?o }", snapshot_key=1, snapshot=lambda: b"", check_only=True
    )

    assert (star.kind, sorted(star.variables)) == ("select", ["room", "thing"])
    assert star.rows == [{"thing": "home:mug", "room": "home:kitchen"}]
    assert (checked.kind, checked.variables, checked.rows) == ("select", ["o"], [])


# --- bounded ----------------------------------------------------------------------------------


def test_a_runaway_model_query_is_killed_at_its_deadline_and_the_next_one_runs(
    make_runner: Any,
) -> None:
    runner = make_runner(items_graph(2000), timeout_s=0.3)
    assert runner.run("ASK { home:item1 cog:mass 1 }").boolean is True
    first = runner.sandbox.worker_pid
    assert first is not None

    with pytest.raises(QueryRefused, match="exceeded its time limit of 0.3 s; it was stopped"):
        runner.run(
            "SELECT (COUNT(*) AS ?n) WHERE { ?a cog:mass ?x . ?b cog:mass ?y . ?c cog:mass ?z }"
        )

    assert runner.sandbox.worker_pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)  # killed and reaped
    outcome = runner.run("SELECT ?m WHERE { home:item7 cog:mass ?m }")
    assert outcome.rows == [{"m": "7"}]
    assert runner.sandbox.worker_pid not in (None, first)


def test_an_allocation_bomb_is_stopped_by_the_memory_limit(make_runner: Any, scene: Graph) -> None:
    # 60^4 = 13 million rows, sorted: far more than 128 MiB
    values = " ".join(str(n) for n in range(60))
    bomb = (
        f"SELECT * WHERE {{ VALUES ?a {{ {values} }} VALUES ?b {{ {values} }} "
        f"VALUES ?c {{ {values} }} VALUES ?d {{ {values} }} }} ORDER BY ?d ?c ?b ?a"
    )
    assert len(bomb) < 1100
    runner = make_runner(scene, timeout_s=120.0, memory_mb=128)

    with pytest.raises(QueryRefused, match="ran out of its memory limit of 128 MiB"):
        runner.run(bomb)

    assert runner.run("ASK { home:mug cog:inRoom home:kitchen }").boolean is True


def test_results_are_capped_in_bytes_as_well_as_rows(make_runner: Any) -> None:
    graph = new_graph()
    for n in range(10):
        graph.add((URIRef(f"{HOME}item{n}"), RDFS.label, Literal(f"{n}" * 1000)))
    runner = make_runner(graph, max_bytes=2500)
    query = "SELECT ?label WHERE { ?item rdfs:label ?label }"

    for outcome in (runner.run(query), runner.run(query, template=True)):
        assert (len(outcome.rows), outcome.truncated) == (2, True)


# --- the snapshot -----------------------------------------------------------------------------


def test_a_model_query_sees_the_graph_as_it_is_now(make_runner: Any, scene: Graph) -> None:
    runner = make_runner(scene, timeout_s=5.0)
    ask = "ASK { home:cup a cog:Object }"
    assert runner.run(ask).boolean is False

    scene.add((URIRef(f"{HOME}cup"), URIRef(f"{RDFS}label"), Literal("cup")))
    scene.add((URIRef(f"{HOME}cup"), URIRef(f"{COG}inRoom"), URIRef(f"{HOME}kitchen")))
    load_turtle(scene, "cup.ttl", text=f"<{HOME}cup> a <{COG}Object> .")

    assert runner.run(ask).boolean is True


def test_the_snapshot_is_sent_again_only_when_the_version_changes(
    make_runner: Any, scene: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cogtree.knowledge.scene.readonly_query as readonly_query

    taken: list[int] = []
    serialise = readonly_query._ntriples
    monkeypatch.setattr(readonly_query, "_ntriples", lambda g: taken.append(1) or serialise(g))
    version = [0]
    runner = make_runner(scene, timeout_s=5.0, version=lambda: version[0])

    for _ in range(3):
        assert runner.run("ASK { home:mug a cog:Object }").boolean is True
    assert len(taken) == 1

    load_turtle(scene, "cup.ttl", text=f"<{HOME}cup> a <{COG}Object> .")
    version[0] += 1
    assert runner.run("ASK { home:cup a cog:Object }").boolean is True
    assert len(taken) == 2


def test_the_scene_graph_runs_model_queries_in_the_sandbox_over_its_current_belief() -> None:
    scene = SceneGraph.from_turtle_text(f"@prefix cog: <{COG}> .\n<{SCENE}mug> a cog:Object .")
    try:
        ask = "ASK { scene:cup a cog:Object }"
        assert scene.query_readonly("ASK { scene:mug a cog:Object }").boolean is True
        assert scene.query_readonly(ask).boolean is False
        scene.load_text(f"@prefix cog: <{COG}> .\n<{SCENE}cup> a cog:Object .")
        assert scene.query_readonly(ask).boolean is True
        assert scene.query_readonly(ask, template=True).boolean is True
    finally:
        scene.close()


def test_a_worker_killed_from_outside_is_replaced(runner: ReadOnlyQueryRunner) -> None:
    ask = "ASK { home:mug a cog:Object }"
    assert runner.run(ask).boolean is True
    worker = runner.sandbox.worker_pid
    assert worker is not None

    os.kill(worker, signal.SIGKILL)
    try:  # the kill may land before the next query or while it is sent
        first = runner.run(ask).boolean
    except QueryRefused as refusal:
        assert "the query worker stopped" in str(refusal)
        first = None

    assert first in (True, None)
    assert runner.run(ask).boolean is True
    assert runner.sandbox.worker_pid != worker


@pytest.mark.parametrize("option", ["max_bytes", "memory_mb"])
def test_sandbox_limits_must_be_positive(scene: Graph, option: str) -> None:
    with pytest.raises(ValueError, match=f"{option} must be positive, got 0"):
        ReadOnlyQueryRunner(scene, PREFIXES, **{option: 0})


def test_an_over_cap_reply_is_the_only_channel_error_without_errno() -> None:
    # The sandbox tells "reply over the cap" from "worker died" by this (CPython's
    # multiprocessing.connection): keep the assumption checked.
    import multiprocessing

    reader, writer = multiprocessing.Pipe(duplex=False)
    writer.send_bytes(b"x" * 100)
    with pytest.raises(OSError) as over_cap:
        reader.recv_bytes(10)
    assert over_cap.value.errno is None
    reader.close()
    writer.close()
