"""The host's session as ``cogtree ros`` builds it, and :class:`HostBench`, for the host tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.llm.client import LLMClient
from cogtree.sim.ros_robot import SimRobotNode
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.handles import Handles
from cogtree.trees.ros.host import HostSettings, RosHost, SessionFactory, TreeHooks
from tests.ros.action_discovery import NewClients
from tests.ros.ros_user import User

START_TIMEOUT_S = 30.0
"""How long a host may take to set its tree up once the robot's state is there."""


def assistant(
    parts: dict[str, Any], llm: LLMClient | None = None, *, speaker: str | None = None
) -> SessionFactory:
    """Builds the assistant session the way ``cogtree ros`` does (``llm`` replaces none).

    ``speaker`` is who talks, as ``cogtree ros --speaker`` gives it (None: unknown).
    """

    def open_session(hooks: TreeHooks) -> AssistantSession:
        return AssistantSession(
            llm=llm or parts["llm"],
            speaker=speaker,
            robot=hooks.robot,
            before_tick=hooks.before_tick,
            on_tick=hooks.on_tick,
            rate_hz=None,
            handles={
                **Handles(
                    domains=parts["domains"], memory=parts["memory"], experience=parts["experience"]
                ).as_kwargs(),
                **hooks.handles,
            },
        )

    return open_session


class HostBench(Closeable):
    """A host test's testbed: hosts on participants of their own, users, simulated robots.

    Args:
        ros: the test's :class:`~tests.ros.conftest.RosTestbed`.
        until: the polling wait (the ``until`` fixture).
        parts: the session's parts (the ``session_parts`` fixture): ``llm``, ``memory``,
            ``experience``, ``domains``.
        robot_side: the ``robot_side`` fixture (starts a scenario's simulated robots).

    Every host is made on the root namespace and closed by :meth:`close`.
    """

    def __init__(
        self,
        ros: Any,
        until: Callable[..., Any],
        parts: dict[str, Any],
        robot_side: Callable[..., SimRobotNode],
    ) -> None:
        self.ros = ros
        self.until = until
        self.parts = parts
        self._robot_side = robot_side
        self._hosts: list[RosHost] = []

    def robot(self, scenario: str, **options: Any) -> SimRobotNode:
        """Start the simulated robots of ``scenario`` (``options``: ``SimRobotNode``'s)."""
        return self._robot_side(scenario, **options)

    def assistant(
        self, llm: LLMClient | None = None, *, speaker: str | None = None
    ) -> SessionFactory:
        """The assistant session as ``cogtree ros`` builds it, on this test's parts."""
        return assistant(self.parts, llm, speaker=speaker)

    def host(
        self, open_session: SessionFactory | None = None, belief: Any = None, **settings: Any
    ) -> RosHost:
        """A spinning host that has not set its tree up yet (see :meth:`start`).

        ``open_session`` defaults to :meth:`assistant`; ``settings`` are the
        :class:`~trees.ros.host.HostSettings` (``rate_hz`` 50 unless given).
        """
        settings.setdefault("rate_hz", 50.0)
        node = self.ros.node("cogtree", spin=False)
        host = RosHost(
            node, HostSettings(**settings), open_session or self.assistant(), belief=belief
        )
        self._hosts.append(host)
        self.ros.spin(node)
        return host

    def user(self) -> User:
        """A user (:class:`~tests.ros.ros_user.User`), once the hosts made so far know it.

        The user waits for its own end of the topics before it speaks; this waits for the
        hosts' end: their volatile utterance reader and speech writer must have found the user,
        or what is said before is lost.
        """
        user = User(self.ros, self.until)
        for host in self._hosts:
            self.until(
                lambda host=host: (
                    host.node.count_publishers(user.mouth.topic_name) > 0
                    and host.node.count_subscribers(user.ears.topic_name) > 0
                ),
                what="the host to discover the user",
            )
        return user

    def requester(self, action_type: Any, action: str) -> Any:
        """An action client of the hosts' ``action``, on a participant of its own, once both ends
        have found each other (see :mod:`tests.ros.action_discovery`).
        """
        from cogtree.skills.ros.goal_sender import LockedActionClient

        new_clients = NewClients((host.node, action) for host in self._hosts)
        client = LockedActionClient(self.ros.node("requester"), action_type, action)
        assert client.wait_for_server(timeout_sec=30.0)
        self.until(new_clients.found, what="the hosts to discover the requester")
        return client

    def start(self, host: RosHost) -> None:
        """Wait until ``host`` has set its tree up (on the main thread); fail if it could not."""
        self.until(
            host.start_if_ready, timeout_s=START_TIMEOUT_S, what="the host to set its tree up"
        )
        assert host.ready, host.failure

    def serve(
        self, open_session: SessionFactory | None = None, belief: Any = None, **settings: Any
    ) -> tuple[RosHost, User]:
        """A host (as :meth:`host` makes it) with a user listening, once it has set its tree up."""
        host = self.host(open_session, belief, **settings)
        user = self.user()
        self.start(host)
        return host, user

    def close(self) -> None:
        """Close every host made here."""
        for host in self._hosts:
            host.close()
        self._hosts.clear()
