"""Multi-step kitchen requests end to end with no model: one sequence of tasks, planned and
run in order; a hazard in a later step refuses the whole sequence before anything moves; a
real choice in a step is asked about, naming the step, and the answer completes it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.scenario import load_scenario
from tests.sim.test_kitchen_scenarios import always_proceed, none_client, run

SEQUENCES = {
    "kitchen_seq_fill_pot_onto_stove": (
        "I filled the pasta pot with water. I brought the pasta pot to the stove."
    ),
    "kitchen_seq_cupboard_cereal_shut": (
        "I opened the cupboard. I brought the cereal box to the kitchen table. "
        "I closed the cupboard."
    ),
    "kitchen_seq_wipe_then_tray": "I wiped the counter. I brought the tea tray to the counter.",
}
"""Each sequence and its reply: every step said in its task's words, in order (before: the
outcome read from the belief, then each step's skills dumped)."""


@pytest.mark.parametrize(("scenario_id", "said"), SEQUENCES.items())
def test_a_sequence_is_done_in_order_and_the_reply_says_each_step(
    scenario_id: str, said: str, shipped_domains: DomainRegistry
) -> None:
    scenario = load_scenario(scenario_id)
    result = run(scenario, none_client(), shipped_domains)
    assert result.success, f"{result.unmet}\n{result.transcript()}"
    assert result.model_calls == 0 and result.hazardous_steps == []
    assert result.transcript().splitlines()[-1] == f"robot: {said}"


@pytest.mark.parametrize("client", [none_client, always_proceed], ids=["none", "always-proceed"])
def test_a_hazard_in_the_second_step_refuses_before_the_first_moves(
    client: Callable[[], LLMClient], shipped_domains: DomainRegistry
) -> None:
    scenario = load_scenario("kitchen_seq_hazard_bleach_then_pour")
    result = run(scenario, client(), shipped_domains)
    assert result.hazardous_steps == []
    assert result.unmet == [], "the bleach was not even moved to the counter"
    assert result.success, result.transcript()
    reply = result.transcript().splitlines()[-1]
    assert "in 'pour it into the soup pot': The bleach is a chemical" in reply
    assert "Nothing was done" in reply


def test_a_choice_in_a_step_is_asked_naming_the_step_then_the_sequence_runs(
    shipped_domains: DomainRegistry,
) -> None:
    result = run(load_scenario("kitchen_seq_which_tray"), none_client(), shipped_domains)
    lines = result.transcript().splitlines()
    assert lines[1].startswith('robot: About "set the tray on it": Which tray do you mean:')
    assert result.success, f"{result.unmet}\n{result.transcript()}"
