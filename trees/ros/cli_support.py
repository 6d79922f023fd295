"""What the ROS 2 commands share: ``--domain-id``, ``--ros-args`` and starting rclpy.

``cogtree ros``, ``cogtree sim-ros`` and ``cogtree view --ros`` each start rclpy on a private
``Context`` (their own DDS participant, with our own signal handling instead of rclpy's), spin
their node with :func:`spin_until`, and stop cleanly on SIGINT or SIGTERM
(:func:`trees.cli.signals.signals_stop`). This module does not
import rclpy at import time (the ``ros`` extra is optional): only :func:`init_context` needs
it.
"""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rclpy.context import Context
    from rclpy.executors import Executor

log = logging.getLogger(__name__)

INSTALL_HINT = (
    "pip install 'cogtree[ros]', then build the interface package from the repository: "
    "pip install --no-build-isolation ./interfaces"
)
"""How to get rclpy and the other ROS 2 wheels, and cogtree's own interfaces."""

MAX_DOMAIN_ID = 232
"""The largest ROS_DOMAIN_ID DDS can map to ports (0..101 is the safe range on Linux)."""

SPIN_PERIOD_S = 0.1
"""How long one turn of :func:`spin_until` waits for work (a stop is noticed within it)."""


class RosStartError(ValueError):
    """rclpy could not start (usually a bad ``--ros-args``); the message says what rcl read."""


def domain_id(text: str) -> int:
    """The ``--domain-id`` option's type: a whole number in 0..:data:`MAX_DOMAIN_ID`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_DOMAIN_ID:
        raise argparse.ArgumentTypeError(f"give a domain id in 0..{MAX_DOMAIN_ID}, not {value}")
    return value


def init_context(*, domain_id: int | None = None, ros_args: Sequence[str] = ()) -> Context:
    """A fresh, initialised rclpy ``Context`` (rclpy's own signal handlers off).

    ``domain_id`` None takes ``$ROS_DOMAIN_ID`` (else 0); ``ros_args`` are what followed
    ``--ros-args`` on the command line (remappings, parameters, log levels). Raises
    :class:`RosStartError` when rcl refuses them. The caller shuts the context down
    (``rclpy.shutdown(context=...)``).
    """
    import rclpy
    from rclpy.context import Context
    from rclpy.signals import SignalHandlerOptions

    context = Context()
    try:
        rclpy.init(
            args=["cogtree", *(["--ros-args", *ros_args] if ros_args else [])],
            context=context,
            domain_id=domain_id,
            signal_handler_options=SignalHandlerOptions.NO,
        )
    except Exception as error:  # rcl's own message names the bad argument
        raise RosStartError(f"ROS could not start: {rcl_message(error)}") from error
    return context


def rcl_message(error: BaseException) -> str:
    """The message of an rcl error without the C source location it ends with (``, at x.c:73``)."""
    return str(error).split(", at /")[0].strip()


def spin_until(
    executor: Executor,
    stop: threading.Event,
    context: Context,
    *,
    each: Callable[[], object] | None = None,
    period_s: float = SPIN_PERIOD_S,
) -> None:
    """Run ``executor``'s callbacks until ``stop`` is set or ``context`` is shut down.

    ``each`` is called after every turn (up to ``period_s`` seconds of waiting for work), e.g.
    to start a host once its robot's state arrived. The executor is shut down however the
    loop ends, an exception from a callback included (it is raised again).
    """
    try:
        while not stop.is_set() and context.ok():
            executor.spin_once(timeout_sec=period_s)
            if each is not None:
                each()
    finally:
        executor.shutdown()


def add_ros_args_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--ros-args ...``: everything after it goes to ROS (remapping, parameters, logging)."""
    parser.add_argument(
        "--ros-args",
        nargs=argparse.REMAINDER,
        default=[],
        dest="ros_args",
        metavar="ARGS",
        help=help,
    )
