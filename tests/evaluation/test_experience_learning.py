"""The explainer learns across runs: a bench done twice with a persisted store, and the CLI.

The first bench of two disrupted scenarios recovers by trial (the HTN plan retried, then the
planner model, here the scenario's oracle); what worked is recorded in the experience file.
The second bench, a new process's worth of stores opened on the same file, fixes the same
failures at the first replan, from those records, and says which records it used.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.evaluation.scenarios.bench import run_bench
from cogtree.evaluation.scenarios.experience_report import total_attempts
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.sim.scenario import load_scenario
from cogtree.trees.cli.main import main
from cogtree.trees.cli.user_data import EXPERIENCE_ENV

DISRUPTED = ("corridor_blocked", "keys_moved")
"""A blocked doorway (waiting fixes it) and keys moved to another room (looking there does)."""


def test_the_second_bench_uses_fewer_attempts_from_the_persisted_store(tmp_path: Path) -> None:
    store = tmp_path / "data" / "experience.sqlite"
    scenarios = [load_scenario(name) for name in DISRUPTED]

    first = run_bench(scenarios, ["gated"], ["oracle"], experience=store).results
    assert all(result.success for result in first)
    assert all(not any("learnt" in used for used in r.experience_used) for r in first)
    with ExperienceStore(store) as learnt:
        lessons = [record for record in learnt.records if record.learnt]
    assert {record.provenance.scenario for record in lessons} == set(DISRUPTED)

    second = run_bench(scenarios, ["gated"], ["oracle"], experience=store).results
    assert all(result.success for result in second)
    assert total_attempts(second) < total_attempts(first)
    for before, after in zip(first, second, strict=True):
        assert len(after.attempts) < len(before.attempts), after.scenario
        (used,) = after.experience_used
        assert f"learnt in scenario {after.scenario}" in used
    keys = second[1]
    assert [step.action for step in keys.attempts[1].plan.steps][:2] == ["GOTO", "LOOK"]
    assert keys.attempts[1].plan.source == "htn" and keys.model_calls == 0


def test_bench_and_run_name_the_store_by_flag_or_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "experience.sqlite"
    argv = ["bench", "corridor_blocked", "--trees", "gated", "--backends", "oracle"]
    assert main([*argv, "--experience", str(store)]) == 0
    first = capsys.readouterr().out
    assert f"### Experience ({store})" in first and "goto-hallway-blocked (seed)" in first
    monkeypatch.setenv(EXPERIENCE_ENV, str(store))
    assert main(["run", "corridor_blocked", "--oracle"]) == 0
    again = capsys.readouterr().out
    assert "experience used: recovered-" in again
    assert "(learnt in scenario corridor_blocked" in again
    assert "WAIT(20.0)" in again


def test_without_a_store_nothing_learnt_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(EXPERIENCE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for _ in range(2):
        assert main(["run", "corridor_blocked", "--oracle"]) == 0
        out = capsys.readouterr().out
        assert "experience used: goto-hallway-blocked (seed)" in out
    assert not any(tmp_path.rglob("*.sqlite"))


def test_a_learnt_delegation_is_run_by_the_htn_replan_with_no_model(tmp_path: Path) -> None:
    """door_closed: the oracle's replan asked Paul to open the door; with no model the next
    time, the HTN replan starts with that DELEGATE (issue 17: suggestions reach the HTN too)."""
    store = tmp_path / "experience.sqlite"
    scenario = [load_scenario("door_closed")]
    (learning,) = run_bench(scenario, ["gated"], ["oracle"], experience=store).results
    assert learning.success and learning.attempts[-1].plan.source == "model"

    (result,) = run_bench(scenario, ["gated"], ["none"], experience=store).results
    assert result.success and result.model_calls == 0
    replan = result.attempts[1]
    assert replan.plan.source == "htn"
    first = replan.plan.steps[0]
    assert (first.action, first.args, first.assignee) == (
        "DELEGATE",
        {"person": "paul", "ability": "open_door"},
        "paul",
    )
    (used,) = result.experience_used
    assert "learnt in scenario door_closed" in used
