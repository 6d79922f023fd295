"""The ``harness`` fixture of the BT.CPP built-in tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from py_trees.behaviour import Behaviour

from cogtree.trees.testing import BlackboardView, ScriptedLLM, TreeHarness
from tests.behaviours.btcpp.kit import Harness


@pytest.fixture
def harness(make_llm: Callable[..., ScriptedLLM], blackboard: BlackboardView) -> Harness:
    """``harness(root, **handles)``: a TreeHarness of ``root`` on a cleared blackboard."""
    client = make_llm().client

    def make(root: Behaviour, **handles: Any) -> TreeHarness:
        return TreeHarness(root, llm=client, handles=handles)

    return make
