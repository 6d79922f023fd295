"""Fixtures shared by the turn-tree tests: whole assistant sessions in a scenario's world."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from cogtree.evaluation.scenarios.scenario_run import scenario_session
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario, parse_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.testing import mock_blackboard


@pytest.fixture
def open_session(
    tmp_path: Path, shipped_domains: DomainRegistry
) -> Iterator[Callable[..., AssistantSession]]:
    """Build sessions in a scenario's world (the household pack active, the simulator stepped
    while a robot is busy, no model unless ``llm`` is given), each with a fresh memory unless
    ``memory`` is given; a cleared blackboard; everything the factory opened is closed after.
    The session's simulator is ``session.simulator``."""
    opened: list[Any] = []

    def build(
        scenario_id: str = "tidy_for_guests",
        *,
        llm: LLMClient | None = None,
        memory: MemoryStore | None = None,
        packs: DomainRegistry | None = None,
    ) -> AssistantSession:
        scenario = load_scenario(scenario_id)
        simulator = SimExecutor.from_scenario(scenario)
        client = llm or LLMClient(LLMConfig.load().with_backend("none"))
        store = memory or MemoryStore(tmp_path / f"memory-{len(opened)}.sqlite")
        experience = ExperienceStore()
        registry = packs or shipped_domains
        registry.switch("household")
        handles = Handles(domains=registry, memory=store, experience=experience)
        handles.attach_simulator(simulator)
        session = AssistantSession(
            llm=client,
            handles=handles.as_kwargs(),
            speaker=scenario.request.speaker,
            robot=scenario.main_robot,
            before_tick=lambda: step_when_busy(simulator),
            rate_hz=2000.0,
        )
        session.simulator = simulator  # type: ignore[attr-defined]
        opened.extend([session, simulator, experience])
        opened.extend(([] if llm else [client]) + ([] if memory else [store]))
        return session

    with mock_blackboard():
        yield build
    for item in reversed(opened):
        item.close()


@pytest.fixture
def text_session() -> Iterator[Callable[[str, str], AssistantSession]]:
    """Open sessions in worlds a test writes (scenario YAML ``text`` named ``source``), as a
    scenario run builds them: no model, the shipped packs, a cleared blackboard; closed after."""
    client = LLMClient(LLMConfig.load().with_backend("none"))
    with ExitStack() as stack, mock_blackboard():

        def build(text: str, source: str) -> AssistantSession:
            scenario = parse_scenario(text, source=source)
            domains = DomainRegistry.discover()
            running, _ = stack.enter_context(
                scenario_session(scenario, llm=client, domains=domains)
            )
            return running

        yield build
    client.close()
