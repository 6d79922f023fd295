"""``RosHost``: the cogtree tree as a ROS 2 node, the way py_trees_ros runs a tree.

The host owns an :class:`~trees.assistant_session.AssistantSession` (the same turn path as
``cogtree chat``) and wires it to an rclpy node it is given (the node's name and namespace
are the caller's; ``cogtree ros`` makes ``/cogtree/cogtree``). Topics, relative to the
node's namespace so ``--ros-args -r`` can remap them:

- ``utterance`` (subscribed, ``std_msgs/String``, plain text): what the user said. Each one
  is a turn of the session; utterances that arrive during a turn wait their turn in a
  bounded :class:`~trees.ros.inbox.UtteranceInbox`: past its capacity the oldest waiting one
  is dropped (the newest request wins), logged, and said on ``speech`` before the next turn.
- ``request`` (action ``cogtree_interfaces/action/HandleRequest``): a request with its
  answer: the goal's utterance shares the inbox with the topic's; the result carries what the
  robot said during its turn, the tree's final status and the ticks; cancelling the goal
  stops its turn (its skills cancel their robot goals); a request the inbox drops ends at
  once saying so.
- ``speech`` (published, plain text, reliable, depth 50): what the robot says: every turn's
  reply, including the honest report of a failed task, and the host's own notices.
- ``tree/snapshots`` (published, latched, ``cogtree_interfaces/msg/BehaviourTree``, shaped
  like py_trees_ros's snapshot: behaviours with ids, parents, children, status, message, the
  visited path, blackboard activity; :mod:`trees.ros.tree_message`) after each tick that
  changed something, and the service ``tree/get`` (``GetTree``) with the latest one.
- ``tree/snapshot`` (published, latched): :class:`~trees.recording.snapshot_stream.SnapshotStream`
  messages, one after each tick that changed something, for ``cogtree view``. They are made
  and published on the tree's thread after the tick has ended, while the node's other
  callbacks run.
- the robots' ``execute_skill`` actions (:class:`~skills.ros.executor.RosExecutor`),
  observations (:class:`~skills.ros.belief.BeliefListener`) and latched state, and the
  people's ``people/delegate`` action (:class:`~skills.ros.people.RosPeopleChannel`).

Activation: a host made with ``active=False`` (the lifecycle node's, :mod:`trees.ros.lifecycle`)
neither ticks nor takes requests (it answers :data:`PAUSED`) until :meth:`RosHost.activate`;
:meth:`RosHost.deactivate` interrupts the turn in progress and cancels every robot goal.

Behaviours get the node in ``setup(node=...)`` (py_trees_ros' convention), with the belief
(``scene_graph``), the ``executor`` and the ``people`` channel.

Ticking: a timer on the node fires at ``rate_hz`` and grants one tick through a
:class:`~trees.ros.tick_gate.TickGate` to the tree's thread, which runs the session's turns; the
timer's callback waits until the tick is over, so with a single-threaded executor a tick never
overlaps the node's other callbacks. Model calls, queries and commands run in the background
(the behaviours poll futures), so a tick is short and the node keeps answering.

The belief: given (``--scene FILE``), or built from the main robot's latched ``NS/state`` (the
first robot of :attr:`HostSettings.robots`), so the host needs no scenario file. That state is
the robot's current belief (the robot side publishes it again after its belief changed), so a
host that starts, or restarts, after the robot acted knows what the robot has seen. Until that
state arrives the host is up but not ready: :meth:`RosHost.start_if_ready` (which the owner
calls from the main thread, since py_trees' tree setup uses signals) logs every
:data:`STATE_REMINDER_S` seconds what it waits for, and an utterance is answered with
:data:`NOT_READY`. Once the session is set up, the host publishes the idle tree's snapshot.
A tree that cannot be set up, or a turn that raises, is reported on ``speech``; the node goes
on.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import py_trees
from cogtree_interfaces.action import HandleRequest
from cogtree_interfaces.msg import BehaviourTree, RobotState
from cogtree_interfaces.srv import GetTree
from py_trees.common import Status
from rclpy.action.server import ActionServer, CancelResponse, ServerGoalHandle
from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.node import Node
from rclpy.publisher import Publisher
from rclpy.subscription import Subscription
from std_msgs.msg import String

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.wording import clip
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.ros.belief import BeliefListener, belief_from_state
from cogtree.skills.ros.executor import (
    DEFAULT_ACCEPT_TIMEOUT_S,
    DEFAULT_COMMAND_TIMEOUT_S,
    RosExecutor,
)
from cogtree.skills.ros.people import DEFAULT_ANSWER_TIMEOUT_S, RosPeopleChannel
from cogtree.skills.ros.protocol import (
    SNAPSHOT_TOPIC,
    START_HINT,
    STATE_TOPIC,
    check_namespace,
    latched_qos,
    reliable_qos,
    topic,
)
from cogtree.skills.ros.routes import CommandRoutes
from cogtree.trees.assistant_session import TURN_LIMIT_S, AssistantSession, TurnResult
from cogtree.trees.recording.snapshot_stream import SnapshotStream
from cogtree.trees.recording.tick_log import TickEntry
from cogtree.trees.ros.inbox import UtteranceInbox, Waiting
from cogtree.trees.ros.request_ticket import NOT_RUN, RequestTicket
from cogtree.trees.ros.tick_gate import TickGate, TickGateClosed, TurnInterrupted
from cogtree.trees.ros.tree_message import tree_message

log = logging.getLogger(__name__)

UTTERANCE_TOPIC = "utterance"
"""What the user said (plain text), relative to the host's namespace."""

REQUEST_ACTION = "request"
"""The action that runs one request (``HandleRequest``), relative to the host's namespace."""

TREE_TOPIC = "tree/snapshots"
"""The tree after each tick that changed something, as ``BehaviourTree`` (latched)."""

GET_TREE_SERVICE = "tree/get"
"""The service that returns the tree as it is now (``GetTree``)."""

SPEECH_TOPIC = "speech"
"""What the robot says (plain text), relative to the host's namespace."""

DEFAULT_RATE_HZ = 10.0
"""Tree ticks per second (py_trees_ros trees usually tick at 1-10 Hz)."""

TICK_LIMIT_S = 5.0
"""How long a timer callback waits for its tick; a longer tick lets other callbacks run."""

STATE_REMINDER_S = 10.0
"""How often the host says that it still waits for the robot's state."""

NOT_READY = (
    "I am not ready yet: I am still waiting for the robot's map on {topic}. Please try again "
    "in a moment."
)
"""The reply to an utterance that arrives before the belief."""

PAUSED = "I am paused: my operator has not activated me. Please ask them to, or try later."
"""The reply to an utterance while the host's lifecycle node is not active."""

INTERRUPTED = "I stopped what I was doing ({why})."
"""What the host says when a turn was interrupted."""

DROPPED = "Dropped: a newer request came in before this one's turn."
"""The dialogue of a request the inbox dropped."""

CANNOT_START = "I cannot take requests: {error}"
"""The reply to every utterance when the tree could not be set up."""

STOPPED = "I could not finish that, so I stopped it ({why})."
"""The reply of a turn the tree did not finish within its tick budget."""

BROKEN = "Sorry, something went wrong while I was doing that ({error}). I stopped it."
"""The reply of a turn that raised; the host goes on with the next one."""


@dataclass(frozen=True)
class HostSettings:
    """What the host drives and how fast: robots, tick rate and the time limits.

    ``robots`` maps robot names to their namespaces (``{"robot1": "/robot1"}``); the first
    one is the robot the tree drives and whose state gives the belief. They are the only
    robots the host commands and hears: a plan step for another robot fails at once, saying
    how to add it (the host logs, when it starts, the belief's robots missing here).

    The time limits are seconds: a command from acceptance to result, a person's answer, and
    the robot side's subscribing to and accepting a command (also how long a request to people
    waits for the people side to subscribe). ``routes`` sends commands to other action names
    (the robot side's routes file). Raises ValueError for no robots, a bad
    namespace, or a rate or time limit that is not a positive number.
    """

    robots: Mapping[str, str] = field(default_factory=lambda: {"robot1": "/robot1"})
    rate_hz: float = DEFAULT_RATE_HZ
    command_timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S
    answer_timeout_s: float = DEFAULT_ANSWER_TIMEOUT_S
    accept_timeout_s: float = DEFAULT_ACCEPT_TIMEOUT_S
    routes: CommandRoutes = field(default_factory=CommandRoutes)

    def __post_init__(self) -> None:
        if not self.robots:
            raise ValueError("the host needs at least one robot, e.g. robot1=/robot1")
        for namespace in self.robots.values():
            check_namespace(namespace)
        for name in ("rate_hz", "command_timeout_s", "answer_timeout_s", "accept_timeout_s"):
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"{name} must be a positive number, got {value}")

    @property
    def main_robot(self) -> str:
        """The robot the tree drives (the first one)."""
        return next(iter(self.robots))


@dataclass(frozen=True)
class TreeHooks:
    """What a session factory must wire into the session it builds for the host.

    ``handles`` go to the tree's ``setup`` (``node``, ``scene_graph``, ``executor``,
    ``people``, ``team``: the robots the host can command); ``before_tick`` and ``on_tick``
    are the session's hooks of the same names (they gate the ticks and publish the
    snapshots); the session must not sleep between ticks (``rate_hz=None``: the timer sets
    the pace).
    """

    robot: str
    handles: Mapping[str, Any]
    before_tick: Callable[[], None]
    on_tick: Callable[[py_trees.behaviour.Behaviour, TickEntry], None]


SessionFactory = Callable[[TreeHooks], AssistantSession]
"""Builds the host's session from the hooks (models, packs and memory are the caller's)."""


class RosHost(Closeable):
    """Runs the assistant session as a ROS 2 node (see the module docs).

    Args:
        node: the node to serve on; spun by the caller (a single-threaded executor).
        settings: robots, tick rate and time limits.
        open_session: builds the session once the belief is there (in :meth:`start_if_ready`).
        belief: the robot's belief; None builds it from the main robot's latched state.
        active: take requests and tick from the start (a lifecycle node starts inactive and
            calls :meth:`activate`).

    The caller spins the node and calls :meth:`start_if_ready` from the main thread until it
    returns True, then :meth:`close` before destroying the node.

    """

    def __init__(
        self,
        node: Node,
        settings: HostSettings,
        open_session: SessionFactory,
        *,
        belief: SceneGraph | None = None,
        active: bool = True,
    ) -> None:
        self.node = node
        self.settings = settings
        self._open_session = open_session
        self._belief = belief
        self._owns_belief = belief is None
        self._workers = WorkerPool(2, "cogtree-workers")
        self._state: RobotState | None = None
        self._ready = threading.Event()
        self._failure = ""
        self._waiting_since = time.monotonic()
        self._reminded_at = self._waiting_since
        self._inbox = UtteranceInbox()
        self._gate = TickGate()
        self._stream: SnapshotStream | None = None
        self._session: AssistantSession | None = None
        self._closed = False
        self._listener: BeliefListener | None = None
        self._turns = 0
        self._active = threading.Event()
        if active:
            self._active.set()
        self._in_turn = threading.Event()
        self._current: RequestTicket | None = None  # the request whose turn runs
        self._tickets: dict[bytes, RequestTicket] = {}  # by goal id, for cancel requests
        self._interrupted_because = "I was deactivated"
        main_namespace = settings.robots[settings.main_robot]
        self.state_topic = topic(main_namespace, STATE_TOPIC)
        self._speech: Publisher[Any] = node.create_publisher(String, SPEECH_TOPIC, reliable_qos())
        self._snapshots: Publisher[Any] = node.create_publisher(
            String, SNAPSHOT_TOPIC, latched_qos()
        )
        self._trees: Publisher[Any] = node.create_publisher(
            BehaviourTree, TREE_TOPIC, latched_qos()
        )
        self._last_tree: BehaviourTree | None = None
        self._get_tree = node.create_service(GetTree, GET_TREE_SERVICE, self._on_get_tree)
        self.executor = RosExecutor(
            node,
            robots=settings.robots,
            routes=settings.routes,
            command_timeout_s=settings.command_timeout_s,
            accept_timeout_s=settings.accept_timeout_s,
        )
        self.people = RosPeopleChannel(
            node,
            answer_timeout_s=settings.answer_timeout_s,
            discovery_timeout_s=settings.accept_timeout_s,
        )
        self._subscriptions: list[Subscription[Any]] = [
            node.create_subscription(String, UTTERANCE_TOPIC, self._on_utterance, reliable_qos())
        ]
        if belief is None:
            self._subscriptions.append(
                node.create_subscription(
                    RobotState, self.state_topic, self._on_state, latched_qos()
                )
            )
        self._timer = node.create_timer(
            1.0 / settings.rate_hz, self._on_timer, clock=Clock(clock_type=ClockType.STEADY_TIME)
        )
        self._requests: ActionServer[Any, Any, Any] = ActionServer(
            node,
            HandleRequest,
            REQUEST_ACTION,
            execute_callback=self._execute_request,
            cancel_callback=self._on_cancel_request,
        )
        self._thread = threading.Thread(target=self._serve, name="cogtree-tree", daemon=True)

    @property
    def ready(self) -> bool:
        """True once the session is set up and utterances become turns."""
        return self._ready.is_set()

    @property
    def turns(self) -> int:
        """How many turns the host has finished (replied to)."""
        return self._turns

    @property
    def failure(self) -> str:
        """Why the tree could not be set up ("" when it was, or is not yet)."""
        return self._failure

    @property
    def active(self) -> bool:
        """True while utterances become turns and the timer ticks the tree."""
        return self._active.is_set()

    def activate(self) -> None:
        """Take requests and tick (the lifecycle's ``activate``)."""
        self._active.set()
        log.info("active")

    def deactivate(self) -> None:
        """Stop taking requests, stop the turn in progress and cancel the robots' goals.

        The lifecycle's ``deactivate``: the stopped turn's skills cancel their commands, and
        every goal still in flight is cancelled on its robot.
        """
        self._active.clear()
        if self._in_turn.is_set():
            self._interrupted_because = "I was deactivated"
            self._gate.interrupt()
        self.executor.cancel_all()
        log.info("inactive")

    def start_if_ready(self) -> bool:
        """Set the session up once the belief is there; True when the host is done starting.

        Call it from the main thread (py_trees' tree setup uses signals) after each spin of
        the node: it returns at once while the robot's state has not arrived (every
        :data:`STATE_REMINDER_S` seconds it logs what it waits for). True once the tree runs,
        and also when it could not be set up (:attr:`failure` says why; utterances are then
        answered with it).
        """
        if self._ready.is_set() or self._failure:
            return True
        if self._belief is None and self._state is None:
            self._remind()
            return False
        try:
            self._start()
        except Exception as error:  # the tree could not be set up: say so, stay up
            log.exception("the tree could not be set up")
            self._failure = str(error) or type(error).__name__
        return True

    def close(self) -> None:
        """Stop the turn in progress, close the session, and remove everything from the node.

        Commands in flight are cancelled (the tree's skills stop). Closing twice does nothing.
        """
        if self._closed:
            return
        self._closed = True
        self._gate.close()
        self._inbox.close()
        if self._thread.is_alive():
            self._thread.join(timeout=30.0)
        if self._thread.is_alive():
            log.warning("the tree thread did not stop within 30 s; leaving it behind")
        if self._session is not None and not self._thread.is_alive():
            self._session.close()
        if self._listener is not None:
            self._listener.close()
        if self._owns_belief and self._belief is not None:
            self._belief.close()
        self._workers.close()
        self.node.destroy_timer(self._timer)
        self._requests.destroy()
        for ticket in list(self._tickets.values()):
            ticket.end(NOT_RUN, said="the host is shutting down")
        for subscription in self._subscriptions:
            self.node.destroy_subscription(subscription)
        self._subscriptions.clear()
        self.people.close()
        self.executor.close()
        self.node.destroy_publisher(self._speech)
        self.node.destroy_publisher(self._snapshots)
        self.node.destroy_publisher(self._trees)
        self.node.destroy_service(self._get_tree)

    # -- callbacks (the node's executor thread) --------------------------------------------------

    def _refusal(self) -> str | None:
        """Why a request cannot be taken now (paused, broken, not ready), or None."""
        if not self._active.is_set():
            return PAUSED
        if self._failure:
            return CANNOT_START.format(error=self._failure)
        if not self._ready.is_set():
            return NOT_READY.format(topic=self.state_topic)
        return None

    def _on_utterance(self, message: Any) -> None:
        text = message.data if isinstance(getattr(message, "data", None), str) else ""
        refusal = self._refusal()
        if refusal is not None:
            self._say(refusal)
            return
        log.info("heard: %s", clip(text, 200))
        self._dropped(self._inbox.put(text))

    def _dropped(self, dropped: Waiting | None) -> None:
        """Log an utterance the inbox dropped; end its request, if it was one."""
        if dropped is None:
            return
        log.warning("busy: dropped the waiting utterance %r", clip(dropped.text, 200))
        if isinstance(dropped.ticket, RequestTicket):
            dropped.ticket.end(NOT_RUN, said=DROPPED)

    async def _execute_request(self, handle: ServerGoalHandle[Any, Any, Any]) -> Any:
        """Run a HandleRequest goal: queue its utterance, wait for its turn's end."""
        ticket = RequestTicket(handle.request.utterance)
        refusal = self._refusal()
        if refusal is not None:
            handle.abort()
            return HandleRequest.Result(outcome=NOT_RUN, dialogue=[refusal])
        goal_id = bytes(handle.goal_id.uuid)
        self._tickets[goal_id] = ticket
        log.info("request: %s", clip(ticket.utterance, 200))
        self._dropped(self._inbox.put(ticket.utterance, ticket))
        result = await ticket.ended
        del self._tickets[goal_id]
        if result is None:  # never: a ticket ends with a result
            raise RuntimeError("a request ended without a result")
        if ticket.cancelled:
            handle.canceled()
        elif result.outcome == Status.SUCCESS.value:
            handle.succeed()
        else:
            handle.abort()
        return result

    def _on_cancel_request(self, handle: ServerGoalHandle[Any, Any, Any]) -> CancelResponse:
        """Cancel a request: stop its turn if it runs, skip it if it waits."""
        ticket = self._tickets.get(bytes(handle.goal_id.uuid))
        if ticket is None:
            return CancelResponse.REJECT
        ticket.cancelled = True
        if self._current is ticket:
            self._interrupted_because = "the request was cancelled"
            self._gate.interrupt()
        return CancelResponse.ACCEPT

    def _on_state(self, state: RobotState) -> None:
        """Keep the newest state until the belief is built from it (later ones are ignored)."""
        if self._belief is not None:
            return
        if state.robot != self.settings.main_robot:
            log.warning(
                "state on %s is of %s, not of %s; using it anyway",
                self.state_topic,
                state.robot,
                self.settings.main_robot,
            )
        self._state = state

    def _on_timer(self) -> None:
        if not self._active.is_set():
            return
        if self._gate.grant(TICK_LIMIT_S) == "overran":
            log.warning(
                "a tick has run for over %g s; the node's other callbacks run meanwhile",
                TICK_LIMIT_S,
            )

    # -- starting (the main thread) --------------------------------------------------------------

    def _start(self) -> None:
        """Build the belief, the listener and the session; start the tree's thread."""
        if self._belief is None:
            assert self._state is not None
            self._belief = belief_from_state(self._state)
        self._warn_of_robots_without_namespace(self._belief)
        applied = {self._state.robot: self._state.sequence} if self._state is not None else {}
        self._listener = BeliefListener(
            self.node, self._belief, self.settings.robots, applied=applied
        )
        hooks = TreeHooks(
            robot=self.settings.main_robot,
            handles={
                "node": self.node,
                "scene_graph": self._belief,
                "workers": self._workers,
                "executor": self.executor,
                "people": self.people,
                "team": tuple(self.settings.robots),
            },
            before_tick=self._gate.wait,
            on_tick=self._after_tick,
        )
        self._session = self._open_session(hooks)
        runner = self._session.runner
        self._stream = SnapshotStream(runner.root, tree=runner.tree_name, llm=runner.llm.describe())
        self._publish_snapshot(self._stream.first(runner.root))
        self._publish_tree(runner.root, None)
        self._thread.start()
        self._ready.set()
        log.info("ready: listening on %s", self.node.resolve_topic_name(UTTERANCE_TOPIC))

    def _warn_of_robots_without_namespace(self, belief: SceneGraph) -> None:
        """Log the belief's robots the host was not given: plans that need them are rejected."""
        missing = sorted({robot.id for robot in belief.robot_state()} - set(self.settings.robots))
        if missing:
            log.warning(
                "the belief has robots the host has no namespace for: %s; plans that need them "
                "are rejected before anything runs: give each with --robot NAME=NS",
                ", ".join(missing),
            )

    def _remind(self) -> None:
        """Log, now and then, that the host still waits for the robot's state."""
        now = time.monotonic()
        if now - self._reminded_at >= STATE_REMINDER_S:
            self._reminded_at = now
            log.warning(
                "still no robot state on %s after %.0f s; %s",
                self.state_topic,
                now - self._waiting_since,
                START_HINT,
            )

    # -- the tree's thread ---------------------------------------------------------------------

    def _serve(self) -> None:
        """Run one turn per utterance until closed."""
        assert self._session is not None
        while True:
            taken = self._inbox.take()
            if taken is None:
                return
            ticket = taken.ticket if isinstance(taken.ticket, RequestTicket) else None
            if ticket is not None and ticket.cancelled:
                ticket.end(NOT_RUN, said="cancelled before its turn")
                continue
            self._current = ticket
            notice = taken.notice()
            if notice is not None:
                self._say(notice)
            ended = self._turn(self._session, taken.text)
            self._current = None
            if ended is None:
                return
            if ticket is not None:
                ticket.end(*ended)

    def _turn(self, session: AssistantSession, text: str) -> tuple[str, int] | None:
        """Run one turn and say its reply: its outcome and ticks; None when the host closes."""
        started = time.monotonic()
        self._gate.clear_interrupt()
        self._in_turn.set()
        ended: tuple[str, int] = (NOT_RUN, 0)
        try:
            result = session.turn(text)
        except TickGateClosed:
            return None
        except TurnInterrupted:
            _stop(session)
            self._say(INTERRUPTED.format(why=self._interrupted_because))
        except Exception as error:
            log.exception("the turn for %r failed", clip(text, 200))
            self._gate.done()
            _stop(session)
            self._say(BROKEN.format(error=str(error) or type(error).__name__))
        else:
            took = time.monotonic() - started
            log.info(
                "turn %r: %s in %.2f s, %d ticks",
                clip(text, 200),
                result.status,
                took,
                result.ticks,
            )
            self._say(_reply(result))
            ended = (result.status, result.ticks)
        finally:
            self._in_turn.clear()
        self._turns += 1
        return ended

    def _after_tick(self, root: py_trees.behaviour.Behaviour, entry: TickEntry) -> None:
        """End the tick (the timer callback returns), then publish its snapshot, if any."""
        self._gate.done()
        message = self._stream.update(entry) if self._stream is not None else None
        if message is not None:
            self._publish_snapshot(message)
            self._publish_tree(root, entry)

    def _publish_tree(self, root: py_trees.behaviour.Behaviour, entry: TickEntry | None) -> None:
        """Publish the typed snapshot of ``root`` after ``entry`` (and keep it for GetTree)."""
        assert self._session is not None
        self._last_tree = tree_message(
            root,
            tree_name=self._session.runner.tree_name,
            entry=entry,
            stamp=self.node.get_clock().now().to_msg(),
        )
        self._trees.publish(self._last_tree)

    def _on_get_tree(self, request: Any, response: Any) -> Any:
        """GetTree: the last typed snapshot (``ready`` False before the tree is set up)."""
        tree = self._last_tree
        response.ready = tree is not None
        if tree is not None:
            response.tree = tree
        return response

    def _publish_snapshot(self, message: str) -> None:
        self._snapshots.publish(String(data=message))

    def _say(self, text: str) -> None:
        log.info("saying: %s", text)
        current = self._current
        if current is not None:
            current.dialogue.append(text)
        self._speech.publish(String(data=text))


def _reply(result: TurnResult) -> str:
    """What the robot says after ``result``: its reply, or why the turn was stopped."""
    if result.status == Status.RUNNING.value:
        why = (
            f"it took more than {TURN_LIMIT_S:.0f} s ({result.ticks} ticks); a slow model needs "
            "a faster backend or a smaller model"
        )
        return f"{result.reply} {STOPPED.format(why=why)}".strip()
    return result.reply or "I have nothing to say to that."


def _stop(session: AssistantSession) -> None:
    """Stop a tree left running by a turn that raised (errors are logged, not raised)."""
    try:
        if session.runner.root.status == Status.RUNNING:
            session.runner.root.stop(Status.INVALID)
    except Exception:
        log.exception("stopping the tree after a failed turn failed too")
