"""Waiting until action servers have found a new client (discovery both ways).

A client's ``wait_for_server`` says only that the client found the server. The server must
also have found the client's reply readers, or rmw_fastrtps drops the goal's acceptance (after
waiting 100 ms for them) while the server runs the goal. :class:`NewClients` counts, on each
server's node, the clients of its action's services before a client is made, and says when
every count has grown.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import Any

ACTION_SERVICES = ("send_goal", "cancel_goal", "get_result")
"""The services behind every action (``<action>/_action/<service>``)."""


class NewClients:
    """The clients of ``served`` actions known now, to tell when new ones were found.

    Make it before the client: discovery runs whether or not the client's node spins.
    """

    def __init__(self, served: Iterable[tuple[Any, str]]) -> None:
        """``served``: (the server's node, the action's full name) pairs."""
        self._known = {
            (node, action, service): node.count_clients(f"{action}/_action/{service}")
            for node, action in served
            for service in ACTION_SERVICES
        }

    def found(self, actions: Container[str] | None = None) -> bool:
        """True when each server's node has found a client more on each service of its action.

        ``actions``: only those (None: all).
        """
        return all(
            node.count_clients(f"{action}/_action/{service}") > known
            for (node, action, service), known in self._known.items()
            if actions is None or action in actions
        )
