from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.planning.decomposition import SkillDecomposer
from cogtree.skills.planning.htn import GLOBAL_LOG, HtnPlanner
from cogtree.skills.planning.tasks import TaskPlanner, task_call

MakeBelief = Callable[..., Belief]


def _mark(state: Any, label: str) -> Any:
    state.marks = (*state.marks, label)
    return state


def _refuse(state: Any, label: str) -> Any:
    return False


def test_the_planner_backtracks_to_the_next_method_when_a_branch_fails() -> None:
    def through_refusal(state: Any) -> list[tuple[str, ...]]:
        return [("mark", "first"), ("refuse", "x")]

    def plain(state: Any) -> list[tuple[str, ...]]:
        return [("mark", "second")]

    planner = HtnPlanner(
        "test-backtracking",
        {"mark": _mark, "refuse": _refuse},
        {"job": [through_refusal, plain]},
    )
    assert planner.plan({"marks": ()}, [("job",)]) == [("mark", "second")]
    assert planner.plan({"marks": ()}, [("refuse", "x")]) is None


def test_a_task_nobody_declared_is_a_domain_bug_and_raises() -> None:
    def broken(state: Any) -> list[tuple[str, ...]]:
        return [("no_such_step",)]

    planner = HtnPlanner("test-broken", {"mark": _mark}, {"job": [broken]})
    with pytest.raises(Exception, match="no_such_step"):
        planner.plan({"marks": ()}, [("job",)])


def test_a_name_cannot_be_both_action_and_task() -> None:
    with pytest.raises(ValueError, match="mark cannot be both action and task"):
        HtnPlanner("test-overlap", {"mark": _mark}, {"mark": []})


def test_two_threads_planning_at_once_do_not_interleave_or_share_a_domain() -> None:
    # Thread A's action waits (bounded) for thread B to start planning. With the lock, B
    # cannot start until A's planning call is over, so the wait runs out and the calls stay
    # apart. Without it, B would run inside A's search and set gtpyhop's current domain to
    # its own, so A's remaining steps would be looked up in B's domain.
    events: list[str] = []
    a_inside, b_planning = threading.Event(), threading.Event()

    def a_step(state: Any, label: str) -> Any:
        events.append("A starts")
        a_inside.set()
        b_planning.wait(timeout=0.5)
        events.append("A ends")
        return _mark(state, label)

    def b_step(state: Any, label: str) -> Any:
        b_planning.set()
        events.append("B")
        return _mark(state, label)

    def a_job(state: Any) -> list[tuple[str, ...]]:
        return [("step_a", "a1"), ("finish", "a2")]

    def b_job(state: Any) -> list[tuple[str, ...]]:
        return [("step_b", "b1"), ("finish", "b2")]

    planner_a = HtnPlanner("test-lock-a", {"step_a": a_step, "finish": _mark}, {"job": [a_job]})
    planner_b = HtnPlanner("test-lock-b", {"step_b": b_step, "finish": _mark}, {"job": [b_job]})
    plans: dict[str, Any] = {}

    def plan_b() -> None:
        a_inside.wait(timeout=5)
        plans["b"] = planner_b.plan({"marks": ()}, [("job",)])

    thread_b = threading.Thread(target=plan_b)
    thread_b.start()
    plans["a"] = planner_a.plan({"marks": ()}, [("job",)])
    thread_b.join(timeout=5)
    assert events == ["A starts", "A ends", "B"]
    assert plans == {
        "a": [("step_a", "a1"), ("finish", "a2")],
        "b": [("step_b", "b1"), ("finish", "b2")],
    }


def test_many_threads_get_the_same_plans_as_one_thread(make_belief: MakeBelief) -> None:
    tasks = TaskPlanner()
    skills = SkillDecomposer()
    jobs: list[tuple[str, str, dict[str, str]]] = [
        ("robot1", "fetch", {"object": "juice"}),
        ("onearm", "fetch", {"object": "juice"}),
        ("robot1", "tidy", {"room": "kitchen"}),
        ("onearm", "bring", {"object": "bottle", "to": "fridge"}),
        ("robot1", "bring", {"object": "book", "to": "user"}),
        ("base1", "fetch", {"object": "bottle"}),
    ]
    beliefs = {robot: make_belief(robot) for robot, _, _ in jobs}

    def run(job: tuple[str, str, dict[str, str]]) -> tuple[str, ...]:
        robot, name, args = job
        plan = tasks.plan(task_call(name, args), beliefs[robot])
        pick = skills.decompose(skill_call("PICK", object="bottle", hand="right"), beliefs[robot])
        return (plan.message, *(c.describe() for c in pick.commands))

    expected = [run(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        for _ in range(5):
            assert list(pool.map(run, jobs)) == expected


def test_planning_prints_nothing_and_keeps_no_log(
    belief: Belief, task_planner: TaskPlanner, capsys: pytest.CaptureFixture[str]
) -> None:
    import gtpyhop

    assert task_planner.plan(task_call("tidy", room="kitchen"), belief).ok
    assert capsys.readouterr().out == ""
    assert gtpyhop.get_logger(GLOBAL_LOG).get_logs(gtpyhop.LogLevel.DEBUG) == []


def test_importing_the_skill_library_prints_nothing() -> None:
    # This process already set GTPYHOP_QUIET when it imported skills.planning.htn: leave it out.
    env = {key: value for key, value in os.environ.items() if key != "GTPYHOP_QUIET"}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import cogtree.skills.planning.tasks, cogtree.skills.planning.decomposition",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert result.stdout == ""


def test_building_planners_does_not_grow_gtpyhops_domain_registry() -> None:
    import gtpyhop.main as gtpyhop_main

    before = len(gtpyhop_main._domains)
    planners = [SkillDecomposer() for _ in range(5)]
    assert len(gtpyhop_main._domains) == before
    assert len(planners) == 5
