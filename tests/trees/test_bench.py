"""The scenario bench and the `run` / `bench` commands (parsers from trees/cli/run_command.py)."""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

import pytest

from cogtree.evaluation.scenarios.bench import BenchResults, run_bench
from cogtree.evaluation.scenarios.scenario_run import ScenarioResult
from cogtree.knowledge.llm.errors import LLMConfigError
from cogtree.sim.scenario import ScenarioError, load_scenario
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.cli.run_command import (
    ProgressBar,
    add_run_parsers,
    run_bench_command,
    run_run,
    suite,
)

SCENARIOS = ("which_bottle", "book_to_nightstand", "too_heavy")


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cogtree")
    add_run_parsers(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(list(argv))


def result(tree: str, backend: str, success: bool, tokens: int, calls: int) -> ScenarioResult:
    return ScenarioResult(
        scenario="s",
        tier="simple",
        tree=tree,
        backend=backend,
        success=success,
        completion=1.0 if success else 0.0,
        redundancy=0.0,
        robot_subtask_rate=1.0,
        model_calls=calls,
        prompt_tokens=tokens,
        completion_tokens=0,
        clarifications=0,
        guard_violations=[],
        wall_s=0.1,
        sim_ticks=5,
    )


@pytest.fixture(scope="module")
def bench() -> BenchResults:
    scenarios = [load_scenario(name) for name in SCENARIOS]
    seen: list[tuple[int, int, str]] = []
    results = run_bench(scenarios, ["gated"], ["none", "oracle"], lambda *args: seen.append(args))
    assert seen[0] == (0, 6, "none gated which_bottle") and seen[-1] == (6, 6, "done")
    return results


def test_one_row_per_scenario_tree_and_backend(bench: BenchResults) -> None:
    rows = bench.run_rows()
    assert [(row["scenario"], row["backend"]) for row in rows] == [
        (name, backend) for backend in ("none", "oracle") for name in SCENARIOS
    ]
    assert all(row["guard_violations"] == 0 for row in rows)
    which = [row for row in rows if row["scenario"] == "which_bottle"]
    assert [row["success"] for row in which] == ["yes", "yes"]


def test_both_tables_are_written(bench: BenchResults) -> None:
    markdown = bench.to_markdown()
    for heading in ("### Overall", "### Per tier", "### Tokens per successful task"):
        assert heading in markdown
    assert "| gated | oracle | ambiguous | 1 | 1.00 |" in markdown
    rows = list(csv.DictReader(io.StringIO(bench.to_csv())))
    tables = [row["table"] for row in rows]
    assert tables.count("run") == 6 and tables.count("overall") == 2
    assert tables.count("tier") == 6 and tables.count("tokens_per_success") == 2


def test_tokens_per_success_put_gated_next_to_react() -> None:
    bench = BenchResults(
        [
            result("gated", "oracle", True, 100, 1),
            result("gated", "oracle", False, 50, 1),
            result("react", "oracle", True, 600, 6),
        ]
    )
    (row,) = bench.token_rows()
    assert row["gated_tokens_per_success"] == 150.0 and row["react_tokens_per_success"] == 600.0
    assert row["gated_over_react"] == 0.25
    assert row["gated_successes"] == "1/2" and row["react_calls_per_success"] == 6.0


def test_unknown_backends_are_named() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        run_bench([load_scenario("too_heavy")], ["gated"], ["gpt"])


def test_suites_by_tier_and_by_ids() -> None:
    assert {scenario.tier for scenario in suite("ambiguous")} == {"ambiguous"}
    assert [scenario.id for scenario in suite("too_heavy, which_bottle")] == [
        "too_heavy",
        "which_bottle",
    ]
    with pytest.raises(ScenarioError):
        suite("no_such_scenario")


def test_progress_is_sparse_in_a_log() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)
    for done in range(21):
        bar(done, 20, f"run {done}")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 11 and lines[-1] == "bench 20/20: run 20"


# -- the commands -------------------------------------------------------------------------------


def test_run_exits_0_when_the_goal_holds(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_run(parse("run", "which_bottle", "--oracle", "--explain")) == 0
    out = capsys.readouterr().out
    assert "alex: the blue bottle of still water" in out
    assert "goal MET: delivered(still_water, alex)" in out
    assert "TaskReadinessGate [fast_path]" in out


def test_run_exits_1_when_it_does_not(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_run(parse("run", "which_bottle", "--llm", "none", "--max-turns", "1")) == 1
    assert "goal NOT MET" in capsys.readouterr().out


def test_run_composes_faults_with_the_oracle(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_run(parse("run", "thirsty", "--oracle")) == 0
    assert "goal MET" in capsys.readouterr().out
    spoiled = ("--faults", "rate=1,kinds=malformed", "--explain")
    assert run_run(parse("run", "thirsty", "--oracle", *spoiled)) == 1
    out = capsys.readouterr().out
    assert "gated tree, faults" in out
    assert "PlanTask [safe_default]" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--faults", "rate=2"), "bad fault spec"),
        (("--llm", "none"), "--oracle answers the models from the scenario; drop --llm"),
        (("--config", "x.yaml"), "drop --config"),
    ],
)
def test_run_with_the_oracle_refuses_what_it_would_ignore(
    extra: tuple[str, ...], message: str
) -> None:
    with pytest.raises((CLIError, LLMConfigError), match=message):
        run_run(parse("run", "which_bottle", "--oracle", *extra))


def test_bench_writes_markdown_and_csv(tmp_path: Path) -> None:
    output, table = tmp_path / "bench.md", tmp_path / "bench.csv"
    args = parse(
        "bench", "which_bottle", "--trees", "gated", "--backends", "none",
        "--output", str(output), "--csv", str(table),
    )  # fmt: skip
    assert run_bench_command(args) == 0
    assert "| which_bottle | ambiguous | gated | none | yes |" in output.read_text()
    assert table.read_text().startswith("table,")


def test_bench_rejects_unknown_backends_at_parse_time() -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse("bench", "--backends", "none,gpt")
    assert exit_info.value.code == 2
