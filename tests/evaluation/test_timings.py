"""Per-module latency and tokens (JANUS's Figure 6): the table and ``eval modules --timings``."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from cogtree.evaluation.janus.datasets import DEFAULT_DATA
from cogtree.evaluation.janus.outer_speech import OuterSpeechScore, SpeechResult
from cogtree.evaluation.janus.runner import WITHHELD, ItemResult, ModuleScore
from cogtree.evaluation.janus.timings import PAPER_TIMINGS, spread, timing_section
from cogtree.knowledge.llm.types import CallRecord
from cogtree.trees.cli.eval_command import add_eval_parser, run_eval


def call(latency: float, prompt: int, completion: int) -> CallRecord:
    return CallRecord(
        module="scope_detection",
        backend="fake",
        model="toy",
        prompt_tokens=prompt,
        completion_tokens=completion,
        latency_s=latency,
        outcome="ok" if prompt else "timeout",
    )


def test_spread_is_the_median_and_the_quartiles() -> None:
    assert spread([1.0, 2.0, 3.0, 4.0, 5.0], 1) == "3.0 (2.0–4.0)"
    assert spread([7.0], 0) == "7 (7–7)"
    assert spread([], 2) == "–"


def test_each_row_has_its_items_costs_and_the_papers_median() -> None:
    scope = ModuleScore(
        "scope",
        "fake",
        [
            ItemResult(1, "a", "a", True, calls=[call(0.5, 100, 10)], seconds=0.6),
            ItemResult(
                2, "b", "b", True, calls=[call(0.3, 300, 30), call(0.2, 100, 10)], seconds=0.8
            ),
            ItemResult(3, "c", "c", True, seconds=0.1),
        ],
        1.5,
    )
    query = ModuleScore("query", "fake", [ItemResult(1, "1 rows", "1 rows", True)], 0.1)
    query.variant = WITHHELD
    grounding = ModuleScore(
        "grounding", "fake", [ItemResult(1, "query", "query", True, calls=[call(30.0, 0, 0)])], 0.1
    )
    speech = OuterSpeechScore(
        "fake", [SpeechResult(1, "ok", 0, 0, 1.0, 1, "model", 1, 50, 5, 0.4, 0.3)], 1.0, 0.4
    )
    rows = timing_section([scope, query, grounding], [speech]).rows
    assert [row["module"] for row in rows] == [
        "scope",
        f"query ({WITHHELD})",
        "grounding",
        "outer speech",
    ]
    first = rows[0]
    assert (first["items"], first["model_items"]) == (3, 2)
    assert first["item_seconds"] == "0.600 (0.350–0.700)"
    # the model figures are over the two items that called the model
    assert first["model_seconds"] == "0.500 (0.500–0.500)"
    assert first["prompt_tokens"] == "250 (175–325)"
    assert first["completion_tokens"] == "25 (18–32)"
    assert (first["paper_module"], first["paper_seconds"], first["paper_tokens"]) == (
        "Scope Detection",
        0.37,
        1477,
    )
    assert rows[1]["paper_module"] == "Query Generation"
    assert rows[2]["paper_module"] is None
    assert (first["failed_calls"], rows[2]["failed_calls"]) == (0, 1)
    assert (rows[2]["model_seconds"], rows[2]["prompt_tokens"]) == (
        "30.000 (30.000–30.000)",
        "0 (0–0)",
    )
    assert rows[3]["model_seconds"] == "0.300 (0.300–0.300)"
    assert set(PAPER_TIMINGS) <= {str(row["module"]) for row in rows} | {"intent", "readiness"}


def test_eval_modules_reports_timings_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eval"
    folder.mkdir()
    for name in ("scope", "intent", "readiness", "query", "grounding", "sufficiency"):
        lines = (DEFAULT_DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        (folder / f"{name}.jsonl").write_text(lines[0] + "\n")
    parser = argparse.ArgumentParser(prog="cogtree")
    add_eval_parser(parser.add_subparsers(dest="command", required=True))
    argv = ["eval", "modules", "--data", str(folder), "--no-clinc", "--backend", "none"]
    assert run_eval(parser.parse_args(argv)) == 0
    assert "Per-module latency" not in capsys.readouterr().out
    assert run_eval(parser.parse_args([*argv, "--timings"])) == 0
    out = capsys.readouterr().out
    assert "## Per-module latency and tokens" in out
    scope_row = next(line for line in out.splitlines() if "| scope |" in line and "Scope" in line)
    assert "| Scope Detection | 0.37 | 1477 |" in scope_row
