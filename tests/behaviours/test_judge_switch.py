"""The validation gate's LLM judge, switched from the LLM manifest and the command line.

Off in the packaged manifest (``modules.plan_validation.enabled: false``); ``--judge`` or a
``--config`` file turns it on. Whoever switches it, it may reject a plan the dry run
accepted and never approve one the dry run refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cogtree.behaviours.gates.validation_gate import ValidationGate
from cogtree.evaluation.scenarios.bench import run_bench
from cogtree.knowledge.llm.config import JUDGE_MODULE, LLMConfig
from cogtree.knowledge.llm.errors import LLMConfigError
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.planning.plan_model import ValidationReport
from cogtree.trees.cli.main import main
from cogtree.trees.testing import BlackboardView
from tests.behaviours.test_validation_gate import propose as propose_plan
from tests.behaviours.test_validation_gate import thirsty_plan
from tests.behaviours.test_validation_gate_hazards import FORBIDDEN, on_case_belief, run
from tests.behaviours.test_validation_gate_hazards import propose as propose_case
from tests.skills.hazard_kitchen import HazardCase

APPROVE_ALL = {
    "by_prompt": [
        {
            "match": ".",
            "module": JUDGE_MODULE,
            "reply": {"answer": {"valid": True, "reason": "fine"}},
        }
    ]
}
REJECT_ALL = {
    "by_prompt": [
        {
            "match": ".",
            "module": JUDGE_MODULE,
            "reply": {"answer": {"valid": False, "reason": "not what she asked for"}},
        }
    ]
}
JUDGE_ON = {JUDGE_MODULE: {"enabled": True}}


@pytest.fixture
def world() -> Iterator[SimExecutor]:
    """A running simulator: the thirsty plan is dry-run on its belief."""
    running = SimExecutor.from_scenario(load_scenario("thirsty"))
    yield running
    running.close()


def test_the_packaged_manifest_has_the_judge_off_and_it_can_be_switched() -> None:
    config = LLMConfig.load()
    assert config.settings_for(JUDGE_MODULE).enabled is False
    assert config.with_judge(True).settings_for(JUDGE_MODULE).enabled is True
    assert config.with_judge(True).with_judge(False).settings_for(JUDGE_MODULE).enabled is False
    assert config.settings_for("inner_speech").enabled is True


def test_a_config_file_switches_the_judge_and_only_the_judge(tmp_path: Path) -> None:
    on = tmp_path / "judge.yaml"
    on.write_text("modules:\n  plan_validation: {enabled: true}\n", encoding="utf-8")
    assert LLMConfig.load(on).settings_for(JUDGE_MODULE).enabled is True
    off = tmp_path / "no_readiness.yaml"
    off.write_text("modules:\n  inner_speech: {enabled: false}\n", encoding="utf-8")
    with pytest.raises(LLMConfigError, match=r"modules\.inner_speech\.enabled.*only plan_valid"):
        LLMConfig.load(off)


def test_the_manifest_decides_when_the_gate_does_not_say(
    blackboard: BlackboardView, world: SimExecutor, make_llm
) -> None:
    assert world.belief is not None
    scene, workers = world.belief, world.workers
    propose_plan(blackboard, thirsty_plan())
    quiet = make_llm(REJECT_ALL)
    assert run(ValidationGate(), quiet, scene, workers) == "SUCCESS"
    assert quiet.backend.requests == []  # off: the dry run decides alone

    propose_plan(blackboard, thirsty_plan())
    judged = make_llm(REJECT_ALL, modules=JUDGE_ON)
    assert run(ValidationGate(), judged, scene, workers) == "FAILURE"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert report.problems[-1].code == "judge" and "not what she asked for" in report.diagnosis()
    assert len(judged.backend.requests) == 1

    propose_plan(blackboard, thirsty_plan())
    overruled = make_llm(REJECT_ALL, modules=JUDGE_ON)
    assert run(ValidationGate(judge=False), overruled, scene, workers) == "SUCCESS"
    assert overruled.backend.requests == []  # a tree that fixes the judge off wins


@pytest.mark.parametrize("case", FORBIDDEN[:3], ids=lambda case: case.id)
def test_a_judge_switched_on_that_approves_everything_never_passes_an_unsafe_plan(
    blackboard: BlackboardView,
    shared_home_scene: SceneGraph,
    workers: WorkerPool,
    make_llm,
    monkeypatch: pytest.MonkeyPatch,
    case: HazardCase,
) -> None:
    on_case_belief(monkeypatch, case)
    propose_case(blackboard, case)
    llm = make_llm(APPROVE_ALL, modules=JUDGE_ON)
    assert run(ValidationGate(), llm, shared_home_scene, workers) == "FAILURE"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert any(problem.code == f"hazard:{case.rule}" for problem in report.problems)
    assert llm.backend.requests == []


def test_cogtree_run_switches_the_judge(capsys: pytest.CaptureFixture[str]) -> None:
    # The oracle has no judge's answers: a judge switched on cannot answer, so it rejects.
    assert main(["run", "goto_kitchen", "--oracle", "--judge"]) == 1
    out, err = capsys.readouterr()
    assert "the judge could not answer" in out
    assert "the plan judge is on but no model serves plan_validation" in err
    assert main(["run", "goto_kitchen", "--oracle", "--no-judge"]) == 0
    assert main(["run", "goto_kitchen", "--oracle"]) == 0


def test_the_bench_switches_the_judge() -> None:
    scenarios = [load_scenario("goto_kitchen")]
    judged = run_bench(scenarios, ["gated"], ["oracle"], judge=True)
    plain = run_bench(scenarios, ["gated"], ["oracle"])
    assert [result.success for result in judged.results] == [False]
    assert [result.success for result in plain.results] == [True]
