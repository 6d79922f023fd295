"""``TickGate``: a timer paces the ticks of a tree that runs in a thread of its own.

A ROS 2 host ticks its tree on a timer (py_trees_ros does it in the timer's callback). The
cogtree session runs a turn as a loop (:meth:`~trees.assistant_session.AssistantSession.turn`
ticks until the tree answers), so the host runs that loop on a thread of its own and gates
it: the loop's ``before_tick`` calls :meth:`TickGate.wait`, which blocks until the timer's
callback calls :meth:`TickGate.grant`; the loop's ``on_tick`` calls :meth:`TickGate.done`.
``grant`` waits for ``done`` (up to a limit), so each tick happens *inside* a timer callback
as in py_trees_ros: with a single-threaded executor no other callback of the node (a command
status, an observation applied to the belief) runs while the tree ticks, and the tree ticks
at the timer's rate, never faster.

When the tree is not waiting for a tick (between turns), ``grant`` returns at once.
:meth:`TickGate.close` wakes a waiting tree thread with :class:`TickGateClosed`, so the turn
in progress ends (the host then stops the tree); :meth:`TickGate.interrupt` ends only the
turn in progress, with :class:`TurnInterrupted`.
"""

from __future__ import annotations

import threading
from typing import Literal

GateState = Literal["idle", "waiting", "granted", "ticking"]
"""Where the tree thread is: between ticks, asking for one, allowed one, or ticking."""

Grant = Literal["not_waiting", "ticked", "overran"]
"""What a grant did: nothing (no tick wanted), a whole tick, or a tick still running."""


class TickGateClosed(RuntimeError):
    """The gate was closed while (or before) the tree thread waited for a tick."""


class TurnInterrupted(RuntimeError):
    """The turn was interrupted (the host was deactivated, or the request cancelled)."""


class TickGate:
    """Hands ticks from a timer callback to the tree's thread, one at a time."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._state: GateState = "idle"
        self._closed = False
        self._interrupted = False

    @property
    def state(self) -> GateState:
        """Where the tree thread is now."""
        with self._changed:
            return self._state

    def wait(self) -> None:
        """Tree thread, before a tick: block until a timer callback grants it.

        Raises :class:`TickGateClosed` when the gate is closed, :class:`TurnInterrupted`
        (once) after :meth:`interrupt`.
        """
        with self._changed:
            self._state = "waiting"
            self._changed.notify_all()
            self._changed.wait_for(
                lambda: self._state == "granted" or self._closed or self._interrupted
            )
            if self._closed:
                self._state = "idle"
                raise TickGateClosed("the host is shutting down; the turn was stopped")
            if self._interrupted:
                self._interrupted = False
                self._state = "idle"
                raise TurnInterrupted("the turn was interrupted")
            self._state = "ticking"

    def done(self) -> None:
        """Tree thread, after a tick (or when a tick raised): the timer callback may return."""
        with self._changed:
            self._state = "idle"
            self._changed.notify_all()

    def grant(self, timeout_s: float) -> Grant:
        """Timer callback: let one tick run if the tree waits for one, and wait until it ends.

        ``not_waiting``: no tick was wanted (between turns, or closed). ``ticked``: a tick ran
        to its end. ``overran``: the tick was still running after ``timeout_s`` seconds; it
        finishes on its own while the caller goes on.
        """
        with self._changed:
            if self._closed or self._state != "waiting":
                return "not_waiting"
            self._state = "granted"
            self._changed.notify_all()
            ended = self._changed.wait_for(lambda: self._state in ("idle", "waiting"), timeout_s)
            return "ticked" if ended else "overran"

    def interrupt(self) -> None:
        """End the turn in progress: the tree thread's next (or current) ``wait`` raises.

        It raises :class:`TurnInterrupted` once; a turn that starts later calls
        :meth:`clear_interrupt`, so an interrupt that came too late does not end it.
        """
        with self._changed:
            self._interrupted = True
            self._changed.notify_all()

    def clear_interrupt(self) -> None:
        """Forget an interrupt meant for a turn that has ended (call it as a turn starts)."""
        with self._changed:
            self._interrupted = False

    def close(self) -> None:
        """Stop granting ticks and wake the tree thread (its ``wait`` raises)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
