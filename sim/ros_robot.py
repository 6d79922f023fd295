"""``SimRobotNode``: the simulator as the robot side of cogtree's ROS 2 interfaces.

It serves every robot of one simulated world on that robot's namespaced topics (see
:mod:`skills.ros.protocol`), so to the host it looks like one robot bridge per namespace:

- a :class:`~skills.ros.protocol.CommandGoal` on a goal topic (``NS/command``, or the topics
  of a routes file) is answered ``accepted`` at once and submitted to the
  :class:`~sim.executor.SimExecutor`; when it ends, ``succeeded`` / ``failed`` (with the
  failure code) / ``cancelled`` goes to ``NS/<goal topic>/status``. A goal for another robot
  than the namespace's fails at once and says where to send it.
- a :class:`~skills.ros.protocol.CommandCancel` cancels the goal in the simulator.
- a timer steps the simulator every ``step_period_s`` while a command or a delegated task is
  in progress (so simulated time measures acting, not waiting).
- every belief update of the robots' perception is published on ``NS/observations`` (before
  the statuses of the same step), and ``NS/state`` carries the current belief (latched): it is
  published at start and again after the belief changed, at most every
  :data:`STATE_PERIOD_S` seconds (the last change within that time after it), so a host that
  starts or restarts after the robots acted gets what they have seen so far.
- the simulated people answer on the host's people topics (:class:`~sim.ros_people
  .SimPeopleBridge`).

Replies (statuses, observations, answers) published before the host's reader is matched are
held up to :data:`~skills.ros.protocol.REPLY_HOLD_S` seconds, so the first answers to a host
that is still being discovered are not lost.

Why one node for all robots: the robots share one world, one clock and one belief journal; a
single node steps them in one callback group, so no lock spans nodes, and the topic names
are the same as with one node per robot.

Fault injection: ``stop_answering_after=N`` answers the first N goals, then accepts every
later goal and never finishes it (nor honours its cancel), so a test can check that the host
fails the skill on its own time limit.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any

from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.node import Node
from rclpy.subscription import Subscription

from knowledge.closing import Closeable
from sim.belief_journal import BeliefChange, JournalingSceneGraph
from sim.executor import SimExecutor
from sim.perception import SOURCE_PREFIX
from sim.ros_people import SimPeopleBridge
from sim.scenario import Scenario
from skills.commands import Command, Feedback
from skills.ros.json_topics import JsonPublisher, subscribe_json
from skills.ros.protocol import (
    DEFAULT_HOST_NAMESPACE,
    OBSERVATIONS_TOPIC,
    REPLY_HOLD_S,
    STATE_TOPIC,
    CommandCancel,
    CommandGoal,
    CommandStatus,
    GoalState,
    ObservationBatch,
    RobotState,
    cancel_topic,
    latched_qos,
    reliable_qos,
    robot_namespaces,
    status_topic,
    topic,
)
from skills.ros.routes import CommandRoutes

log = logging.getLogger(__name__)

DEFAULT_STEP_PERIOD_S = 0.1
"""Wall-clock seconds per simulator tick while something is in progress (10 ticks/s)."""

STATE_PERIOD_S = 1.0
"""The fewest wall-clock seconds between two publications of the robots' state (the whole
belief as Turtle): changes in between are published together once that time is up."""


@dataclass
class _RobotTopics:
    """One robot's publishers: statuses per goal topic, observations, state."""

    namespace: str
    statuses: dict[str, JsonPublisher[CommandStatus]]
    observations: JsonPublisher[ObservationBatch]
    state: JsonPublisher[RobotState]


@dataclass
class _Goal:
    command: Command
    statuses: JsonPublisher[CommandStatus]


class SimRobotNode(Closeable):
    """Serves ``simulator``'s robots over ROS 2 on ``node`` (see the module docs).

    Args:
        node: the rclpy node to serve on; spun by its owner (one thread, or the node's default
            mutually exclusive callback group).
        simulator: the simulator; its belief must be a :class:`JournalingSceneGraph` (use
            :meth:`from_scenario`).
        namespaces: robot -> namespace; the others get ``/<robot>``.
        routes: the goal topics to serve (the same file as the host's).
        host_namespace: where the people topics live.
        step_period_s: wall-clock seconds per simulator tick while busy.
        stop_answering_after: answer this many goals, then go silent (fault injection).
        owns_simulator: close ``simulator`` in :meth:`close`.

    Raises ValueError for a namespace of a robot the world lacks, or a bad namespace.

    """

    def __init__(
        self,
        node: Node,
        simulator: SimExecutor,
        *,
        namespaces: Mapping[str, str] | None = None,
        routes: CommandRoutes | None = None,
        host_namespace: str = DEFAULT_HOST_NAMESPACE,
        step_period_s: float = DEFAULT_STEP_PERIOD_S,
        stop_answering_after: int | None = None,
        owns_simulator: bool = False,
    ) -> None:
        if not isinstance(simulator.belief, JournalingSceneGraph):
            raise ValueError(
                "the simulator's belief must be a JournalingSceneGraph so its observations can "
                "be published: build it with SimRobotNode.from_scenario"
            )
        self.node = node
        self.simulator = simulator
        self.journal: JournalingSceneGraph = simulator.belief
        self.namespaces = robot_namespaces(simulator.world.spec.robots, namespaces)
        self.routes = routes if routes is not None else CommandRoutes()
        self.stop_answering_after = stop_answering_after
        self._owns_simulator = owns_simulator
        # The executor's threads run the callbacks; close() may run on another thread. Every
        # callback that publishes holds this lock and does nothing once the node is closed,
        # so no publisher is used after close() destroyed it.
        self._lock = threading.Lock()
        self._closed = False
        self._goals: dict[str, _Goal] = {}
        self._silent: set[str] = set()
        self._accepted = 0
        self._outbox: list[tuple[JsonPublisher[CommandStatus], CommandStatus]] = []
        self._subscriptions: list[Subscription[Any]] = []
        self._state_changed = False  # the belief changed since the state was last published
        self._state_published_at = 0.0
        self._topics = {robot: self._serve(robot, ns) for robot, ns in self.namespaces.items()}
        self.people = SimPeopleBridge(node, simulator.people, host_namespace=host_namespace)
        self._publish_states()
        self._timer = node.create_timer(
            step_period_s, self._tick, clock=Clock(clock_type=ClockType.STEADY_TIME)
        )

    @classmethod
    def from_scenario(
        cls, node: Node, scenario: Scenario, *, seed: int | None = None, **options: Any
    ) -> SimRobotNode:
        """A node serving a fresh run of ``scenario`` (the node owns the simulator).

        ``options`` are the keyword arguments of the constructor.
        """
        world = scenario.new_world(seed)
        simulator = SimExecutor(
            world,
            events=scenario.new_events(),
            people=scenario.new_people(world),
            belief=JournalingSceneGraph.taking_over(scenario.new_belief(world)),
            owns_belief=True,
        )
        try:
            return cls(node, simulator, owns_simulator=True, **options)
        except BaseException:
            simulator.close()
            raise

    @property
    def goals_accepted(self) -> int:
        """How many goals were accepted so far (silent ones included)."""
        return self._accepted

    # -- topics --------------------------------------------------------------------------------

    def _serve(self, robot: str, namespace: str) -> _RobotTopics:
        qos = reliable_qos()
        statuses: dict[str, JsonPublisher[CommandStatus]] = {}
        for goal_topic in self.routes.goal_topics():
            goals = topic(namespace, goal_topic)
            statuses[goals] = JsonPublisher(
                self.node, CommandStatus, status_topic(goals), qos, hold_s=REPLY_HOLD_S
            )
            self._subscriptions += [
                subscribe_json(
                    self.node,
                    CommandGoal,
                    goals,
                    partial(self._on_goal, robot, statuses[goals]),
                    qos,
                ),
                subscribe_json(self.node, CommandCancel, cancel_topic(goals), self._on_cancel, qos),
            ]
        return _RobotTopics(
            namespace=namespace,
            statuses=statuses,
            observations=JsonPublisher(
                self.node,
                ObservationBatch,
                topic(namespace, OBSERVATIONS_TOPIC),
                qos,
                hold_s=REPLY_HOLD_S,
            ),
            state=JsonPublisher(
                self.node, RobotState, topic(namespace, STATE_TOPIC), latched_qos()
            ),
        )

    def _publish_states(self) -> None:
        """Publish every robot's state: the belief as it is now, and the world's time."""
        self._state_changed = False
        self._state_published_at = time.monotonic()
        turtle = self.journal.graph.serialize(format="turtle")
        now = self.simulator.world.now().timestamp()
        for robot, topics in self._topics.items():
            topics.state.publish(RobotState(robot=robot, belief_turtle=turtle, world_time=now))

    def _publish_states_if_due(self) -> None:
        """Publish the states when the belief changed and :data:`STATE_PERIOD_S` has passed."""
        if self._state_changed and time.monotonic() - self._state_published_at >= STATE_PERIOD_S:
            self._publish_states()

    # -- goals ---------------------------------------------------------------------------------

    def _on_goal(
        self, robot: str, statuses: JsonPublisher[CommandStatus], goal: CommandGoal
    ) -> None:
        with self._lock:
            if not self._closed:
                self._accept(robot, statuses, goal)

    def _accept(
        self, robot: str, statuses: JsonPublisher[CommandStatus], goal: CommandGoal
    ) -> None:
        if goal.goal_id in self._goals or goal.goal_id in self._silent:
            log.debug("goal %s is already known: ignored", goal.goal_id)
            return
        command = goal.command
        if command.robot != robot:
            where = statuses.topic.rsplit("/", 1)[0]
            message = (
                f"goal for {command.robot} arrived on {where}, which serves {robot}: send it "
                f"under {command.robot}'s namespace"
            )
            statuses.publish(CommandStatus(goal_id=goal.goal_id, state="failed", message=message))
            return
        accepted = f"{robot} {command.describe()}"
        statuses.publish(CommandStatus(goal_id=goal.goal_id, state="accepted", message=accepted))
        self._accepted += 1
        limit = self.stop_answering_after
        if limit is not None and self._accepted > limit:
            log.warning("fault injection: goal %s accepted and never answered", goal.goal_id)
            self._silent.add(goal.goal_id)
            return
        self._goals[goal.goal_id] = _Goal(command, statuses)
        future = self.simulator.submit(command)
        future.add_done_callback(partial(self._finished, goal.goal_id))

    def _on_cancel(self, cancel: CommandCancel) -> None:
        with self._lock:
            goal = self._goals.get(cancel.goal_id)
            if self._closed:
                return
            if goal is None:
                log.debug("cancel of goal %s, which is not running: ignored", cancel.goal_id)
                return
            self.simulator.cancel(goal.command)
            self._flush()

    def _finished(self, goal_id: str, future: Future[Feedback]) -> None:
        """Queue the terminal status of a goal (published after the step's observations)."""
        goal = self._goals.pop(goal_id, None)
        if goal is None:
            return
        if future.cancelled():
            message = f"{goal.command.describe()} was cancelled"
            status = CommandStatus(goal_id=goal_id, state="cancelled", message=message)
        else:
            feedback = future.result()
            state: GoalState = "succeeded" if feedback.ok else "failed"
            status = CommandStatus(
                goal_id=goal_id, state=state, message=feedback.message, code=feedback.code
            )
        self._outbox.append((goal.statuses, status))

    # -- the clock -----------------------------------------------------------------------------

    def _tick(self) -> None:
        with self._lock:
            if self._closed:
                return
            try:
                if not self.simulator.idle:
                    self.simulator.step()
            except Exception:
                log.exception("the simulator failed to step; the node goes on")
            self._flush()
            self._publish_states_if_due()

    def _flush(self) -> None:
        """Publish the belief changes, then the statuses, of what just happened."""
        for change in self.journal.drain():
            self._state_changed = True
            robot = self._robot_of(change)
            self._topics[robot].observations.publish(
                ObservationBatch(
                    robot=robot, observations=change.observations, forgotten=change.forgotten
                )
            )
        outbox, self._outbox = self._outbox, []
        for publisher, status in outbox:
            publisher.publish(status)

    def _robot_of(self, change: BeliefChange) -> str:
        """The robot whose perception made ``change`` (the first robot when unknown)."""
        robot = change.source.removeprefix(SOURCE_PREFIX)
        return robot if robot in self._topics else next(iter(self._topics))

    def close(self) -> None:
        """Stop stepping, unsubscribe, and close the simulator if this node owns it.

        A callback running meanwhile finishes first; later ones do nothing.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.node.destroy_timer(self._timer)
        for subscription in self._subscriptions:
            self.node.destroy_subscription(subscription)
        self._subscriptions.clear()
        self.people.close()
        for topics in self._topics.values():
            for statuses in topics.statuses.values():
                statuses.destroy()
            topics.observations.destroy()
            topics.state.destroy()
        if self._owns_simulator:
            self.simulator.close()
