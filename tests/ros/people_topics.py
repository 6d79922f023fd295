"""Hand-made ends of the people topics (``NS/people/request``, ``cancel``, ``answer``).

:class:`PeopleEnd` stands where the people are (it hears requests and withdrawals and answers);
:class:`HostEnd` stands where the host is (it asks, withdraws and hears the answers). Each is a
node of its own that subscribes before it spins.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from std_msgs.msg import String

from sim.ros_robot import SimRobotNode
from skills.ros.protocol import (
    PersonAnswer,
    PersonCancel,
    PersonRequest,
    decode,
    encode,
    reliable_qos,
)

Message = TypeVar("Message", bound=BaseModel)


def _record(node: Any, topic: str, model: type[Message]) -> tuple[Any, list[Message]]:
    """Subscribe ``node`` to ``topic``; the subscription and the list its messages go to."""
    heard: list[Message] = []
    subscription = node.create_subscription(
        String, topic, lambda m: heard.append(decode(model, m.data)), reliable_qos()
    )
    return subscription, heard


class PeopleEnd:
    """The people's end under ``namespace``: records requests and withdrawals, answers on demand."""

    def __init__(self, ros: Any, until: Callable[..., Any], namespace: str = "") -> None:
        self.until = until
        node = ros.node(f"people_{uuid.uuid4().hex[:8]}", spin=False)
        self.answers = node.create_publisher(String, f"{namespace}/people/answer", reliable_qos())
        _, self.requests = _record(node, f"{namespace}/people/request", PersonRequest)
        _, self.cancels = _record(node, f"{namespace}/people/cancel", PersonCancel)
        ros.spin(node)

    def first_request(self) -> PersonRequest:
        """The first request heard, once it is there."""
        first: PersonRequest = self.until(
            lambda: self.requests and self.requests[0], what="the request"
        )
        return first

    def answer(self, payload: PersonAnswer | str) -> None:
        """Publish ``payload`` (a string goes as it is) once the host's channel listens."""
        self.until(lambda: self.answers.get_subscription_count() > 0, what="the channel")
        data = payload if isinstance(payload, str) else encode(payload)
        self.answers.publish(String(data=data))


class HostEnd:
    """The host's end of ``robot``'s people topics, once both ends have discovered each other."""

    def __init__(self, ros: Any, until: Callable[..., Any], robot: SimRobotNode) -> None:
        people = f"{robot.people.host_namespace}/people"
        node = ros.node(f"host_{uuid.uuid4().hex[:8]}", spin=False)
        self._requests = node.create_publisher(String, f"{people}/request", reliable_qos())
        self._cancels = node.create_publisher(String, f"{people}/cancel", reliable_qos())
        subscription, self.answers = _record(node, f"{people}/answer", PersonAnswer)
        ros.spin(node)
        until(
            lambda: (
                self._requests.get_subscription_count() > 0
                and self._cancels.get_subscription_count() > 0
                and subscription.get_publisher_count() > 0
                and robot.node.count_subscribers(f"{people}/answer") > 0
            ),
            what="the people side and the host to discover each other",
        )

    def ask(self, request_id: str, person: str, ability: str) -> None:
        """Ask ``person`` to do ``ability`` under ``request_id``."""
        request = PersonRequest(request_id=request_id, person=person, ability=ability)
        self._requests.publish(String(data=encode(request)))

    def withdraw(self, request_id: str) -> None:
        """Withdraw the request ``request_id``."""
        self._cancels.publish(String(data=encode(PersonCancel(request_id=request_id))))

    def answer_to(self, request_id: str) -> PersonAnswer | None:
        """The answer heard to ``request_id``, if any."""
        return next((a for a in self.answers if a.request_id == request_id), None)
