"""ReActStep: one model call, one checked action, one observation, on the simulator's world.

The world is RoBee's bottle scenario without its disruption: robot1 in the hallway, the bottle
on table_1 in the kitchen, Anna (who can sign) in the kitchen. Everything below the node is
real (scene-graph belief, skill preconditions and HTN, the simulator's executor and people);
only the model is scripted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from py_trees.common import Status
from py_trees.decorators import Retry

from cogtree.behaviours.actions.grounding.perception import LocateObject
from cogtree.behaviours.actions.planning.look_around import LookAround
from cogtree.behaviours.actions.planning.skill_action import SkillAction
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.evaluation.react.model import ACTION_LIBRARY, FINISH, NO_REQUEST, ReActDecision
from cogtree.evaluation.react.step import ReActStep
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.testing import BlackboardView, ScriptedLLM, TreeHarness

REQUEST = "bring the bottle to the bedroom table"


def answer(action: str, thought: str = "", **args: Any) -> dict[str, Any]:
    """A scripted model answer choosing ``action`` with ``args``."""
    return {"answer": {"thought": thought, "action": action, "args": args}}


@pytest.fixture
def sim() -> Iterator[SimExecutor]:
    scenario = load_scenario("robee_bottle").model_copy(update={"events": ()})
    with SimExecutor.from_scenario(scenario) as executor:
        yield executor


@pytest.fixture
def board(blackboard: BlackboardView) -> BlackboardView:
    blackboard.set("/turn/utterance", REQUEST)
    blackboard.set("/turn/speaker", "alex")
    return blackboard


MakeLLM = Callable[..., ScriptedLLM]


def harness_for(node: Any, llm: ScriptedLLM, sim: SimExecutor, **handles: Any) -> TreeHarness:
    defaults: dict[str, Any] = {
        "scene_graph": sim.belief,
        "workers": sim.workers,
        "executor": sim,
        "people": sim.people,
    }
    return TreeHarness(node, llm=llm.client, handles={**defaults, **handles})


def run(
    harness: TreeHarness,
    sim: SimExecutor,
    until: Callable[[TreeHarness], bool] | None = None,
    max_ticks: int = 200,
) -> None:
    """One simulated tick, then one tree tick, until ``until`` holds or the root ends."""
    assert sim.belief is not None
    for _ in range(max_ticks):
        sim.step()
        sim.workers.wait_idle(5.0)  # queries and skill planning run on the simulator's workers
        harness.tick()
        if until(harness) if until else harness.tree.root.status != Status.RUNNING:
            return
    pytest.fail(f"still running after {max_ticks} ticks")


def one_step(
    make_llm: MakeLLM, sim: SimExecutor, *answers: dict[str, Any], **node_args: Any
) -> tuple[ReActStep, ScriptedLLM, TreeHarness]:
    """Run a ReActStep once with the scripted ``answers``."""
    llm = make_llm({"by_module": {"react": list(answers)}})
    node = ReActStep(**node_args)
    harness = harness_for(node, llm, sim)
    run(harness, sim)
    return node, llm, harness


def commands(sim: SimExecutor) -> list[str]:
    return [record.command.name for record in sim.log]


# -- the action library and the decision schema --------------------------------------------------


def test_library_lists_perception_look_every_skill_delegate_and_finish() -> None:
    signatures = [spec.signature() for spec in ACTION_LIBRARY.values()]
    assert signatures[:4] == [
        "GetMapRooms()",
        "GetObjectsInRoom(room)",
        "LocateObject(thing)",
        "LOOK()",
    ]
    assert (
        "PICK(object, hand)" in signatures
        and "PLACE(object, target, hand, relation?)" in signatures
    )
    assert signatures[-2:] == ["DELEGATE(person, ability, description?)", "FINISH(reply)"]


def test_decision_schema_constrains_the_action_to_the_library() -> None:
    schema = ReActDecision.model_json_schema()
    assert schema["properties"]["action"]["enum"] == list(ACTION_LIBRARY)
    assert schema["additionalProperties"] is False


def test_max_steps_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="max_steps must be at least 1"):
        ReActStep(max_steps=0)


def test_missing_executor_names_the_node_and_the_handle(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    with pytest.raises(MissingHandleError, match=r"ReActStep\.Act \(ReActAct\) .*`executor`"):
        harness_for(ReActStep(), make_llm(), sim, executor=None)


# -- the prompt ---------------------------------------------------------------------------------


def test_prompt_holds_request_speaker_library_and_the_history_with_observations(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    llm = make_llm({"by_module": {"react": [answer("GetMapRooms", "where am I")] * 2}})
    loop = Retry("Loop", ReActStep(max_steps=5), num_failures=5)
    harness = harness_for(loop, llm, sim)
    run(harness, sim, until=lambda h: h.llm.wait_for_calls(5.0) and len(llm.calls) == 2)

    first, second = (request.prompt_text() for request in llm.backend.requests)
    assert f"Request from alex: {REQUEST!r}" in first
    assert "You are the planner of robot robot1" in first
    assert "GOTO(target)" in first and "FINISH(reply)" in first
    assert "No steps yet." in first and "Step 1 of 5" in first
    assert "1. Thought: where am I Action: GetMapRooms() Observation (ok): rooms:" in second
    assert "kitchen (opens onto hallway)" in second and "Step 2 of 5" in second


# -- perception, LOOK, skills, people -------------------------------------------------------------


def test_get_objects_in_room_observes_what_the_belief_holds_there(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("GetObjectsInRoom", room="kitchen"))
    assert node.status == Status.FAILURE  # a step taken; the episode goes on
    turn = node.history[-1]
    assert turn.ok and not turn.refused
    assert "bottle (Bottle, on table_1)" in turn.observation
    assert "fridge (Fridge, closed)" in turn.observation
    assert commands(sim) == []


def test_an_unknown_room_is_a_failed_observation_listing_the_rooms(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("GetObjectsInRoom", room="garage"))
    turn = node.history[-1]
    assert not turn.ok and not turn.refused
    assert "no room 'garage'" in turn.observation and "kitchen" in turn.observation


def test_locate_object_says_where_the_thing_is_believed_to_be(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("LocateObject", thing="bottle"))
    assert node.history[-1].observation.startswith("bottle: on table_1 in kitchen")


def test_look_sends_one_observe_command_and_reports_what_was_seen(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("LOOK"))
    assert commands(sim) == ["observe"]
    assert node.history[-1].ok and "robot1 sees in hallway" in node.history[-1].observation


def test_a_skill_runs_through_the_executor_and_its_outcome_is_the_observation(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("GOTO", target="table_1"))
    assert commands(sim) == ["navigate"]
    assert node.history[-1].ok
    assert node.history[-1].observation.startswith("GOTO(table_1) succeeded")
    assert board.get("/skill/outcome").call.describe() == "GOTO(table_1)"


def test_delegate_asks_the_person_over_the_people_channel(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(
        make_llm, sim, answer("DELEGATE", person="anna", ability="sign", description="the form")
    )
    turn = node.history[-1]
    assert turn.ok, turn.observation
    assert sim.world.did("anna", "sign")
    assert commands(sim) == []


def test_delegate_to_someone_without_the_ability_is_their_refusal(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("DELEGATE", person="alex", ability="sign"))
    turn = node.history[-1]
    assert not turn.ok and not turn.refused
    assert turn.observation.startswith("person_refused: alex cannot sign")


def test_delegate_without_a_people_channel_is_refused(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    llm = make_llm({"by_module": {"react": [answer("DELEGATE", person="anna", ability="sign")]}})
    node = ReActStep()
    run(harness_for(node, llm, sim, people=None), sim)
    turn = node.history[-1]
    assert turn.refused and "no channel to people" in turn.observation
    assert sim.people.working == [] and not sim.world.did("anna", "sign")


# -- the guards: nothing is sent -------------------------------------------------------------------


def test_an_unknown_action_is_refused_with_the_valid_ones_and_nothing_is_sent(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("FLY", target="kitchen"))
    turn = node.history[-1]
    assert node.status == Status.FAILURE
    assert turn.refused and not turn.ok
    assert "unknown action 'FLY'" in turn.observation and "PICK(object, hand)" in turn.observation
    assert commands(sim) == []


def test_arguments_that_do_not_fit_are_refused_naming_the_field(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, _, _ = one_step(make_llm, sim, answer("PICK", object="bottle", hand="third"))
    turn = node.history[-1]
    assert turn.refused and "hand" in turn.observation
    assert commands(sim) == []


def test_a_skill_whose_precondition_fails_is_not_sent(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, llm, _ = one_step(
        make_llm, sim, answer("PLACE", object="bottle", target="table_2", hand="right")
    )
    turn = node.history[-1]
    assert turn.refused and not turn.ok
    assert "failed precondition holding" in turn.observation
    assert commands(sim) == []
    rationale = board.get("/rationale/reactstep_decide")
    assert isinstance(rationale, GateRationale) and rationale.vetoed
    assert rationale.notes[-1].startswith("observation: PLACE(bottle, table_2, right) failed")


def test_malformed_answers_are_retried_once_then_the_step_is_spent_doing_nothing(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, llm, _ = one_step(make_llm, sim, {"text": "GOTO the kitchen!"}, {"text": "{"})
    turn = node.history[-1]
    assert node.status == Status.FAILURE
    assert turn.refused and turn.describe() == "(no action)"
    assert "malformed twice" in turn.observation
    assert [call.outcome for call in llm.calls] == ["malformed", "malformed"]
    assert commands(sim) == []


# -- the episode: finishing, the budget, no request, no model -----------------------------------


def test_finish_writes_the_reply_and_the_next_run_starts_a_new_episode(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    llm = make_llm(
        {
            "by_module": {
                "react": [
                    answer("LocateObject", thing="bottle"),
                    answer(FINISH, "it is on the kitchen table", reply="It is on table_1."),
                    answer("GetMapRooms"),
                ]
            }
        }
    )
    node = ReActStep()
    loop = Retry("Loop", node, num_failures=5)
    harness = harness_for(loop, llm, sim)
    run(harness, sim)
    assert harness.root_status == "SUCCESS"
    assert board.get("/turn/reply") == "It is on table_1."
    assert node.episode_end == "finished"
    assert [turn.action for turn in node.history] == ["LocateObject", FINISH]
    assert "finished" in node.feedback_message

    run(harness, sim, until=lambda h: [t.action for t in node.history] == ["GetMapRooms"])
    assert len(node.history) == 1  # the next request starts afresh
    assert "No steps yet." in llm.backend.requests[2].prompt_text()


def test_the_step_budget_ends_the_episode_with_an_honest_reply(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    llm = make_llm(
        {
            "by_module": {
                "react": [
                    answer("GOTO", target="kitchen"),
                    answer("PICK", object="milk", hand="right"),
                    answer("LOOK"),
                ]
            }
        }
    )
    node = ReActStep(max_steps=3)
    harness = harness_for(Retry("Loop", node, num_failures=3), llm, sim)
    run(harness, sim)
    assert harness.root_status == "SUCCESS"
    assert node.episode_end == "gave_up" and len(node.history) == 3 and len(llm.calls) == 3
    reply = board.get("/turn/reply")
    assert reply.startswith("I could not finish your request: I used all 3 steps")
    assert "Steps run: GOTO(target=kitchen), LOOK()." in reply
    assert "The last problem: PICK(object=milk, hand=right)" in reply
    assert reply.endswith("OPEN fridge first. Not done: I do not have the milk.")  # the belief


def test_three_steps_in_a_row_without_a_usable_answer_end_the_episode(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    garbage = {"text": "GOTO the kitchen!"}
    llm = make_llm({"by_module": {"react": [answer("LOOK"), *[garbage] * 6, answer("LOOK")]}})
    node = ReActStep(max_steps=20)
    harness = harness_for(Retry("Loop", node, num_failures=20), llm, sim)
    run(harness, sim)
    assert node.episode_end == "gave_up" and len(node.history) == 4  # LOOK, then three misses
    reply = board.get("/turn/reply")
    assert reply.startswith(
        "I could not finish your request: my language model gave no usable answer 3 times in "
        "a row. Steps run: LOOK()."
    )
    assert len(llm.calls) == 7  # each miss was asked again once


def test_without_a_request_it_finishes_at_once_without_asking_the_model(
    blackboard: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, llm, _ = one_step(make_llm, sim)
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == NO_REQUEST
    assert llm.calls == []


def test_without_a_model_it_gives_up_at_once_and_says_why(
    board: BlackboardView, sim: SimExecutor
) -> None:
    with LLMClient(LLMConfig.load().with_backend("none")) as client:
        node = ReActStep()
        harness = TreeHarness(
            node,
            llm=client,
            handles={"scene_graph": sim.belief, "workers": sim.workers, "executor": sim},
        )
        run(harness, sim)
        assert client.call_log.records() == []
    assert node.status == Status.SUCCESS and node.episode_end == "gave_up"
    assert "I have no language model to plan with" in board.get("/turn/reply")
    assert commands(sim) == []


# -- interruption and cost ------------------------------------------------------------------------


def driving_forever(make_llm: MakeLLM, sim: SimExecutor) -> ReActStep:
    """A step whose model said GOTO, ticked five times: the simulator never ends the drive."""
    llm = make_llm({"by_module": {"react": [answer("GOTO", target="table_2")]}})
    node = ReActStep()
    harness = harness_for(node, llm, sim)
    assert sim.belief is not None
    for _ in range(5):
        harness.tick()
        sim.workers.wait_idle(5.0)
    return node


def test_interrupted_while_driving_it_cancels_the_command_and_abandons_the_episode(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node = driving_forever(make_llm, sim)
    assert node.status == Status.RUNNING and sim.log
    node.stop(Status.INVALID)  # the root of its harness
    assert sim.log[-1].cancelled
    assert node.episode_end == "gave_up"


def test_every_model_call_records_its_tokens_in_the_call_log(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node, llm, _ = one_step(make_llm, sim, answer("GetMapRooms"))
    (call,) = llm.client.call_log.records()
    assert call.module == "react" and call.outcome == "ok"
    assert call.prompt_tokens > 100 and call.completion_tokens > 5
    assert llm.client.call_log.tokens_by_module()["react"] == (
        call.prompt_tokens,
        call.completion_tokens,
    )


# -- the action is a node of the tree -------------------------------------------------------------


def test_the_step_is_a_gate_and_an_action_node_whose_child_is_the_chosen_action(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    llm = make_llm(
        {"by_module": {"react": [answer("LocateObject", thing="bottle"), answer("LOOK")]}}
    )
    node = ReActStep(max_steps=5)
    harness = harness_for(Retry("Loop", node, num_failures=5), llm, sim)
    assert [child.name for child in node.children] == [
        "ReActStep.Decide",
        "ReActStep.Act",
        "ReActStep.Report",
    ]
    run(harness, sim, until=lambda h: node.status == Status.FAILURE)
    (located,) = node.act.children
    assert isinstance(located, LocateObject) and located.name == "1:LocateObject(thing=bottle)"
    assert located.status == Status.SUCCESS

    run(harness, sim, until=lambda h: len(node.history) == 2)
    (looked,) = node.act.children  # the next step replaced it
    assert isinstance(looked, LookAround) and looked.name == "2:LOOK()"
    assert looked.status == Status.SUCCESS and located.parent is None


def test_stopping_the_step_stops_the_action_child_and_cancels_its_command(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    node = driving_forever(make_llm, sim)
    (drive,) = node.act.children
    assert isinstance(drive, SkillAction) and drive.status == Status.RUNNING
    assert drive.feedback_message.startswith("running navigate")
    node.stop(Status.INVALID)
    assert drive.status == Status.INVALID and drive.feedback_message == "cancelled"
    assert sim.log[-1].cancelled


def test_an_unfaithful_final_reply_is_not_said(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    invented = "It is on table_7; take 400 mg of Ibuprofen with it."
    llm = make_llm(
        {
            "by_module": {
                "react": [
                    answer("LocateObject", thing="bottle"),
                    answer(FINISH, "done", reply=invented),
                ]
            }
        }
    )
    node = ReActStep()
    harness = harness_for(Retry("Loop", node, num_failures=5), llm, sim)
    run(harness, sim)
    assert harness.root_status == "SUCCESS" and node.episode_end == "finished"
    said = board.get("/turn/reply")
    assert said.startswith("I have finished, but I cannot tell you more than what I did.")
    assert "400" not in said and "Ibuprofen" not in said and "7" not in said
    rationale = board.get("/rationale/reactstep_decide")
    assert rationale.vetoed
    (note,) = [n for n in rationale.notes if n.startswith("final reply not said")]
    assert "numbers 7, 400" in note and "Ibuprofen" in note


# -- the final reply held to the belief (ReActReport) ---------------------------------------------


CLAIM = "I brought the bottle to the bedroom table."


def finished_with(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor, *steps: dict[str, Any], said: str
) -> str:
    """Run an episode of ``steps``, then FINISH saying ``said``; what the robot said."""
    llm = make_llm({"by_module": {"react": [*steps, answer(FINISH, reply=said)]}})
    node = ReActStep()
    harness = harness_for(Retry("Loop", node, num_failures=len(steps) + 1), llm, sim)
    run(harness, sim)
    assert harness.root_status == "SUCCESS" and node.episode_end == "finished"
    return str(board.get("/turn/reply"))


def final_note(board: BlackboardView) -> str:
    rationale = board.get("/rationale/reactstep_decide")
    assert isinstance(rationale, GateRationale)
    return rationale.notes[-1]


def test_a_claim_with_no_action_run_is_not_said(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor
) -> None:
    said = finished_with(board, make_llm, sim, said=CLAIM)
    assert said == "I have finished, but I cannot tell you more than what I did. " + (
        "I did not do anything."
    )
    assert board.get("/rationale/reactstep_decide").vetoed
    assert final_note(board) == "final reply not said: no robot action was run"


GOTO_TABLE_1 = answer("GOTO", target="table_1")
PICK_BOTTLE = answer("PICK", object="bottle", hand="right")
GOTO_TABLE_2 = answer("GOTO", target="table_2")
PLACE_BOTTLE = answer("PLACE", object="bottle", target="table_2", hand="right")


@pytest.mark.parametrize("picked", [True, False])
def test_a_claim_is_said_only_when_the_belief_backs_it(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor, picked: bool
) -> None:
    steps = [GOTO_TABLE_1, PICK_BOTTLE, GOTO_TABLE_2] if picked else [GOTO_TABLE_1]
    said = finished_with(board, make_llm, sim, *steps, PLACE_BOTTLE, said=CLAIM)
    if picked:
        assert said == CLAIM
        assert final_note(board) == "final reply backed by the belief"
        assert not board.get("/rationale/reactstep_decide").vetoed
        return
    # PLACE was refused (nothing held): the reply is the outcome read from the belief.
    assert said.startswith("I have stopped. Not done: the bottle is not on the bedroom table.")
    assert "Steps run: GOTO(target=table_1)." in said and "brought" not in said
    assert final_note(board) == f"final reply not said: the belief does not back: {CLAIM}"
    assert sim.world.state.placements["bottle"].support == "table_1"


@pytest.mark.parametrize(("signer", "said_as_is"), [("anna", True), ("alex", False)])
def test_a_delegated_claim_may_name_only_who_did_it(
    board: BlackboardView, make_llm: MakeLLM, sim: SimExecutor, signer: str, said_as_is: bool
) -> None:
    claim = f"I got the form signed by {signer}."
    said = finished_with(
        board,
        make_llm,
        sim,
        answer("DELEGATE", person="alex", ability="sign"),  # alex cannot sign: refuses
        answer("DELEGATE", person="anna", ability="sign"),
        said=claim,
    )
    assert (said == claim) is said_as_is
    if not said_as_is:
        assert said.startswith(
            "I have stopped. Done by anna: anna did sign. Planned at first, not done: alex did "
            "not sign."
        )


# -- states the final reply claims, held to the belief ----------------------------------------


@pytest.fixture
def lit_hob() -> Iterator[SimExecutor]:
    """The kitchen with the hob (a stove) on and a plastic lunch box on the counter."""
    scenario = load_scenario("kitchen_hazard_plastic_on_hob").model_copy(update={"events": ()})
    with SimExecutor.from_scenario(scenario) as executor:
        yield executor


SWITCH_HOB_OFF = answer("SWITCH_OFF", appliance="stove")


@pytest.mark.parametrize(
    ("steps", "said", "backed"),
    [
        ((), "The hob is off now, it is safe to touch.", False),
        ((SWITCH_HOB_OFF,), "The hob is off now.", True),
        ((SWITCH_HOB_OFF,), "The hob is off now, it is safe to touch.", False),
        ((), "Your lunch box is heating.", False),
        ((), "Careful, the hob is hot.", True),
    ],
)
def test_a_state_the_reply_claims_is_said_only_when_the_belief_backs_it(
    board: BlackboardView,
    make_llm: MakeLLM,
    lit_hob: SimExecutor,
    steps: tuple[dict[str, Any], ...],
    said: str,
    backed: bool,
) -> None:
    """Checked to fail before state claims were held to the belief (every reply was said)."""
    reply = finished_with(board, make_llm, lit_hob, *steps, said=said)
    assert (reply == said) is backed, reply
    if not backed:
        assert reply.startswith("I have stopped.") or reply.startswith("I have finished")
        assert "safe to touch" not in reply and "heating" not in reply
        assert "does not back the states it claims" in final_note(board)
