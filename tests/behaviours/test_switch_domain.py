"""SwitchActiveDomain: switch the registry to the pack the gate chose, and say so."""

from __future__ import annotations

import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.grounding.switch_domain import SwitchActiveDomain, spoken_title
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.trees.testing import TreeHarness


@pytest.fixture
def domains() -> DomainRegistry:
    return DomainRegistry.discover(active="household")


def switch(blackboard, make_llm, domains, presets) -> SwitchActiveDomain:
    for key, value in presets.items():
        blackboard.set(key, value)
    node = SwitchActiveDomain()
    TreeHarness(node, llm=make_llm().client, handles={"domains": domains}).tick()
    return node


def test_switches_and_names_the_new_domain(blackboard, make_llm, domains):
    presets = {"/turn/control": "SwitchDomain", "/turn/domain": "advisor"}
    node = switch(blackboard, make_llm, domains, presets)
    assert node.status == Status.SUCCESS
    assert domains.active.name == "advisor"
    assert blackboard.get("/turn/reply") == "Switching to the dietary advisor."


@pytest.mark.parametrize(
    "presets",
    [
        {"/turn/control": "Proceed", "/turn/domain": "advisor"},
        {"/turn/control": "SwitchDomain", "/turn/domain": "garden"},
        {"/turn/control": "SwitchDomain"},
        {},
    ],
)
def test_nothing_changes_without_a_valid_switch(blackboard, make_llm, domains, presets):
    node = switch(blackboard, make_llm, domains, presets)
    assert node.status == Status.FAILURE
    assert domains.active.name == "household"
    assert blackboard.get("/turn/reply") is None
    assert node.feedback_message


@pytest.mark.parametrize(
    ("title", "spoken"),
    [
        ("Dietary advisor", "the dietary advisor"),
        ("The office", "the office"),
        ("NASA helper", "the NASA helper"),
    ],
)
def test_spoken_title(title, spoken):
    assert spoken_title(title) == spoken
