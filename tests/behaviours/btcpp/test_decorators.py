"""BT.CPP v4's decorators and leaves, tick by tick (timing ones on a hand-set clock)."""

from __future__ import annotations

import py_trees
import pytest

from cogtree.behaviours.btcpp.controls import Fallback, ReactiveSequence
from cogtree.behaviours.btcpp.decorators import (
    ForceFailure,
    ForceSuccess,
    KeepRunningUntilFailure,
    Repeat,
    RetryUntilSuccessful,
    RunOnce,
)
from cogtree.behaviours.btcpp.leaves import AlwaysFailure, AlwaysSuccess
from cogtree.behaviours.btcpp.timing import Delay, Sleep, Timeout
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.handles import Handles
from cogtree.trees.testing import BlackboardView
from tests.behaviours.btcpp.kit import F, HandClock, Harness, R, S, child


def test_inverter_force_success_and_force_failure(harness: Harness) -> None:
    root = py_trees.composites.Parallel(
        "All",
        policy=py_trees.common.ParallelPolicy.SuccessOnAll(synchronise=False),
        children=[
            py_trees.decorators.Inverter("Inv", child("A", S, R)),
            ForceSuccess(child("B", F, R), name="FS"),
            ForceFailure(child("C", S, R), name="FF"),
        ],
    )
    h = harness(root)
    h.tick(2).expect("""
        tick  Inv  A  FS  B  FF  C
        1     F    S  S   F  F   S
        2     R    R  R   R  R   R
    """)


def test_always_success_and_always_failure(harness: Harness) -> None:
    h = harness(Fallback([AlwaysFailure(), AlwaysSuccess()], name="Fb"))
    h.tick().expect("""
        tick  Fb  AlwaysFailure  AlwaysSuccess
        1     S   F              S
    """)


def test_repeat_runs_finished_cycles_within_a_tick(harness: Harness) -> None:
    counter = child("Step", S, S, R, S, S, F)
    h = harness(Repeat(counter, num_cycles=3, name="Rep"))
    h.tick(3).expect("""
        tick  Rep  Step
        1     R    R
        2     S    S
        3     F    F
    """)


def test_repeat_without_end_hands_back_each_round(harness: Harness) -> None:
    h = harness(Repeat(child("Step", S, S, F), num_cycles=-1, name="Rep"))
    h.tick(3).expect("""
        tick  Rep  Step
        1     R    S
        2     R    S
        3     F    F
    """)


def test_retry_until_successful_retries_within_a_tick(harness: Harness) -> None:
    h = harness(RetryUntilSuccessful(child("Try", F, F, S, F, F, F), 3, name="Retry"))
    h.tick(2).expect("""
        tick  Retry  Try
        1     S      S
        2     F      F
    """)


def test_retry_waits_for_a_running_attempt(harness: Harness) -> None:
    h = harness(RetryUntilSuccessful(child("Try", F, R, S), 3, name="Retry"))
    h.tick(2).expect("""
        tick  Retry  Try
        1     R      R
        2     S      S
    """)


def test_keep_running_until_failure(harness: Harness) -> None:
    h = harness(KeepRunningUntilFailure(child("Loop", S, R, S, F), name="Keep"))
    h.tick(4).expect("""
        tick  Keep  Loop
        1     R     S
        2     R     R
        3     R     S
        4     F     F
    """)


@pytest.mark.parametrize(("then_skip", "later"), [(True, "S"), (False, "F")])
def test_run_once_never_ticks_the_child_again(
    harness: Harness, then_skip: bool, later: str
) -> None:
    # the child fails once, then would succeed: after its one run it is not ticked again
    h = harness(RunOnce(child("Once", R, F, then=S), name="Run", then_skip=then_skip))
    h.tick(4).expect(f"""
        tick  Run      Once
        1     R        R
        2     F        F
        3     {later}  F
        4     {later}  F
    """)


def test_run_once_skipped_under_a_fallback_lets_the_next_child_run(harness: Harness) -> None:
    root = Fallback([RunOnce(child("Once", F), name="Run"), child("Next", S)], name="Fb")
    h = harness(root)
    h.tick(2).expect("""
        tick  Fb  Run  Once  Next
        1     S   F    F     S
        2     S   F    F     S
    """)


def test_delay_waits_on_the_clock_without_ticking_the_child(harness: Harness) -> None:
    clock = HandClock()
    h = harness(Delay(child("Act", S), delay_msec=100, name="Wait"), clock=clock)
    for now in (0.0, 0.05, 0.1):
        clock.now = now
        h.tick()
    h.trace.expect("""
        tick  Wait  Act
        1     R     -
        2     R     -
        3     S     S
    """)


def test_timeout_halts_the_child_at_the_deadline(harness: Harness) -> None:
    clock = HandClock()
    h = harness(Timeout(child("Slow", R, then=R), msec=500, name="Limit"), clock=clock)
    for now in (0.0, 0.499, 0.5, 10.0):
        clock.now = now
        h.tick()
    h.trace.expect("""
        tick  Limit  Slow
        1     R      R
        2     R      R
        3     F      -
        4     R      R
    """)


def test_timeout_passes_on_a_result_in_time(harness: Harness) -> None:
    clock = HandClock()
    h = harness(Timeout(child("Quick", R, S), msec=500, name="Limit"), clock=clock)
    h.tick()
    clock.now = 0.2
    h.tick().expect("""
        tick  Limit  Quick
        1     R      R
        2     S      S
    """)


def test_sleep_counts_the_clock_and_a_reactive_parent_can_halt_it(harness: Harness) -> None:
    clock = HandClock()
    root = ReactiveSequence([child("Ok", S, S, F, S, S), Sleep(msec=1000, name="Nap")], name="Rs")
    h = harness(root, clock=clock)
    for now in (0.0, 0.5, 0.6, 1.0, 2.0):
        clock.now = now
        h.tick()
    h.trace.expect("""
        tick  Rs  Ok  Nap
        1     R   S   R
        2     R   S   R
        3     F   F   -
        4     R   S   R
        5     S   S   S
    """)


def test_timing_nodes_refuse_negative_times_and_a_clock_that_is_not_callable(
    blackboard: BlackboardView,
) -> None:
    with pytest.raises(ValueError, match="msec is a number of milliseconds"):
        Sleep(msec=-1)
    with pytest.raises(ValueError, match="num_attempts is a count"):
        RetryUntilSuccessful(child("X", S), num_attempts=-2)
    with pytest.raises(Exception, match="handle `clock` must be a callable"):
        Sleep(msec=1).setup(clock="noon")


def test_timing_nodes_count_the_simulators_clock_in_a_scenario_run(harness: Harness) -> None:
    """With the simulator's handles, a Sleep of 3 s ends after 3 simulated seconds of steps."""
    with SimExecutor.from_scenario(load_scenario("print_agenda")) as sim:
        handles = Handles()
        handles.attach_simulator(sim)
        seconds = sim.world.spec.clock.seconds_per_tick
        h = harness(Sleep(msec=int(3000 * seconds), name="Nap"), **handles.as_kwargs())
        for _ in range(4):
            h.tick()
            sim.step()
        h.trace.expect("""
            tick  Nap
            1     R
            2     R
            3     R
            4     S
        """)
