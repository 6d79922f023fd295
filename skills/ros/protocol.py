"""The JSON payloads cogtree and a robot exchange over ROS 2, their topics and their QoS.

Every message is a ``std_msgs/String`` holding one JSON object, one of the pydantic models
below (no custom message types, so nothing needs a rosidl build). Per robot, under its
namespace ``NS`` (default ``/<robot>``):

- ``NS/command`` (cogtree -> robot): :class:`CommandGoal`.
- ``NS/command/status`` (robot -> cogtree): :class:`CommandStatus`; ``accepted`` at once,
  optional ``feedback``, then exactly one terminal state.
- ``NS/command/cancel`` (cogtree -> robot): :class:`CommandCancel`.
- ``NS/observations`` (robot -> cogtree): :class:`ObservationBatch`, the belief updates the
  robot's perception produced.
- ``NS/state`` (robot -> cogtree, latched): :class:`RobotState`, the robot's starting belief.

People, relative to the host node's namespace (default ``/cogtree``): ``people/request``
(:class:`PersonRequest`), ``people/answer`` (:class:`PersonAnswer`) and ``people/cancel``
(:class:`PersonCancel`). The host's tree, for ``cogtree view --ros``: ``tree/snapshot``
(latched; :mod:`trees.recording.snapshot_stream` messages, default ``/cogtree/tree/snapshot``).

This module does not import rclpy at import time (the ``ros`` extra is optional): only
:func:`reliable_qos` and :func:`latched_qos` need it. A payload that does not parse is a
:class:`ProtocolError` from :func:`decode`; nodes log it and drop the message.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from knowledge.experience import ErrorCode
from knowledge.scene_models import Observation
from knowledge.validation_errors import first_problem
from skills.commands import Command

if TYPE_CHECKING:
    from rclpy.qos import QoSProfile

COMMAND_TOPIC = "command"
"""Where goals go, relative to the robot's namespace (see :mod:`skills.ros.routes`)."""

STATUS_SUFFIX = "status"
"""A goal topic ``T`` answers on ``T/status``."""

CANCEL_SUFFIX = "cancel"
"""A goal topic ``T`` takes cancels on ``T/cancel``."""

OBSERVATIONS_TOPIC = "observations"
"""The robot's belief updates, relative to its namespace."""

STATE_TOPIC = "state"
"""The robot's latched :class:`RobotState`, relative to its namespace."""

PEOPLE_REQUEST_TOPIC = "people/request"
"""Requests to people, relative to the host namespace."""

PEOPLE_ANSWER_TOPIC = "people/answer"
"""Answers from people, relative to the host namespace."""

PEOPLE_CANCEL_TOPIC = "people/cancel"
"""Withdrawn requests to people, relative to the host namespace."""

SNAPSHOT_TOPIC = "tree/snapshot"
"""The tree's snapshots for the viewer (latched), relative to the host namespace."""

DEFAULT_HOST_NAMESPACE = "/cogtree"
"""The namespace of the host node ``cogtree``; the people topics live under it."""

DEFAULT_SNAPSHOT_TOPIC = f"{DEFAULT_HOST_NAMESPACE}/{SNAPSHOT_TOPIC}"
"""Where ``cogtree ros`` publishes its tree's snapshots unless given another namespace."""

START_HINT = (
    "start the robot side, e.g. `cogtree sim-ros SCENARIO` for the simulated robot, on the same "
    "ROS_DOMAIN_ID, with this robot's namespace"
)
"""What to do when no robot answers (the end of the messages that say so)."""

REPLY_HOLD_S = 10.0
"""Seconds the robot side keeps a reply (status, observations, answer) for a reader that it
has not matched yet (see :class:`skills.ros.json_topics.JsonPublisher`)."""

QUEUE_DEPTH = 50
"""History depth of the reliable topics."""

GoalState = Literal["accepted", "feedback", "succeeded", "failed", "cancelled"]
"""Where a goal is: taken on, in progress (with news), or one of the three terminal states."""

TERMINAL_STATES: frozenset[GoalState] = frozenset({"succeeded", "failed", "cancelled"})
"""The states that end a goal; each goal gets exactly one of them."""

_TOKEN = r"[A-Za-z_][A-Za-z0-9_]*"
_NAMESPACE = re.compile(rf"/|(/{_TOKEN})+")
_RELATIVE_NAME = re.compile(rf"{_TOKEN}(/{_TOKEN})*")


class ProtocolError(ValueError):
    """A message that is not the JSON payload its topic carries (says which and why)."""


class _Payload(BaseModel):
    """Base of the payloads: immutable; unknown fields are ignored (newer peers may add some)."""

    model_config = ConfigDict(frozen=True)


class CommandGoal(_Payload):
    """A command for the robot, with the id its statuses will carry."""

    goal_id: str = Field(min_length=1, description="uuid4 hex, unique per goal")
    command: Command
    sent_at: float = Field(description="wall-clock time (Unix seconds) it was sent")


class CommandStatus(_Payload):
    """News about a goal: accepted, feedback, or how it ended (``code`` on failure)."""

    goal_id: str = Field(min_length=1)
    state: GoalState
    message: str = ""
    code: ErrorCode | None = Field(None, description="the failure code when state is failed")


class CommandCancel(_Payload):
    """Stop the goal ``goal_id`` (the robot answers ``cancelled`` if it was still running)."""

    goal_id: str = Field(min_length=1)


class ObservationBatch(_Payload):
    """Belief updates the robot's perception produced, in the order they were made.

    ``observations`` go to :meth:`SceneGraph.observe
    <knowledge.scene_graph.SceneGraph.observe>`; ``forgotten`` names things the robot
    looked for where the belief placed them and did not see (:meth:`SceneGraph.forget_placement
    <knowledge.scene_graph.SceneGraph.forget_placement>`), applied after the observations.
    """

    robot: str = Field(min_length=1)
    observations: tuple[Observation, ...] = ()
    forgotten: tuple[str, ...] = ()


class RobotState(_Payload):
    """A robot announcing itself: its name, its belief at the start (Turtle) and the time."""

    robot: str = Field(min_length=1)
    belief_turtle: str = Field(description="the belief as Turtle, ontology included")
    world_time: float = Field(description="the robot's clock (Unix seconds)")


class PersonRequest(_Payload):
    """Ask ``person`` to do one of their abilities; the answer carries ``request_id``."""

    request_id: str = Field(min_length=1)
    person: str = Field(min_length=1)
    ability: str = Field(min_length=1)
    description: str = ""


class PersonAnswer(_Payload):
    """How a request to a person ended: done (``ok``), or refused/unavailable with the reason."""

    request_id: str = Field(min_length=1)
    ok: bool
    code: ErrorCode | None = None
    message: str = ""


class PersonCancel(_Payload):
    """Withdraw the request ``request_id``."""

    request_id: str = Field(min_length=1)


PayloadT = TypeVar("PayloadT", bound=BaseModel)


def new_id() -> str:
    """A fresh goal or request id (uuid4 hex)."""
    return uuid.uuid4().hex


def encode(payload: BaseModel) -> str:
    """The JSON text of ``payload`` (what goes into ``std_msgs/String.data``)."""
    return payload.model_dump_json()


def decode(model: type[PayloadT], data: str, *, topic: str = "") -> PayloadT:
    """Parse ``data`` as ``model``; a :class:`ProtocolError` says what was wrong, and where.

    ``topic`` names the topic in the message (``malformed CommandStatus on /robot1/...``).
    """
    where = f" on {topic}" if topic else ""
    try:
        return model.model_validate_json(data)
    except ValidationError as error:
        raise ProtocolError(f"malformed {model.__name__}{where}: {first_problem(error)}") from error


# -- names -------------------------------------------------------------------------------------


def check_namespace(namespace: str) -> str:
    """``namespace`` if it is an absolute ROS namespace (``/robot1``, ``/team/r1``).

    Raises ValueError saying how to write one.
    """
    if not _NAMESPACE.fullmatch(namespace):
        raise ValueError(
            f"{namespace!r} is not a ROS namespace: write it absolute, as '/' and names of "
            "letters, digits and _ not starting with a digit, e.g. /robot1 or /team/base1"
        )
    return namespace


def check_relative_name(name: str) -> str:
    """``name`` if it is a relative ROS topic name (``command``, ``navigate_to_pose/goal``).

    Raises ValueError saying how to write one.
    """
    if not _RELATIVE_NAME.fullmatch(name):
        raise ValueError(
            f"{name!r} is not a relative ROS topic name: use names of letters, digits and _ "
            "separated by /, not starting with / or a digit, e.g. command or navigate/goal"
        )
    return name


def topic(namespace: str, name: str) -> str:
    """The absolute topic ``name`` under ``namespace``: ``topic("/robot1", "command")``."""
    check_namespace(namespace)
    check_relative_name(name)
    return f"{namespace.rstrip('/')}/{name}"


def status_topic(goal_topic: str) -> str:
    """Where the statuses of goals sent on ``goal_topic`` come back."""
    return f"{goal_topic}/{STATUS_SUFFIX}"


def cancel_topic(goal_topic: str) -> str:
    """Where cancels of goals sent on ``goal_topic`` go."""
    return f"{goal_topic}/{CANCEL_SUFFIX}"


def default_namespace(robot: str) -> str:
    """The namespace of ``robot`` when none is configured: ``/<robot>``."""
    return check_namespace(f"/{robot}")


def robot_namespaces(
    robots: Iterable[str], configured: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Each of ``robots``' namespace: the configured one, else ``/<robot>`` (all checked).

    Raises ValueError for a bad namespace, or a configured robot that is not in ``robots``.
    """
    robots, configured = list(robots), configured or {}
    unknown = sorted(set(configured) - set(robots))
    if unknown:
        raise ValueError(
            f"no robot {', '.join(unknown)} in the world (robots: {', '.join(robots)})"
        )
    return {
        robot: check_namespace(configured.get(robot) or default_namespace(robot))
        for robot in robots
    }


def parse_robot_namespaces(items: Iterable[str]) -> dict[str, str]:
    """``["robot1=/r1", "base1"]`` -> ``{"robot1": "/r1", "base1": "/base1"}``.

    The form of the host's ``robots`` parameter and of ``--namespace``; a bare name gets the
    default namespace. Raises ValueError naming the bad item.
    """
    namespaces: dict[str, str] = {}
    for item in items:
        robot, sep, namespace = (part.strip() for part in item.partition("="))
        if not robot:
            raise ValueError(f"{item!r}: expected ROBOT=NAMESPACE, e.g. robot1=/robot1")
        if robot in namespaces:
            raise ValueError(f"{item!r}: robot {robot!r} is given twice")
        try:
            namespaces[robot] = check_namespace(namespace) if sep else default_namespace(robot)
        except ValueError as error:
            raise ValueError(f"{item!r}: {error}") from error
    return namespaces


# -- quality of service (needs rclpy) ---------------------------------------------------------


def reliable_qos() -> QoSProfile:
    """Reliable, keep the last :data:`QUEUE_DEPTH`, volatile: goals, statuses, observations."""
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    return QoSProfile(
        history=HistoryPolicy.KEEP_LAST,
        depth=QUEUE_DEPTH,
        reliability=ReliabilityPolicy.RELIABLE,
        durability=DurabilityPolicy.VOLATILE,
    )


def latched_qos() -> QoSProfile:
    """Reliable, transient-local, depth 1: a late subscriber gets the last message."""
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    return QoSProfile(
        history=HistoryPolicy.KEEP_LAST,
        depth=1,
        reliability=ReliabilityPolicy.RELIABLE,
        durability=DurabilityPolicy.TRANSIENT_LOCAL,
    )
