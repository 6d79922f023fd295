"""DelegateToHuman against the simulated people: done, refused, unavailable, timeout, cancel."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.dialogue.delegate import DelegateToHuman
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.action_model.commands import Command, Feedback
from cogtree.skills.execution.human_channel import HumanRequest
from cogtree.trees.testing import BlackboardView, TreeHarness


@pytest.fixture
def office() -> Iterator[SimExecutor]:
    running = SimExecutor.from_scenario(load_scenario("print_agenda"))
    yield running
    running.close()


def sim_clock(sim: SimExecutor) -> Any:
    seconds_per_tick = sim.world.spec.clock.seconds_per_tick
    return lambda: sim.world.tick * seconds_per_tick


def harness(node: DelegateToHuman, sim: SimExecutor, make_llm: Any, **handles: Any) -> TreeHarness:
    return TreeHarness(
        node,
        llm=make_llm().client,
        handles={"people": sim.people, "clock": sim_clock(sim), **handles},
    )


def run(h: TreeHarness, sim: SimExecutor, max_ticks: int = 30) -> str:
    """Simulator step then tree tick until the node ends; the statuses as letters."""
    letters = ""
    for _ in range(max_ticks):
        sim.step()
        h.tick()
        letters += h.root_status[0]
        if h.root_status != "RUNNING":
            break
    return letters


def test_the_person_does_it_and_the_node_succeeds(
    blackboard: BlackboardView, office: SimExecutor, make_llm: Any
) -> None:
    node = DelegateToHuman("AskPriya", "priya", "print", "the agenda for 10:00")
    h = harness(node, office, make_llm)
    assert run(h, office) == "RRRRS"  # printing takes Priya 4 ticks after the request
    assert node.feedback_message == "priya did print: the agenda for 10:00"
    assert node.outcome is not None and node.outcome.status == "done"
    assert office.world.did("priya", "print")


def test_waiting_says_who_and_for_how_long(
    blackboard: BlackboardView, office: SimExecutor, make_llm: Any
) -> None:
    node = DelegateToHuman("AskPriya", "priya", "print", timeout_s=100)
    h = harness(node, office, make_llm)
    office.step()
    h.tick()
    office.step()
    h.tick()
    assert node.status == Status.RUNNING
    assert node.feedback_message == "waiting for priya to print (1 s of 100 s)"


def test_a_refusal_fails_with_the_reason(blackboard: BlackboardView, make_llm: Any) -> None:
    with SimExecutor.from_scenario(load_scenario("prepare_meeting_room")) as sim:
        node = DelegateToHuman("AskPriya", "priya", "print")
        assert run(harness(node, sim, make_llm), sim) == "F"
    assert node.feedback_message == "priya did not print: priya refuses to print"
    assert node.outcome is not None and node.outcome.code == "person_refused"


def test_a_busy_signer_fails_as_unavailable(blackboard: BlackboardView, make_llm: Any) -> None:
    # In signer_busy, Dr Weber takes a call as the robot walks in.
    with SimExecutor.from_scenario(load_scenario("signer_busy")) as sim:
        sim.run(
            Command(robot="robot1", skill="GOTO", name="navigate", args={"target": "weber_office"})
        )
        node = DelegateToHuman("AskWeber", "weber", "sign")
        letters = run(harness(node, sim, make_llm), sim)
    assert letters == "F"
    assert node.outcome is not None and node.outcome.code == "person_unavailable"
    assert node.feedback_message == "weber did not sign: weber is busy"


def test_an_ability_the_person_lacks_is_refused(
    blackboard: BlackboardView, office: SimExecutor, make_llm: Any
) -> None:
    node = DelegateToHuman("AskTom", "tom", "print")
    assert run(harness(node, office, make_llm), office) == "F"
    assert node.feedback_message == "tom did not print: tom cannot print (abilities: none)"


def test_a_timeout_withdraws_the_request_and_fails(
    blackboard: BlackboardView, office: SimExecutor, make_llm: Any
) -> None:
    node = DelegateToHuman("AskPriya", "priya", "print", timeout_s=2)
    assert run(harness(node, office, make_llm), office) == "RRF"
    assert node.feedback_message == "priya did not print: priya had not done print after 2 s"
    assert node.outcome is not None and node.outcome.code == "timeout"
    assert office.people.working == []
    assert office.world.state.people["priya"].busy_until is None
    for _ in range(5):
        office.step()
    assert not office.world.did("priya", "print")


def test_interrupting_withdraws_the_request(
    blackboard: BlackboardView, office: SimExecutor, make_llm: Any
) -> None:
    node = DelegateToHuman("AskPriya", "priya", "print")
    h = harness(node, office, make_llm)
    office.step()
    h.tick()
    assert office.people.working == [("priya", "print", 5)]
    node.stop(Status.INVALID)
    assert office.people.working == []
    assert node.feedback_message == "withdrew the request to priya"


def test_the_request_can_be_sent_again_after_a_failure(
    blackboard: BlackboardView, office: SimExecutor, make_llm: Any
) -> None:
    office.world.state.people["priya"].busy_until = office.world.tick + 3
    node = DelegateToHuman("AskPriya", "priya", "print")
    h = harness(node, office, make_llm)
    assert run(h, office) == "F"
    for _ in range(3):
        office.step()
    assert run(h, office) == "RRRRS"


class BrokenChannel:
    def delegate(self, person: str, task: HumanRequest) -> Future[Feedback]:
        raise ConnectionError("the pager is offline")

    def cancel(self, future: Future[Feedback]) -> bool:
        return False


def test_a_channel_that_raises_fails_the_node_instead_of_the_tree(
    blackboard: BlackboardView, make_llm: Any
) -> None:
    node = DelegateToHuman("AskPriya", "priya", "print")
    h = TreeHarness(node, llm=make_llm().client, handles={"people": BrokenChannel()})
    h.tick()
    assert node.status == Status.FAILURE
    assert node.feedback_message == "priya did not print: could not ask priya: the pager is offline"


def test_missing_or_wrong_handles_name_the_fix(blackboard: BlackboardView, make_llm: Any) -> None:
    with pytest.raises(MissingHandleError, match="needs the `people` handle"):
        TreeHarness(DelegateToHuman("Ask", "priya", "print"), llm=make_llm().client)
    with pytest.raises(MissingHandleError, match="must be a HumanChannel"):
        TreeHarness(
            DelegateToHuman("Ask", "priya", "print"),
            llm=make_llm().client,
            handles={"people": "priya's phone"},
        )
    with pytest.raises(MissingHandleError, match="`clock` must be a callable"):
        TreeHarness(
            DelegateToHuman("Ask", "priya", "print"),
            llm=make_llm().client,
            handles={"people": BrokenChannel(), "clock": 12.0},
        )


@pytest.mark.parametrize(
    ("person", "ability", "timeout_s", "problem"),
    [
        ("", "print", 1.0, "names a person"),
        ("priya", " ", 1.0, "names a person and one of their abilities"),
        ("priya", "print", 0.0, "timeout_s must be a number of seconds > 0"),
    ],
)
def test_bad_construction_is_refused_with_the_reason(
    person: str, ability: str, timeout_s: float, problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        DelegateToHuman("Ask", person, ability, timeout_s=timeout_s)
