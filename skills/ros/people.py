"""``RosPeopleChannel``: a :class:`~skills.human_channel.HumanChannel` over ROS 2 topics.

The host asks a person to do one of their abilities by publishing a
:class:`~skills.ros.protocol.PersonRequest` on ``people/request`` and waits for the
:class:`~skills.ros.protocol.PersonAnswer` with the same ``request_id`` on ``people/answer``;
withdrawing a request publishes a :class:`~skills.ros.protocol.PersonCancel` on
``people/cancel``. The topic names are relative, so they live under the node's namespace
(``/cogtree/people/request`` for the host node) and can be remapped with ``--ros-args -r``.

The future :meth:`RosPeopleChannel.delegate` returns resolves with the answer as a
:class:`~skills.commands.Feedback` (``ok``, or the person's failure code and reason), or with
a ``person_unavailable`` failure that names the topic and what to start when:

- nobody subscribes to the request topic within ``discovery_timeout_s`` (no people side
  runs; the request waits that long because discovery takes a moment), or
- the request went out but no answer came within ``answer_timeout_s`` (the request is then
  withdrawn, so a person who answers later is not counted on).

Time limits are wall-clock seconds, checked by a timer on the node every ``poll_period_s``.
Threading: the node's callbacks run on its executor's thread, ``delegate``/``cancel`` on the
tree's; the table of requests is guarded by a lock and futures are resolved outside it.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from typing import Any

from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.node import Node
from rclpy.subscription import Subscription
from rclpy.timer import Timer

from knowledge.closing import Closeable
from skills.commands import Feedback
from skills.human_channel import HumanRequest
from skills.ros.json_topics import JsonPublisher, subscribe_json
from skills.ros.protocol import (
    PEOPLE_ANSWER_TOPIC,
    PEOPLE_CANCEL_TOPIC,
    PEOPLE_REQUEST_TOPIC,
    PersonAnswer,
    PersonCancel,
    PersonRequest,
    new_id,
    reliable_qos,
)

log = logging.getLogger(__name__)

DEFAULT_ANSWER_TIMEOUT_S = 300.0
"""Seconds a person may take to answer a request that reached the people side."""

DEFAULT_DISCOVERY_TIMEOUT_S = 5.0
"""Seconds a request waits for anyone to subscribe to the request topic."""

PEOPLE_SIDE_HINT = (
    "start the people side on the same ROS_DOMAIN_ID (`cogtree sim-ros SCENARIO` plays the "
    "simulated people) or remap the people topics to your own bridge"
)
"""What to do when nobody answers (the end of the messages that say so)."""


@dataclass
class _Request:
    """A request in flight: what was asked, its future, and when it was made and sent."""

    payload: PersonRequest
    future: Future[Feedback]
    made_at: float
    sent_at: float | None = None


class RosPeopleChannel(Closeable):
    """Delegates tasks to people over the people topics (see the module docs).

    Args:
        node: the rclpy node to create the topics and the timer on; spun by its owner.
        answer_timeout_s: seconds from sending a request to its answer.
        discovery_timeout_s: seconds a request waits for a subscriber to the request topic.
        poll_period_s: how often the time limits are checked.

    Raises ValueError for a time limit that is not a positive number of seconds.

    """

    def __init__(
        self,
        node: Node,
        *,
        answer_timeout_s: float = DEFAULT_ANSWER_TIMEOUT_S,
        discovery_timeout_s: float = DEFAULT_DISCOVERY_TIMEOUT_S,
        poll_period_s: float = 0.1,
    ) -> None:
        if not (answer_timeout_s > 0 and discovery_timeout_s > 0 and poll_period_s > 0):
            raise ValueError(
                "answer_timeout_s, discovery_timeout_s and poll_period_s must be > 0 seconds"
            )
        self.node = node
        self.answer_timeout_s = answer_timeout_s
        self.discovery_timeout_s = discovery_timeout_s
        self.request_topic = node.resolve_topic_name(PEOPLE_REQUEST_TOPIC)
        self.answer_topic = node.resolve_topic_name(PEOPLE_ANSWER_TOPIC)
        qos = reliable_qos()
        self._requests = JsonPublisher(node, PersonRequest, PEOPLE_REQUEST_TOPIC, qos)
        self._cancels = JsonPublisher(node, PersonCancel, PEOPLE_CANCEL_TOPIC, qos)
        self._answers: Subscription[Any] | None = subscribe_json(
            node, PersonAnswer, PEOPLE_ANSWER_TOPIC, self._on_answer, qos
        )
        self._lock = threading.Lock()
        self._pending: dict[str, _Request] = {}
        self._closed = False
        self._timer: Timer = node.create_timer(
            poll_period_s, self._check_time_limits, clock=Clock(clock_type=ClockType.STEADY_TIME)
        )

    @property
    def pending(self) -> int:
        """How many requests have no answer yet."""
        with self._lock:
            return len(self._pending)

    # -- the HumanChannel protocol -------------------------------------------------------------

    def delegate(self, person: str, task: HumanRequest) -> Future[Feedback]:
        """Ask ``person`` to do ``task``; the future resolves with their answer or a timeout."""
        future: Future[Feedback] = Future()
        payload = PersonRequest(
            request_id=new_id(),
            person=person,
            ability=task.ability,
            description=task.description,
        )
        with self._lock:
            if self._closed:
                future.set_result(_unavailable(f"could not ask {person}: the channel is closed"))
                return future
            request = _Request(payload, future, made_at=time.monotonic())
            self._pending[payload.request_id] = request
            self._send_if_heard(request)
        log.debug("request %s: %s to %s", payload.request_id, task.ability, person)
        return future

    def cancel(self, future: Future[Feedback]) -> bool:
        """Withdraw the request behind ``future``; False if it had no answer pending."""
        with self._lock:
            request = next((r for r in self._pending.values() if r.future is future), None)
            if request is None:
                return False
            del self._pending[request.payload.request_id]
            if request.sent_at is not None:
                self._cancels.publish(PersonCancel(request_id=request.payload.request_id))
        future.cancel()
        return True

    def close(self) -> None:
        """Fail the requests still pending; remove the timer and the topics from the node."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending = list(self._pending.values())
            self._pending.clear()
        for request in pending:
            _resolve(request, _unavailable("the people channel was closed before an answer"))
        self.node.destroy_timer(self._timer)
        self._requests.destroy()
        self._cancels.destroy()
        if self._answers is not None:
            self.node.destroy_subscription(self._answers)
            self._answers = None

    # -- internals -----------------------------------------------------------------------------

    def _send_if_heard(self, request: _Request) -> None:
        """Publish ``request`` once someone subscribes to the request topic (lock held)."""
        if request.sent_at is None and self._requests.subscribers > 0:
            request.sent_at = time.monotonic()
            self._requests.publish(request.payload)

    def _on_answer(self, answer: PersonAnswer) -> None:
        with self._lock:
            request = self._pending.pop(answer.request_id, None)
        if request is None:
            log.debug("answer to request %s, which is not pending: ignored", answer.request_id)
            return
        person = request.payload.person
        default = f"{person} did {request.payload.ability}" if answer.ok else "no reason given"
        _resolve(
            request,
            Feedback(ok=answer.ok, code=answer.code, message=answer.message or default),
        )

    def _check_time_limits(self) -> None:
        now = time.monotonic()
        expired: list[tuple[_Request, Feedback]] = []
        with self._lock:
            for request in list(self._pending.values()):
                self._send_if_heard(request)
                feedback = self._overdue(request, now)
                if feedback is None:
                    continue
                del self._pending[request.payload.request_id]
                if request.sent_at is not None:
                    self._cancels.publish(PersonCancel(request_id=request.payload.request_id))
                expired.append((request, feedback))
        for request, feedback in expired:
            log.warning("%s", feedback.message)
            _resolve(request, feedback)

    def _overdue(self, request: _Request, now: float) -> Feedback | None:
        """A ``person_unavailable`` failure if ``request`` is past a time limit, else None."""
        payload = request.payload
        what = f"no answer from {payload.person} to {payload.ability}"
        if request.sent_at is None:
            if now - request.made_at < self.discovery_timeout_s:
                return None
            return _unavailable(
                f"{what}: nobody subscribes to {self.request_topic} after "
                f"{self.discovery_timeout_s:g} s; {PEOPLE_SIDE_HINT}"
            )
        if now - request.sent_at < self.answer_timeout_s:
            return None
        return _unavailable(
            f"{what}: nothing on {self.answer_topic} within {self.answer_timeout_s:g} s; the "
            "request was withdrawn"
        )


def _unavailable(message: str) -> Feedback:
    return Feedback(ok=False, code="person_unavailable", message=message)


def _resolve(request: _Request, feedback: Feedback) -> None:
    """Resolve ``request``'s future unless it was cancelled meanwhile."""
    try:
        request.future.set_result(feedback)
    except InvalidStateError:
        log.debug("request %s was withdrawn before its answer", request.payload.request_id)
