"""RunQuery with a model's runaway query: the sandbox stops it, the tree keeps ticking."""

from __future__ import annotations

import pytest

from cogtree.behaviours.actions.grounding.run_query import RunQuery
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import GeneratedQuery
from cogtree.trees.testing import TreeHarness

RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
ASK = "ASK { adv:black_bean_tacos a adv:Dish }"


@pytest.fixture(scope="module")
def advisor() -> DomainRegistry:
    return DomainRegistry.discover(only=["advisor"])


def test_a_runaway_model_query_fails_at_its_deadline_and_the_next_turn_queries(
    blackboard, make_llm, advisor, workers
) -> None:
    node = RunQuery()
    handles = {"domains": advisor, "workers": workers}
    harness = TreeHarness(node, llm=make_llm().client, handles=handles)
    blackboard.set("/turn/domain", "advisor")
    try:
        for text, expected in ((RUNAWAY, "FAILURE"), (ASK, "SUCCESS")):
            blackboard.set("/turn/query", GeneratedQuery(text=text, source="model"))
            harness.tick_until(
                lambda h: node.status.value != "RUNNING", max_ticks=5000, period_s=0.005
            )
            assert node.status.value == expected, node.feedback_message
            if expected == "FAILURE":
                assert "exceeded its time limit of 0.5 s; it was stopped" in node.feedback_message
    finally:
        node.shutdown()
    (item,) = blackboard.get("/turn/evidence").items
    assert item.rows == [{"answer": "yes"}]
