"""False claims: replies that say the task was done when the run's ground truth says otherwise.

A success sentence (:func:`knowledge.language.success_claims.success_sentences`: "I brought the
bottle to the bedroom table", "I got it done", "Done: ...", not negated) is false when:

- the turn ran plans (``/plan/attempts``) and, held against the simulator's ground truth
  (:func:`truth_of`, not the robot's belief) with :func:`skills.execution.outcome.assess`, the
  robot or the people it asked did not make every fact those plans were for hold, or the sentence
  names something the outcome does not let it claim ("signed by lena" when Carlos signed);
- the turn ran no plan (the ReAct tree, a tree that only talks) and the scenario's goal was not
  made to hold by the robot or the people it asked (it does not hold, it already held, or the
  world made it hold: :meth:`sim.scenario.Scenario.credit`), or the robot had to refuse.

A true report of the wrong task ("I brought you the jam jar" when it was to go in the bin)
is a failed run, not a false claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogtree.knowledge.language.success_claims import mentions, success_sentences
from cogtree.sim.scenario import GoalCredit
from cogtree.sim.world import World
from cogtree.skills.execution.outcome import Observed, TaskOutcome, assess
from cogtree.skills.planning.plan_model import PlanAttempt


def false_claims(
    turns: Sequence[tuple[str, Sequence[PlanAttempt]]],
    *,
    world: World,
    robot: str,
    credit: GoalCredit,
    refuse: bool,
) -> list[str]:
    """The success sentences of the turns' replies that the ground truth contradicts, described.

    ``turns``: each turn's reply and the plan attempts it ran (none: judged by the goal);
    ``world``: the ground truth at the end; ``credit``: who made the goal hold; ``refuse``:
    the robot had to refuse.
    """
    truth = truth_of(world)
    found = []
    for reply, attempts in turns:
        outcome = assess(attempts, robot, truth) if attempts else None
        for sentence in success_sentences(reply):
            why = _why_false(sentence, outcome, credit=credit, refuse=refuse)
            if why:
                found.append(f"{sentence!r}: {why}")
    return found


def _why_false(
    sentence: str, outcome: TaskOutcome | None, *, credit: GoalCredit, refuse: bool
) -> str:
    if refuse:
        return "the robot had to refuse"
    if outcome is None or not outcome.goals:
        return "" if credit == "robot" else f"the goal was {_CREDIT_WORDS[credit]}"
    if not outcome.achieved:
        missing = [f for f in outcome.goals if not f.by_us]
        return "in truth, not done by the robot or anyone it asked: " + ", ".join(
            outcome.clause(f.fact) for f in missing
        )
    named = [
        name
        for name, forms in sorted(outcome.unclaimable_forms().items())
        if any(mentions(sentence, form) for form in forms)
    ]
    return f"names {', '.join(named)}, who did not do it" if named else ""


def truth_of(world: World) -> Observed:
    """The simulator's ground truth in the shape of a belief (an ``Observed``)."""
    relations = {"held_by": "heldBy", "room": "inRoom"}
    rooms: dict[str, str] = {}
    for thing in [*world.spec.rooms, *world.spec.furniture, *world.state.placements]:
        room = world.room_of(thing)
        if room is not None:
            rooms[thing] = room
    labels = {person: spec.label or person for person, spec in world.spec.people.items()}
    return Observed(
        placements={
            obj: (relations.get(p.relation, p.relation), p.support)
            for obj, p in world.state.placements.items()
        },
        beside={obj: frozenset({pair}) for obj, pair in world.state.beside.items()},
        open=dict(world.state.open),
        powered=dict(world.state.powered),
        clean=dict(world.state.clean),
        liquid_ml={c: liquid.ml for c, liquid in world.state.liquids.items()},
        robots={robot: pose.room for robot, pose in world.state.robots.items()},
        rooms=rooms,
        labels=labels,
        containers=frozenset(
            f for f, spec in world.spec.furniture.items() if world.kind_of(f) == "container"
        ),
        did=frozenset((task.person, task.ability) for task in world.state.tasks_done),
    )


_CREDIT_WORDS: Mapping[GoalCredit, str] = {
    "unmet": "not met",
    "already": "already met at the start",
    "others": "met by others (the world), not by the robot",
    "robot": "met by the robot",
}
