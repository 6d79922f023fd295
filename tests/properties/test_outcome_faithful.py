"""No report of a physical task claims a fact the belief after execution contradicts (issue 17).

Over arbitrary plans (one to three attempts of robot skills, LOOK and DELEGATE steps, each
attempt failed, succeeded or rejected, any of its steps achieved), and arbitrary disruptions
(the belief afterwards places every object anywhere, or nowhere, opens or closes containers,
moves the robot, and people report or do not report their tasks), the report built by
:func:`behaviours.actions.planning.plan_attempts.outcome_item` from
:func:`skills.execution.outcome.assess`:

1. says a fact holds only when the belief holds it (checked here against the drawn belief,
   not through the code under test);
2. says the robot or a person made a fact hold only when one of their steps achieved it;
3. names no fact the belief does not support in its "Done by ..." and "Already so ..."
   sentences;
4. lets Respond say the task's success template only when every goal fact was made to hold by
   the robot or its delegates, and no slot names something it may not claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cogtree.behaviours.actions.planning.plan_attempts import outcome_item
from cogtree.knowledge.templated_reply import claimable
from cogtree.skills.capabilities.capability import Fact
from cogtree.skills.execution.outcome import OTHERS, Observed, assess
from cogtree.skills.planning.plan_model import (
    PlanAttempt,
    PlanStep,
    Reflection,
    ToAPlan,
    ValidationReport,
)
from tests.delegation_attempts import delegation

ROBOT = "robot1"
OBJECTS = ("cup", "book", "bottle")
SURFACES = ("table", "shelf")
CONTAINERS = ("fridge", "box")
ROOMS = ("kitchen", "hall")
PEOPLE = ("ann", "ben")
ABILITIES = ("sign", "print")
ROOM_OF = {"table": "kitchen", "shelf": "hall", "fridge": "kitchen", "box": "hall"}


STEPS = st.one_of(
    st.sampled_from(ROOMS + SURFACES).map(lambda t: ("GOTO", {"target": t})),
    st.sampled_from(OBJECTS).map(lambda o: ("PICK", {"object": o, "hand": "right"})),
    st.tuples(st.sampled_from(OBJECTS), st.sampled_from(SURFACES + CONTAINERS)).map(
        lambda p: ("PLACE", {"object": p[0], "target": p[1], "hand": "right"})
    ),
    st.tuples(st.sampled_from(OBJECTS), st.sampled_from(PEOPLE)).map(
        lambda p: ("HANDOVER", {"object": p[0], "person": p[1], "hand": "right"})
    ),
    st.sampled_from(CONTAINERS).map(lambda c: ("OPEN", {"container": c})),
    st.sampled_from(CONTAINERS).map(lambda c: ("CLOSE", {"container": c})),
    st.tuples(st.sampled_from(PEOPLE), st.sampled_from(ABILITIES)).map(
        lambda p: ("DELEGATE", {"person": p[0], "ability": p[1]})
    ),
    st.just(("LOOK", {})),
)


@st.composite
def attempts(draw: st.DrawFn) -> list[PlanAttempt]:
    made = []
    for number in range(1, draw(st.integers(1, 3)) + 1):
        drawn = draw(st.lists(STEPS, min_size=1, max_size=5))
        steps = [
            PlanStep(id=index, action=action, args=args)  # type: ignore[arg-type]
            for index, (action, args) in enumerate(drawn, start=1)
        ]
        outcome = draw(st.sampled_from(["failed", "succeeded", "rejected"]))
        achieved = (
            [] if outcome == "rejected" else draw(st.lists(st.booleans(), min_size=len(steps)))
        )
        reflections = [
            Reflection(step=step.id, achieved=done, observed="drawn")
            for step, done in zip(steps, achieved, strict=False)
        ]
        validation = ValidationReport(
            ok=outcome != "rejected",
            assignments={
                step.id: str(step.args["person"]) if step.action == "DELEGATE" else ROBOT
                for step in steps
            },
        )
        made.append(
            PlanAttempt(
                number=number,
                plan=ToAPlan(steps=steps, source="model"),
                validation=validation,
                outcome=outcome,  # type: ignore[arg-type]
                failure="" if outcome == "succeeded" else "drawn failure",
                reflections=reflections,
            )
        )
    return made


PLACEMENTS = st.one_of(
    st.none(),
    st.sampled_from(SURFACES).map(lambda s: ("on", s)),
    st.sampled_from(CONTAINERS).map(lambda c: ("in", c)),
    st.sampled_from((ROBOT, *PEOPLE)).map(lambda a: ("heldBy", a)),
)


@st.composite
def beliefs(draw: st.DrawFn) -> Observed:
    """The belief after execution: anything at all, as disruptions may leave it."""
    placements = {obj: draw(PLACEMENTS) for obj in OBJECTS}
    opened = {c: draw(st.one_of(st.none(), st.booleans())) for c in CONTAINERS}
    room = draw(st.one_of(st.none(), st.sampled_from(ROOMS)))
    return Observed(
        placements={obj: where for obj, where in placements.items() if where is not None},
        open={c: state for c, state in opened.items() if state is not None},
        robots={ROBOT: room},
        rooms={**{r: r for r in ROOMS}, **ROOM_OF},
        containers=frozenset(CONTAINERS),
    )


@dataclass(frozen=True)
class Truth:
    """The drawn belief, read here independently of the code under test."""

    belief: Observed
    reported: frozenset[tuple[str, str]]

    def supports(self, fact: Fact) -> bool:
        if fact.kind == "did":
            return (fact.value, fact.subject) in self.reported
        if fact.kind == "at":
            return self.belief.robots.get(fact.subject) == fact.value
        if fact.kind == "open":
            return self.belief.open.get(fact.subject) == (fact.value == "open")
        if fact.kind == "where":
            placement = self.belief.placements.get(fact.subject)
            wanted, _, target = fact.value.partition(":")
            if placement is None or placement[1] != target:
                return False
            return placement[0] in ("on", "in") if wanted == "onto" else placement[0] == wanted
        return False


def achievers(plan: list[PlanAttempt], fact: Fact) -> set[str]:
    """Who ran an achieved step whose own effect is ``fact`` (read from the steps' arguments)."""
    found = set()
    for attempt in plan:
        done = {r.step for r in attempt.reflections if r.achieved}
        for step in attempt.plan.steps:
            if step.id not in done:
                continue
            args = step.args
            effect = {
                "PICK": lambda a: Fact("where", str(a["object"]), f"heldBy:{ROBOT}"),
                "PLACE": lambda a: Fact("where", str(a["object"]), f"onto:{a['target']}"),
                "HANDOVER": lambda a: Fact("where", str(a["object"]), f"heldBy:{a['person']}"),
                "OPEN": lambda a: Fact("open", str(a["container"]), "open"),
                "CLOSE": lambda a: Fact("open", str(a["container"]), "closed"),
                "DELEGATE": lambda a: Fact("did", str(a["ability"]), str(a["person"])),
                "GOTO": lambda a: Fact("at", ROBOT, ROOM_OF.get(str(a["target"]), a["target"])),
            }.get(step.action)
            if effect is not None and effect(args) == fact:
                found.add(str(args["person"]) if step.action == "DELEGATE" else ROBOT)
    return found


def signer_leaves() -> list[PlanAttempt]:
    """Ann was to sign and was away; Ben signed instead (the shape of ``signer_leaves``)."""

    return [delegation(1, "ann", done=False), delegation(2, "ben", done=True)]


@settings(max_examples=400, deadline=None)
@example(plan=signer_leaves(), belief=Observed(), slots=["ann"])
@given(plan=attempts(), belief=beliefs(), slots=st.lists(st.sampled_from(OBJECTS + PEOPLE)))
def test_no_report_claims_what_the_belief_contradicts(
    plan: list[PlanAttempt], belief: Observed, slots: list[str]
) -> None:
    reported = frozenset(
        (str(step.args["person"]), str(step.args["ability"]))
        for attempt in plan
        for step in attempt.plan.steps
        if step.action == "DELEGATE"
        and any(r.step == step.id and r.achieved for r in attempt.reflections)
    )
    truth = Truth(belief, reported)
    outcome = assess(plan, ROBOT, belief)
    succeeded = plan[-1].outcome == "succeeded"
    item = outcome_item(plan, outcome, succeeded=succeeded, max_attempts=3)
    claims = " ".join(
        sentence
        for sentence in re.split(r"(?<=\.)\s+", item.text)
        if sentence.startswith(("Done by", "Already so"))
    )
    for fact in outcome.facts:
        # 1. a fact said to hold is held by the belief, and one said not to hold is not
        assert bool(fact.holds) == truth.supports(fact.fact) or fact.holds is None, fact
        # 2. who made it hold ran a step that achieved it
        if fact.made_by not in (None, OTHERS):
            assert fact.made_by in achievers(plan, fact.fact), fact
        if fact.made_by == OTHERS:
            assert not achievers(plan, fact.fact), fact
        # 3. no unsupported fact is said as done or as so
        if not truth.supports(fact.fact):
            assert outcome.clause(fact.fact) not in claims, (fact, item.text)
    # 4. the success template only when the robot or its delegates made every goal fact hold
    if item.ok and outcome.goals:
        assert all(
            truth.supports(f.fact) and f.made_by not in (None, OTHERS) for f in outcome.goals
        )
    if item.ok and claimable({"slot": slots}, item):
        named = {name for f in outcome.facts for name in f.fact.names()}
        for slot in slots:
            assert slot not in named or slot in outcome.claimable(), (slot, item.text)
