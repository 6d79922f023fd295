"""The SQLite-grounded larder through the whole turn tree, next to the shipped packs, with no
model (backend ``none``): scope, intent, readiness and the query are all fast paths."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from behaviours.llm.client import LLMClient
from behaviours.llm.config import LLMConfig
from knowledge.domain_registry import OPTIONAL_PACKS, DomainRegistry
from sim.executor import SimExecutor
from sim.scenario import load_scenario
from trees.assistant_session import AssistantSession
from trees.evaluation.sim_wiring import step_when_busy
from trees.handles import Handles
from trees.testing import mock_blackboard


@pytest.fixture
def session(tmp_path: Path) -> Iterator[AssistantSession]:
    scenario = load_scenario("tidy_for_guests")
    simulator = SimExecutor.from_scenario(scenario)
    client = LLMClient(LLMConfig.load().with_backend("none"))
    handles = Handles(domains=DomainRegistry.discover(extra=[OPTIONAL_PACKS]))
    handles.open_memory(tmp_path / "memory.sqlite")
    handles.open_experience()
    handles.attach_simulator(simulator)
    with mock_blackboard():
        running = AssistantSession(
            llm=client,
            handles=handles.as_kwargs(),
            speaker=scenario.request.speaker,
            robot=scenario.main_robot,
            before_tick=lambda: step_when_busy(simulator),
            rate_hz=2000.0,
        )
        yield running
        running.close()
    handles.close()
    simulator.close()
    client.close()


def test_the_larder_answers_its_questions_with_no_model(session: AssistantSession) -> None:
    rice = session.turn("how much basmati rice have we got left")
    assert rice.reply == (
        "We have 1200 g of basmati rice in the top cupboard, good until 2027-03-01."
    )
    fridge = session.turn("which food in the fridge goes off first")
    assert fridge.reply.startswith("Use these first: Greek yoghurt, semi-skimmed milk and eggs")
    for turn in (rice, fridge):
        assert turn.control == "Proceed" and turn.domain == "larder"
        assert all(r.source == "fast_path" for r in turn.rationales.values()), turn.explain()
