"""A plan attempt that delegates a signature to one person, for outcome and claims tests."""

from __future__ import annotations

from cogtree.skills.planning.plan_model import (
    PlanAttempt,
    PlanStep,
    Reflection,
    ToAPlan,
    ValidationReport,
)


def delegation(number: int, person: str, *, done: bool) -> PlanAttempt:
    """Attempt ``number``: DELEGATE(``person``, sign), done or not, its reflection saying so."""
    step = PlanStep(id=1, action="DELEGATE", args={"person": person, "ability": "sign"})
    return PlanAttempt(
        number=number,
        plan=ToAPlan(steps=[step]),
        validation=ValidationReport(ok=True, assignments={1: person}),
        outcome="succeeded" if done else "failed",
        reflections=[Reflection(step=1, achieved=done, observed="reported")],
    )
