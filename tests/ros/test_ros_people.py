"""RosPeopleChannel over real DDS: answers, refusals, silence, withdrawal, bad messages."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree_interfaces.action import DelegateTask

from cogtree.skills.action_model.commands import Feedback
from cogtree.skills.execution.human_channel import HumanChannel, HumanRequest
from cogtree.skills.ros.people import RosPeopleChannel
from tests.ros.lost_acceptance import ForgetfulEnd
from tests.ros.people_action import Answer, PeopleEnd

RESULT_TIMEOUT_S = 15.0
PRINT = HumanRequest(ability="print", description="the agenda for 10:00")


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
    assert people.action == "/people/delegate"


def test_a_done_task_resolves_the_request(
    ros: Any, channel: Callable[..., RosPeopleChannel]
) -> None:
    side = PeopleEnd(ros, lambda goal: Answer(done=True, message="printed"))
    people = channel()
    assert result(people.delegate("priya", PRINT)) == Feedback(ok=True, message="printed")
    request = side.requests[0]
    assert (request.person, request.ability, request.description) == (
        "priya",
        "print",
        "the agenda for 10:00",
    )
    assert people.pending == 0


def test_a_refusal_keeps_its_code_and_reason(
    ros: Any, channel: Callable[..., RosPeopleChannel]
) -> None:
    refuse = Answer(done=False, code="person_refused", message="priya refuses to print")
    PeopleEnd(ros, lambda goal: refuse)
    assert result(channel().delegate("priya", PRINT)) == Feedback(
        ok=False, code="person_refused", message="priya refuses to print"
    )


def test_a_failure_code_outside_the_vocabulary_fails_the_request_naming_it(
    ros: Any, channel: Callable[..., RosPeopleChannel]
) -> None:
    PeopleEnd(ros, lambda goal: Answer(done=False, code="exploded"))
    feedback = result(channel().delegate("priya", PRINT))
    assert not feedback.ok and feedback.code == "person_unavailable"
    assert "failure code 'exploded' is not in cogtree's vocabulary" in feedback.message


def test_no_people_side_fails_naming_the_action(
    channel: Callable[..., RosPeopleChannel],
) -> None:
    feedback = result(channel(discovery_timeout_s=0.5).delegate("priya", PRINT))
    assert not feedback.ok and feedback.code == "person_unavailable"
    assert "no server of /people/delegate after 0.5 s" in feedback.message
    assert "cogtree sim-ros" in feedback.message


def test_a_silent_person_times_out_and_the_request_is_withdrawn(
    ros: Any, channel: Callable[..., RosPeopleChannel], until: Callable[..., Any]
) -> None:
    side = PeopleEnd(ros, lambda goal: None)
    feedback = result(channel(answer_timeout_s=0.5).delegate("priya", PRINT))
    assert not feedback.ok and feedback.code == "person_unavailable"
    assert "no answer from priya to print: it did not end within 0.5 s" in feedback.message
    until(lambda: side.cancels >= 1, what="the withdrawal")


def test_cancel_withdraws_the_request(
    ros: Any, channel: Callable[..., RosPeopleChannel], until: Callable[..., Any]
) -> None:
    side = PeopleEnd(ros, lambda goal: None)
    people = channel()
    future = people.delegate("priya", PRINT)
    until(lambda: side.requests, what="the request")
    assert people.cancel(future)
    assert future.cancelled() and people.pending == 0
    until(lambda: side.cancels >= 1, what="the cancel request")
    assert not people.cancel(future)  # no longer pending


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


def test_a_request_whose_acceptance_is_lost_times_out_and_is_withdrawn_by_its_id(
    ros: Any, channel: Callable[..., RosPeopleChannel], until: Callable[..., Any]
) -> None:
    side = ForgetfulEnd(ros, DelegateTask, "/people/delegate")
    feedback = result(channel(discovery_timeout_s=1.0).delegate("priya", PRINT))
    assert not feedback.ok and feedback.code == "person_unavailable"
    assert "nobody accepted it on /people/delegate after 1 s (withdrawn in case" in feedback.message
    [goal] = side.started_ids()  # the people side was working on it
    until(lambda: side.stopped == [goal], what="the people side to drop the request")
    assert set(side.cancels) == {goal}


def test_withdrawing_a_request_whose_acceptance_is_lost_cancels_it_on_the_people_side(
    ros: Any, channel: Callable[..., RosPeopleChannel], until: Callable[..., Any]
) -> None:
    side = ForgetfulEnd(ros, DelegateTask, "/people/delegate")
    people = channel(discovery_timeout_s=60.0)
    future = people.delegate("priya", PRINT)
    [goal] = until(side.started_ids, what="the people side to take the request")
    assert people.cancel(future)
    until(lambda: side.stopped == [goal], what="the people side to drop the request")
