"""Handles: one builder of what every command gives a tree's setup; it closes what it opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.knowledge.memory.store import MemoryStore, MemoryStoreError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.handles import Handles
from cogtree.trees.testing import scripted_llm


def test_as_kwargs_gives_the_set_handles_by_name_then_the_extra_ones() -> None:
    domains = DomainRegistry.discover()
    handles = Handles(domains=domains, extra={"team": ("robot1",)})
    assert handles.as_kwargs() == {"domains": domains, "team": ("robot1",)}
    assert Handles().as_kwargs() == {}


def test_a_temporary_memory_is_closed_and_its_folder_removed(tmp_path: Path) -> None:
    with Handles() as handles:
        memory = handles.open_memory()
        folder = memory.path.parent
        assert folder.is_dir()
        assert handles.as_kwargs() == {"memory": memory}
        assert memory.search_archive("tea", 1) == []
    assert not folder.exists()
    with pytest.raises(MemoryStoreError, match="is closed"):
        memory.search_archive("tea", 1)


def test_a_memory_file_gets_its_folders_and_stays_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "down" / "memory.sqlite"
    with Handles() as handles:
        assert handles.open_memory(path).path == path
    assert path.is_file()


def test_given_handles_stay_open_opened_ones_are_closed(tmp_path: Path) -> None:
    given = MemoryStore(tmp_path / "given.sqlite")
    with Handles(memory=given) as handles:
        experience = handles.open_experience()
        scene = handles.load_scene(SCENES_DIR / "home.ttl")
        assert handles.as_kwargs() == {
            "memory": given,
            "experience": experience,
            "scene_graph": scene,
        }
    assert given.search_archive("tea", 1) == []
    given.close()


def test_opened_workers_run_work_until_the_handles_close() -> None:
    with Handles() as handles:
        workers = handles.open_workers(1, "test-handles")
        assert handles.as_kwargs() == {"workers": workers}
        assert workers.submit(sum, [1, 2]).result(timeout=10) == 3
    with pytest.raises(RuntimeError):
        workers.submit(sum, [1, 2])


def test_a_simulator_gives_belief_executor_people_and_its_clock() -> None:
    with SimExecutor.from_scenario(load_scenario("tidy_for_guests")) as simulator:
        handles = Handles()
        handles.attach_simulator(simulator)
        kwargs = handles.as_kwargs()
        assert set(kwargs) == {"scene_graph", "workers", "executor", "people", "clock"}
        assert kwargs["scene_graph"] is simulator.belief
        assert kwargs["workers"] is simulator.workers
        assert kwargs["executor"] is simulator
        assert kwargs["people"] is simulator.people
        assert kwargs["clock"]() == simulator.world.now().timestamp()
        handles.close()  # attached, not owned: the simulator's belief is still there
        assert isinstance(simulator.belief, SceneGraph)
        assert simulator.belief.rooms()


def test_a_session_needs_the_domains_and_memory_handles() -> None:
    llm = scripted_llm({})
    with pytest.raises(ValueError, match="needs the `domains` and `memory` handles"):
        AssistantSession(llm=llm.client, handles={"domains": DomainRegistry.discover()})
    llm.client.close()
