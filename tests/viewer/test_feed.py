"""TickFeed: bounded memory, any source (runner, JSON messages, logs), waiting readers."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.trees.recording.tick_log import BlackboardWrite, read_tick_log
from cogtree.trees.runner import TreeRunner
from cogtree.trees.testing import BlackboardView
from cogtree.trees.viewer.feed import FeedError, TickFeed
from tests.viewer.small_run import GATE_NAME, gate_rationale, small_header, small_tick


def fed(keep: int | None = None, ticks: int = 0) -> TickFeed:
    feed = TickFeed(keep)
    feed.push(small_header())
    for number in range(1, ticks + 1):
        feed.push(small_tick(number, "RUNNING"))
    return feed


def test_a_live_feed_keeps_only_the_last_ticks_but_remembers_what_they_wrote() -> None:
    feed = TickFeed(keep=3)
    feed.push(small_header())
    decision = BlackboardWrite(key="/rationale/gate_b", client=GATE_NAME, value=gate_rationale())
    feed.push(small_tick(1, "FAILURE", writes=[decision]))
    for number in range(2, 11):
        feed.push(small_tick(number, "FAILURE", "RUNNING"))

    index = feed.index()
    assert (index.first, index.last) == (8, 10)
    assert [summary.tick for summary in index.ticks] == [8, 9, 10]
    with pytest.raises(FeedError, match="tick 1 is not held; the feed holds ticks 8..10"):
        feed.snapshot(1)
    gate = feed.snapshot(8)["cogtree"]["nodes"]["gate"]
    assert gate["rationale"]["tick"] == 1  # the dropped tick's write is still known


def test_the_index_pages_forward_and_summarises_decisions() -> None:
    feed = fed()
    decision = BlackboardWrite(key="/rationale/gate_b", client=GATE_NAME, value=gate_rationale())
    feed.push(small_tick(1, "RUNNING"))
    feed.push(small_tick(2, "FAILURE", writes=[decision]))
    feed.push(small_tick(3, "FAILURE"))
    page = feed.index(since=1, limit=1)
    assert [summary.tick for summary in page.ticks] == [2]
    assert page.ticks[0].decided == [GATE_NAME] and page.ticks[0].changed
    assert page.last == 3 and not page.finished
    assert not feed.index(since=2).ticks[0].changed


def test_the_newest_snapshot_without_a_tick_number() -> None:
    assert fed(ticks=4).snapshot()["cogtree"]["tick"] == 4
    with pytest.raises(FeedError, match="no tick yet"):
        fed().snapshot()


def test_ticks_must_follow_a_header_and_each_other() -> None:
    with pytest.raises(FeedError, match="before any header"):
        TickFeed().push(small_tick(1, "RUNNING"))
    feed = fed(ticks=2)
    with pytest.raises(FeedError, match="tick 1 came after tick 2"):
        feed.push(small_tick(1, "RUNNING"))
    feed.push(small_tick(2, "SUCCESS"))  # the newest, delivered again: ignored
    assert feed.snapshot(2)["cogtree"]["root_status"] == "RUNNING"
    with pytest.raises(FeedError, match="at least one tick"):
        TickFeed(keep=0)


def test_json_messages_as_the_ros_host_publishes_them() -> None:
    feed = TickFeed()
    header = small_header().model_dump(mode="json")
    for number in (1, 2):
        feed.push_json({"header": header, "tick": small_tick(number, "RUNNING").model_dump()})
    assert feed.index().last == 2  # the repeated header did not start a new run

    feed.push_json({"header": small_header(started_at=2.0).model_dump(mode="json")})
    assert feed.index().last is None  # a new run starts empty


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ([1, 2], "expected an object"),
        ({"tick": {"tick": 1}}, "the tick does not parse"),
        ({"header": {"tree": "t"}}, "the header does not parse"),
        ({"heder": {}}, "unexpected members heder"),
    ],
)
def test_bad_json_messages_are_refused_with_the_reason(message: Any, problem: str) -> None:
    feed = TickFeed()
    with pytest.raises(FeedError, match=problem):
        feed.push_json(message)


def test_a_waiting_reader_gets_the_next_tick() -> None:
    feed = fed(ticks=1)
    got: list[int | None] = []
    reader = threading.Thread(target=lambda: got.append(feed.index(since=1, wait_s=30).last))
    reader.start()
    feed.push(small_tick(2, "RUNNING"))
    reader.join(timeout=30)
    assert got == [2]


def test_finishing_releases_waiting_readers() -> None:
    feed = fed(ticks=1)
    got: list[bool] = []
    reader = threading.Thread(target=lambda: got.append(feed.index(since=1, wait_s=30).finished))
    reader.start()
    feed.finish()
    reader.join(timeout=30)
    assert got == [True]


def test_a_runner_feeds_it_directly(blackboard: BlackboardView) -> None:
    blackboard.set("/turn/utterance", "hi")
    gate = py_trees.behaviours.StatusQueue(
        name="Gate", queue=[Status.RUNNING, Status.SUCCESS], eventually=Status.SUCCESS
    )
    root = py_trees.composites.Sequence("Root", memory=True, children=[gate])
    feed = TickFeed()
    with (
        LLMClient(LLMConfig.load().with_backend("none")) as llm,
        TreeRunner(root, llm=llm, on_tick=feed.on_tick) as runner,
    ):
        runner.setup()
        runner.run(max_ticks=5)
    assert feed.tree == "Root"
    assert [summary.root_status for summary in feed.index().ticks] == ["RUNNING", "SUCCESS"]
    first = feed.snapshot(1)
    assert first["behaviours"][str(gate.id)]["status"] == "RUNNING"
    assert first["behaviours"][str(root.id)]["children"] == [str(gate.id)]


def test_a_log_becomes_a_finished_feed(assistant_log: Path) -> None:
    header, ticks = read_tick_log(assistant_log)
    feed = TickFeed.from_log(assistant_log)
    index = feed.index(limit=10_000)
    assert index.finished and feed.keep is None
    assert (index.first, index.last) == (ticks[0].tick, ticks[-1].tick)
    assert feed.tree == header.tree == "cogtree.trees.assistant:create_root"
