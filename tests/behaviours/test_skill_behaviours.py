"""SkillAction, Explain and LookAround on the simulator, tick by tick."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.behaviours.actions.dialogue.explain import Explain
from cogtree.behaviours.actions.planning.look_around import LookAround
from cogtree.behaviours.actions.planning.skill_action import SkillAction
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.execution.controller import RunStatus
from cogtree.trees.testing import BlackboardView, TreeHarness


@pytest.fixture
def executor() -> Iterator[SimExecutor]:
    running = SimExecutor.from_scenario(load_scenario("robee_bottle"))
    yield running
    running.close()


def harness_for(node, executor: SimExecutor, make_llm, **handles) -> TreeHarness:
    return TreeHarness(
        node,
        llm=make_llm().client,
        handles={
            "scene_graph": executor.belief,
            "workers": executor.workers,
            "executor": executor,
            **handles,
        },
    )


def run(harness: TreeHarness, executor: SimExecutor, max_ticks: int = 20) -> list[str]:
    """Simulator tick then tree tick, until the tree ends; the root status of every tick."""
    assert executor.belief is not None
    statuses = []
    for _ in range(max_ticks):
        executor.step()
        assert executor.workers.wait_idle(60.0), "the simulator's workers did not go idle"
        harness.tick()
        statuses.append(harness.root_status)
        if statuses[-1] != "RUNNING":
            break
    return statuses


def test_failed_precondition_fails_without_sending_a_command(
    blackboard: BlackboardView, executor: SimExecutor, make_llm
) -> None:
    # The robot is in the hallway: the milk is in the closed fridge, a PICK cannot start.
    action = SkillAction("PickMilk", skill_call("PICK", object="milk", hand="right"))
    harness = harness_for(action, executor, make_llm)
    statuses = run(harness, executor)
    # the planning runs on a worker: whether the first tick already sees it done is timing,
    # what is not is that the action fails once it is, having sent nothing
    assert statuses[-1] == "FAILURE" and set(statuses[:-1]) <= {"RUNNING"}
    outcome = blackboard.get("/skill/outcome")
    assert outcome.status == RunStatus.FAILED and outcome.failed_precondition is not None
    assert "failed precondition" in outcome.message
    assert executor.log == []


def test_skill_runs_across_ticks_and_succeeds(
    blackboard: BlackboardView, executor: SimExecutor, make_llm
) -> None:
    action = SkillAction("GotoKitchen", skill_call("GOTO", target="table_1"))
    harness = harness_for(action, executor, make_llm)
    statuses = run(harness, executor)
    assert set(statuses[:-1]) == {"RUNNING"} and statuses[-1] == "SUCCESS"
    assert blackboard.get("/skill/outcome").status == RunStatus.SUCCEEDED
    assert executor.world.room_of("robot1") == "kitchen"


def test_skill_from_the_blackboard_and_missing_call(
    blackboard: BlackboardView, executor: SimExecutor, make_llm
) -> None:
    harness = harness_for(SkillAction("Next"), executor, make_llm)
    assert run(harness, executor) == ["FAILURE"]
    assert harness.tree.root.feedback_message == "no skill to run: /skill/call is not set"
    blackboard.set("/skill/call", skill_call("SAY", text="hello"))
    assert run(harness, executor)[-1] == "SUCCESS"
    assert [record.command.name for record in executor.log] == ["speak"]


def test_skill_action_needs_an_executor(blackboard: BlackboardView, executor: SimExecutor) -> None:
    action = SkillAction("Goto", skill_call("GOTO", target="kitchen"))
    with pytest.raises(MissingHandleError, match="needs the `executor` handle"):
        action.setup(scene_graph=executor.belief)


def test_explain_without_a_failure_fails(
    blackboard: BlackboardView, executor: SimExecutor, make_llm
) -> None:
    with ExperienceStore() as experience:
        harness = harness_for(Explain(), executor, make_llm, experience=experience)
        assert run(harness, executor) == ["FAILURE"]
    assert "/skill/explanation" not in py_trees_storage()


def test_look_around_refreshes_the_belief(
    blackboard: BlackboardView, executor: SimExecutor, make_llm
) -> None:
    assert executor.belief is not None
    harness = harness_for(LookAround(), executor, make_llm)
    assert run(harness, executor) == ["RUNNING", "SUCCESS"]
    assert [record.command.name for record in executor.log] == ["observe"]


def py_trees_storage() -> dict:
    import py_trees

    return dict(py_trees.blackboard.Blackboard.storage)
