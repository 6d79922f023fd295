"""The turn's story: turns, decisions, plans with their steps' statuses, calls, failures, speech."""

from __future__ import annotations

from pathlib import Path

from cogtree.trees.recording.tick_log import (
    BlackboardRead,
    BlackboardWrite,
    NodeShape,
    NodeState,
    read_tick_log,
)
from cogtree.trees.viewer.feed import TickFeed
from cogtree.trees.viewer.story import StoryBuilder
from tests.viewer.small_run import (
    GATE,
    GATE_NAME,
    ROOT,
    SAY,
    call_record,
    gate_rationale,
    small_header,
    small_tick,
)

STRUCTURE = [ROOT, GATE, SAY]
PLAN = {
    "steps": [
        {"id": 1, "action": "GOTO", "args": {"target": "fridge"}, "assignee": None},
        {"id": 2, "action": "PICK", "args": {"object": "water", "hand": "right"}},
    ],
    "rationale": "fetch the water",
    "source": "htn",
}
STEP = NodeShape(id="s1", name="step 1", behaviour="x.ReflectedStep", kind="decorator")


def heard(text: str) -> list[BlackboardRead]:
    return [BlackboardRead(key="/turn/utterance", client="Listen", value=text)]


def test_a_turn_begins_at_the_first_tick_and_after_the_root_ended() -> None:
    story = StoryBuilder()
    story.add(STRUCTURE, small_tick(1, "RUNNING", reads=heard("I'm thirsty")))
    story.add(STRUCTURE, small_tick(2, "SUCCESS", "SUCCESS"))
    story.add(STRUCTURE, small_tick(3, "RUNNING", reads=heard("thanks")))
    turns = [entry for entry in story.entries if entry.kind == "turn"]
    assert [(turn.tick, turn.turn) for turn in turns] == [(1, 1), (3, 2)]
    assert turns[0].headline == "turn 1: “I'm thirsty”" and turns[0].text == "ended SUCCESS"
    assert turns[1].headline == "turn 2: “thanks”" and turns[1].text == ""


def test_a_decision_says_what_from_where_vetoed_and_why_and_names_its_node() -> None:
    story = StoryBuilder()
    decision = BlackboardWrite(
        key="/rationale/gate_b", client=GATE_NAME, value=gate_rationale("the user is unsure")
    )
    told = story.add(STRUCTURE, small_tick(1, "FAILURE", writes=[decision], calls=[call_record()]))
    kinds = [entry.kind for entry in told]
    assert kinds == ["turn", "decision", "call"]
    gate, call = told[1], told[2]
    assert (gate.node, gate.node_name, gate.tick) == ("gate", GATE_NAME, 1)
    assert gate.headline == f"{GATE_NAME}: control=Reject"
    assert (gate.source, gate.vetoed, gate.text) == ("model", True, "the user is unsure")
    assert call.node == "gate" and "120+30 tokens" in call.text  # the module's node


def test_a_plan_lists_its_steps_and_takes_their_statuses_as_they_run() -> None:
    story = StoryBuilder()
    shape = [ROOT.model_copy(update={"children": ["gate", "say", "s1"]}), GATE, SAY, STEP]
    planned = BlackboardWrite(key="/plan/current", client="Say", value=PLAN)
    assigned = BlackboardWrite(
        key="/plan/validation", client="Say", value={"ok": True, "assignments": {"2": "alex"}}
    )
    story.add(shape, small_tick(1, "RUNNING", "RUNNING", writes=[planned, assigned]))
    running = small_tick(2, "RUNNING", "RUNNING")
    running.nodes.append(NodeState(id="s1", status="FAILURE", visited=True))
    story.add(shape, running)
    plan = next(entry for entry in story.entries if entry.kind == "plan")
    assert plan.headline == "plan (htn): 2 steps" and plan.node == "say"
    assert [(step.action, step.assignee, step.status) for step in plan.steps] == [
        ("GOTO(target=fridge)", "", "FAILURE"),
        ("PICK(object=water, hand=right)", "alex", ""),
    ]


def test_failed_skills_and_what_the_robot_said() -> None:
    story = StoryBuilder()
    outcome = {"status": "failed", "code": "door_closed", "message": "GOTO(bed) failed"}
    writes = [
        BlackboardWrite(key="/skill/outcome", client="Say", value=outcome),
        BlackboardWrite(key="/skill/outcome", client="Say", value={"status": "succeeded"}),
        BlackboardWrite(key="/turn/reply", client="Say", value="The door is closed."),
    ]
    told = story.add(STRUCTURE, small_tick(1, "RUNNING", "RUNNING", writes=writes))
    assert [(entry.kind, entry.headline, entry.text) for entry in told[1:]] == [
        ("skill_failed", "Say failed (door_closed)", "GOTO(bed) failed"),
        ("said", "robot said", "The door is closed."),
    ]


def test_a_live_feed_forgets_the_story_of_ticks_it_let_go() -> None:
    feed = TickFeed(keep=2)
    feed.push(small_header())
    reply = BlackboardWrite(key="/turn/reply", client="Say", value="hello")
    feed.push(small_tick(1, "RUNNING", writes=[reply]))
    for number in range(2, 5):
        feed.push(small_tick(number, "RUNNING"))
    assert feed.story().entries == []
    assert [summary.marks for summary in feed.index().ticks] == [[], []]


def test_the_thirsty_story_tells_the_whole_turn(thirsty_log: Path) -> None:
    feed = TickFeed.from_log(thirsty_log)
    story = feed.story().entries
    _, ticks = read_tick_log(thirsty_log)
    decisions = [
        (entry.tick, write.value["node"])
        for entry in ticks
        for write in entry.writes
        if write.key.startswith("/rationale/")
    ]
    assert [(entry.tick, entry.node_name) for entry in story if entry.kind == "decision"] == (
        decisions
    )
    assert story[0].headline == "turn 1: “I'm thirsty”"
    plan = next(entry for entry in story if entry.kind == "plan")
    assert [step.status for step in plan.steps] == ["SUCCESS"] * len(plan.steps)
    marked = {summary.tick for summary in feed.index().ticks if summary.marks}
    assert marked == {entry.tick for entry in story if entry.kind not in ("turn", "call")}
    assert all(entry.node for entry in story if entry.kind in ("decision", "plan", "said"))
