"""Shared fixtures, built on the shipped test kit (trees/testing.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from knowledge.worker_pool import WorkerPool
from trees.testing import BlackboardView, ScriptedLLM, mock_blackboard, scripted_llm


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
