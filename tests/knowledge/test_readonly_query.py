"""The read-only runner for model-written SPARQL: what runs, what is refused, and why."""

from __future__ import annotations

import gc
import sys
import threading
import time
from typing import Any

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDFS

from cogtree.knowledge.packs.domain_pack import TEMPLATE_TIMEOUT_S
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.rdf_store import STORE, load_turtle, new_graph
from cogtree.knowledge.scene.readonly_query import QueryRefused, ReadOnlyQueryRunner

COG = "https://cogtree.dev/ontology#"
HOME = "https://cogtree.dev/home/"
PREFIXES = {"cog": COG, "home": HOME}

SCENE = """\
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix home: <https://cogtree.dev/home/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

home:kitchen a cog:Room ; rdfs:label "kitchen" .
home:hall a cog:Room ; rdfs:label "hall" .
home:mug a cog:Object ; cog:inRoom home:kitchen ; cog:colour "blue" ; cog:mass 0.3 ;
    cog:madeBy <http://example.org/acme> .
home:bottle a cog:Object ; cog:inRoom home:hall ; rdfs:label "} ; DROP ALL" .
"""


def items_graph(count: int) -> Graph:
    """An Oxigraph graph of ``count`` triples ``home:itemN cog:mass N``."""
    lines = [f"home:item{n} cog:mass {n} ." for n in range(count)]
    header = f"@prefix cog: <{COG}> .\n@prefix home: <{HOME}> .\n"
    return load_turtle(new_graph(), "items.ttl", text=header + "\n".join(lines))


@pytest.fixture
def scene() -> Graph:
    return load_turtle(new_graph(), "scene.ttl", text=SCENE)


@pytest.fixture
def runner(scene: Graph, make_runner: Any) -> ReadOnlyQueryRunner:
    return make_runner(scene)


# --- what runs --------------------------------------------------------------------------------


def test_select_returns_rows_with_compacted_iris_and_lexical_literals(
    runner: ReadOnlyQueryRunner,
) -> None:
    outcome = runner.run(
        "SELECT ?room ?label WHERE { ?room a cog:Room ; rdfs:label ?label } ORDER BY ?label"
    )

    assert outcome.kind == "select"
    assert outcome.variables == ["room", "label"]
    assert outcome.rows == [
        {"room": "home:hall", "label": "hall"},
        {"room": "home:kitchen", "label": "kitchen"},
    ]
    assert outcome.boolean is None
    assert outcome.truncated is False
    measured = outcome.elapsed_ms  # the runner reports how long the query took
    assert measured > 0


def test_ask_returns_a_boolean(runner: ReadOnlyQueryRunner) -> None:
    yes = runner.run("ASK { home:mug cog:inRoom home:kitchen }")
    no = runner.run("ASK { home:mug cog:inRoom home:hall }")

    assert (yes.kind, yes.boolean, yes.rows, yes.variables) == ("ask", True, [], [])
    assert no.boolean is False


def test_whitelisted_prefixes_work_declared_undeclared_or_renamed(
    runner: ReadOnlyQueryRunner,
) -> None:
    undeclared = runner.run("SELECT ?o WHERE { ?o cog:inRoom home:kitchen }")
    declared = runner.run(
        f"PREFIX cog: <{COG}>\nPREFIX home: <{HOME}>\n"
        "SELECT ?o WHERE { ?o cog:inRoom home:kitchen }"
    )
    renamed = runner.run(f"PREFIX c: <{COG}> SELECT ?o WHERE {{ ?o c:inRoom home:kitchen }}")
    full_iris = runner.run(f"SELECT ?o WHERE {{ ?o <{COG}inRoom> <{HOME}kitchen> }}")

    for outcome in (undeclared, declared, renamed, full_iris):
        assert outcome.rows == [{"o": "home:mug"}]


def test_terms_render_as_short_strings(runner: ReadOnlyQueryRunner) -> None:
    outcome = runner.run(
        "SELECT ?mass ?type ?maker ?label WHERE { home:mug cog:mass ?mass ; cog:madeBy ?maker "
        "BIND(datatype(?mass) AS ?type) OPTIONAL { home:mug rdfs:label ?label } }"
    )

    assert outcome.rows == [
        {"mass": "0.3", "type": "xsd:decimal", "maker": "http://example.org/acme", "label": None}
    ]


def test_sparql_syntax_inside_a_string_literal_is_data(
    runner: ReadOnlyQueryRunner, scene: Graph
) -> None:
    size = len(scene)

    by_label = runner.run('SELECT ?thing WHERE { ?thing rdfs:label "} ; DROP ALL" }')
    labels = runner.run("SELECT ?label WHERE { home:bottle rdfs:label ?label }")

    assert by_label.rows == [{"thing": "home:bottle"}]
    assert labels.rows == [{"label": "} ; DROP ALL"}]
    assert len(scene) == size


@pytest.mark.parametrize(
    "query",
    [
        "ASK { home:mug a cog:Object FILTER(" + "(" * 30 + "true" + ")" * 30 + ") }",
        'ASK { home:mug a cog:Object FILTER(COALESCE(ADJUST(?t, "PT0S"^^xsd:dayTimeDuration),'
        " true)) }",
    ],
    ids=["nested-30-deep", "sparql-1.2-function"],
)
def test_only_oxigraph_reads_the_query_it_runs(runner: ReadOnlyQueryRunner, query: str) -> None:
    # rdflib's parser refused both (a RecursionError, a ParseException); Oxigraph runs them
    assert runner.run(query).boolean is True


# --- bounds -----------------------------------------------------------------------------------


def test_an_unbounded_query_is_capped_at_max_rows(make_runner: Any) -> None:
    runner = make_runner(items_graph(300), max_rows=50)

    outcome = runner.run("SELECT ?item ?mass WHERE { ?item cog:mass ?mass }")

    assert len(outcome.rows) == 50
    assert outcome.truncated is True


def test_the_default_cap_is_200_rows(make_runner: Any) -> None:
    runner = make_runner(items_graph(500))

    outcome = runner.run("SELECT ?item WHERE { ?item cog:mass ?mass }")

    assert (len(outcome.rows), outcome.truncated) == (200, True)


def test_a_limit_above_the_cap_is_capped_too(make_runner: Any) -> None:
    runner = make_runner(items_graph(300), max_rows=50)

    outcome = runner.run("SELECT ?item WHERE { ?item cog:mass ?mass } LIMIT 1000")

    assert (len(outcome.rows), outcome.truncated) == (50, True)


def test_a_half_read_result_is_freed_on_the_worker_thread(
    make_runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (template queries run in-process, on the runner's thread)
    # pyoxigraph's cursor may only be dropped on the thread that made it; a leftover reference
    # cycle collected here, on the main thread, would report "unsendable" and leak it.
    unraisable: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    runner = make_runner(items_graph(300), max_rows=5)

    for _ in range(3):
        query = "SELECT ?item WHERE { ?item cog:mass ?mass }"
        assert runner.run(query, template=True).truncated is True
    gc.collect()

    assert [str(event.exc_value) for event in unraisable] == []


def test_a_capped_ordered_query_keeps_the_first_rows_in_order(make_runner: Any) -> None:
    runner = make_runner(items_graph(300), max_rows=3)

    outcome = runner.run("SELECT ?mass WHERE { ?item cog:mass ?mass } ORDER BY ?mass")

    assert outcome.rows == [{"mass": "0"}, {"mass": "1"}, {"mass": "2"}]
    assert outcome.truncated is True


def test_a_query_with_its_own_small_limit_is_not_truncated(make_runner: Any) -> None:
    runner = make_runner(items_graph(300), max_rows=50)

    outcome = runner.run("SELECT ?item WHERE { ?item cog:mass ?mass } LIMIT 5")

    assert (len(outcome.rows), outcome.truncated) == (5, False)


def test_exactly_max_rows_rows_is_not_truncated(make_runner: Any) -> None:
    runner = make_runner(items_graph(300), max_rows=50)

    outcome = runner.run("SELECT ?item WHERE { ?item cog:mass ?mass FILTER(?mass < 50) }")

    assert (len(outcome.rows), outcome.truncated) == (50, False)


def test_a_slow_query_is_refused_at_its_time_limit(make_runner: Any) -> None:
    # A cross join of 2,000 masses with themselves: 4 million pairs, about 0.7 s on Oxigraph
    # on the development machine (measured), far past the 0.05 s limit.
    runner = make_runner(items_graph(2000), timeout_s=0.05)

    with pytest.raises(QueryRefused, match="exceeded its time limit of 0.05 s"):
        runner.run(
            "SELECT (COUNT(*) AS ?pairs) WHERE "
            "{ ?a cog:mass ?x . ?b cog:mass ?y . FILTER(?x + ?y < 0) }"
        )


class GatedGraph(Graph):
    """An Oxigraph graph whose queries wait until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__(store=STORE)
        self.gate = threading.Event()

    def query(self, *args: Any, **kwargs: Any) -> Any:
        self.gate.wait(timeout=30)
        return super().query(*args, **kwargs)


def test_a_runaway_template_query_makes_the_runner_busy_until_it_ends(make_runner: Any) -> None:
    graph = GatedGraph()
    graph.add((URIRef(f"{HOME}mug"), RDFS.label, Literal("mug")))
    runner = make_runner(graph, timeout_s=0.05)

    with pytest.raises(QueryRefused, match="exceeded its time limit"):
        runner.run("SELECT ?label WHERE { home:mug rdfs:label ?label }", template=True)
    with pytest.raises(QueryRefused, match="previous query is still running"):
        runner.run("ASK { home:mug rdfs:label ?label }", template=True)

    graph.gate.set()
    outcome = None
    for _ in range(500):  # the abandoned query ends on its own once the gate is open
        try:
            outcome = runner.run("ASK { home:mug rdfs:label ?label }", template=True)
            break
        except QueryRefused as refusal:
            assert "still running" in str(refusal)
            time.sleep(0.01)
    assert outcome is not None and outcome.boolean is True


# --- refusals ---------------------------------------------------------------------------------

NO_UPDATES = "is a SPARQL update"
ALLOWED = "Only SELECT and ASK queries are allowed."


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ('INSERT DATA { home:mug cog:colour "red" }', f"INSERT {NO_UPDATES}"),
        ("DELETE WHERE { ?s ?p ?o }", f"DELETE {NO_UPDATES}"),
        ("DELETE DATA { home:mug cog:colour 'blue' }", f"DELETE {NO_UPDATES}"),
        ("DROP ALL", f"DROP {NO_UPDATES}"),
        ("CLEAR DEFAULT", f"CLEAR {NO_UPDATES}"),
        (f"LOAD <{HOME}evil.ttl>", f"LOAD {NO_UPDATES}"),
        ("MOVE DEFAULT TO <https://cogtree.dev/home/g>", f"MOVE {NO_UPDATES}"),
        ("COPY DEFAULT TO <https://cogtree.dev/home/g>", f"COPY {NO_UPDATES}"),
        (
            f"WITH <{HOME}g> DELETE {{ ?s ?p ?o }} INSERT {{ ?s ?p 1 }} WHERE {{ ?s ?p ?o }}",
            f"WITH {NO_UPDATES}",
        ),
        ("INSERT DATA { home:mug cog:colour ", f"INSERT {NO_UPDATES}"),
        (
            "DELETE DATA { home:mug cog:colour 'blue' } ; DROP ALL",
            f"DELETE, DROP {NO_UPDATES}",
        ),
    ],
)
def test_updates_are_refused_and_change_nothing(
    runner: ReadOnlyQueryRunner, scene: Graph, query: str, reason: str
) -> None:
    size = len(scene)

    with pytest.raises(QueryRefused) as refused:
        runner.run(query)

    assert str(refused.value).startswith(reason)
    assert ALLOWED in str(refused.value)
    assert len(scene) == size
    assert runner.run("ASK { home:mug cog:colour 'blue' }").boolean is True


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("CONSTRUCT WHERE { ?s ?p ?o }", "CONSTRUCT and DESCRIBE build a graph"),
        ("DESCRIBE home:mug", "CONSTRUCT and DESCRIBE build a graph"),
    ],
)
def test_construct_and_describe_are_refused(
    runner: ReadOnlyQueryRunner, query: str, reason: str
) -> None:
    with pytest.raises(QueryRefused, match=reason) as refused:
        runner.run(query)

    assert ALLOWED in str(refused.value)


@pytest.mark.parametrize(
    "where",
    [
        "SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o }",
        "?s a cog:Room OPTIONAL { SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o } }",
        "?s a cog:Room { SELECT ?s WHERE { SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o } } }",
        "?s a cog:Room FILTER EXISTS { SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o } }",
        "{ ?s a cog:Room } UNION { SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o } }",
        "?s a cog:Room MINUS { OPTIONAL { SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o } } }",
    ],
    ids=["top-level", "in-optional", "in-subquery", "in-filter-exists", "in-union", "deep"],
)
def test_service_is_refused_at_any_depth(runner: ReadOnlyQueryRunner, where: str) -> None:
    with pytest.raises(QueryRefused, match=r"^SERVICE \(the word 'SERVICE' at offset \d+\) would"):
        runner.run(f"SELECT ?s WHERE {{ {where} }}")


def test_service_with_a_variable_endpoint_is_refused(runner: ReadOnlyQueryRunner) -> None:
    with pytest.raises(QueryRefused, match=r"^SERVICE .* would query a remote endpoint"):
        runner.run("SELECT * WHERE { SERVICE SILENT ?endpoint { ?s ?p ?o } }")


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        (
            "PREFIX ex: <http://example.org/> SELECT ?s WHERE { ?s ex:p ?o }",
            "PREFIX ex: <http://example.org/> is not an allowed namespace",
        ),
        (
            "PREFIX cog: <http://example.org/cog#> SELECT ?s WHERE { ?s cog:p ?o }",
            "PREFIX cog: <http://example.org/cog#> is not an allowed namespace",
        ),
        (
            "SELECT ?s WHERE { ?s <http://example.org/p> ?o }",
            "IRI <http://example.org/p> is outside the allowed namespaces",
        ),
        (
            "SELECT ?s WHERE { ?s ?p ?o } VALUES ?s { <http://example.org/graph> }",
            "IRI <http://example.org/graph> is outside",
        ),
        (
            "SELECT ?s WHERE { ?s ?p ?o FILTER(?o = 'x'^^<http://example.org/dt>) }",
            "IRI <http://example.org/dt> is outside",
        ),
        ("SELECT ?s WHERE { ?s foaf:name ?o }", "prefix foaf: is not declared and not allowed"),
        (f"BASE <{HOME}> SELECT ?p WHERE {{ <mug> ?p ?o }}", "BASE at offset 0 is not allowed"),
    ],
)
def test_foreign_namespaces_are_refused_by_name(
    runner: ReadOnlyQueryRunner, query: str, reason: str
) -> None:
    with pytest.raises(QueryRefused) as refused:
        runner.run(query)

    message = str(refused.value)
    assert message.startswith(reason)
    assert f"cog: <{COG}>, home: <{HOME}> (and rdf, rdfs, owl, xsd)" in message


def test_a_syntax_error_names_the_parser_message_and_line(runner: ReadOnlyQueryRunner) -> None:
    with pytest.raises(QueryRefused) as refused:
        runner.run("SELECT ?s WHERE {\n  ?s a cog:Room .\n  FILTER(?s = ) }")

    message = str(refused.value)
    assert message.startswith("syntax error at line 3, column 18: expected one of")
    assert "(line 3 reads 'FILTER(?s = ) }')" in message  # Oxigraph's position, its reading


def test_a_query_followed_by_an_update_is_refused_as_an_update(
    runner: ReadOnlyQueryRunner, scene: Graph
) -> None:
    size = len(scene)

    with pytest.raises(QueryRefused, match=f"^DROP {NO_UPDATES}"):
        runner.run("SELECT * { ?s ?p ?o } ; DROP ALL")

    assert len(scene) == size


def test_text_over_the_size_limit_is_refused_before_parsing(make_runner: Any, scene: Graph) -> None:
    runner = make_runner(scene, max_chars=100)
    query = "SELECT ?s WHERE { ?s ?p ?o } " + "#" * 100

    with pytest.raises(QueryRefused, match="query is 129 characters long; the limit is 100"):
        runner.run(query)


def test_the_default_size_limit_is_4000_characters(runner: ReadOnlyQueryRunner) -> None:
    with pytest.raises(QueryRefused, match="the limit is 4000"):
        runner.run("ASK { ?s ?p ?o }" + " " * 4000)


@pytest.mark.parametrize("text", ["", "   \n", f"PREFIX cog: <{COG}>"])
def test_empty_or_prologue_only_text_is_refused(runner: ReadOnlyQueryRunner, text: str) -> None:
    with pytest.raises(QueryRefused, match="Only SELECT and ASK"):
        runner.run(text)


def test_brackets_nested_too_deeply_are_refused(runner: ReadOnlyQueryRunner) -> None:
    with pytest.raises(QueryRefused, match="nested too deeply"):
        runner.run("ASK { ?s ?p ?o FILTER(" + "(" * 60 + "1" + ")" * 60 + ") }")


def test_a_non_string_is_refused(runner: ReadOnlyQueryRunner) -> None:
    with pytest.raises(QueryRefused, match="expected the query as a string, got NoneType"):
        runner.run(None)  # type: ignore[arg-type]


# --- configuration and lifecycle --------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefixes", "options", "problem"),
    [
        ({"1cog": COG}, {}, "prefix name '1cog' is not a SPARQL prefix"),
        ({"cog": "https://cogtree.dev/a b#"}, {}, "is not an absolute IRI"),
        (PREFIXES, {"max_rows": 0}, "max_rows must be at least 1"),
        (PREFIXES, {"timeout_s": 0}, "timeout_s must be a positive number"),
        (PREFIXES, {"max_chars": 0}, "max_chars must be at least 1"),
    ],
)
def test_bad_configuration_is_rejected(
    scene: Graph, prefixes: dict[str, str], options: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        ReadOnlyQueryRunner(scene, prefixes, **options)


def test_a_closed_runner_says_so(scene: Graph) -> None:
    with ReadOnlyQueryRunner(scene, PREFIXES) as runner:
        assert runner.run("ASK { home:mug a cog:Object }").boolean is True

    with pytest.raises(RuntimeError, match="closed; create a new one"):
        runner.run("ASK { home:mug a cog:Object }")


def test_a_pack_template_has_its_own_longer_time_limit(make_runner: Any) -> None:
    # the gate opens after 0.2 s: past the model queries' 0.05 s, within the templates' 5 s
    graph = GatedGraph()
    graph.add((URIRef(f"{HOME}mug"), RDFS.label, Literal("mug")))
    runner = make_runner(graph, timeout_s=0.05, template_timeout_s=5.0)
    threading.Timer(0.2, graph.gate.set).start()

    outcome = runner.run("SELECT ?label WHERE { home:mug rdfs:label ?label }", template=True)

    assert [row["label"] for row in outcome.rows] == ["mug"]
    assert runner.timeout_s == 0.05  # a model's query keeps the short limit


def test_a_knowledge_pack_runs_its_templates_with_the_template_limit() -> None:
    with DomainRegistry.discover(only=["advisor"]).get("advisor").open_backend() as backend:
        assert isinstance(backend, ReadOnlyQueryRunner)
        assert backend.template_timeout_s == TEMPLATE_TIMEOUT_S > backend.timeout_s
