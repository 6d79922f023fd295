"""``cogtree eval modules`` end to end on small sets (backends none and scripted)."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path

import pytest

from cogtree.evaluation.janus.datasets import DEFAULT_DATA
from cogtree.trees.cli.eval_command import add_eval_parser, run_eval


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cogtree")
    add_eval_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["eval", "modules", *argv])


@pytest.fixture
def small_data(tmp_path: Path) -> Path:
    """Two items of each shipped set (one advisor query, one household query; ρ: a reuse, a
    location asked again; sufficiency: one served, one with an archived allergy)."""
    folder = tmp_path / "eval"
    folder.mkdir()
    picks = {
        "scope": [0, 30],
        "intent": [0, 25],
        "readiness": [0, 26],
        "query": [0, 13],
        "grounding": [1, 40],
        "sufficiency": [0, 20],
    }
    for name, lines in picks.items():
        source = (DEFAULT_DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        (folder / f"{name}.jsonl").write_text("\n".join(source[i] for i in lines) + "\n")
    return folder


@pytest.fixture
def small_clinc(tmp_path: Path) -> Path:
    folder = tmp_path / "clinc"
    folder.mkdir()
    splits = {
        "train": [["transfer money to savings", "transfer"], ["book a flight", "book_flight"]],
        "val": [["move money to my savings", "transfer"], ["book me a flight", "book_flight"]],
        "oos_train": [],
        "oos_val": [["what is the capital of peru", "oos"]],
    }
    domains = {"banking": ["transfer"], "travel": ["book_flight"]}
    (folder / "clinc150_dev.json").write_text(json.dumps(splits))
    (folder / "domains.json").write_text(json.dumps(domains))
    return folder


def test_prints_a_table_per_backend_and_writes_csv(
    small_data: Path, small_clinc: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "table.csv"
    args = parse("--data", str(small_data), "--clinc", str(small_clinc), "--csv", str(table))
    assert run_eval(args) == 0
    out, err = capsys.readouterr()
    assert "## Module evaluation" in out
    assert "scripted ORACLE" in out and "none (fast paths only)" in out
    assert "query (templates withheld)" in out
    assert "## Scope detection on CLINC150" in out
    assert "[none] scope 2/2" in err and "[scripted] clinc150 3/3" in err
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert [row["table"] for row in rows].count("modules") == 2 * 7
    scripted = {row["module"]: row for row in rows if row["backend"].startswith("scripted")}
    assert float(scripted["grounding"]["accuracy"]) == 1.0  # a held answer reused, a query run
    assert float(scripted["sufficiency"]["accuracy"]) == 1.0
    assert [row["table"] for row in rows].count("clinc150") == 2
    scripted_query = next(
        row for row in rows if row["backend"].startswith("scripted") and row["module"] == "query"
    )
    assert float(scripted_query["overlap"]) == 1.0


def test_writes_markdown_to_a_file_and_limits_items(
    small_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "report.md"
    args = parse(
        "--data",
        str(small_data),
        "--backend",
        "none",
        "--no-clinc",
        "--limit",
        "1",
        "--output",
        str(output),
    )
    assert run_eval(args) == 0
    report = output.read_text()
    assert "| none (fast paths only) | scope | 1 |" in report
    assert "--limit 1" in report
    assert "CLINC150" not in report
    assert capsys.readouterr().out == ""


def test_bad_data_is_an_error_naming_the_line(
    small_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (small_data / "scope.jsonl").write_text('{"utterance": "hi"}\n')
    assert run_eval(parse("--data", str(small_data), "--no-clinc")) == 2
    assert "scope.jsonl:1: field `domain`" in capsys.readouterr().err


def test_a_missing_clinc_directory_given_explicitly_is_an_error(
    small_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse("--data", str(small_data), "--clinc", str(tmp_path / "nowhere"))
    assert run_eval(args) == 2
    assert "pass --clinc DIR" in capsys.readouterr().err


def test_limits_and_samples_must_be_positive() -> None:
    with pytest.raises(SystemExit):
        parse("--limit", "0")
    with pytest.raises(SystemExit):
        parse("--clinc-sample", "many")
