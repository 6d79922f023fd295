"""``cogtree eval modules`` with the JANUS-scale sets: 11-domain scope and outer speech."""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

import pytest

from cogtree.evaluation.janus.datasets import DEFAULT_DATA, MODULES
from cogtree.trees.cli.eval_command import add_eval_parser, run_eval


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cogtree")
    add_eval_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["eval", "modules", "--no-clinc", *argv])


@pytest.fixture
def small_data(tmp_path: Path) -> Path:
    """One item of each module set, and two of each JANUS-scale set."""
    folder = tmp_path / "eval"
    folder.mkdir()
    for name in MODULES:
        first = (DEFAULT_DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()[0]
        (folder / f"{name}.jsonl").write_text(first + "\n")
    for name, lines in (("scope_profiles", [40, 85]), ("outer_speech", [0, 25])):
        source = (DEFAULT_DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        (folder / f"{name}.jsonl").write_text("\n".join(source[i] for i in lines) + "\n")
    return folder


def test_the_report_has_the_11_domain_scope_row_and_the_outer_speech_table(
    small_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "rows.csv"
    assert run_eval(parse("--data", str(small_data), "--csv", str(table))) == 0
    out = capsys.readouterr().out
    assert out.count("| scope (11 domains + OutOfScope) | 2 |") == 2
    assert "## Outer speech" in out
    speech = [
        row
        for row in csv.DictReader(io.StringIO(table.read_text()))
        if row["table"].startswith("Outer speech")
    ]
    assert [row["items"] for row in speech] == ["2", "2"]
    assert all(float(row["claim_support"]) == 1.0 for row in speech)


def test_without_the_sets_they_are_skipped_with_a_note(
    small_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (small_data / "scope_profiles.jsonl").unlink()
    (small_data / "outer_speech.jsonl").unlink()
    assert run_eval(parse("--data", str(small_data), "--backend", "none")) == 0
    out = capsys.readouterr().out
    assert "scope over 11 domains skipped: no scope_profiles.jsonl" in out
    assert "outer speech skipped: no outer_speech.jsonl" in out
    assert "## Outer speech" not in out
