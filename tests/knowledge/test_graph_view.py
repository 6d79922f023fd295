"""A view of a graph without some things: queries cannot reach them, whatever they project."""

from __future__ import annotations

import pytest
from rdflib import Graph, URIRef

from cogtree.knowledge.scene.graph_view import GraphViews, graph_without, nodes_named
from cogtree.knowledge.scene.rdf_store import load_turtle, new_graph
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner

ADV = "https://cogtree.dev/advisor#"
PREFIXES = {"adv": ADV}

MENU = """\
@prefix adv: <https://cogtree.dev/advisor#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

adv:satay a adv:Dish ; rdfs:label "chicken satay with peanut sauce" ;
    adv:hasIngredient [ adv:ingredient adv:peanut_sauce ; adv:grams 100 ] .
adv:curry a adv:Dish ; rdfs:label "chicken curry with rice" ;
    adv:hasIngredient [ adv:ingredient adv:rice ; adv:grams 150 ] .
adv:peanut_sauce a adv:Ingredient ; rdfs:label "peanut sauce" .
adv:rice a adv:Ingredient ; rdfs:label "rice" .
adv:monday adv:dish adv:satay .
"""

SHORT_NAMES = (
    "SELECT ?name WHERE { ?dish a adv:Dish ; rdfs:label ?label . "
    'BIND(STRBEFORE(?label, " with ") AS ?name) } ORDER BY ?name'
)
SATAY = frozenset({ADV + "satay"})


@pytest.fixture
def menu() -> Graph:
    return load_turtle(new_graph(), "menu.ttl", text=MENU)


def test_the_view_holds_nothing_of_the_hidden_thing_nor_its_ingredient_lines(menu: Graph) -> None:
    view = graph_without(menu, SATAY)
    satay = URIRef(ADV + "satay")
    assert not list(view.triples((satay, None, None)))
    assert not list(view.triples((None, None, satay)))  # the plan no longer names it
    lines = {line for _, line in view.subject_objects(URIRef(ADV + "hasIngredient"))}
    assert len(lines) == 1  # the curry's line; the satay's went with it
    grams = {str(value) for value in view.objects(None, URIRef(ADV + "grams"))}
    assert grams == {"150"}
    # named things it pointed at stay: other things share them
    assert (URIRef(ADV + "peanut_sauce"), None, None) in view
    assert len(menu) - len(view) == 6  # 3 of the dish, 2 of its line, 1 naming it


@pytest.mark.parametrize("version", [None, "menu"])
def test_a_query_projecting_made_up_names_cannot_reach_a_hidden_dish(
    menu: Graph, version: str | None
) -> None:
    with ReadOnlyQueryRunner(
        menu, PREFIXES, version=None if version is None else (lambda: version)
    ) as runner:
        names = [row["name"] for row in runner.run(SHORT_NAMES).rows]
        assert names == ["chicken curry", "chicken satay"]
        for template in (False, True):  # a model's query in the sandbox, a template in-process
            rows = runner.run(SHORT_NAMES, template=template, without=SATAY).rows
            assert [row["name"] for row in rows] == ["chicken curry"]
        assert [row["name"] for row in runner.run(SHORT_NAMES).rows] == names  # still whole


def test_views_are_kept_per_set_of_nodes_and_made_again_when_the_graph_changes(
    menu: Graph,
) -> None:
    version = [1]
    views = GraphViews(menu, version=lambda: version[0], keep=2)
    first = views.without(SATAY)
    assert views.without(SATAY) is first
    assert views.without(frozenset()).graph is menu
    version[0] = 2
    assert views.without(SATAY) is not first
    views.without(frozenset({ADV + "curry"}))
    views.without(frozenset({ADV + "rice"}))
    assert views.without(frozenset({ADV + "curry"})).key == ("without", 2, {ADV + "curry"})


def test_nodes_named_reads_compact_and_full_iris_and_skips_words() -> None:
    cells = ["adv:satay", f"{ADV}curry", "chicken satay with peanut sauce", None, "x:y", ""]
    assert nodes_named(cells, PREFIXES) == {ADV + "satay", ADV + "curry"}
