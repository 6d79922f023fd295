"""TickGate: a timer thread paces the ticks of a tree thread, one whole tick per grant."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from cogtree.trees.ros.tick_gate import TickGate, TickGateClosed, TurnInterrupted

WAIT_S = 10.0


@pytest.fixture
def gate() -> Iterator[TickGate]:
    gate = TickGate()
    yield gate
    gate.close()


def wait_for_state(gate: TickGate, state: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while gate.state != state:
        assert time.monotonic() < deadline, f"the gate never reached {state}"
        time.sleep(0.001)


def test_a_grant_without_a_waiting_tree_returns_at_once(gate: TickGate) -> None:
    assert gate.grant(timeout_s=WAIT_S) == "not_waiting"
    assert gate.state == "idle"


def test_each_grant_lets_exactly_one_whole_tick_run(gate: TickGate) -> None:
    events: list[str] = []
    ticking = threading.Lock()

    def tree() -> None:
        for number in range(3):
            gate.wait()
            with ticking:
                events.append(f"tick {number}")
            gate.done()

    thread = threading.Thread(target=tree, daemon=True)
    thread.start()
    for number in range(3):
        wait_for_state(gate, "waiting")
        assert gate.grant(timeout_s=WAIT_S) == "ticked"
        events.append(f"granted {number}")  # the tick is over when grant returns
    thread.join(WAIT_S)
    assert events == [
        "tick 0",
        "granted 0",
        "tick 1",
        "granted 1",
        "tick 2",
        "granted 2",
    ]


def test_a_tick_that_overruns_lets_the_timer_go_on(gate: TickGate) -> None:
    release = threading.Event()

    def tree() -> None:
        gate.wait()
        release.wait(WAIT_S)
        gate.done()

    thread = threading.Thread(target=tree, daemon=True)
    thread.start()
    wait_for_state(gate, "waiting")
    assert gate.grant(timeout_s=0.05) == "overran"
    assert gate.state == "ticking"
    assert gate.grant(timeout_s=WAIT_S) == "not_waiting"  # no second tick meanwhile
    release.set()
    thread.join(WAIT_S)
    assert gate.state == "idle"


def test_close_wakes_a_waiting_tree_with_an_error(gate: TickGate) -> None:
    raised: list[BaseException] = []

    def tree() -> None:
        try:
            gate.wait()
        except TickGateClosed as error:
            raised.append(error)

    thread = threading.Thread(target=tree, daemon=True)
    thread.start()
    wait_for_state(gate, "waiting")
    gate.close()
    thread.join(WAIT_S)
    assert raised and "shutting down" in str(raised[0])
    assert gate.grant(timeout_s=WAIT_S) == "not_waiting"
    with pytest.raises(TickGateClosed):
        gate.wait()


def test_an_interrupt_ends_the_waiting_turn_once_and_a_new_turn_clears_a_late_one(
    gate: TickGate,
) -> None:
    raised: list[BaseException] = []

    def tree() -> None:
        try:
            gate.wait()
        except TurnInterrupted as error:
            raised.append(error)

    thread = threading.Thread(target=tree)
    thread.start()
    wait_for_state(gate, "waiting")
    gate.interrupt()
    thread.join(timeout=WAIT_S)
    assert len(raised) == 1 and gate.state == "idle"
    gate.interrupt()  # too late: that turn is over
    gate.clear_interrupt()  # the next turn starts

    def one_tick() -> None:
        gate.wait()
        gate.done()

    thread = threading.Thread(target=one_tick)
    thread.start()
    wait_for_state(gate, "waiting")
    assert gate.grant(WAIT_S) == "ticked"  # the late interrupt did not end this turn
    thread.join(timeout=WAIT_S)
    assert not thread.is_alive() and len(raised) == 1
