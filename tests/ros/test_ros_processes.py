"""``cogtree sim-ros`` and ``cogtree ros`` as separate processes on an isolated ROS domain.

The test process is the user: it says a request on the host's ``utterance`` topic and listens
on its ``speech``. The no-model fast path solves the scenario, so no model is needed. Each test
puts the host and the robot in namespaces of its own, so a concurrent test session that drew
the same ROS_DOMAIN_ID cannot answer in their place.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rclpy")


from tests.ros.ros_user import User
from trees.viewer.feed import TickFeed

SCENARIO = "mug_to_sink"
REQUEST = "take the mug from the kitchen table to the sink"
STARTUP_S = 120.0
"""Generous: two Python processes import the package and set DDS up (about 5 s here)."""

STOP_S = 30.0


@dataclass
class Process:
    """A ``cogtree`` subprocess writing its output to files."""

    popen: subprocess.Popen[bytes]
    out: Path
    err: Path

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self) -> int:
        """SIGINT, then wait; the exit code."""
        self.popen.send_signal(signal.SIGINT)
        return self.popen.wait(timeout=STOP_S)

    def output(self) -> str:
        return self.out.read_text(encoding="utf-8") + self.err.read_text(encoding="utf-8")


@pytest.fixture
def cogtree(ros: Any, tmp_path: Path) -> Iterator[Callable[..., Process]]:
    """Start ``cogtree ARGS...`` in the testbed's domain; every process is killed after."""
    started: list[Process] = []

    def start(*args: str) -> Process:
        name = f"{len(started)}-{args[0]}"
        out, err = tmp_path / f"{name}.out", tmp_path / f"{name}.err"
        with out.open("wb") as stdout, err.open("wb") as stderr:
            popen = subprocess.Popen(
                [sys.executable, "-m", "trees.cli", *args],
                env=ros.env,
                stdout=stdout,
                stderr=stderr,
            )
        started.append(Process(popen, out, err))
        return started[-1]

    try:
        yield start
    finally:
        for process in started:
            if process.alive:
                process.popen.kill()
            process.popen.wait(timeout=STOP_S)


@dataclass(frozen=True)
class Namespaces:
    """This test's own host and robot namespaces."""

    host: str
    robot: str

    def sim_ros(self, *extra: str) -> list[str]:
        """``cogtree sim-ros`` arguments serving robot1 under :attr:`robot`."""
        return [
            *("sim-ros", SCENARIO, "--rate", "50"),
            *("--namespace", f"robot1={self.robot}", "--host-namespace", self.host),
            *extra,
        ]

    def ros(self, tmp_path: Path, *extra: str) -> list[str]:
        """``cogtree ros`` arguments with no model, a fresh memory, in :attr:`host`."""
        return [
            *("ros", "--llm", "none", "--memory", str(tmp_path / "memory.sqlite")),
            *("--namespace", self.host, "--robot", f"robot1={self.robot}", "--rate", "20"),
            *extra,
        ]


@pytest.fixture
def names() -> Namespaces:
    unique = uuid.uuid4().hex[:8]
    return Namespaces(host=f"/cogtree_{unique}", robot=f"/robot1_{unique}")


def wait_ready(user: User, host: Process, until: Callable[..., Any]) -> None:
    """The host publishes its idle tree once it is ready."""
    until(
        lambda: user.snapshots or not host.alive,
        timeout_s=STARTUP_S,
        what="the host's first snapshot",
    )
    assert host.alive, host.output()


def test_a_request_reaches_the_goal_and_the_reply_is_published(
    ros: Any,
    cogtree: Callable[..., Process],
    names: Namespaces,
    tmp_path: Path,
    until: Callable[..., Any],
) -> None:
    user = User(ros, until, namespace=names.host)
    robot = cogtree(*names.sim_ros())
    host = cogtree(*names.ros(tmp_path))
    wait_ready(user, host, until)

    started = time.perf_counter()
    reply = user.say(REQUEST)
    print(f"\nutterance to reply across processes: {time.perf_counter() - started:.2f} s")

    assert "mug" in reply and "sink" in reply and "could not" not in reply, reply
    feed = TickFeed()
    for message in user.snapshots:  # what a viewer attached to the topic gets
        feed.push_json(json.loads(message))
    assert feed.tree == "assistant"

    assert host.stop() == 0, host.output()
    assert "cogtree ros: stopping" in host.output()
    assert robot.stop() == 0, robot.output()
    goals = re.search(r"stopped after (\d+) goals", robot.output())
    assert goals is not None and int(goals.group(1)) >= 3  # GOTO, PICK and PLACE at least
    # the robot side judges the goal on its own world, not on anything the host says
    assert "goal achieved (on(mug, sink))" in robot.output(), robot.output()


def test_a_robot_that_stops_answering_mid_skill_fails_it_and_the_host_goes_on(
    ros: Any,
    cogtree: Callable[..., Process],
    names: Namespaces,
    tmp_path: Path,
    until: Callable[..., Any],
) -> None:
    asr = f"{names.host}_asr/text"  # the speech recogniser's topic
    user = User(ros, until, namespace=names.host, utterance=asr)
    cogtree(*names.sim_ros("--stop-answering-after", "3"))
    host = cogtree(
        *names.ros(tmp_path, "--command-timeout", "1"),
        *("--ros-args", "-r", f"utterance:={asr}"),
    )
    wait_ready(user, host, until)

    started = time.perf_counter()
    reply = user.say(REQUEST)
    print(f"\nutterance to failure report across processes: {time.perf_counter() - started:.2f} s")

    assert reply.startswith("I could not do it"), reply
    assert "PICK(mug, right) failed" in reply and "timeout" in reply
    assert f"stopped answering on {names.robot}/command/status" in reply
    assert host.alive
    assert "mug" in user.say("where is the mug?")
    assert host.alive
