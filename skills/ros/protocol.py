"""The names, namespaces and QoS of cogtree's ROS 2 interfaces (``cogtree_interfaces``).

The types are those of the interface package in ``interfaces/`` (built by ``pip install
--no-build-isolation ./interfaces``; see :mod:`skills.ros.messages`). Per robot, under its
namespace ``NS`` (default ``/<robot>``):

- ``NS/execute_skill`` (action ``cogtree_interfaces/action/ExecuteSkill``, served by the
  robot): one low-level command of a skill; a routes file may send some commands to other
  action names (:mod:`skills.ros.routes`).
- ``NS/observations`` (robot -> cogtree, ``cogtree_interfaces/msg/ObservationBatch``): the
  belief updates the robot's perception produced, numbered per robot; each observation's
  ``source`` says who saw it (:func:`perception_source` for the robot's own senses).
- ``NS/state`` (robot -> cogtree, latched, ``cogtree_interfaces/msg/RobotState``): the
  robot's belief now.

People, relative to the host node's namespace (default ``/cogtree``): the action
``people/delegate`` (``cogtree_interfaces/action/DelegateTask``), served by whoever speaks for
the people. The host's tree, for ``cogtree view --ros``: ``tree/snapshot`` (latched
``std_msgs/String``, :mod:`trees.recording.snapshot_stream` messages, default
``/cogtree/tree/snapshot``).

This module does not import rclpy at import time (the ``ros`` extra is optional): only
:func:`reliable_qos` and :func:`latched_qos` need it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rclpy.qos import QoSProfile

EXECUTE_ACTION = "execute_skill"
"""The action that runs commands, relative to the robot's namespace (:mod:`skills.ros.routes`)."""

OBSERVATIONS_TOPIC = "observations"
"""The robot's belief updates, relative to its namespace."""

STATE_TOPIC = "state"
"""The robot's latched ``RobotState``, relative to its namespace."""

DELEGATE_ACTION = "people/delegate"
"""The action that asks a person for a task, relative to the host namespace."""

SNAPSHOT_TOPIC = "tree/snapshot"
"""The tree's snapshots for the viewer (latched), relative to the host namespace."""

DEFAULT_HOST_NAMESPACE = "/cogtree"
"""The namespace of the host node ``cogtree``; the people's action lives under it."""

DEFAULT_SNAPSHOT_TOPIC = f"{DEFAULT_HOST_NAMESPACE}/{SNAPSHOT_TOPIC}"
"""Where ``cogtree ros`` publishes its tree's snapshots unless given another namespace."""

START_HINT = (
    "start the robot side, e.g. `cogtree sim-ros SCENARIO` for the simulated robot, on the same "
    "ROS_DOMAIN_ID, with this robot's namespace"
)
"""What to do when no robot answers (the end of the messages that say so)."""

QUEUE_DEPTH = 50
"""History depth of the reliable topics."""

PERCEPTION_SOURCE_PREFIX = "sim:"
"""What starts the ``source`` of a robot's own perception (``sim:robot1``, as the simulated
robot side writes it); a robot side's bridge writes the same for what its robot sensed itself,
and another source for what it relays (a person's word, another system)."""

_TOKEN = r"[A-Za-z_][A-Za-z0-9_]*"
_NAMESPACE = re.compile(rf"/|(/{_TOKEN})+")
_RELATIVE_NAME = re.compile(rf"{_TOKEN}(/{_TOKEN})*")


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
    """``name`` if it is a relative ROS topic or action name (``execute_skill``, ``nav/go``).

    Raises ValueError saying how to write one.
    """
    if not _RELATIVE_NAME.fullmatch(name):
        raise ValueError(
            f"{name!r} is not a relative ROS topic name: use names of letters, digits and _ "
            "separated by /, not starting with / or a digit, e.g. execute_skill or nav/go"
        )
    return name


def perception_source(robot: str) -> str:
    """The ``source`` of ``robot``'s own perception: ``sim:robot1``.

    Only observations with it may lower a hazard the host believes
    (:mod:`skills.ros.observation_trust`).
    """
    return f"{PERCEPTION_SOURCE_PREFIX}{robot}"


def topic(namespace: str, name: str) -> str:
    """The absolute topic or action ``name`` under ``namespace``: ``/robot1/execute_skill``."""
    check_namespace(namespace)
    check_relative_name(name)
    return f"{namespace.rstrip('/')}/{name}"


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
    """Reliable, keep the last :data:`QUEUE_DEPTH`, volatile: observations, speech."""
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
