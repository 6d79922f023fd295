"""The log header: made in one place, encoded again by the stream only when it changed, and
taken by the viewer's feed only when it starts a new run."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

from cogtree.trees.recording.snapshot_stream import SnapshotStream
from cogtree.trees.recording.tick_log import LogHeader, read_tick_log, shape_of
from cogtree.trees.runner import TreeRunner
from cogtree.trees.testing import BlackboardView, ScriptedLLM
from cogtree.trees.viewer.feed import FeedError, TickFeed

STEP = "/test/step"


class WriteOnOddTicks(py_trees.behaviour.Behaviour):
    """Says which tick it is (every tick is worth a message) and writes it on odd ticks."""

    def __init__(self) -> None:
        super().__init__("WriteOnOddTicks")
        self.ticks = 0
        self.client = self.attach_blackboard_client(self.name)
        self.client.register_key(STEP, access=py_trees.common.Access.WRITE)

    def update(self) -> Status:
        self.ticks += 1
        if self.ticks % 2:
            self.client.set(STEP, self.ticks)
        self.feedback_message = f"tick {self.ticks}"
        return Status.RUNNING


def test_the_stream_encodes_its_header_again_only_after_a_write(
    blackboard: BlackboardView,
    make_llm: Callable[..., ScriptedLLM],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runner = TreeRunner(WriteOnOddTicks(), llm=make_llm().client, tree_name="test:odd")
    runner.setup()
    stream = SnapshotStream(runner.root, tree="test:odd", llm={})
    dumps: list[int] = []
    dump = LogHeader.model_dump_json

    def counted(self: LogHeader, **options: Any) -> str:
        dumps.append(1)
        return dump(self, **options)

    monkeypatch.setattr(LogHeader, "model_dump_json", counted)
    messages = [stream.first(runner.root)]
    messages += [stream.update(runner.tick()) or "" for _ in range(4)]
    headers = [json.loads(message)["header"] for message in messages]
    # tick 0 and tick 1 share the starting header; ticks 2 and 3 the one after tick 1's write
    assert len(dumps) == 3
    assert [header["blackboard"].get(STEP) for header in headers] == [None, None, 1, 1, 3]
    assert len({header["started_at"] for header in headers}) == 1


def test_a_repeated_header_is_ignored_without_being_parsed(
    blackboard: BlackboardView,
) -> None:
    root = py_trees.behaviours.Running("Root")
    header = LogHeader.of_tree(root, tree="test:repeat", started_at=1.5)
    feed = TickFeed()
    feed.push_json({"header": header.model_dump(mode="json")})
    repeat = {"tree": "test:repeat", "started_at": 1.5, "structure": "not parsed"}
    feed.push_json({"header": repeat})  # the run the feed holds: nothing to take
    assert feed.tree == "test:repeat"
    with pytest.raises(FeedError, match="header"):  # a new run is parsed whole
        feed.push_json({"header": {**repeat, "started_at": 2.5}})


def test_one_header_for_the_log_the_stream_and_the_live_feed(
    blackboard: BlackboardView,
    make_llm: Callable[..., ScriptedLLM],
    tmp_path: Any,
) -> None:
    blackboard.set("/test/preset", "there before")
    root = WriteOnOddTicks()
    runner = TreeRunner(
        root, llm=make_llm().client, tree_name="test:odd", log_path=tmp_path / "log.jsonl"
    )
    feed = TickFeed(tree_name="test:odd")
    runner.on_tick = feed.on_tick
    runner.setup()
    stream = SnapshotStream(root, tree="test:odd", llm={})
    runner.tick()
    logged, _ = read_tick_log(tmp_path / "log.jsonl")
    streamed = json.loads(stream.first(root))["header"]
    made = LogHeader.of_tree(root, tree="test:odd", started_at=0.0, leave_out={STEP})
    assert made.structure == shape_of(root)
    assert made.blackboard == {"/test/preset": "there before"}  # the tick's write left out
    assert logged.blackboard == {"/test/preset": "there before"}
    assert streamed["blackboard"] == {"/test/preset": "there before"}  # made before the tick
    assert logged.tree == streamed["tree"] == feed.tree == "test:odd"
    assert feed.snapshot()["behaviours"]  # the feed's header came before its tick
