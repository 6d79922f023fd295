"""A private ROS 2 testbed per test: its own domain id, contexts, executors and nodes.

Every node made by :meth:`RosTestbed.node` lives in its own rclpy ``Context`` (its own DDS
participant, as if in its own process) with a single-threaded executor spinning on a thread;
everything is shut down after the test. The domain id is drawn per test from the
worker's shuffled share of 1..100, none reused before the rest (``domain_ids``), and
discovery stays on this machine (``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST``,
``ROS_LOCALHOST_ONLY=1``); :attr:`RosTestbed.env` gives a subprocess the same settings.
Another test process may draw the same domain: :meth:`RosTestbed.namespace` gives names no
other test uses.
:meth:`RosTestbed.spy` records a topic from a node subscribed before it spins.
The simulated robot side (:class:`~sim.ros_robot.SimRobotNode`) comes from ``robot_side``; the
host tests get the session's parts from ``session_parts`` and hosts, users and robots from
``host_bench`` (:class:`~tests.ros.host_session.HostBench`).
Test modules call ``pytest.importorskip("rclpy", reason=ROS_EXTRA)`` (tests/ros/ros_extra.py) so
the suite runs without the ros extra, each skipped with the reason naming it.
"""

from __future__ import annotations

import itertools
import os
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.knowledge.memory.store import MemoryStore
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.trees.testing import BlackboardView

if TYPE_CHECKING:
    from tests.ros.host_session import HostBench

LOCALHOST_ENV = {"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST", "ROS_LOCALHOST_ONLY": "1"}


@dataclass
class _Spinner:
    context: Any
    executor: Any
    thread: threading.Thread
    nodes: list[Any] = field(default_factory=list)


class RosTestbed:
    """Nodes on private contexts in one random ROS domain, and a polling wait."""

    def __init__(self, domain_id: int) -> None:
        self.domain_id = domain_id
        self.suffix = uuid.uuid4().hex[:8]
        self._spinners: list[_Spinner] = []

    def namespace(self, name: str) -> str:
        """``/<name>_<suffix>``: this test's own namespace, unheard by a test sharing the domain."""
        return f"/{name}_{self.suffix}"

    def namespaces(self, *robots: str) -> dict[str, str]:
        """Each robot's :meth:`namespace` (``{"robot1": "/robot1_<suffix>"}``)."""
        return {robot: self.namespace(robot) for robot in robots}

    @property
    def env(self) -> dict[str, str]:
        """The environment of a subprocess that must join this testbed's domain."""
        return {**os.environ, **LOCALHOST_ENV, "ROS_DOMAIN_ID": str(self.domain_id)}

    def node(self, name: str, *, spin: bool = True, namespace: str | None = None) -> Any:
        """A node on a fresh context; spun on a thread of its own unless ``spin`` is False."""
        import rclpy
        from rclpy.context import Context
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.signals import SignalHandlerOptions

        context = Context()
        rclpy.init(
            context=context,
            domain_id=self.domain_id,
            signal_handler_options=SignalHandlerOptions.NO,
        )
        node = rclpy.create_node(name, context=context, namespace=namespace)
        executor = SingleThreadedExecutor(context=context)
        thread = threading.Thread(target=executor.spin, name=f"spin-{name}", daemon=True)
        spinner = _Spinner(context, executor, thread, [node])
        self._spinners.append(spinner)
        if spin:
            self.spin(node)
        return node

    def spin(self, node: Any) -> None:
        """Start spinning ``node`` (made with ``spin=False``)."""
        spinner = next(s for s in self._spinners if node in s.nodes)
        spinner.executor.add_node(node)
        spinner.thread.start()

    def spy(self, *topics: str) -> list[list[str]]:
        """The ``std_msgs/String`` payloads on each of ``topics`` from now on (reliable QoS).

        One node subscribes to them all before it spins (a subscription added to a spinning
        node may not be served).
        """
        from std_msgs.msg import String

        from cogtree.skills.ros.protocol import reliable_qos

        heard: list[list[str]] = [[] for _ in topics]
        node = self.node(f"spy_{uuid.uuid4().hex[:8]}", spin=False)
        for name, payloads in zip(topics, heard, strict=True):
            node.create_subscription(
                String,
                name,
                lambda message, into=payloads: into.append(message.data),
                reliable_qos(),
            )
        self.spin(node)
        return heard

    def close(self) -> None:
        """Stop every executor, destroy the nodes, shut the contexts down."""
        import rclpy

        for spinner in self._spinners:
            spinner.executor.shutdown(timeout_sec=5.0)
            if spinner.thread.is_alive():
                spinner.thread.join(timeout=5.0)
            for node in spinner.nodes:
                node.destroy_node()
            rclpy.shutdown(context=spinner.context)
        self._spinners.clear()


def wait_until(condition: Callable[[], Any], *, timeout_s: float = 10.0, what: str = "") -> Any:
    """Poll ``condition`` until it is truthy (returns it) or fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:g} s waiting for {what or condition}")
        time.sleep(0.01)


def _worker_domains() -> list[int]:
    """This pytest-xdist worker's own half of the ROS domains 1-100 (gw0 1-50, gw1 51-100).

    Workers run ROS test files at the same time; a domain two of them drew at once would let
    one test see the other's topics. Linux leaves ROS 2 the domains 0-101, so two workers (CI's
    two cores) get disjoint ranges; more workers share them two by two. Without workers: 1-100.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return list(range(1, 101))
    low = 1 + 50 * (int(worker[2:]) % 2)
    return list(range(low, low + 50))


@pytest.fixture(scope="session")
def domain_ids() -> Iterator[int]:
    """The worker's domains in a random order, each used once before any is used again.

    A test's participants can linger in DDS discovery for a while after it closes them, so a
    test that draws the domain its predecessor used may still see, say, the people side's
    action server it expects to be missing. Going round the whole shuffled range puts at least 49
    other tests between two uses of a domain.
    """
    domains = _worker_domains()
    random.shuffle(domains)
    return itertools.cycle(domains)


@pytest.fixture
def ros(monkeypatch: pytest.MonkeyPatch, domain_ids: Iterator[int]) -> Iterator[RosTestbed]:
    """A private ROS 2 testbed (see the module docs), closed after the test."""
    for name, value in LOCALHOST_ENV.items():
        monkeypatch.setenv(name, value)
    testbed = RosTestbed(next(domain_ids))
    monkeypatch.setenv("ROS_DOMAIN_ID", str(testbed.domain_id))
    try:
        yield testbed
    finally:
        testbed.close()


@pytest.fixture
def until() -> Callable[..., Any]:
    """The polling wait :func:`wait_until` (conftest helpers are not importable)."""
    return wait_until


@pytest.fixture
def session_parts(
    tmp_path: Path, blackboard: BlackboardView, shipped_domains: DomainRegistry
) -> Iterator[dict[str, Any]]:
    """The no-model client, a fresh memory, the experience store and the shipped packs (loaded
    once per run: ``shipped_domains``)."""
    with (
        LLMClient(LLMConfig.load().with_backend("none")) as llm,
        MemoryStore(tmp_path / "memory.sqlite") as memory,
        ExperienceStore() as experience,
    ):
        yield {
            "llm": llm,
            "memory": memory,
            "experience": experience,
            "domains": shipped_domains,
        }


@pytest.fixture
def robot_side(ros: RosTestbed) -> Iterator[Callable[..., Any]]:
    """Start the simulated robots of a scenario on a participant of their own.

    ``robot_side(scenario, **options)``: ``options`` are :class:`~sim.ros_robot.SimRobotNode`'s
    (``step_period_s`` 0.02 and ``host_namespace`` ``/``, the people's, unless given). The node
    spins once it serves its topics. Closed after the test.
    """
    from cogtree.sim.ros_robot import SimRobotNode
    from cogtree.sim.scenario import load_scenario

    made: list[SimRobotNode] = []

    def start(scenario: str, **options: Any) -> SimRobotNode:
        node = ros.node("cogtree_sim", spin=False)
        options.setdefault("step_period_s", 0.02)
        options.setdefault("host_namespace", "/")
        made.append(SimRobotNode.from_scenario(node, load_scenario(scenario), **options))
        ros.spin(node)
        return made[-1]

    yield start
    for each in made:
        each.close()


@pytest.fixture
def host_bench(
    ros: RosTestbed,
    until: Callable[..., Any],
    session_parts: dict[str, Any],
    robot_side: Callable[..., Any],
) -> Iterator[HostBench]:
    """Hosts, users and simulated robots of a host test; the hosts are closed after it."""
    from tests.ros.host_session import HostBench

    with HostBench(ros, until, session_parts, robot_side) as bench:
        yield bench
