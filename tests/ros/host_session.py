"""The host's session as ``cogtree ros`` builds it, and starting a host, for the host tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from behaviours.llm.client import LLMClient
from trees.assistant_session import AssistantSession
from trees.ros_host import RosHost, SessionFactory, TreeHooks

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
            domains=parts["domains"],
            memory=parts["memory"],
            speaker=speaker,
            robot=hooks.robot,
            before_tick=hooks.before_tick,
            on_tick=hooks.on_tick,
            rate_hz=None,
            handles={**hooks.handles, "experience": parts["experience"]},
        )

    return open_session


def start(host: RosHost, until: Callable[..., Any]) -> None:
    """Wait until ``host`` has set its tree up (call from the main thread); fail if it could not."""
    until(host.start_if_ready, timeout_s=START_TIMEOUT_S, what="the host to set its tree up")
    assert host.ready, host.failure
