"""RosPeopleChannel over real DDS: answers, refusals, silence, withdrawal, bad messages."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import pytest

pytest.importorskip("rclpy")

from skills.commands import Feedback
from skills.human_channel import HumanChannel, HumanRequest
from skills.ros.people import RosPeopleChannel
from skills.ros.protocol import PersonAnswer
from tests.ros.people_topics import PeopleEnd

RESULT_TIMEOUT_S = 15.0
PRINT = HumanRequest(ability="print", description="the agenda for 10:00")


@pytest.fixture
def side(ros: Any, until: Callable[..., Any]) -> PeopleEnd:
    """A hand-made people side on the root namespace (made before the channel)."""
    return PeopleEnd(ros, until)


@pytest.fixture
def channel(ros: Any) -> Iterator[Callable[..., RosPeopleChannel]]:
    """Make the host's channel on its own participant (root namespace)."""
    made: list[RosPeopleChannel] = []

    def connect(**options: Any) -> RosPeopleChannel:
        node = ros.node("cogtree", spin=False)
        made.append(RosPeopleChannel(node, **options))
        ros.spin(node)
        return made[-1]

    yield connect
    for each in made:
        each.close()


def result(future: Future[Feedback]) -> Feedback:
    return future.result(timeout=RESULT_TIMEOUT_S)


def test_the_channel_is_a_human_channel(channel: Callable[..., RosPeopleChannel]) -> None:
    people = channel()
    assert isinstance(people, HumanChannel)
    assert people.request_topic == "/people/request"
    assert people.answer_topic == "/people/answer"


def test_a_done_answer_resolves_the_request(
    side: PeopleEnd, channel: Callable[..., RosPeopleChannel]
) -> None:
    people = channel()
    future = people.delegate("priya", PRINT)
    request = side.first_request()
    assert (request.person, request.ability, request.description) == (
        "priya",
        "print",
        "the agenda for 10:00",
    )
    side.answer(PersonAnswer(request_id=request.request_id, ok=True, message="printed"))
    assert result(future) == Feedback(ok=True, message="printed")
    assert people.pending == 0


def test_a_refusal_keeps_its_code_and_reason(
    side: PeopleEnd, channel: Callable[..., RosPeopleChannel]
) -> None:
    future = channel().delegate("priya", PRINT)
    request = side.first_request()
    side.answer('{"request_id": "not json at all"')  # malformed: dropped, nothing breaks
    side.answer(PersonAnswer(request_id="0" * 32, ok=True))  # someone else's: ignored
    side.answer(
        PersonAnswer(
            request_id=request.request_id,
            ok=False,
            code="person_refused",
            message="priya refuses to print",
        )
    )
    assert result(future) == Feedback(
        ok=False, code="person_refused", message="priya refuses to print"
    )


def test_no_people_side_fails_naming_the_request_topic(
    channel: Callable[..., RosPeopleChannel],
) -> None:
    feedback = result(channel(discovery_timeout_s=0.5).delegate("priya", PRINT))
    assert not feedback.ok and feedback.code == "person_unavailable"
    assert "nobody subscribes to /people/request after 0.5 s" in feedback.message
    assert "cogtree sim-ros" in feedback.message


def test_a_silent_person_times_out_naming_the_answer_topic_and_is_withdrawn(
    side: PeopleEnd, channel: Callable[..., RosPeopleChannel], until: Callable[..., Any]
) -> None:
    people = channel(answer_timeout_s=0.5)
    feedback = result(people.delegate("priya", PRINT))
    assert not feedback.ok and feedback.code == "person_unavailable"
    assert "no answer from priya to print: nothing on /people/answer within 0.5 s" in (
        feedback.message
    )
    until(lambda: side.cancels, what="the withdrawal")
    assert side.cancels[0].request_id == side.requests[0].request_id


def test_cancel_withdraws_the_request_and_ignores_a_late_answer(
    side: PeopleEnd, channel: Callable[..., RosPeopleChannel], until: Callable[..., Any]
) -> None:
    people = channel()
    future = people.delegate("priya", PRINT)
    request = side.first_request()
    assert people.cancel(future)
    assert future.cancelled() and people.pending == 0
    until(lambda: side.cancels, what="the withdrawal")
    assert side.cancels[0].request_id == request.request_id
    side.answer(PersonAnswer(request_id=request.request_id, ok=True))
    assert not people.cancel(future)  # no longer pending
    assert future.cancelled()  # the late answer changed nothing


def test_close_fails_what_is_pending(channel: Callable[..., RosPeopleChannel]) -> None:
    people = channel(discovery_timeout_s=60.0)
    future = people.delegate("priya", PRINT)
    people.close()
    feedback = result(future)
    assert not feedback.ok and "closed" in feedback.message
    assert "closed" in (result(people.delegate("priya", PRINT)).message)


def test_the_simulated_people_answer_through_the_robot_node(
    robot_side: Callable[..., Any], channel: Callable[..., RosPeopleChannel]
) -> None:
    robot_side("print_agenda")
    people = channel()
    done = result(people.delegate("priya", PRINT))
    refused = result(people.delegate("priya", HumanRequest(ability="juggle")))
    assert done.ok, done.message
    assert "priya" in done.message
    assert not refused.ok and refused.code == "person_refused"
    assert "priya cannot juggle" in refused.message
