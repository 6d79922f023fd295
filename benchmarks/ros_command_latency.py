"""Round trip of a low-level command over ROS 2 (DDS): host executor -> simulated robot -> host.

Two DDS participants in this process (each node on its own rclpy context and executor
thread, as if in two processes), on a private domain with discovery limited to this machine:
the host's :class:`~skills.ros.executor.RosExecutor` sends ``speak`` commands one after
another to :class:`~sim.ros_robot.SimRobotNode`, which steps its simulator every
``--step-ms`` while busy (``speak`` takes one tick, so a result waits up to one step).

Rows: submit -> ``accepted`` status (the protocol alone) and submit -> result (protocol plus
up to one simulator step). Prints a table; asserts nothing. Needs the ``ros`` extra.

    python benchmarks/ros_command_latency.py [--commands 200] [--step-ms 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time
from typing import Any

import rclpy
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions
from std_msgs.msg import String

from sim.ros_robot import SimRobotNode
from sim.scenario import load_scenario
from skills.commands import Command
from skills.ros.executor import RosExecutor
from skills.ros.protocol import CommandStatus, decode, reliable_qos


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


def measure(commands: int, step_s: float) -> dict[str, list[float]]:
    """Milliseconds from submit to ``accepted`` and to the result, per command."""
    os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
    os.environ.setdefault("ROS_LOCALHOST_ONLY", "1")
    domain_id = random.randint(1, 100)
    robot_side = Participant("cogtree_sim", domain_id)
    host = Participant("cogtree", domain_id)
    accepted_at: dict[str, float] = {}
    robot = SimRobotNode.from_scenario(
        robot_side.node, load_scenario("robee_bottle"), step_period_s=step_s
    )

    def on_status(message: Any) -> None:
        status = decode(CommandStatus, message.data)
        if status.state == "accepted":
            accepted_at[status.goal_id] = time.perf_counter()

    host.node.create_subscription(String, "/robot1/command/status", on_status, reliable_qos())
    executor = RosExecutor(host.node, robots={"robot1": "/robot1"})
    rows: dict[str, list[float]] = {"submit -> accepted": [], "submit -> result": []}
    try:
        command = Command(robot="robot1", skill="SAY", name="speak", args={"text": "hello"})
        executor.submit(command).result(timeout=30.0)  # discovery and warm-up
        for _ in range(commands):
            seen_before = set(accepted_at)
            started = time.perf_counter()
            feedback = executor.submit(command).result(timeout=30.0)
            finished = time.perf_counter()
            if not feedback.ok:
                raise RuntimeError(f"the command failed: {feedback.message}")
            accepted = [accepted_at[goal] for goal in set(accepted_at) - seen_before]
            if accepted:
                rows["submit -> accepted"].append((accepted[0] - started) * 1000)
            rows["submit -> result"].append((finished - started) * 1000)
    finally:
        executor.close()
        robot.close()
        host.close()
        robot_side.close()
    return rows


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
