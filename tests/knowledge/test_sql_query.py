"""The SQLite grounding backend: read-only by the engine's rules, declared tables, a deadline,
capped rows; templates bound as SQL literals. Statements a model might write are refused."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from cogtree.knowledge.packs.grounding_backend import GroundingBackend
from cogtree.knowledge.packs.sql_query import (
    ReadOnlySqlRunner,
    SqlLimits,
    SqlTemplate,
    build_database,
)
from cogtree.knowledge.scene.named_queries import QueryFileError
from cogtree.knowledge.scene.readonly_query import QueryRefused

SCRIPT = """
CREATE TABLE item (id TEXT PRIMARY KEY, label TEXT, grams NUMERIC);
CREATE TABLE secret (token TEXT);
INSERT INTO item VALUES ('rice', 'rice', 500), ('oats', 'oats', 0), ('flour', 'flour', 250);
INSERT INTO secret VALUES ('do not read');
"""

# what a room of tables joined with itself costs: far more than any deadline of these tests
SLOW = "SELECT count(*) FROM " + ", ".join(f"item t{n}" for n in range(40))


@pytest.fixture
def database(tmp_path: Path) -> Path:
    script = tmp_path / "store.sql"
    script.write_text(SCRIPT, encoding="utf-8")
    return build_database(script, tmp_path)


@pytest.fixture
def runner(database: Path) -> Iterator[ReadOnlySqlRunner]:
    with ReadOnlySqlRunner(
        database, ["item"], limits=SqlLimits(timeout_s=0.3, max_rows=2)
    ) as running:
        yield running


def test_a_select_over_a_declared_table_answers_in_rows(runner: ReadOnlySqlRunner) -> None:
    outcome = runner.run("SELECT label, grams FROM item WHERE grams > 0 ORDER BY label")
    assert isinstance(runner, GroundingBackend)
    assert outcome.variables == ["label", "grams"]
    assert outcome.rows == [{"label": "flour", "grams": "250"}, {"label": "rice", "grams": "500"}]
    assert not outcome.truncated


@pytest.mark.parametrize(
    ("statement", "reason"),
    [
        ("DELETE FROM item", "DELETE denied"),
        ("INSERT INTO item VALUES ('salt', 'salt', 1)", "INSERT denied"),
        ("UPDATE item SET grams = 0", "denied"),
        ("DROP TABLE item", "denied"),
        ("CREATE TABLE stolen AS SELECT * FROM item", "denied"),
        ("CREATE TEMP TABLE scratch (x)", "denied"),
        ("ATTACH DATABASE ':memory:' AS other", "ATTACH denied"),
        ("ATTACH DATABASE '/tmp/elsewhere.sqlite' AS other", "ATTACH denied"),
        ("DETACH DATABASE main", "denied"),
        ("VACUUM INTO '/tmp/copy.sqlite'", "denied"),
        ("PRAGMA query_only = OFF", "denied"),
        ("PRAGMA writable_schema = ON", "denied"),
        ("BEGIN IMMEDIATE", "denied"),
        ("SELECT token FROM secret", "table 'secret' is not one the pack declares"),
        ("SELECT * FROM sqlite_master", "not one the pack declares"),
        ("SELECT load_extension('/tmp/evil')", "load_extension is not allowed"),
        ("SELECT 1; DELETE FROM item", "one statement at a time"),
        ("", "empty"),
    ],
)
def test_model_written_sql_that_writes_attaches_or_strays_is_refused(
    runner: ReadOnlySqlRunner, database: Path, statement: str, reason: str
) -> None:
    with pytest.raises(QueryRefused, match=reason):
        runner.run(statement)
    with sqlite3.connect(database) as check:  # nothing changed on disk
        assert check.execute("SELECT count(*) FROM item").fetchone() == (3,)
        tables = {row[0] for row in check.execute("SELECT name FROM sqlite_master")}
    assert tables == {"item", "secret", "sqlite_autoindex_item_1"}
    assert runner.run("SELECT count(*) AS n FROM item").rows == [{"n": "3"}]  # still serves


def test_a_statement_past_its_deadline_is_interrupted(runner: ReadOnlySqlRunner) -> None:
    started = time.monotonic()
    with pytest.raises(QueryRefused, match="past its 0.3 s deadline"):
        runner.run(SLOW)
    assert time.monotonic() - started < 5.0  # interrupted, not run to the end
    assert runner.run("SELECT label FROM item WHERE id = 'rice'").rows == [{"label": "rice"}]


def test_rows_and_text_are_capped(database: Path) -> None:
    with ReadOnlySqlRunner(database, ["item"], limits=SqlLimits(max_rows=2)) as capped:
        outcome = capped.run("SELECT label FROM item ORDER BY label")
        assert [row["label"] for row in outcome.rows] == ["flour", "oats"]
        assert outcome.truncated
    short = ReadOnlySqlRunner(database, ["item"], limits=SqlLimits(max_chars=40))
    with short, pytest.raises(QueryRefused, match="the limit is 40"):
        short.run("SELECT label FROM item WHERE label LIKE '%ice%'")


def test_without_the_authorizer_the_connection_still_cannot_write(database: Path) -> None:
    """Defence in depth: ``mode=ro`` and ``query_only`` stop a write the authorizer missed."""
    with ReadOnlySqlRunner(database, ["item"]) as running:
        connection = running._connection
        connection.set_authorizer(None)
        with pytest.raises(sqlite3.OperationalError, match="readonly|query_only"):
            connection.execute("DELETE FROM item")
    with sqlite3.connect(database) as check:
        assert check.execute("SELECT count(*) FROM item").fetchone() == (3,)


def test_template_values_are_literals_and_cannot_change_the_statement(
    runner: ReadOnlySqlRunner,
) -> None:
    template = SqlTemplate(
        "grams_of", "SELECT grams FROM item WHERE id = :item AND label <> ':item' -- :note\n"
    )
    assert dict(template.parameters) == {"item": ("item",)}
    bound = template.bind(item=URIRef("https://cogtree.dev/larder#rice"))
    assert runner.run(bound).rows == [{"grams": "500"}]
    hostile = template.bind(item=Literal("x' OR '1'='1"))
    assert "'x'' OR ''1''=''1'" in hostile
    assert runner.run(hostile).rows == []
    assert "IS NULL" not in template.bind(item=None) and "= NULL" in template.bind(item=None)
    with pytest.raises(TypeError, match="takes parameters"):
        template.bind()
    with pytest.raises(TypeError, match="takes one value"):
        template.bind(item=[Literal("a"), Literal("b")])


def test_a_broken_script_is_named(tmp_path: Path) -> None:
    script = tmp_path / "broken.sql"
    script.write_text("CREATE TABLE (", encoding="utf-8")
    with pytest.raises(QueryFileError, match="broken.sql failed"):
        build_database(script, tmp_path)
    with pytest.raises(ValueError, match="needs the tables"):
        ReadOnlySqlRunner(tmp_path / "x.sqlite", [])
