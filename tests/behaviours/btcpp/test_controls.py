"""BT.CPP v4's control nodes, tick by tick: each Expect table is BT.CPP's documented behaviour.

Children are scripted leaves; a child given a status it would return only if ticked again
(``then``) proves a control did not tick it.
"""

from __future__ import annotations

from typing import Any

import py_trees
import pytest

from cogtree.behaviours.btcpp.controls import (
    Fallback,
    IfThenElse,
    Parallel,
    ParallelAll,
    ReactiveFallback,
    ReactiveSequence,
    SequenceWithMemory,
    Switch2,
    Switch3,
    WhileDoElse,
)
from cogtree.trees.testing import BlackboardView
from tests.behaviours.btcpp.kit import F, Harness, R, S, child


def test_sequence_resumes_the_running_child_and_restarts_after_a_failure(harness: Harness) -> None:
    root = py_trees.composites.Sequence(
        "Seq", memory=True, children=[child("A", S, F, then=S), child("B", R, F, S)]
    )
    h = harness(root)
    h.tick(4).expect("""
        tick  Seq  A  B
        1     R    S  R
        2     F    S  F
        3     F    F  -
        4     S    S  S
    """)


def test_reactive_sequence_reticks_earlier_children_and_halts_the_running_one(
    harness: Harness,
) -> None:
    root = ReactiveSequence([child("Cond", S, S, F), child("Act", R, then=R)], name="Seq")
    h = harness(root)
    h.tick(3).expect("""
        tick  Seq  Cond  Act
        1     R    S     R
        2     R    S     R
        3     F    F     -
    """)


def test_sequence_with_memory_does_not_restart_after_a_failure(harness: Harness) -> None:
    # A would fail if ticked again: the second tick resumes at B, the one that failed
    root = SequenceWithMemory([child("A", S, then=F), child("B", F, S), child("C", S)], name="Seq")
    h = harness(root)
    h.tick(2).expect("""
        tick  Seq  A  B  C
        1     F    S  F  -
        2     S    S  S  S
    """)


def test_fallback_resumes_the_running_child(harness: Harness) -> None:
    root = Fallback([child("A", F, then=S), child("B", R, S)], name="Fb")
    h = harness(root)
    h.tick(2).expect("""
        tick  Fb  A  B
        1     R   F  R
        2     S   -  S
    """)  # A is not ticked again (it would succeed); py_trees clears its status


def test_reactive_fallback_reticks_earlier_children_and_halts_the_running_one(
    harness: Harness,
) -> None:
    root = ReactiveFallback([child("A", F, S), child("B", R, then=R)], name="Fb")
    h = harness(root)
    h.tick(2).expect("""
        tick  Fb  A  B
        1     R   F  R
        2     S   S  -
    """)


def test_parallel_waits_for_all_and_does_not_tick_a_finished_child_again(
    harness: Harness,
) -> None:
    root = Parallel([child("A", S, then=F), child("B", R, S)], name="Par")
    h = harness(root)
    h.tick(2).expect("""
        tick  Par  A  B
        1     R    S  R
        2     S    S  S
    """)


def test_parallel_success_count_halts_the_others(harness: Harness) -> None:
    root = Parallel([child("A", R, then=R), child("B", R, S)], name="Par", success_count=1)
    h = harness(root)
    h.tick(2).expect("""
        tick  Par  A  B
        1     R    R  R
        2     S    -  S
    """)


def test_parallel_fails_at_failure_count(harness: Harness) -> None:
    root = Parallel(
        [child("A", R, F), child("B", R, then=R), child("C", R, then=R)],
        name="Par",
        success_count=2,
        failure_count=1,
    )
    h = harness(root)
    h.tick(2).expect("""
        tick  Par  A  B  C
        1     R    R  R  R
        2     F    F  -  -
    """)


def test_parallel_refuses_a_threshold_above_its_children() -> None:
    with pytest.raises(ValueError, match="success_count=3 is more than its 2 children"):
        Parallel([child("A", S), child("B", S)], success_count=3)


@pytest.mark.parametrize(("max_failures", "outcome"), [(1, "F"), (2, "S")])
def test_parallel_all_finishes_every_child_then_counts_failures(
    harness: Harness, max_failures: int, outcome: str
) -> None:
    root = ParallelAll(
        [child("A", F, then=S), child("B", R, S)], name="Par", max_failures=max_failures
    )
    h = harness(root)
    h.tick(2).expect(f"""
        tick  Par  A  B
        1     R    F  R
        2     {outcome}    F  S
    """)


def test_if_then_else_checks_the_condition_once_per_run(harness: Harness) -> None:
    root = IfThenElse([child("If", S, then=F), child("Then", R, S), child("Else", S)], name="Ite")
    h = harness(root)
    h.tick(2).expect("""
        tick  Ite  If  Then  Else
        1     R    S   R     -
        2     S    S   S     -
    """)


def test_if_then_else_takes_the_else_branch_or_fails_without_one(harness: Harness) -> None:
    h = harness(IfThenElse([child("If", F), child("Then", S), child("Else", S)], name="Ite"))
    h.tick().expect("""
        tick  Ite  If  Then  Else
        1     S    F   -     S
    """)
    bare = harness(IfThenElse([child("If2", F), child("Then2", S)], name="Ite2"))
    bare.tick().expect("""
        tick  Ite2  If2  Then2
        1     F     F    -
    """)
    with pytest.raises(ValueError, match="takes 2 or 3 children"):
        IfThenElse([child("Only", S)])


def test_while_do_else_halts_the_branch_when_the_condition_changes(harness: Harness) -> None:
    root = WhileDoElse(
        [child("While", S, F, F), child("Do", R, then=R), child("Else", R, S)], name="Wde"
    )
    h = harness(root)
    h.tick(3).expect("""
        tick  Wde  While  Do  Else
        1     R    S      R   -
        2     R    F      -   R
        3     S    F      -   S
    """)


def test_switch_runs_the_matching_case_and_halts_the_old_one(
    harness: Harness, blackboard: BlackboardView
) -> None:
    root = Switch2(
        [child("A", R, then=R), child("B", R, then=R), child("Default", S)],
        variable="/mode",
        case_1="fetch",
        case_2="2",
        name="Sw",
    )
    h = harness(root)
    blackboard.set("/mode", "fetch")
    h.tick()
    blackboard.set("/mode", 2)  # a number matches the case "2"
    h.tick()
    blackboard.set("/mode", "other")
    h.tick().expect("""
        tick  Sw  A  B  Default
        1     R   R  -  -
        2     R   -  R  -
        3     S   -  -  S
    """)


def test_switch_matches_an_enum_value_and_takes_the_default_when_unset(
    harness: Harness, blackboard: BlackboardView
) -> None:
    root = Switch3(
        [child("P", S), child("C", S), child("X", S), child("Otherwise", F)],
        variable="/turn/control",
        case_1="Proceed",
        case_2="Clarify",
        case_3="Reject",
        name="Sw",
    )
    h = harness(root)
    h.tick()
    blackboard.set("/turn/control", "Clarify")
    h.tick().expect("""
        tick  Sw  P  C  X  Otherwise
        1     F   -  -  -  F
        2     S   -  S  -  F
    """)


def test_a_switch_needs_a_child_per_case_and_a_default(blackboard: Any) -> None:
    with pytest.raises(ValueError, match="takes 3 children"):
        Switch2([child("A", S)], variable="/mode", case_1="a", case_2="b")
