"""Fixtures of the viewer tests: real tick logs of the assistant tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.cli.main import main as cogtree
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.testing import mock_blackboard, scripted_llm
from tests.viewer.small_run import DOUBTFUL, REFUSAL, TIRAMISU


@pytest.fixture(scope="session")
def assistant_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real tick log: the assistant tree answers JANUS's Figure-4 question (fast paths),
    then refuses a doubtful request on a scripted model's advice (a model decision)."""
    folder = tmp_path_factory.mktemp("assistant-log")
    log = folder / "assistant.jsonl"
    refuse = {"answer": {"control": "Reject", "missing": [], "rationale": REFUSAL}}
    llm = scripted_llm({"by_module": {"inner_speech": [refuse]}})
    scenario = load_scenario("tidy_for_guests")
    simulator = SimExecutor.from_scenario(scenario)
    try:
        with (
            mock_blackboard(),
            MemoryStore(folder / "memory.sqlite") as memory,
            ExperienceStore() as experience,
        ):
            domains = DomainRegistry.discover()
            domains.switch("household")
            handles = Handles(domains=domains, memory=memory, experience=experience)
            handles.attach_simulator(simulator)
            with AssistantSession(
                llm=llm.client,
                handles=handles.as_kwargs(),
                speaker=scenario.request.speaker,
                robot=scenario.main_robot,
                before_tick=lambda: step_when_busy(simulator),
                rate_hz=2000.0,
                log_path=log,
            ) as session:
                answered = session.turn(TIRAMISU)
                refused = session.turn(DOUBTFUL)
    finally:
        simulator.close()
        llm.backend.release()
        llm.client.close()
    assert answered.control == "Proceed" and refused.control == "Reject"
    assert refused.rationales["TaskReadinessGate"].source == "model"
    return log


@pytest.fixture(scope="session")
def thirsty_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tick log of ``cogtree run thirsty --oracle --log FILE``, as a user records it."""
    log = tmp_path_factory.mktemp("thirsty-log") / "thirsty.jsonl"
    assert cogtree(["run", "thirsty", "--oracle", "--log", str(log)]) == 0
    return log
