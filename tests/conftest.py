"""Shared fixtures, built on the shipped test kit (trees/testing.py)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.trees.testing import BlackboardView, ScriptedLLM, mock_blackboard, scripted_llm


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a pytest-xdist worker: the files marked ``long_running`` first, then the others by
    their number of tests, most first (stable otherwise).

    CI hands whole files to the workers in this order (``--dist loadfile
    --no-loadscope-reorder``). xdist's own order, by number of tests alone, put the guards'
    one-test file (183 s) last, on one worker while the other had nothing left to do; started
    first it runs beside the rest. Without workers the order is the collection's.
    """
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    per_file = Counter(item.path for item in items)
    long_running = {item.path for item in items if item.get_closest_marker("long_running")}
    items.sort(key=lambda item: (item.path not in long_running, -per_file[item.path]))


@pytest.fixture(autouse=True)
def user_data_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """No test touches the user's data directory: ``XDG_DATA_HOME`` is a fresh folder, and
    ``COGTREE_EXPERIENCE`` is unset (simulator runs keep nothing unless a test says so)."""
    home = tmp_path_factory.mktemp("data-home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.delenv("COGTREE_EXPERIENCE", raising=False)
    return home


@pytest.fixture(scope="session")
def shipped_packs() -> DomainRegistry:
    """The shipped domain packs, loaded once for the whole run (take ``shipped_domains``).

    A pack builds its graph, lexicons and matchers' examples on first use and keeps them, so
    every tree, session or scenario run set up on these packs after the first is cheaper (a
    scenario run on fresh packs costs about half as much again). Nothing writes to a pack; the
    one state a registry has, the active pack, is reset for every test by ``shipped_domains``.
    """
    return DomainRegistry.discover()


@pytest.fixture
def shipped_domains(shipped_packs: DomainRegistry) -> Iterator[DomainRegistry]:
    """The shipped packs (loaded once per run) with the first one active, as ``discover()``
    leaves them; whatever pack a test switched to, the first is active again after it."""
    first = shipped_packs.names[0]
    shipped_packs.switch(first)
    yield shipped_packs
    shipped_packs.switch(first)


@pytest.fixture
def table1_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Callable[[str], str]:
    """Runs ``cogtree eval table1`` on a phrasing set given as YAML text; gives what it printed."""
    from cogtree.trees.cli.main import main

    def run(phrasings: str) -> str:
        path = tmp_path / "own.yaml"
        path.write_text(phrasings, encoding="utf-8")
        assert main(["eval", "table1", "--file", str(path)]) == 0
        return capsys.readouterr().out

    return run


@pytest.fixture
def blackboard() -> Iterator[BlackboardView]:
    """A cleared py_trees blackboard, cleared again after the test."""
    with mock_blackboard() as view:
        yield view


@pytest.fixture
def make_llm() -> Iterator[Callable[..., ScriptedLLM]]:
    """Factory of scripted LLM clients; every client is closed after the test."""
    made: list[ScriptedLLM] = []

    def make(script: Any = None, **kwargs: Any) -> ScriptedLLM:
        llm = scripted_llm(script, **kwargs)
        made.append(llm)
        return llm

    yield make
    for llm in made:
        llm.backend.release()
        llm.client.close()


@pytest.fixture
def workers() -> Iterator[WorkerPool]:
    """The ``workers`` handle: a pool for the behaviours' background work, closed after."""
    with WorkerPool(2, "test-workers") as pool:
        yield pool


KNIFE = "chef_knife: {type: Knife, on: knife_block, material: steel, mass_kg: 0.25,"


@pytest.fixture
def sharp_knife_scenario(tmp_path: Path) -> Path:
    """knife_running with its chef's knife flagged sharp (no shipped scenario flags a blade)."""
    from cogtree.sim.scenario import SCENARIOS_DIR

    text = (SCENARIOS_DIR / "knife_running.yaml").read_text(encoding="utf-8")
    assert KNIFE in text
    path = tmp_path / "knife_running.yaml"
    path.write_text(text.replace(KNIFE, KNIFE + " flags: [sharp],"), encoding="utf-8")
    return path
