"""The larder pack, grounded on SQLite: it loads from the optional packs, its backend is the
read-only SQL runner, and every example's slots bind its templates to real answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rdflib import Literal, URIRef

from cogtree.knowledge.packs.domain_pack import DomainPack, PackError, load_pack
from cogtree.knowledge.packs.domain_registry import OPTIONAL_PACKS, DomainRegistry
from cogtree.knowledge.packs.grounding_backend import GroundingBackend
from cogtree.knowledge.packs.sql_query import ReadOnlySqlRunner
from cogtree.knowledge.scene.readonly_query import QueryRefused, ReadOnlyQueryRunner
from cogtree.knowledge.understanding.lexicon import build_lexicons
from cogtree.knowledge.understanding.slot_filling import fill_slots

LARDER = "https://cogtree.dev/larder#"


@pytest.fixture(scope="module")
def pack() -> DomainPack:
    return load_pack(OPTIONAL_PACKS / "larder")


@pytest.fixture(scope="module")
def backend(pack: DomainPack) -> Iterator[GroundingBackend]:
    opened = pack.open_backend()
    yield opened
    opened.close()


def test_the_larder_loads_beside_the_shipped_packs_and_grounds_on_sqlite(
    pack: DomainPack, backend: GroundingBackend
) -> None:
    registry = DomainRegistry.discover(extra=[OPTIONAL_PACKS])
    assert registry.names == ["household", "advisor", "office", "larder"]
    assert "larder" not in DomainRegistry.discover().names  # only when asked
    assert pack.on_database and pack.has_own_knowledge
    assert isinstance(backend, ReadOnlySqlRunner) and isinstance(backend, GroundingBackend)
    with pytest.raises(PackError, match="no knowledge graph"):
        pack.knowledge_graph()
    advisor = DomainRegistry.discover(only=["advisor"]).get("advisor").open_backend()
    try:
        assert isinstance(advisor, ReadOnlyQueryRunner) and isinstance(advisor, GroundingBackend)
    finally:
        advisor.close()


@pytest.mark.parametrize(
    ("utterance", "expected"),
    [
        (
            "how much basmati rice have we got left",
            [{"amount": "1200 g", "best_before": "2027-03-01"}],
        ),
        ("are we out of plain flour", [{"amount": "none"}]),
        ("how many tins of chickpeas are there", [{"amount": "3 tins"}]),
    ],
)
def test_stock_questions_are_answered_from_the_database(
    pack: DomainPack, backend: GroundingBackend, utterance: str, expected: list[dict[str, str]]
) -> None:
    lexicons = build_lexicons(pack, None)
    said = fill_slots(pack.task("StockLevel"), utterance, lexicons).slots["item"]
    (item,) = {mention.id for mention in lexicons["item"].find(str(said))}
    text = pack.query("stock_level").bind(item=URIRef(LARDER + item))
    rows = backend.run(text, template=True).rows
    assert [{key: row[key] for key in want} for row, want in zip(rows, expected, strict=True)] == (
        expected
    )


def test_use_first_lists_what_goes_off_first_in_a_place_or_anywhere(
    pack: DomainPack, backend: GroundingBackend
) -> None:
    template = pack.query("use_first")
    fridge = backend.run(template.bind(place=Literal("fridge")), template=True).rows
    assert [row["label"] for row in fridge] == ["Greek yoghurt", "semi-skimmed milk", "eggs"]
    anywhere = backend.run(template.bind(place=None), template=True).rows
    assert len(anywhere) == 3 and all(row["label"] != "plain flour" for row in anywhere)


def test_the_larder_runs_model_sql_under_the_same_rules(backend: GroundingBackend) -> None:
    with pytest.raises(QueryRefused, match="DELETE denied"):
        backend.run("DELETE FROM stock")
    with pytest.raises(QueryRefused, match="ATTACH denied"):
        backend.run("ATTACH DATABASE ':memory:' AS spare")
    assert backend.run("SELECT count(*) AS n FROM stock").rows == [{"n": "12"}]
