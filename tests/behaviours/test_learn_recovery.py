"""LearnRecovery: what fixed this turn's failures goes into the experience store, once."""

from __future__ import annotations

from typing import Any

from cogtree.behaviours.actions.planning.learn_recovery import LearnRecovery
from cogtree.knowledge.memory.experience import ExperienceStore, RecoveryStep
from cogtree.skills.planning.plan_model import PlanAttempt
from cogtree.skills.planning.plan_validation import oracle_plan
from cogtree.trees.testing import BlackboardView, TreeHarness

KEYS = {"object": "car_keys", "object_type": "keys", "place_type": "table", "room": "hallway"}


def attempt(number: int, steps: list[dict[str, Any]], **fields: Any) -> PlanAttempt:
    return PlanAttempt(number=number, plan=oracle_plan(steps), **fields)


def failed_pick(number: int, context: dict[str, str], code: str) -> PlanAttempt:
    steps = [{"skill": "PICK", "object": "car_keys", "hand": "right"}]
    return attempt(
        number,
        steps,
        outcome="failed",
        failure=f"PICK(car_keys, right) failed: {code}",
        failed_skill="PICK",
        error_code=code,
        context=context,
        experience=["pick-not-visible-look-where-last-seen"],
    )


SUCCESS = attempt(
    3,
    [
        {"skill": "GOTO", "target": "kitchen"},
        {"skill": "LOOK"},
        {"skill": "PICK", "object": "car_keys", "hand": "right"},
        {"skill": "HANDOVER", "object": "car_keys", "person": "sam", "hand": "right"},
    ],
    outcome="succeeded",
)


def run(store: ExperienceStore, workers: Any, llm: Any) -> TreeHarness:
    handles = {"experience": store, "workers": workers}
    harness = TreeHarness(LearnRecovery(), llm=llm, handles=handles)
    # the store is written on the worker pool: tick until it answers (at most 20 s)
    harness.tick_until(max_ticks=2000, period_s=0.01)
    return harness


def learn(
    blackboard: BlackboardView, workers: Any, make_llm: Any, attempts: list[PlanAttempt]
) -> ExperienceStore:
    store = ExperienceStore()
    blackboard.set("/plan/attempts", attempts)
    blackboard.set("/turn/utterance", "bring me my car keys")
    harness = run(store, workers, make_llm().client)
    assert harness.root_status == "SUCCESS"
    return store


def test_every_failure_before_the_success_learns_what_worked_in_the_end(
    blackboard: BlackboardView, workers: Any, make_llm: Any
) -> None:
    first = failed_pick(1, KEYS, "object_not_visible")
    second = failed_pick(2, {"object": "car_keys"}, "object_not_found")  # forgotten by a look
    store = learn(blackboard, workers, make_llm, [first, second, SUCCESS])
    lessons = [record for record in store.records if record.learnt]
    assert [(r.error_code, r.context) for r in lessons] == [
        ("object_not_visible", {"object_type": "keys", "place_type": "table", "room": "hallway"}),
        ("object_not_found", {"object": "car_keys"}),  # no type known: the id is kept
    ]
    expected = (
        RecoveryStep(action="GOTO", args={"target": "kitchen"}),
        RecoveryStep(action="LOOK"),
    )
    assert all(record.recovery == expected for record in lessons)
    assert lessons[0].provenance.suggested_by == ("pick-not-visible-look-where-last-seen",)
    assert lessons[0].provenance.worked.startswith("GOTO(kitchen), LOOK(), PICK(car_keys")
    assert "GOTO(kitchen), LOOK()" in lessons[0].suggestion


def test_nothing_is_learnt_without_a_success_or_twice(
    blackboard: BlackboardView, workers: Any, make_llm: Any
) -> None:
    first = failed_pick(1, KEYS, "object_not_visible")
    gave_up = failed_pick(2, KEYS, "object_not_visible")
    store = learn(blackboard, workers, make_llm, [first, gave_up])
    assert not any(record.learnt for record in store.records)
    store = learn(blackboard, workers, make_llm, [first, SUCCESS])
    assert len([r for r in store.records if r.learnt]) == 1
    harness = run(store, workers, make_llm().client)  # the same turn again: already known
    assert len([r for r in store.records if r.learnt]) == 1
    assert "already known" in harness.tree.root.feedback_message
