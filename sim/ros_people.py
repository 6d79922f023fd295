"""``SimPeopleBridge``: the simulator's people, answering the host's requests over ROS 2.

The host (``cogtree ros``) asks a person to do one of their abilities by publishing a
:class:`~skills.ros.protocol.PersonRequest` on ``people/request`` under its namespace
(default ``/cogtree``). The bridge delegates it to the simulated :class:`~sim.humans.People`
and publishes a :class:`~skills.ros.protocol.PersonAnswer` on ``people/answer`` when the
person finishes (``ok``) or declines (``person_refused`` / ``person_unavailable``, with the
reason); a refusal is answered at once. A :class:`~skills.ros.protocol.PersonCancel` on
``people/cancel`` withdraws the task; a withdrawn request gets no answer.

People work in simulated time: their tasks advance when the simulator steps (the robot
node's timer does that while anyone is working). Callbacks must not run concurrently with
the simulator's steps: give the bridge the node that steps it (its default callback group is
mutually exclusive).
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import Any

from rclpy.node import Node
from rclpy.subscription import Subscription

from knowledge.closing import Closeable
from sim.humans import DelegatedTask, People
from skills.commands import Feedback
from skills.ros.json_topics import JsonPublisher, subscribe_json
from skills.ros.protocol import (
    DEFAULT_HOST_NAMESPACE,
    PEOPLE_ANSWER_TOPIC,
    PEOPLE_CANCEL_TOPIC,
    PEOPLE_REQUEST_TOPIC,
    REPLY_HOLD_S,
    PersonAnswer,
    PersonCancel,
    PersonRequest,
    reliable_qos,
    topic,
)

log = logging.getLogger(__name__)


class SimPeopleBridge(Closeable):
    """Plays ``people`` on the people topics under ``host_namespace`` (see the module docs)."""

    def __init__(
        self, node: Node, people: People, *, host_namespace: str = DEFAULT_HOST_NAMESPACE
    ) -> None:
        self.node = node
        self.people = people
        self.host_namespace = host_namespace
        self._pending: dict[str, Future[Feedback]] = {}
        qos = reliable_qos()
        self._answers = JsonPublisher(
            node,
            PersonAnswer,
            topic(host_namespace, PEOPLE_ANSWER_TOPIC),
            qos,
            hold_s=REPLY_HOLD_S,
        )
        self._subscriptions: list[Subscription[Any]] = [
            subscribe_json(
                node,
                PersonRequest,
                topic(host_namespace, PEOPLE_REQUEST_TOPIC),
                self._on_request,
                qos,
            ),
            subscribe_json(
                node, PersonCancel, topic(host_namespace, PEOPLE_CANCEL_TOPIC), self._on_cancel, qos
            ),
        ]

    @property
    def pending(self) -> int:
        """Requests a person is still working on."""
        return len(self._pending)

    def _on_request(self, request: PersonRequest) -> None:
        if request.request_id in self._pending:
            log.debug("request %s is already being worked on: ignored", request.request_id)
            return
        task = DelegatedTask(ability=request.ability, description=request.description)
        future = self.people.delegate(request.person, task)
        self._pending[request.request_id] = future
        future.add_done_callback(lambda done: self._answer(request.request_id, done))
        log.debug("asked %s to %s (%s)", request.person, request.ability, request.request_id)

    def _on_cancel(self, cancel: PersonCancel) -> None:
        future = self._pending.pop(cancel.request_id, None)
        if future is None:
            log.debug("cancel of request %s, which is not pending: ignored", cancel.request_id)
            return
        self.people.cancel(future)

    def _answer(self, request_id: str, future: Future[Feedback]) -> None:
        self._pending.pop(request_id, None)
        if future.cancelled():
            return
        feedback = future.result()
        self._answers.publish(
            PersonAnswer(
                request_id=request_id,
                ok=feedback.ok,
                code=feedback.code,
                message=feedback.message,
            )
        )

    def close(self) -> None:
        """Unsubscribe and stop answering (tasks in progress stay in the simulator)."""
        for subscription in self._subscriptions:
            self.node.destroy_subscription(subscription)
        self._subscriptions.clear()
        self._answers.destroy()
