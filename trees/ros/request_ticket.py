"""``RequestTicket``: one ``HandleRequest`` goal on the host, from the inbox to its result.

The host's ``request`` action (``cogtree_interfaces/action/HandleRequest``) puts the goal's
utterance into the same inbox as the ``utterance`` topic, with a ticket: the words said during
its turn are collected on the ticket, and :meth:`RequestTicket.end` hands the action's execute
coroutine its result (any thread may call it; the coroutine resumes on the node's executor).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cogtree_interfaces.action import HandleRequest
from rclpy.task import Future as RosFuture

NOT_RUN = "INVALID"
"""The outcome of a request whose turn did not run to its end (cancelled, dropped, refused)."""


@dataclass
class RequestTicket:
    """A request waiting for, or in, its turn; ``cancelled`` once its client cancelled it."""

    utterance: str
    dialogue: list[str] = field(default_factory=list)
    cancelled: bool = False
    ended: RosFuture[Any] = field(default_factory=RosFuture)

    def end(self, outcome: str, ticks: int = 0, *, said: str | None = None) -> None:
        """Finish the goal with ``outcome`` (a py_trees status name), once; ``said`` is added."""
        if said is not None:
            self.dialogue.append(said)
        if not self.ended.done():
            result = HandleRequest.Result(outcome=outcome, dialogue=self.dialogue, ticks=ticks)
            self.ended.set_result(result)
