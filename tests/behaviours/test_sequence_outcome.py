"""What the reply says about a request of several tasks: each step, done or not."""

from __future__ import annotations

from cogtree.behaviours.actions.planning.plan_attempts import (
    outcome_text,
    request_steps,
    sequence_thought,
)
from cogtree.skills.planning.plan_model import (
    PlanAttempt,
    PlanStep,
    Reflection,
    StepProblem,
    ToAPlan,
    ValidationReport,
)


def sequence_plan() -> ToAPlan:
    first = sequence_thought(1, 2, "fill the jug", "fill(jug)")
    second = sequence_thought(2, 2, "switch on the lamp", "switch_on(lamp)")
    steps = [
        PlanStep(id=1, thought=first, action="PICK", args={"object": "jug", "hand": "right"}),
        PlanStep(
            id=2,
            thought=first,
            action="FILL",
            args={"container": "jug", "source": "sink", "hand": "right"},
            depends_on=[1],
        ),
        PlanStep(
            id=3, thought=second, action="SWITCH_ON", args={"appliance": "lamp"}, depends_on=[2]
        ),
    ]
    return ToAPlan(steps=steps, source="htn")


def test_the_plan_steps_are_grouped_by_the_requests_steps() -> None:
    parts = request_steps(sequence_plan())
    assert [(said, [step.id for step in steps]) for said, steps in parts] == [
        ("fill the jug", [1, 2]),
        ("switch on the lamp", [3]),
    ]
    assert request_steps(ToAPlan(steps=[PlanStep(id=1, action="LOOK")])) == []


def test_a_done_sequence_lists_each_step() -> None:
    attempt = PlanAttempt(number=1, plan=sequence_plan(), outcome="succeeded")
    text = outcome_text([attempt], succeeded=True, max_attempts=3)
    assert text.startswith("Steps run, step by step: 1. fill the jug (PICK(jug, right), FILL(")
    assert "2. switch on the lamp (SWITCH_ON(lamp))" in text


def test_a_sequence_that_failed_half_way_says_which_steps_were_done() -> None:
    reflections = [
        Reflection(step=1, achieved=True, observed="holding the jug"),
        Reflection(step=2, achieved=True, observed="the jug is full"),
    ]
    attempt = PlanAttempt(
        number=1,
        plan=sequence_plan(),
        outcome="failed",
        failure="SWITCH_ON(lamp) failed: out_of_reach",
        reflections=reflections,
    )
    text = outcome_text([attempt], succeeded=False, max_attempts=1)
    assert text.endswith("Done: 'fill the jug'. Not done: 'switch on the lamp'.")
    assert "Nothing was done" not in text


def test_a_rejected_sequence_names_the_requests_step_with_the_hazard() -> None:
    problem = StepProblem(step=3, code="hazard", reason="The lamp is wet.")
    validation = ValidationReport(ok=False, problems=[problem])
    attempt = PlanAttempt(number=1, plan=sequence_plan(), validation=validation, outcome="rejected")
    text = outcome_text([attempt], succeeded=False, max_attempts=3)
    assert "rejected before anything ran: in 'switch on the lamp': The lamp is wet." in text
    assert text.endswith("Nothing was done.")
