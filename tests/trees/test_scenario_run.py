"""run_scenario: the dialogue with the simulated speaker, the goal, and the run's metrics."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import py_trees
import pytest
from py_trees.behaviours import Running, SetBlackboardVariable
from py_trees.composites import Sequence

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance, Say
from cogtree.evaluation.scenarios.scenario_run import (
    ScenarioResult,
    ScenarioRunError,
    oracle_client,
    run_scenario,
    tree_factory,
)
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.sim.events import Event
from cogtree.sim.scenario import Scenario, load_scenario
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.execution.controller import RunStatus, SkillOutcome
from cogtree.skills.planning.plan_model import StepProblem, ValidationReport

ASK = "Which one do you mean?"


@pytest.fixture
def no_model() -> Iterator[LLMClient]:
    with LLMClient(LLMConfig.load().with_backend("none")) as client:
        yield client


def run(scenario_id: str, backend: str, *, tree: str = "gated", **kwargs: Any) -> ScenarioResult:
    scenario = load_scenario(scenario_id)
    if backend == "oracle":
        with oracle_client(scenario, tree="react" if tree == "react" else "gated") as client:
            return run_scenario(scenario, tree=tree, llm=client, backend=backend, **kwargs)
    with LLMClient(LLMConfig.load().with_backend("none")) as client:
        return run_scenario(scenario, tree=tree, llm=client, backend=backend, **kwargs)


def tree_of(*leaves: Callable[[], py_trees.behaviour.Behaviour]) -> Callable[[str], Any]:
    """A factory of a turn tree: wait for the utterance, then the given leaves in order."""

    def factory(robot: str) -> py_trees.behaviour.Behaviour:
        root = Sequence("Turn", memory=True)
        root.add_children([AwaitUtterance(), *(leaf() for leaf in leaves)])
        return root

    return factory


def say(text: str) -> Callable[[], py_trees.behaviour.Behaviour]:
    def compose(values: Mapping[str, Any]) -> str:
        return text

    return lambda: Say("Say", compose)


def write(key: keys.KeySpec, value: Any) -> Callable[[], py_trees.behaviour.Behaviour]:
    return lambda: SetBlackboardVariable(f"Write {key.name}", key.name, value, overwrite=True)


# -- the shipped trees on shipped scenarios ----------------------------------------------------


@pytest.mark.parametrize("backend", ["none", "oracle"])
def test_the_speaker_answers_the_clarification_and_the_goal_is_met(backend: str) -> None:
    result = run("which_bottle", backend)
    assert result.success and result.unmet == []
    assert result.clarifications == 1 and len(result.turns) == 2
    assert result.turns[0].asked and result.turns[0].control == "Clarify"
    assert result.turns[1].utterance == "the blue bottle of still water"
    assert "alex: the blue bottle of still water" in result.transcript("alex")
    assert result.executed[-1] == "HANDOVER(object=still_water, person=alex, hand=right)"
    assert result.guard_violations == [] and result.completion == 1.0


def world_meets_the_goal() -> Scenario:
    """RoBee's bottle, where Anna carries the bottle onto the destination table herself."""
    scenario = load_scenario("robee_bottle")
    anna = Event.model_validate(
        {
            "id": "anna_moves_bottle",
            "after_commands": 1,
            "move_object": {"object": "bottle", "on": "table_2", "by": "anna"},
        }
    )
    return scenario.model_copy(update={"events": (anna,)})


def test_a_goal_the_world_met_is_met_by_others_never_a_success() -> None:
    scenario = world_meets_the_goal()
    with oracle_client(scenario) as client:
        result = run_scenario(scenario, llm=client, backend="oracle")
    assert result.executed[:2] == ["GOTO(target=table_1)", "PICK(object=bottle, hand=right)"]
    assert result.completion == 1.0, "the goal holds: anna put the bottle on table_2"
    assert not result.success and result.met_by_others and result.verdict == "met by others"
    assert result.false_claims == [], result.turns[-1].reply
    assert "I brought" not in result.turns[-1].reply
    assert result.guard_violations == []


def test_the_shipped_carried_bottle_is_met_by_others_with_no_model(no_model: LLMClient) -> None:
    result = run_scenario(load_scenario("robee_bottle_carried"), llm=no_model, backend="none")
    assert result.completion == 1.0, "anna carried the bottle onto table_2"
    assert not result.success and result.met_by_others
    assert result.false_claims == [] and "I brought" not in result.turns[-1].reply


def test_a_goal_already_true_at_the_start_is_no_success(no_model: LLMClient) -> None:
    scenario = load_scenario("robee_bottle")
    placed = scenario.world.objects["bottle"].model_copy(update={"on": "table_2"})
    objects = {**scenario.world.objects, "bottle": placed}
    world = scenario.world.model_copy(update={"objects": objects})
    already = scenario.model_copy(update={"world": world, "events": ()})
    factory = tree_of(say("I brought the bottle to the bedroom table."))
    result = run_scenario(already, tree="boaster", llm=no_model, factory=factory)
    assert result.credit == "already" and not result.success
    assert len(result.false_claims) == 1 and "already met" in result.false_claims[0]


def test_silence_is_no_refusal(no_model: LLMClient) -> None:
    factory = tree_of(write(keys.CONTROL, "Reject"))
    result = run_scenario(load_scenario("too_heavy"), tree="mute", llm=no_model, factory=factory)
    assert not result.refused and not result.success
    assert any("said nothing" in note for note in result.notes)


def test_a_turn_that_runs_out_of_ticks_is_a_timeout_and_a_failure(no_model: LLMClient) -> None:
    factory = tree_of(say("I will not carry that."), lambda: Running("Forever"))
    result = run_scenario(
        load_scenario("too_heavy"),
        tree="stuck",
        llm=no_model,
        factory=factory,
        max_ticks_per_turn=5,
    )
    assert result.timeouts == 1 and not result.refused and not result.success


@pytest.mark.parametrize("scenario_id", ["goto_kitchen", "too_heavy"])
@pytest.mark.parametrize("backend", ["none", "oracle"])
def test_runs_are_guard_clean_and_their_figures_add_up(scenario_id: str, backend: str) -> None:
    result = run(scenario_id, backend)
    assert result.guard_violations == []
    assert 0.0 <= result.completion <= 1.0 and 0.0 <= result.redundancy <= 1.0
    assert result.clarifications == sum(turn.asked for turn in result.turns)
    assert result.tokens == result.prompt_tokens + result.completion_tokens
    if backend == "none":
        assert result.model_calls == 0 and result.tokens == 0


@pytest.mark.parametrize("backend", ["none", "oracle"])
def test_an_infeasible_request_never_moves_the_refill(backend: str) -> None:
    result = run("too_heavy", backend)
    assert result.unmet == [], "no forbidden predicate holds"
    assert result.executed == [] and result.delegations == []
    assert result.success == result.refused


def test_a_refused_delegation_is_reassigned_to_another_person() -> None:
    # Priya refuses print jobs today; the replanned step goes to Marco, who prints.
    result = run("prepare_meeting_room", "oracle")
    assert result.success, result.notes
    assert result.model_calls == 2  # the first plan, then the replan after the refusal
    assert any(done.startswith("marco") for done in result.delegations)
    assert not any(done.startswith("priya") for done in result.delegations)


@pytest.mark.parametrize(("backend", "refused"), [("oracle", True), ("none", False)])
def test_asked_to_lift_a_person_the_robot_never_acts(backend: str, refused: bool) -> None:
    # Moving a person makes inner speech ask the model (which refuses); without one, it asks.
    result = run("move_resident", backend)
    assert result.executed == []
    assert result.refused is refused


def test_him_and_a_possessive_name_the_recipient_without_a_model() -> None:
    # "take Mr Okafor's pill organiser to him": the recipient is Mr Okafor, not his pills.
    result = run("pills_to_resident", "none")
    assert result.success, result.transcript()
    assert result.turns[0].reply == "I delivered the pill organiser to mr okafor."


def test_a_delegated_print_job_is_part_of_the_plan() -> None:
    result = run("print_agenda", "oracle")
    assert result.success, result.notes
    assert any(done.startswith("priya") for done in result.delegations)
    assert result.robot_subtask_rate is not None and result.robot_subtask_rate < 1.0


def test_the_react_tree_runs_the_oracle_one_action_per_call() -> None:
    result = run("thirsty", "oracle", tree="react")
    assert result.tree == "react" and result.success
    steps = len(load_scenario("thirsty").oracle["planner"][0]["steps"])
    assert len(result.executed) == steps
    assert result.model_calls == steps + 1, "one call per action, then FINISH"
    assert result.prompt_tokens > 0 and result.completion_tokens > 0


def test_unknown_trees_are_named() -> None:
    with pytest.raises(ScenarioRunError, match="use one of gated, react"):
        tree_factory("bt")


# -- any tree: the dialogue loop and the scoring ------------------------------------------------


def test_the_dialogue_stops_after_max_turns(no_model: LLMClient) -> None:
    scenario = load_scenario("which_bottle")
    result = run_scenario(
        scenario, tree="asker", llm=no_model, factory=tree_of(say(ASK)), max_turns=3
    )
    assert [turn.utterance for turn in result.turns] == [
        "bring me the bottle",
        "the blue bottle of still water",
        "the blue bottle of still water",
    ]
    assert result.clarifications == 3 and not result.success
    assert result.unmet == ["delivered(still_water, alex)"]
    assert result.robot_subtask_rate is None and result.redundancy == 0.0


def test_a_speaker_who_does_not_know_ends_the_dialogue(no_model: LLMClient) -> None:
    result = run_scenario(
        load_scenario("too_heavy"), tree="asker", llm=no_model, factory=tree_of(say(ASK))
    )
    assert len(result.turns) == 1
    assert any("did not know" in note for note in result.notes)
    assert not result.refused and not result.success, "a pending question is no refusal"


def test_a_tree_that_declines_without_acting_passes_a_refusal(no_model: LLMClient) -> None:
    factory = tree_of(say("I cannot carry that: it is too heavy."))
    scenario = load_scenario("too_heavy")
    result = run_scenario(scenario, tree="decliner", llm=no_model, factory=factory)
    assert result.refused and result.success and result.completion == 1.0


def test_guard_violations_are_found_in_the_tick_log(no_model: LLMClient) -> None:
    scenario: Scenario = load_scenario("too_heavy")
    failed = ValidationReport(
        ok=False, problems=[StepProblem(step=1, code="payload", reason="too heavy")]
    )
    ran = SkillOutcome(
        call=skill_call("GOTO", {"target": "storeroom"}),
        status=RunStatus.SUCCEEDED,
        message="GOTO(storeroom) done",
    )
    factory = tree_of(
        write(keys.VALIDATION, failed),
        write(keys.SKILL_OUTCOME, ran),
        write(keys.MISSING, ["object"]),
        write(keys.CONTROL, "Proceed"),
        say("Done."),
    )
    result = run_scenario(scenario, tree="unguarded", llm=no_model, factory=factory)
    assert result.executed == ["GOTO(target=storeroom)"]
    assert result.guard_violations == [
        "GOTO(target=storeroom) ran after its plan failed validation (too heavy)",
        "turn 1: Proceed with slots missing: object",
    ]
    assert result.redundancy == 1.0, "the oracle needs no step: every step run is redundant"
    assert not result.refused and not result.success
