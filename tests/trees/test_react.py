"""The ReAct tree on the simulator: the scripted model answers one action per call.

The model's answers are a scenario's oracle plans written as ReAct decisions, one step per
call, then FINISH (a failed step does not stop the script: the next answer comes anyway, as a
model that does not adapt would give it). Everything below the tree is real: the world and
its disruptions, the executor, the people, the belief, the skills' preconditions and HTN.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from py_trees.common import Status

from cogtree.evaluation.react.model import FINISH, ReActDecision
from cogtree.evaluation.react.step import ReActStep
from cogtree.evaluation.react.tree import create_root
from cogtree.evaluation.scenarios.oracle import react_answers
from cogtree.evaluation.scenarios.scenario_run import oracle_client, run_scenario
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, load_scenario
from cogtree.skills.planning.plan_validation import ORACLE_KEYS
from cogtree.trees.recording.display import render_text, render_tick
from cogtree.trees.recording.snapshot import apply_writes, build_snapshot, initial_state
from cogtree.trees.recording.tick_log import read_tick_log
from cogtree.trees.testing import BlackboardView, ScriptedLLM, TreeHarness, scripted_llm

DONE = "I have done it."


def answer(action: str, **args: Any) -> dict[str, Any]:
    return {"answer": {"thought": f"next: {action}", "action": action, "args": args}}


def oracle_answers(scenario: Scenario) -> list[dict[str, Any]]:
    """The oracle's plans as one ReAct decision per step, then FINISH."""
    steps = [step for plan in scenario.oracle["planner"] for step in plan["steps"]]
    decisions = [
        answer(step["skill"], **{k: v for k, v in step.items() if k not in ORACLE_KEYS})
        for step in steps
    ]
    return [*decisions, answer(FINISH, reply=DONE)]


class Run:
    """A scenario run: its simulator, the scripted model and the tree, ticked together."""

    def __init__(self, scenario: Scenario, replies: list[dict[str, Any]], **tree: Any) -> None:
        self.scenario = scenario
        self.sim = SimExecutor.from_scenario(scenario)
        self.llm: ScriptedLLM = scripted_llm({"by_module": {"react": replies}})
        assert self.sim.belief is not None
        self.harness = TreeHarness(
            create_root(scenario.main_robot, **tree),
            llm=self.llm.client,
            handles={
                "scene_graph": self.sim.belief,
                "workers": self.sim.workers,
                "executor": self.sim,
                "people": self.sim.people,
            },
        )

    @property
    def step(self) -> ReActStep:
        node = next(n for n in self.harness.tree.root.iterate() if isinstance(n, ReActStep))
        return node

    def until_done(self, max_ticks: int = 400) -> None:
        """One simulated tick, then one tree tick, until the tree ends."""
        assert self.sim.belief is not None
        for _ in range(max_ticks):
            self.sim.step()
            self.sim.workers.wait_idle(5.0)
            self.harness.tick()
            if self.harness.tree.root.status != Status.RUNNING:
                return
        pytest.fail(f"{self.scenario.id}: still running after {max_ticks} ticks")

    def sent(self) -> list[str]:
        return [record.command.name for record in self.sim.log]

    def close(self) -> None:
        self.llm.client.close()
        self.sim.close()


@pytest.fixture
def runs(blackboard: BlackboardView) -> Iterator[list[Run]]:
    made: list[Run] = []
    yield made
    for run in made:
        run.close()


def start(
    runs: list[Run],
    blackboard: BlackboardView,
    scenario: Scenario,
    replies: list[dict[str, Any]],
    **tree: Any,
) -> Run:
    blackboard.set("/turn/utterance", scenario.request.text)
    if scenario.request.speaker:
        blackboard.set("/turn/speaker", scenario.request.speaker)
    run = Run(scenario, replies, **tree)
    runs.append(run)
    return run


def test_the_tree_builds_and_renders() -> None:
    text = render_text(create_root())
    for node in ("ReAct", "AwaitUtterance", "ReActLoop", "ReActStep"):
        assert node in text


def test_it_waits_for_a_request_without_calling_the_model(
    runs: list[Run], blackboard: BlackboardView
) -> None:
    run = Run(load_scenario("mug_to_sink"), oracle_answers(load_scenario("mug_to_sink")))
    runs.append(run)
    run.harness.tick(3)
    assert run.harness.trace.letters("AwaitUtterance") == "RRR"
    assert run.llm.calls == []


def test_robee_bottle_one_action_per_call_reaches_the_goal_without_a_blind_place(
    runs: list[Run], blackboard: BlackboardView
) -> None:
    scenario = load_scenario("robee_bottle")
    run = start(runs, blackboard, scenario, oracle_answers(scenario))
    run.until_done()

    assert run.harness.root_status == "SUCCESS"
    assert scenario.goal.achieved(run.sim.world)
    assert blackboard.get("/turn/reply") == DONE  # the belief backs it
    assert blackboard.get("/rationale/reactstep_decide").notes[-1] == (
        "final reply backed by the belief"
    )
    history = run.step.history
    assert [turn.describe() for turn in history] == [
        "GOTO(target=table_1)",
        "PICK(object=bottle, hand=right)",
        "GOTO(target=table_2)",
        "PLACE(object=bottle, target=table_2, hand=right)",
        "GOTO(target=kitchen)",
        "LOOK()",
        "PICK(object=bottle, hand=right)",
        "GOTO(target=table_2)",
        "PLACE(object=bottle, target=table_2, hand=right)",
        f"FINISH(reply={DONE})",
    ]
    # Anna moved the bottle: PICK failed at the grasp; the PLACE that followed was refused by
    # its precondition (nothing held), so no put command was sent then. Looking in the
    # kitchen found the bottle on the counter, and the second PICK took it there.
    assert "object_not_visible" in history[1].observation and not history[1].refused
    assert history[3].refused and "failed precondition holding" in history[3].observation
    assert run.sent().count("put") == 1
    # One model call per step, each with its tokens counted.
    calls = run.llm.calls
    assert len(calls) == len(history)
    assert all(call.module == "react" and call.prompt_tokens > 0 for call in calls)
    assert calls[-1].prompt_tokens > calls[0].prompt_tokens  # the history grows the prompt


def test_a_goal_someone_else_met_is_never_claimed(
    runs: list[Run], blackboard: BlackboardView
) -> None:
    scenario = load_scenario("robee_bottle_carried")  # Anna carries the bottle there herself
    claim = "I brought the bottle to the bedroom table."
    script = [
        answer("GOTO", target="table_1"),
        answer("PICK", object="bottle", hand="right"),
        answer("GOTO", target="table_2"),
        answer(FINISH, reply=claim),
    ]
    run = start(runs, blackboard, scenario, script)
    run.until_done(scenario.limits.max_ticks + 20)

    assert scenario.goal.achieved(run.sim.world)  # the world holds the goal, Anna made it so
    reply = blackboard.get("/turn/reply")
    assert claim not in reply and reply.startswith("I have stopped.")
    assert "Not done: I do not have the bottle." in reply
    assert blackboard.get("/rationale/reactstep_decide").vetoed


@pytest.mark.parametrize("scenario_id", ["mug_to_sink", "print_agenda", "fridge_closed"])
def test_oracle_actions_reach_the_goal(
    runs: list[Run], blackboard: BlackboardView, scenario_id: str
) -> None:
    scenario = load_scenario(scenario_id)
    run = start(runs, blackboard, scenario, oracle_answers(scenario))
    run.until_done(scenario.limits.max_ticks + 20)
    assert run.harness.root_status == "SUCCESS"
    assert scenario.goal.unmet(run.sim.world) == []
    assert run.step.episode_end == "finished"


def test_bad_answers_never_send_a_command(runs: list[Run], blackboard: BlackboardView) -> None:
    scenario = load_scenario("mug_to_sink")
    goto, pick, place, finish = oracle_answers(scenario)
    bad = [
        {"text": "I would go to the kitchen"},  # malformed, and malformed again on the retry
        {"text": "{}"},
        answer("TELEPORT", target="sink"),  # unknown skill
        answer("PLACE", object="mug", target="sink", hand="right"),  # nothing held yet
        answer("PICK", object="mug", hand="right", speed="fast"),  # an argument PICK lacks
    ]
    run = start(runs, blackboard, scenario, [*bad, goto, pick, place, finish])
    run.until_done()

    assert scenario.goal.unmet(run.sim.world) == []
    history = run.step.history
    assert [turn.refused for turn in history] == [True] * 4 + [False] * 4
    assert "unknown action 'TELEPORT'" in history[1].observation
    assert "failed precondition holding" in history[2].observation
    assert "speed" in history[3].observation
    # Only the three good skills sent commands: one put, one grasp, no command before GOTO.
    counts = Counter(run.sent())
    assert counts["put"] == 1 and counts["grasp"] == 1
    assert run.sent()[0] == "navigate"


def test_the_step_budget_ends_the_run_with_an_honest_reply(
    runs: list[Run], blackboard: BlackboardView
) -> None:
    scenario = load_scenario("mug_to_sink")
    run = start(runs, blackboard, scenario, [answer("LOOK")] * 10, max_steps=3)
    run.until_done()

    assert run.harness.root_status == "SUCCESS"
    assert run.step.episode_end == "gave_up"
    assert len(run.llm.calls) == 3 and run.sent() == ["observe"] * 3
    reply = blackboard.get("/turn/reply")
    assert reply.startswith("I could not finish your request: I used all 3 steps")
    assert "Steps run: LOOK(), LOOK(), LOOK()." in reply
    assert not scenario.goal.achieved(run.sim.world)


# -- what ReAct did, as the tick log, --show-ticks and the viewer show it -------------------------

ACTION_NODE = re.compile(r"\d+:.+")
"""The name of an action node ReActAct inserts: ``2:PICK(object=bottle, hand=right)``."""


@dataclass
class ActionNode:
    """One inserted action node, from the tick log: its name, parent and statuses when ticked."""

    name: str
    parent: str
    statuses: list[str] = field(default_factory=list)
    in_snapshot: list[str] = field(default_factory=list)


def action_nodes(log: Path) -> list[ActionNode]:
    """Every action node of the log in the order it was inserted, with what each tick showed.

    The statuses are those of the ticks that visited the node; ``in_snapshot`` the statuses the
    viewer's snapshot gives it on those ticks.
    """
    header, entries = read_tick_log(log)
    names: dict[str, str] = {}
    parents: dict[str, str] = {}
    found: dict[str, ActionNode] = {}
    structure = header.structure
    state = initial_state(header.blackboard)
    for entry in entries:
        structure = entry.structure or structure
        apply_writes(state, entry.tick, entry.writes)
        snapshot = build_snapshot(structure, entry, state, changed=entry.structure is not None)
        for shape in structure:
            names[shape.id] = shape.name
            parents.update(dict.fromkeys(shape.children, shape.id))
        for node in entry.nodes:
            name = names[node.id]
            if not node.visited or not ACTION_NODE.fullmatch(name):
                continue
            action = found.setdefault(node.id, ActionNode(name, names[parents[node.id]]))
            action.statuses.append(node.status)
            action.in_snapshot.append(snapshot["behaviours"][node.id]["status"])
    return list(found.values())


FAILED = {
    # Anna moved the bottle within the kitchen: the grasp fails; PLACE is then refused by its
    # precondition; the oracle looks and finds it.
    "robee_bottle": {
        "2:PICK(object=bottle, hand=right)",
        "4:PLACE(object=bottle, target=table_2, hand=right)",
    },
    # Weber is busy at first; later Tom holds the contract, so PICK and HANDOVER fail.
    "signer_busy": {
        "3:DELEGATE(person=weber, ability=sign)",
        "8:PICK(object=contract, hand=right)",
        "9:HANDOVER(object=contract, person=tom, hand=right)",
    },
    "print_agenda": set(),
}
"""The actions of each scenario's oracle run that end in FAILURE; every other one succeeds."""

AT_ONCE = {"3:DELEGATE(person=weber, ability=sign)"}
"""Actions that end on their first tick (Weber refuses at once); every other one runs first."""


@pytest.mark.parametrize("scenario_id", sorted(FAILED))
def test_each_chosen_action_is_a_child_node_with_its_own_status_in_the_tick_log(
    tmp_path: Path, scenario_id: str
) -> None:
    scenario = load_scenario(scenario_id)
    log = tmp_path / "ticks.jsonl"
    shown: list[str] = []
    with oracle_client(scenario, tree="react") as client:
        result = run_scenario(
            scenario,
            tree="react",
            llm=client,
            log_path=log,
            on_tick=lambda root, entry: shown.append(render_tick(root, entry)),
        )
    assert result.success and not result.met_by_others and not result.false_claims

    chosen = [
        ReActDecision.model_validate(reply)
        for reply in react_answers(scenario.oracle["planner"])
        if reply["action"] != FINISH
    ]
    nodes = action_nodes(log)
    assert [node.name for node in nodes] == [
        f"{number}:{decision.describe()}" for number, decision in enumerate(chosen, 1)
    ]
    for node in nodes:
        assert node.parent == "ReActStep.Act", node.name
        *before, last = node.statuses
        assert last in ("SUCCESS", "FAILURE") and set(before) <= {"RUNNING"}, node
        assert bool(before) == (node.name not in AT_ONCE), node  # RUNNING, then its outcome
        assert node.in_snapshot == node.statuses, node
        assert any(node.name in text for text in shown), node.name  # --show-ticks
    assert {node.name for node in nodes if node.statuses[-1] == "FAILURE"} == FAILED[scenario_id]
