"""Round trip of a low-level command over ROS 2 (DDS): actions next to the old topic pair.

Two DDS participants in this process (each node on its own rclpy context and executor
thread, as if in two processes), on a private domain with discovery limited to this machine.
Rows, in one run:

- ``topic round trip (JSON String)``: what the protocol before the action interface cost per
  goal: a ``std_msgs/String`` JSON goal out, a JSON status back from an echo node.
- ``action round trip (bare server)``: an ``ExecuteSkill`` goal sent, accepted, and its result
  fetched from a server that succeeds at once: the action protocol alone (three DDS
  exchanges: goal request, result request, result response).
- ``RosExecutor -> sim-ros (submit -> result)``: the host's executor against
  :class:`~sim.ros_robot.SimRobotNode` with ``speak`` commands (one simulator tick, plus the
  one step the robot side waits between a command's observations and its result, at
  ``--step-ms``).

Prints a table; asserts nothing. Needs the ``ros`` extra and the interface package.

    python benchmarks/ros_command_latency.py [--commands 200] [--step-ms 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import rclpy
from cogtree_interfaces.action import ExecuteSkill
from rclpy.action import ActionServer
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions
from std_msgs.msg import String

from cogtree.sim.ros_robot import SimRobotNode
from cogtree.sim.scenario import load_scenario
from cogtree.skills.action_model.commands import Command
from cogtree.skills.ros.executor import RosExecutor
from cogtree.skills.ros.goal_sender import LockedActionClient
from cogtree.skills.ros.messages import goal_msg
from cogtree.skills.ros.protocol import reliable_qos

SPEAK = Command(robot="robot1", skill="SAY", name="speak", args={"text": "hello"})


class Participant:
    """One node on its own context, spun on a thread until :meth:`close`."""

    def __init__(self, name: str, domain_id: int) -> None:
        self.context = Context()
        rclpy.init(
            context=self.context,
            domain_id=domain_id,
            signal_handler_options=SignalHandlerOptions.NO,
        )
        self.node: Node = rclpy.create_node(name, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.thread = threading.Thread(target=self.executor.spin, daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop spinning and shut the context down."""
        self.executor.shutdown(timeout_sec=5.0)
        self.thread.join(timeout=5.0)
        self.node.destroy_node()
        rclpy.shutdown(context=self.context)


def timed(runs: int, once: Callable[[], None]) -> list[float]:
    """Milliseconds of each of ``runs`` calls of ``once``, after one warm-up call."""
    once()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        once()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def topic_round_trip(host: Participant, robot: Participant, runs: int) -> list[float]:
    """A JSON goal on a String topic, a JSON status back (the pre-action protocol's shape)."""
    statuses = robot.node.create_publisher(String, "/bench/command/status", reliable_qos())

    def echo(message: Any) -> None:
        goal = json.loads(message.data)
        statuses.publish(String(data=json.dumps({"goal_id": goal["goal_id"], "state": "ok"})))

    robot.node.create_subscription(String, "/bench/command", echo, reliable_qos())
    goals = host.node.create_publisher(String, "/bench/command", reliable_qos())
    answered: dict[str, threading.Event] = {}

    def on_status(message: Any) -> None:
        answered[json.loads(message.data)["goal_id"]].set()

    host.node.create_subscription(String, "/bench/command/status", on_status, reliable_qos())
    while goals.get_subscription_count() == 0 or statuses.get_subscription_count() == 0:
        time.sleep(0.01)

    def once() -> None:
        goal_id = f"{random.getrandbits(128):032x}"
        answered[goal_id] = threading.Event()
        payload = {"goal_id": goal_id, "command": SPEAK.model_dump(), "sent_at": time.time()}
        goals.publish(String(data=json.dumps(payload)))
        if not answered[goal_id].wait(30.0):
            raise RuntimeError("the echo node did not answer within 30 s")

    return timed(runs, once)


def action_round_trip(host: Participant, robot: Participant, runs: int) -> list[float]:
    """An ExecuteSkill goal to a server that succeeds at once, and its result."""

    def succeed(handle: Any) -> ExecuteSkill.Result:
        handle.succeed()
        return ExecuteSkill.Result(message="said")

    ActionServer(robot.node, ExecuteSkill, "/bench/execute_skill", succeed)
    client = LockedActionClient(host.node, ExecuteSkill, "/bench/execute_skill")
    if not client.wait_for_server(timeout_sec=30.0):
        raise RuntimeError("no action server within 30 s")

    def once() -> None:
        done = threading.Event()

        def on_accepted(sent: Any) -> None:
            sent.result().get_result_async().add_done_callback(lambda _: done.set())

        client.send_goal_async(goal_msg(SPEAK)).add_done_callback(on_accepted)
        if not done.wait(30.0):
            raise RuntimeError("the action did not end within 30 s")

    return timed(runs, once)


def executor_round_trip(
    host: Participant, robot: Participant, runs: int, step_s: float
) -> list[float]:
    """RosExecutor -> SimRobotNode: submit ``speak`` and wait for its feedback."""
    sim = SimRobotNode.from_scenario(
        robot.node, load_scenario("robee_bottle"), step_period_s=step_s
    )
    executor = RosExecutor(host.node, robots={"robot1": "/robot1"})
    try:

        def once() -> None:
            feedback = executor.submit(SPEAK).result(timeout=30.0)
            if not feedback.ok:
                raise RuntimeError(f"the command failed: {feedback.message}")

        return timed(runs, once)
    finally:
        executor.close()
        sim.close()


def measure(commands: int, step_s: float) -> dict[str, list[float]]:
    """Milliseconds per round trip, per row (see the module docs)."""
    os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
    os.environ.setdefault("ROS_LOCALHOST_ONLY", "1")
    domain_id = random.randint(1, 100)
    robot = Participant("cogtree_sim", domain_id)
    host = Participant("cogtree", domain_id)
    try:
        return {
            "topic round trip (JSON String)": topic_round_trip(host, robot, commands),
            "action round trip (bare server)": action_round_trip(host, robot, commands),
            "RosExecutor -> sim-ros (submit -> result)": executor_round_trip(
                host, robot, commands, step_s
            ),
        }
    finally:
        host.close()
        robot.close()


def describe(label: str, samples: list[float]) -> str:
    """One table row: count, p50, p95 and max in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"| {label} | {len(ordered)} | {statistics.median(ordered):.2f} | {p95:.2f} "
        f"| {ordered[-1]:.2f} |"
    )


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--step-ms", type=float, default=1.0, help="simulator step while busy")
    parser.add_argument("--quick", action="store_true", help="CI: 20 commands")
    args = parser.parse_args()
    if args.quick:
        args.commands = 20
    rows = measure(args.commands, args.step_ms / 1000)
    print(f"command round trip over DDS, simulator step {args.step_ms:g} ms (ms)")
    print("| path | n | p50 | p95 | max |")
    print("| --- | --- | --- | --- | --- |")
    for label, samples in rows.items():
        print(describe(label, samples))


if __name__ == "__main__":
    main()
