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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree.knowledge.closing import Closeable
from cogtree.trees.viewer.feed import TickFeed
from tests.cogtree_cli import interruptible_children
from tests.ros.ros_user import User

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


class Launcher(Closeable):
    """Starts ``cogtree`` processes in the testbed's domain, in namespaces of this test's own.

    The host serves under :attr:`host_namespace` and drives robot1 under
    :attr:`robot_namespace`; each process writes its output to files in ``folder``.
    :meth:`close` kills the processes still running.
    """

    def __init__(self, ros: Any, until: Callable[..., Any], folder: Path) -> None:
        self.ros = ros
        self.until = until
        self.folder = folder
        self.host_namespace = ros.namespace("cogtree")
        self.robot_namespace = ros.namespace("robot1")
        self._started: list[Process] = []

    def cogtree(self, *args: str) -> Process:
        """Start ``cogtree ARGS...``."""
        name = f"{len(self._started)}-{args[0]}"
        out, err = self.folder / f"{name}.out", self.folder / f"{name}.err"
        with out.open("wb") as stdout, err.open("wb") as stderr, interruptible_children():
            popen = subprocess.Popen(
                [sys.executable, "-m", "cogtree.trees.cli.main", *args],
                env=self.ros.env,
                stdout=stdout,
                stderr=stderr,
            )
        self._started.append(Process(popen, out, err))
        return self._started[-1]

    def sim_ros(self, *extra: str) -> Process:
        """``cogtree sim-ros`` serving robot1 under :attr:`robot_namespace`."""
        return self.cogtree(
            *("sim-ros", SCENARIO, "--rate", "50"),
            *("--namespace", f"robot1={self.robot_namespace}"),
            *("--host-namespace", self.host_namespace),
            *extra,
        )

    def host(self, *extra: str) -> Process:
        """``cogtree ros`` with no model, a fresh memory, in :attr:`host_namespace`."""
        return self.cogtree(
            *("ros", "--llm", "none", "--memory", str(self.folder / "memory.sqlite")),
            *("--namespace", self.host_namespace),
            *("--robot", f"robot1={self.robot_namespace}", "--rate", "20"),
            *extra,
        )

    def user(self, *, utterance: str | None = None) -> User:
        """A user of the host (speaking on ``utterance`` if given)."""
        return User(self.ros, self.until, namespace=self.host_namespace, utterance=utterance)

    def wait_ready(self, user: User, host: Process) -> None:
        """The host publishes its idle tree once it is ready."""
        self.until(
            lambda: user.snapshots or not host.alive,
            timeout_s=STARTUP_S,
            what="the host's first snapshot",
        )
        assert host.alive, host.output()

    def close(self) -> None:
        """Kill the processes still running."""
        for process in self._started:
            if process.alive:
                process.popen.kill()
            process.popen.wait(timeout=STOP_S)


@pytest.fixture
def launch(ros: Any, until: Callable[..., Any], tmp_path: Path) -> Iterator[Launcher]:
    """This test's :class:`Launcher`; its processes are killed after the test."""
    with Launcher(ros, until, tmp_path) as launcher:
        yield launcher


def test_a_request_reaches_the_goal_and_the_reply_is_published(launch: Launcher) -> None:
    user = launch.user()
    robot = launch.sim_ros()
    host = launch.host()
    launch.wait_ready(user, host)

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
    launch: Launcher,
) -> None:
    asr = f"{launch.host_namespace}_asr/text"  # the speech recogniser's topic
    user = launch.user(utterance=asr)
    launch.sim_ros("--stop-answering-after", "3")
    host = launch.host("--command-timeout", "1", *("--ros-args", "-r", f"utterance:={asr}"))
    launch.wait_ready(user, host)

    started = time.perf_counter()
    reply = user.say(REQUEST)
    print(f"\nutterance to failure report across processes: {time.perf_counter() - started:.2f} s")

    assert reply.startswith("I could not do it"), reply
    assert "PICK(mug, right) failed" in reply and "timeout" in reply
    assert f"stopped answering on {launch.robot_namespace}/execute_skill" in reply
    assert host.alive
    assert "mug" in user.say("where is the mug?")
    assert host.alive


class LifecycleClient:
    """Drives a lifecycle node's transitions from the test's own participant."""

    def __init__(self, ros: Any, node_name: str) -> None:
        from lifecycle_msgs.srv import ChangeState, GetState

        node = ros.node("lifecycle_manager")
        self.change = node.create_client(ChangeState, f"{node_name}/change_state")
        self.get = node.create_client(GetState, f"{node_name}/get_state")
        assert self.change.wait_for_service(timeout_sec=STARTUP_S)

    def state(self) -> str:
        from lifecycle_msgs.srv import GetState

        answer = self.get.call(GetState.Request(), timeout_sec=30.0)
        assert answer is not None
        return str(answer.current_state.label)

    def transition(self, label: str) -> bool:
        from lifecycle_msgs.msg import Transition
        from lifecycle_msgs.srv import ChangeState

        ids = {
            "configure": Transition.TRANSITION_CONFIGURE,
            "activate": Transition.TRANSITION_ACTIVATE,
            "deactivate": Transition.TRANSITION_DEACTIVATE,
            "cleanup": Transition.TRANSITION_CLEANUP,
        }
        request = ChangeState.Request(transition=Transition(id=ids[label]))
        answer = self.change.call(request, timeout_sec=60.0)
        return bool(answer is not None and answer.success)


def test_a_lifecycle_manager_configures_activates_deactivates_and_cleans_the_host_up(
    launch: Launcher, tmp_path: Path
) -> None:
    """The parameters come from a file; nothing runs until the manager says so."""
    params = tmp_path / "cogtree.yaml"
    params.write_text(
        f"{launch.host_namespace}/cogtree:\n"
        "  ros__parameters:\n"
        "    autostart: false\n"
        f"    robots: ['robot1={launch.robot_namespace}']\n"
        "    command_timeout_s: 120.0\n",
        encoding="utf-8",
    )
    user = launch.user()
    launch.sim_ros("--stop-answering-after", "1")  # the approach after the navigation hangs
    host = launch.host("--ros-args", "--params-file", str(params))
    manager = LifecycleClient(launch.ros, f"{launch.host_namespace}/cogtree")
    assert manager.state() == "unconfigured"
    assert not user.snapshots and host.alive

    assert manager.transition("configure") and manager.state() == "inactive"
    assert user.say(REQUEST).startswith("I am paused")  # not active: no turn
    assert manager.transition("activate") and manager.state() == "active"
    launch.wait_ready(user, host)
    ticked = len(user.snapshots)
    user.speak(REQUEST)
    launch.until(lambda: len(user.snapshots) > ticked + 1, what="the turn to tick")
    before = len(user.heard)
    assert manager.transition("deactivate") and manager.state() == "inactive"
    launch.until(lambda: len(user.heard) > before, what="the interrupted turn's words")
    assert user.heard[before] == "I stopped what I was doing (I was deactivated)."
    assert manager.transition("cleanup") and manager.state() == "unconfigured"
    assert host.alive
    assert host.stop() == 0, host.output()
