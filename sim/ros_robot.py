"""``SimRobotNode``: the simulator as the robot side of cogtree's ROS 2 interfaces.

It serves every robot of one simulated world under that robot's namespace (see
:mod:`skills.ros.protocol`), so to the host it looks like one robot bridge per namespace:

- an ``ExecuteSkill`` action server per action of the routes (``NS/execute_skill`` by
  default). A goal that is not a command (:func:`skills.ros.messages.command_of`) is
  rejected and logged. An accepted goal gets one feedback (the command, progress 0) and is
  submitted to the :class:`~sim.executor.SimExecutor`; when it ends, the goal succeeds, is
  aborted (with the failure code) or is cancelled. A goal for another robot than the
  namespace's is aborted at once and says where to send it. A cancel request cancels the
  command in the simulator.
- the robot re-checks with its own senses before it grasps, lifts or hands over an object:
  an object that is hot in the world is never taken, whatever the host believes (a forged
  observation may have cleared ``hot`` in the host's belief); the goal is aborted with
  ``unsafe_object`` and the reason. The world itself refuses a blade-first handover, a
  brimful container's handover, a grasp from a switched-on heat source and a grasp over the
  payload (see :class:`~sim.world.World`). That is the robot side's guard; the host's is its
  plan validation.
- a timer steps the simulator every ``step_period_s`` while a command or a delegated task is
  in progress (so simulated time measures acting, not waiting).
- every belief update of the robots' perception is published on ``NS/observations`` as an
  ``ObservationBatch`` numbered per robot (1, 2, ...), one step before the goal of that
  step ends, and ``NS/state`` carries the current belief (latched) with the number of the last
  batch it includes: it is published at start and again after the belief changed, at most
  every :data:`STATE_PERIOD_S` seconds, so a host that starts or restarts after the robots
  acted gets what they have seen so far.
- the simulated people serve the host's ``people/delegate`` action
  (:class:`~sim.ros_people.SimPeopleBridge`).

Why one node for all robots: the robots share one world, one clock and one belief journal; a
single node steps them in one callback group, so no lock spans nodes, and the names are the
same as with one node per robot. Give it a single-threaded executor.

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
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cogtree_interfaces.action import ExecuteSkill
from cogtree_interfaces.msg import ObservationBatch, RobotState
from rclpy.action.server import ActionServer, CancelResponse, GoalResponse, ServerGoalHandle
from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.node import Node
from rclpy.publisher import Publisher
from rclpy.task import Future as RosFuture

from cogtree.knowledge.closing import Closeable
from cogtree.sim.belief_journal import BeliefChange, JournalingSceneGraph
from cogtree.sim.executor import SimExecutor
from cogtree.sim.perception import SOURCE_PREFIX
from cogtree.sim.ros_people import SimPeopleBridge
from cogtree.sim.scenario import Scenario
from cogtree.skills.action_model.commands import Command, Feedback
from cogtree.skills.ros.messages import MessageError, batch_msg, command_of, result_msg, time_msg
from cogtree.skills.ros.protocol import (
    DEFAULT_HOST_NAMESPACE,
    OBSERVATIONS_TOPIC,
    STATE_TOPIC,
    latched_qos,
    reliable_qos,
    robot_namespaces,
    topic,
)
from cogtree.skills.ros.routes import CommandRoutes

log = logging.getLogger(__name__)

DEFAULT_STEP_PERIOD_S = 0.1
"""Wall-clock seconds per simulator tick while something is in progress (10 ticks/s)."""

STATE_PERIOD_S = 1.0
"""The fewest wall-clock seconds between two publications of the robots' state (the whole
belief as Turtle): changes in between are published together once that time is up."""

SENSED_BEFORE_TAKING = frozenset({"grasp", "lift", "handover"})
"""Commands before which the robot re-checks the object with its own senses."""


@dataclass
class _RobotTopics:
    """One robot's publishers and the number of its last observation batch."""

    namespace: str
    observations: Publisher[Any]
    state: Publisher[Any]
    sequence: int = 0


@dataclass
class _Goal:
    """An accepted goal: its command, and what ends the action's execute coroutine."""

    command: Command
    ended: RosFuture[Any] = field(default_factory=RosFuture)


class SimRobotNode(Closeable):
    """Serves ``simulator``'s robots over ROS 2 on ``node`` (see the module docs).

    Args:
        node: the rclpy node to serve on; spun by its owner (one thread).
        simulator: the simulator; its belief must be a :class:`JournalingSceneGraph` (use
            :meth:`from_scenario`).
        namespaces: robot -> namespace; the others get ``/<robot>``.
        routes: the actions to serve (the same file as the host's).
        host_namespace: where the people's action lives.
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
        self._accepted = 0
        self._silent = 0
        self._cancels = 0
        self._ended: list[tuple[_Goal, Any]] = []  # ended in this step
        self._ending: list[tuple[_Goal, Any]] = []  # their observations are out: end them
        self._running: dict[bytes, _Goal] = {}  # by goal id, for cancel requests
        self._servers: list[ActionServer[Any, Any, Any]] = []
        self._state_changed = False  # the belief changed since the state was last published
        self._state_published_at = 0.0
        # close() may come from another thread while the executor runs a callback: callbacks
        # that publish hold this lock and do nothing once closed, so no publisher is destroyed
        # under them (rclpy's destroy_timer does not wait for a running callback)
        self._publishing = threading.Lock()
        self._closed = False
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

    @property
    def cancels_requested(self) -> int:
        """How many cancel requests arrived (for silent goals too)."""
        return self._cancels

    # -- topics and actions ----------------------------------------------------------------------

    def _serve(self, robot: str, namespace: str) -> _RobotTopics:
        for action in self.routes.actions():
            self._servers.append(
                ActionServer(
                    self.node,
                    ExecuteSkill,
                    topic(namespace, action),
                    execute_callback=partial(self._execute, robot, topic(namespace, action)),
                    goal_callback=self._check_goal,
                    cancel_callback=self._on_cancel_request,
                )
            )
        return _RobotTopics(
            namespace=namespace,
            observations=self.node.create_publisher(
                ObservationBatch, topic(namespace, OBSERVATIONS_TOPIC), reliable_qos()
            ),
            state=self.node.create_publisher(
                RobotState, topic(namespace, STATE_TOPIC), latched_qos()
            ),
        )

    def _publish_states(self) -> None:
        """Publish every robot's state: the belief as it is now, and the world's time."""
        self._state_changed = False
        self._state_published_at = time.monotonic()
        # Oxigraph's own Turtle writer: the same triples as rdflib's pretty-printer (which the
        # host's ox-turtle parser reads alike) in 7 ms instead of 0.5-0.9 s for a belief of
        # 6,900 triples, which held up the simulator's clock thread at every publication.
        turtle = self.journal.graph.serialize(format="ox-turtle")
        world_time = time_msg(self.simulator.world.now())
        stamp = self.node.get_clock().now().to_msg()
        for robot, topics in self._topics.items():
            topics.state.publish(
                RobotState(
                    stamp=stamp,
                    robot=robot,
                    belief_turtle=turtle,
                    world_time=world_time,
                    sequence=topics.sequence,
                )
            )

    def _publish_states_if_due(self) -> None:
        """Publish the states when the belief changed and :data:`STATE_PERIOD_S` has passed."""
        if self._state_changed and time.monotonic() - self._state_published_at >= STATE_PERIOD_S:
            self._publish_states()

    # -- goals ---------------------------------------------------------------------------------

    def _check_goal(self, goal: ExecuteSkill.Goal) -> GoalResponse:
        try:
            command_of(goal)
        except MessageError as error:
            log.warning("rejected a goal for %s: %s", goal.robot or "no robot", error)
            return GoalResponse.REJECT
        return GoalResponse.ACCEPT

    def _on_cancel_request(self, handle: ServerGoalHandle[Any, Any, Any]) -> CancelResponse:
        self._cancels += 1
        with self._publishing:
            goal = self._running.get(bytes(handle.goal_id.uuid))
            if goal is None or self._closed:  # silent, not started, or closing: nothing to stop
                return CancelResponse.REJECT
            self.simulator.cancel(goal.command)
            self._flush()
        return CancelResponse.ACCEPT

    async def _execute(
        self, robot: str, action: str, handle: ServerGoalHandle[Any, Any, Any]
    ) -> Any:
        """Run one accepted goal to its end (a coroutine: the node keeps spinning meanwhile)."""
        command = command_of(handle.request)
        self._accepted += 1
        limit = self.stop_answering_after
        if limit is not None and self._accepted > limit:
            log.warning("fault injection: %s accepted and never answered", command.describe())
            self._silent += 1
            await RosFuture()  # never done: the executor drops it when the node goes
        if command.robot != robot:
            handle.abort()
            return ExecuteSkill.Result(
                outcome=ExecuteSkill.Result.FAILED,
                message=f"goal for {command.robot} arrived on {action}, which serves {robot}: "
                f"send it under {command.robot}'s namespace",
            )
        unsafe = self._sensed_hazard(command)
        if unsafe is not None:
            log.warning("%s refused: %s", command.describe(), unsafe)
            handle.abort()
            return ExecuteSkill.Result(
                outcome=ExecuteSkill.Result.FAILED, failure_code="unsafe_object", message=unsafe
            )
        goal = _Goal(command)
        goal_id = bytes(handle.goal_id.uuid)
        self._running[goal_id] = goal
        handle.publish_feedback(
            ExecuteSkill.Feedback(current_command=command.describe(), progress=0.0)
        )
        self.simulator.submit(command).add_done_callback(partial(self._finished, goal))
        outcome = await goal.ended
        assert outcome is not None  # set only with the simulator's future
        del self._running[goal_id]
        if outcome.cancelled():
            handle.canceled()
            return ExecuteSkill.Result(
                outcome=ExecuteSkill.Result.CANCELLED, message=f"{command.describe()} was cancelled"
            )
        feedback = outcome.result()
        if feedback.ok:
            handle.succeed()
        else:
            handle.abort()
        return result_msg(feedback)

    def _sensed_hazard(self, command: Command) -> str | None:
        """Why the robot will not take the object of ``command``, by its own senses (or None)."""
        if command.name not in SENSED_BEFORE_TAKING:
            return None
        thing = str(command.args.get("object", ""))
        spec = self.simulator.world.spec.objects.get(thing)
        if spec is not None and spec.hot:
            return (
                f"{command.robot}'s gripper senses that {thing} is hot: it will not "
                f"{command.name} it, whatever the belief says"
            )
        return None

    def _finished(self, goal: _Goal, future: Future[Feedback]) -> None:
        """End a goal after the step's observations are out (see :meth:`_flush`)."""
        self._ended.append((goal, future))

    # -- the clock -----------------------------------------------------------------------------

    def _tick(self) -> None:
        with self._publishing:
            if self._closed:  # the timer fired as close() began: publish nothing
                return
            try:
                if not self.simulator.idle:
                    self.simulator.step()
            except Exception:
                log.exception("the simulator failed to step; the node goes on")
            self._flush()
            self._publish_states_if_due()

    def _flush(self) -> None:
        """Publish the belief changes of what just happened; end the goals a step later.

        Observations go on a topic and results through the action's service, so DDS may
        deliver them in any order; one step between them lets the host hear the
        observations of a command before its result (the host's executor then resolves the
        result after what arrived with it, see :mod:`skills.ros.executor`).
        """
        stamp = self.node.get_clock().now().to_msg()
        for change in self.journal.drain():
            self._state_changed = True
            robot = self._robot_of(change)
            topics = self._topics[robot]
            topics.sequence += 1
            topics.observations.publish(
                batch_msg(robot, topics.sequence, change.observations, change.forgotten, stamp)
            )
        ending, self._ending = self._ending, []
        for goal, future in ending:
            goal.ended.set_result(future)
        self._ending, self._ended = self._ended, []

    def _robot_of(self, change: BeliefChange) -> str:
        """The robot whose perception made ``change`` (the first robot when unknown)."""
        robot = change.source.removeprefix(SOURCE_PREFIX)
        return robot if robot in self._topics else next(iter(self._topics))

    def close(self) -> None:
        """Stop stepping, stop serving, and close the simulator if this node owns it.

        Safe while the node spins on another thread: a callback under way ends first, and
        later ones publish nothing.
        """
        with self._publishing:
            if self._closed:
                return
            self._closed = True
        self.node.destroy_timer(self._timer)
        for server in self._servers:
            server.destroy()
        self._servers.clear()
        self.people.close()
        for topics in self._topics.values():
            self.node.destroy_publisher(topics.observations)
            self.node.destroy_publisher(topics.state)
        if self._owns_simulator:
            self.simulator.close()
