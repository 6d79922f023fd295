"""The human channel: the protocol the simulated people satisfy, and the console channel."""

from __future__ import annotations

import io
import threading

import pytest

from cogtree.sim.scenario import load_scenario
from cogtree.skills.execution.human_channel import ConsoleChannel, HumanChannel, HumanRequest

PRINT = HumanRequest(ability="print", description="the agenda")


class HeldInput(io.StringIO):
    """An input stream whose lines arrive only when the test releases them."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.asked = threading.Event()
        self.release = threading.Event()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.asked.set()
        self.release.wait(5.0)
        return super().readline()


class WatchedOutput(io.StringIO):
    """An output stream that signals when the console says a request was withdrawn."""

    def __init__(self) -> None:
        super().__init__()
        self.withdrawn = threading.Event()

    def write(self, text: str) -> int:
        if "withdrawn" in text:
            self.withdrawn.set()
        return super().write(text)


def console(text: str) -> tuple[ConsoleChannel, io.StringIO]:
    output = io.StringIO()
    return ConsoleChannel(input=io.StringIO(text), output=output), output


def test_the_simulated_people_and_the_console_are_human_channels() -> None:
    scenario = load_scenario("print_agenda")
    people = scenario.new_people(scenario.new_world())
    assert isinstance(people, HumanChannel)
    assert isinstance(ConsoleChannel(), HumanChannel)


def test_the_simulated_people_take_a_human_request() -> None:
    scenario = load_scenario("print_agenda")
    world = scenario.new_world()
    people = scenario.new_people(world)
    future = people.delegate("priya", PRINT)
    assert people.working == [("priya", "print", 4)]
    for _ in range(4):
        world.advance(1)
        people.step()
    assert future.result(timeout=0).message == "priya did print: the agenda"


@pytest.mark.parametrize(
    ("answers", "ok", "code"),
    [
        ("yes\n", True, None),
        ("Done\n", True, None),
        ("no\n", False, "person_refused"),
        ("", False, "person_unavailable"),
    ],
    ids=["yes", "done", "no", "no_answer"],
)
def test_the_answer_resolves_the_request(answers: str, ok: bool, code: str | None) -> None:
    channel, output = console(answers)
    feedback = channel.delegate("priya", PRINT).result(timeout=5)
    assert (feedback.ok, feedback.code) == (ok, code)
    assert output.getvalue().startswith("priya, could you print: the agenda? Answer yes")


def test_an_unclear_answer_is_asked_again() -> None:
    channel, output = console("maybe later\nyes\n")
    feedback = channel.delegate("priya", PRINT).result(timeout=5)
    assert feedback.ok and feedback.message == "priya did print"
    assert "Please answer yes (done) or no" in output.getvalue()


def test_requests_are_asked_one_at_a_time() -> None:
    channel, output = console("yes\nno\n")
    first = channel.delegate("priya", PRINT)
    first.result(timeout=5)
    second = channel.delegate("marco", HumanRequest(ability="print"))
    assert not second.result(timeout=5).ok
    assert output.getvalue().count("could you print") == 2
    assert "marco, could you print? " in output.getvalue()


def test_a_request_withdrawn_while_asked_ignores_the_answer() -> None:
    held = HeldInput("yes\n")
    output = WatchedOutput()
    channel = ConsoleChannel(input=held, output=output)
    future = channel.delegate("priya", PRINT)
    assert held.asked.wait(5.0)
    assert channel.cancel(future)
    held.release.set()
    assert future.cancelled()
    assert output.withdrawn.wait(5.0)
    assert output.getvalue().endswith("(the request to priya to print was withdrawn)\n")


def test_a_request_withdrawn_before_it_is_asked_is_never_asked() -> None:
    held = HeldInput("yes\nyes\n")
    output = io.StringIO()
    channel = ConsoleChannel(input=held, output=output)
    first = channel.delegate("priya", PRINT)
    assert held.asked.wait(5.0)
    second = channel.delegate("marco", HumanRequest(ability="print"))
    assert channel.cancel(second)
    held.release.set()
    assert first.result(timeout=5).ok
    third = channel.delegate("tom", HumanRequest(ability="sign"))
    assert third.result(timeout=5).ok
    assert "marco" not in output.getvalue() and "tom, could you sign?" in output.getvalue()


def test_cancelling_a_finished_request_reports_false() -> None:
    channel, _ = console("yes\n")
    future = channel.delegate("priya", PRINT)
    future.result(timeout=5)
    assert not channel.cancel(future)
