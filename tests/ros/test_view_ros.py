"""``cogtree view --ros``: the viewer's feed follows a snapshot topic over real DDS.

The snapshots come from a real run of a small tree through
:class:`~trees.recording.snapshot_stream.SnapshotStream` (what ``cogtree ros`` publishes),
sent by this test's own participant on a latched topic of its own.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from std_msgs.msg import String

from cogtree.knowledge.closing import Closeable
from cogtree.skills.ros.protocol import latched_qos
from cogtree.trees.cli.main import main
from cogtree.trees.recording.snapshot_stream import SnapshotStream
from cogtree.trees.ros.snapshot_source import RosSnapshotSource
from cogtree.trees.runner import TreeRunner
from cogtree.trees.testing import BlackboardView, ScriptedLLM
from cogtree.trees.viewer.feed import TickFeed
from tests.cogtree_cli import interrupt, line_with, read_json, running, url_in

TREE = "test:count_then_note"
NOTE = "/test/note"


@pytest.fixture
def messages(blackboard: BlackboardView, make_llm: Callable[..., ScriptedLLM]) -> list[str]:
    """The snapshot messages of a real run: count two ticks, then write a note; SUCCESS."""
    root = py_trees.composites.Sequence(
        "Root",
        True,
        [
            py_trees.behaviours.TickCounter("Count", duration=2, completion_status=Status.SUCCESS),
            py_trees.behaviours.SetBlackboardVariable("Note", NOTE, "done", overwrite=True),
        ],
    )
    with TreeRunner(root, llm=make_llm().client, tree_name=TREE) as runner:
        runner.setup()
        stream = SnapshotStream(runner.root, tree=TREE, llm={})
        sent = [stream.first(runner.root)]
        result = runner.run(max_ticks=10)
        sent.extend(m for m in map(stream.update, result.entries) if m is not None)
    assert result.status == Status.SUCCESS and len(sent) >= 3
    return sent


def tick_of(message: str) -> int:
    return int(json.loads(message)["tick"]["tick"])


class SnapshotTopic(Closeable):
    """A snapshot topic no other test uses: this test publishes on it, viewers attach to it."""

    def __init__(self, ros: Any) -> None:
        self.name = f"{ros.namespace('cogtree')}/tree/snapshot"
        self.domain_id: int = ros.domain_id
        node = ros.node("snapshots")
        self._publisher = node.create_publisher(String, self.name, latched_qos())
        self._sources: list[RosSnapshotSource] = []

    def publish(self, data: str) -> None:
        """Publish one message, latched as ``cogtree ros`` does."""
        self._publisher.publish(String(data=data))

    def attach(self) -> tuple[TickFeed, RosSnapshotSource]:
        """Start a viewer's feed and source on the topic (closed by :meth:`close`)."""
        feed = TickFeed()
        self._sources.append(RosSnapshotSource(feed, self.name, domain_id=self.domain_id))
        return feed, self._sources[-1]

    def close(self) -> None:
        """Close the sources attached here."""
        for source in self._sources:
            source.close()


@pytest.fixture
def topic(ros: Any) -> Iterator[SnapshotTopic]:
    """This test's :class:`SnapshotTopic`; its sources are closed after the test."""
    with SnapshotTopic(ros) as made:
        yield made


def test_the_feed_takes_the_header_and_every_tick_published_while_it_listens(
    topic: SnapshotTopic, messages: list[str], until: Callable[..., Any]
) -> None:
    feed, source = topic.attach()
    assert source.topic == topic.name
    assert not source.wait_for_snapshot(0.0)
    for message in messages:  # one at a time: a latched topic of depth 1 keeps only the last
        topic.publish(message)
        until(lambda m=message: feed.index().last == tick_of(m), what=f"tick {tick_of(message)}")
    assert source.wait_for_snapshot(0.0)
    assert feed.tree == TREE
    assert [t.tick for t in feed.index(since=-1).ticks] == [tick_of(m) for m in messages]
    assert (source.received, source.dropped) == (len(messages), 0)
    last = feed.snapshot()
    assert last["cogtree"]["root_status"] == "SUCCESS"
    assert {node["name"] for node in last["cogtree"]["nodes"].values()} == {"Root", "Count", "Note"}
    source.close()
    source.close()  # closing twice is harmless


def test_a_viewer_that_attaches_late_gets_the_last_snapshot(
    topic: SnapshotTopic, messages: list[str], until: Callable[..., Any]
) -> None:
    for message in messages:
        topic.publish(message)
    feed, source = topic.attach()
    until(lambda: source.wait_for_snapshot(0.0), what="the latched snapshot")
    index = feed.index()
    assert index.first == index.last == tick_of(messages[-1])
    assert feed.tree == TREE
    snapshot = feed.snapshot()
    assert snapshot["cogtree"]["root_status"] == "SUCCESS"
    assert NOTE in json.dumps(snapshot["blackboard"])  # the header carried the state before it


def test_malformed_snapshots_are_logged_and_dropped_and_the_source_goes_on(
    topic: SnapshotTopic,
    messages: list[str],
    until: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    tick_alone = json.dumps({"tick": json.loads(messages[1])["tick"]})
    bad = ["{not json", "[1, 2]", tick_alone, '{"header": {}, "extra": 1}']
    feed, source = topic.attach()
    with caplog.at_level(logging.WARNING, logger="cogtree.trees.ros.snapshot_source"):
        for count, message in enumerate(bad, start=1):
            topic.publish(message)
            until(lambda c=count: source.dropped == c, what=f"bad message {count} to be dropped")
        topic.publish(messages[-1])
        until(lambda: source.received == 1, what="the good message")
    assert feed.index().last == tick_of(messages[-1])
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == len(bad)
    assert all(text.startswith(f"dropped a snapshot on {topic.name}: ") for text in warnings)
    assert "not JSON" in warnings[0]
    assert "expected an object" in warnings[1]
    assert "came before any header" in warnings[2]
    assert "unexpected members extra" in warnings[3]


def test_a_topic_that_is_no_topic_name_says_so(
    ros: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["view", "--ros", "run.jsonl", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert "--ros 'run.jsonl' is not a ROS topic name" in err
    assert "leave --ros out to replay a tick log" in err


def test_view_ros_serves_the_robots_tree_over_http_until_ctrl_c(
    ros: Any, topic: SnapshotTopic, messages: list[str]
) -> None:
    env = {**ros.env, "DISPLAY": ""}
    with running("view", "--ros", topic.name, "--no-browser", "--port", "0", env=env) as process:
        url = url_in(line_with(process.stdout, "viewer: http://127.0.0.1:"))
        waiting = line_with(process.stdout, "waiting for the first snapshot")
        assert waiting.strip() == (
            f"viewer: waiting for the first snapshot on {topic.name} (is `cogtree ros` running "
            f"on domain {ros.domain_id}?)"
        )
        for message in messages:
            topic.publish(message)  # the viewer gets the last one at least (latched)
        for _ in range(6):  # a long poll: each request waits up to 10 s for a tick
            index = read_json(f"{url}api/ticks?since=-1&wait=10")
            ticks = index["ticks"]
            if ticks:
                break
        assert index["tree"] == TREE and ticks[-1]["root_status"] == "SUCCESS"
        assert line_with(process.stdout, "viewer: showing").strip() == (
            f"viewer: showing {TREE} from {topic.name}"
        )
        info = read_json(f"{url}api/info")
        assert info["live"] and info["source"] == f"ROS 2 topic {topic.name}"
        code, out, err = interrupt(process)
    assert code == 0, err
    assert "viewer: stopped" in out
