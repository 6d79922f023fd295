"""What an unidentified speaker says holds for their conversation, not for whoever speaks next."""

from __future__ import annotations

from pathlib import Path

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.testing import mock_blackboard


def conversation(memory: MemoryStore, domains: DomainRegistry, *said: str) -> list[str]:
    """The replies of one session, with nobody identified as the speaker, to ``said``."""
    scenario = load_scenario("tidy_for_guests")
    domains.switch("advisor")
    with (
        mock_blackboard(),
        SimExecutor.from_scenario(scenario) as simulator,
        LLMClient(LLMConfig.load().with_backend("none")) as llm,
    ):
        handles = Handles(domains=domains, memory=memory, experience=ExperienceStore())
        handles.attach_simulator(simulator)
        session = AssistantSession(
            llm=llm,
            handles=handles.as_kwargs(),
            robot=scenario.main_robot,
            before_tick=lambda: step_when_busy(simulator),
            rate_hz=2000.0,
        )
        try:
            return [session.turn(text).reply for text in said]
        finally:
            session.close()


def peanut_facts(memory: MemoryStore) -> list[str]:
    """What a read of ``memory`` (the recall gate's /memory/working) believes about peanuts."""
    return [fact.text for fact in memory.read("peanuts").facts if "peanuts" in fact.text]


def test_an_unidentified_speakers_allergy_protects_their_conversation_only(
    shipped_packs: DomainRegistry, tmp_path: Path
) -> None:
    with MemoryStore(tmp_path / "memory.sqlite") as memory:
        [noted, _] = conversation(memory, shipped_packs, "I'm allergic to peanuts", "thanks")
        assert "allergic to peanuts" in noted
        assert peanut_facts(memory) == ["The user is allergic to peanuts"]  # heeded
        conversation(memory, shipped_packs, "thanks")  # someone else, unidentified too
        assert peanut_facts(memory) == []
        assert not [fact for fact in memory.core if "peanuts" in fact.text]
    with MemoryStore(tmp_path / "memory.sqlite") as reopened:  # nothing of it was written
        assert peanut_facts(reopened) == []
