"""What the reply says when the robot's limits leave no plan, and when nothing needed doing."""

from __future__ import annotations

from cogtree.behaviours.actions.planning.plan_attempts import outcome_item, outcome_text
from cogtree.knowledge.templated_reply import claimable
from cogtree.skills.planning.plan_model import PlanAttempt, PlanStep, Reflection, ToAPlan

CANNOT = (
    "I can't do that as things are: the ball is on the floor, lower than I reach. I have not "
    "started anything."
)


def test_no_plan_for_the_robots_limits_says_why_instead_of_nothing_was_done() -> None:
    attempt = PlanAttempt(
        number=1,
        plan=ToAPlan(steps=[], rationale=f"{CANNOT} (I found no way to do it: ...)", source="htn"),
        outcome="failed",
        failure="no plan",
        infeasible=CANNOT,
    )
    text = outcome_text([attempt], succeeded=False, max_attempts=3)
    assert text == CANNOT
    assert "Nothing was done" not in text


def test_steps_that_ran_are_still_reported_as_before() -> None:
    ran = PlanAttempt(
        number=1,
        plan=ToAPlan(steps=[PlanStep(id=1, action="GOTO", args={"target": "kitchen"})]),
        outcome="failed",
        failure="PICK failed",
        reflections=[Reflection(step=1, achieved=True, observed="in the kitchen")],
    )
    stuck = PlanAttempt(
        number=2, plan=ToAPlan(steps=[], source="htn"), outcome="failed", infeasible=CANNOT
    )
    text = outcome_text([ran, stuck], succeeded=False, max_attempts=3)
    assert text.startswith("I could not do it after 2 attempts")


def test_nothing_needed_says_what_is_already_so_and_claims_nothing() -> None:
    already = "Nothing needed doing: the lemon is already on the worktop."
    attempt = PlanAttempt(
        number=1,
        plan=ToAPlan(steps=[], rationale=already, source="htn"),
        outcome="succeeded",
    )
    item = outcome_item([attempt], None, succeeded=True, max_attempts=3)
    assert item.text == already and item.ok and item.nothing_needed
    assert not claimable({"object": "lemon"}, item)
