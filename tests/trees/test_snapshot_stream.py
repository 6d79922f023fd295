"""SnapshotStream: one viewer message per tick that changed something, enough to attach late."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.trees.recording.snapshot_stream import SnapshotStream
from cogtree.trees.runner import TreeRunner
from cogtree.trees.testing import BlackboardView, ScriptedLLM
from cogtree.trees.viewer.feed import TickFeed

COUNT = "/test/count"


class CountTwice(py_trees.behaviour.Behaviour):
    """Writes the tick number to /test/count on its first two ticks, then runs on unchanged."""

    def __init__(self) -> None:
        super().__init__("CountTwice")
        self.ticks = 0
        self.client = self.attach_blackboard_client(self.name)
        self.client.register_key(COUNT, access=py_trees.common.Access.WRITE)

    def update(self) -> Status:
        self.ticks += 1
        if self.ticks <= 2:
            self.client.set(COUNT, self.ticks)
        self.feedback_message = "counting" if self.ticks <= 3 else "done counting"
        return Status.RUNNING


def runner_for(root: py_trees.behaviour.Behaviour, llm: ScriptedLLM) -> TreeRunner:
    runner = TreeRunner(root, llm=llm.client, tree_name="test:count")
    runner.setup()
    return runner


def parsed(message: str | None) -> dict[str, Any]:
    assert message is not None
    data = json.loads(message)
    assert set(data) == {"header", "tick"}
    return data


def test_ticks_that_change_nothing_send_nothing(
    blackboard: BlackboardView, make_llm: Callable[..., ScriptedLLM]
) -> None:
    runner = runner_for(py_trees.composites.Sequence("Root", False, [CountTwice()]), make_llm())
    stream = SnapshotStream(runner.root, tree="test:count", llm={})
    first = parsed(stream.first(runner.root))
    assert first["tick"]["tick"] == 0
    assert first["tick"]["root_status"] == "INVALID"
    sent = [stream.update(runner.tick()) for _ in range(5)]
    # ticks 1 and 2 write, tick 3 changes nothing, tick 4 changes the feedback, 5 nothing
    assert [message is not None for message in sent] == [True, True, False, True, False]


def test_each_message_carries_the_blackboard_before_its_tick(
    blackboard: BlackboardView, make_llm: Callable[..., ScriptedLLM]
) -> None:
    runner = runner_for(CountTwice(), make_llm())
    stream = SnapshotStream(runner.root, tree="test:count", llm={"intent": "scripted"})
    headers = [parsed(stream.update(runner.tick()))["header"] for _ in range(2)]
    assert COUNT not in headers[0]["blackboard"]
    assert headers[1]["blackboard"][COUNT] == 1
    assert headers[0]["started_at"] == headers[1]["started_at"]  # one run for the viewer
    assert headers[1]["llm"] == {"intent": "scripted"}


def test_a_viewer_attaching_late_needs_only_the_last_message(
    blackboard: BlackboardView, make_llm: Callable[..., ScriptedLLM]
) -> None:
    sequence = py_trees.composites.Sequence("Root", False, [CountTwice()])
    runner = runner_for(sequence, make_llm())
    stream = SnapshotStream(runner.root, tree="test:count", llm={})
    messages = [stream.update(runner.tick()) for _ in range(2)]
    sequence.add_child(py_trees.behaviours.Running("Grown"))  # the tree grows at run time
    messages += [stream.update(runner.tick()) for _ in range(2)]
    last = [message for message in messages if message is not None][-1]
    feed = TickFeed()
    feed.push_json(json.loads(last))
    snapshot = feed.snapshot()
    names = {behaviour["name"] for behaviour in snapshot["behaviours"].values()}
    assert "Grown" in names
    assert feed.index().last == 4
