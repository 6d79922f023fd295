"""``HostLifecycleNode``: the host as a managed (lifecycle) ROS 2 node.

A lifecycle manager, or ``ros2 lifecycle set /cogtree/cogtree <transition>``, drives it:

- ``configure``: read the parameters, load the domain packs, the models, memory and the
  belief (or start waiting for the robot's state), and make the robots' action clients: the
  ``configure`` callback given to the node builds a :class:`~trees.ros.host.RosHost`, inactive.
- ``activate``: take requests and tick the tree.
- ``deactivate``: stop the turn in progress and cancel the robots' goals; requests are answered
  with :data:`~trees.ros.host.PAUSED` until the next ``activate``.
- ``cleanup`` (and ``shutdown``): close the host and release what ``configure`` loaded.

A ``configure`` that raises is a failed transition (the node stays unconfigured; the error is
logged), so an operator can fix a parameter and configure again. With ``autostart`` the node
configures and activates itself as soon as it spins (what ``cogtree ros`` does unless the
``autostart`` parameter is false).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn

from cogtree.trees.ros.host import RosHost

log = logging.getLogger(__name__)

Configure = Callable[[LifecycleNode, contextlib.ExitStack], RosHost]
"""Builds the host on the node; what must be released at cleanup goes on the exit stack."""


class HostLifecycleNode(LifecycleNode):
    """The host's lifecycle node (see the module docs); ``host`` is None unless configured.

    Args:
        name, namespace, context: the node's, as for ``rclpy.create_node``.
        configure: builds the (inactive) host; raises to fail the transition.
        kwargs: the rest of ``LifecycleNode``'s options.

    """

    def __init__(self, name: str, *, configure: Configure, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self._configure = configure
        self._resources: contextlib.ExitStack | None = None
        self.host: RosHost | None = None
        self.failure = ""
        """Why the last ``configure`` failed ("" when it did not)."""

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Build the host (inactive); FAILURE, with the reason logged, when that raises."""
        resources = contextlib.ExitStack()
        try:
            self.host = self._configure(self, resources)
        except Exception as error:
            resources.close()
            self.failure = str(error) or type(error).__name__
            log.error("configure failed: %s", self.failure)
            return TransitionCallbackReturn.FAILURE
        self._resources, self.failure = resources, ""
        resources.callback(self.host.close)
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Take requests and tick."""
        if self.host is not None:
            self.host.activate()
        return super().on_activate(state)

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Stop the turn in progress, cancel the robots' goals, stop taking requests."""
        if self.host is not None:
            self.host.deactivate()
        return super().on_deactivate(state)

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Close the host and release what configure loaded."""
        self.release()
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        """As cleanup, from any state."""
        self.release()
        return TransitionCallbackReturn.SUCCESS

    def on_error(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Release everything; the node goes back to unconfigured."""
        self.release()
        return TransitionCallbackReturn.SUCCESS

    def release(self) -> None:
        """Close the host and what configure loaded (idempotent)."""
        resources, self._resources, self.host = self._resources, None, None
        if resources is not None:
            resources.close()

    def start(self) -> None:
        """Configure and activate (``autostart``); a failed configure is logged and left so."""
        self.trigger_configure()
        if self.host is not None:
            self.trigger_activate()
