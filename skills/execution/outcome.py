"""The outcome of a physical task, read from the belief after execution (issue 17, item 1).

A plan says what it is for: the facts its steps leave behind (PICK then PLACE leaves the
object on the target; DELEGATE leaves the ability done by the person; a plan that ends with
GOTO leaves the robot in that room). :func:`planned_facts` collects them over every attempt:
the last plan's facts are the goal, and an earlier plan's fact about something the later plans
no longer mention stays a goal too (the bottle still has to be on the bedroom table after a
re-plan that only looks for it); an earlier fact the later plans changed (Lena signs, then
Carlos) is kept as superseded.

:func:`assess` holds each fact against the belief after execution (:class:`Observed`) and
says who made it hold:

- an agent (the robot, another robot, or a person the robot delegated to): a step of one of
  the attempts whose own effect is this fact ran and achieved it (its reflection);
- :data:`OTHERS`: the fact holds, but no step of the robot's plans made it hold (someone
  else, or the world);
- nobody (None): it does not hold, or the belief cannot say.

A delegated ability holds only when the person reported it done (the robot's knowledge of
it). :class:`TaskOutcome` turns the result into rows for the evidence and plain sentences
(:meth:`TaskOutcome.sentences`) that claim only what the belief supports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.wording import joined, with_the
from cogtree.skills.capabilities.capability import Fact
from cogtree.skills.capabilities.registry import SKILLS
from cogtree.skills.planning.plan_model import DELEGATE, LOOK, PlanAttempt, PlanError, PlanStep

OTHERS = "others"
"""``made_by`` of a fact that holds although no step of the robot's plans made it hold."""


@dataclass(frozen=True)
class Observed:
    """What the belief says after execution, for the facts a plan can be for.

    ``placements``: thing -> (relation, support); ``beside``: thing -> its side relations
    ``(relation, landmark)``; ``open`` / ``powered`` / ``clean``: the known states;
    ``liquid_ml``: how much liquid a container holds; ``robots``: robot -> room (None when
    unknown); ``rooms``: thing or room -> its room; ``labels``: id -> what people call it;
    ``containers``: the things one puts things in; ``did``: (person, ability) pairs known to be
    done, or None when only the people's own reports say (the robot's belief).
    """

    placements: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    beside: Mapping[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    open: Mapping[str, bool] = field(default_factory=dict)
    powered: Mapping[str, bool] = field(default_factory=dict)
    clean: Mapping[str, bool] = field(default_factory=dict)
    liquid_ml: Mapping[str, float] = field(default_factory=dict)
    robots: Mapping[str, str | None] = field(default_factory=dict)
    rooms: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    containers: frozenset[str] = frozenset()
    did: frozenset[tuple[str, str]] | None = None

    @classmethod
    def from_scene(cls, scene: SceneGraph) -> Observed:
        """Read ``scene`` (a few queries per room: call it off the tick thread)."""
        placements: dict[str, tuple[str, str]] = {}
        beside: dict[str, frozenset[tuple[str, str]]] = {}
        opened: dict[str, bool] = {}
        powered: dict[str, bool] = {}
        clean: dict[str, bool] = {}
        liquid: dict[str, float] = {}
        labels: dict[str, str] = {}
        robots: dict[str, str | None] = {}
        rooms: dict[str, str] = {}
        containers: set[str] = set()
        for room in scene.rooms():
            labels[room.id] = room.label
            rooms[room.id] = room.id
            for info in scene.objects_in_room(room.id):
                labels[info.id] = info.label
                rooms[info.id] = info.room
                if info.kind == "container":
                    containers.add(info.id)
                if info.relation is not None and info.support is not None:
                    placements[info.id] = (info.relation, info.support)
                beside[info.id] = frozenset(tuple(pair) for pair in info.beside)  # type: ignore[misc]
                if info.is_open is not None:
                    opened[info.id] = info.is_open
                for name, into in (("powered", powered), ("clean", clean)):
                    value = info.attributes.get(name)
                    if isinstance(value, bool):
                        into[info.id] = value
                amount = info.attributes.get("liquidMl")
                if isinstance(amount, int | float) and not isinstance(amount, bool):
                    liquid[info.id] = float(amount)
        for robot in scene.robot_state():
            labels[robot.id] = robot.label
            robots[robot.id] = robot.room
            if robot.room is not None:
                rooms[robot.id] = robot.room
            for thing in robot.holding:
                placements[thing] = ("heldBy", robot.id)
        for human in scene.humans():
            labels[human.id] = human.label
            if human.room is not None:
                rooms[human.id] = human.room
        return cls(
            placements,
            beside,
            opened,
            powered,
            clean,
            liquid,
            robots,
            rooms,
            labels,
            frozenset(containers),
        )

    def label(self, node: str) -> str:
        """What people call ``node`` (its id in words when the belief has no label)."""
        return self.labels.get(node) or node.replace("_", " ")


@dataclass(frozen=True)
class FactOutcome:
    """A fact after execution: whether it holds, who made it hold, and what the belief says."""

    fact: Fact
    holds: bool | None
    made_by: str | None
    goal: bool
    observed: str

    @property
    def by_us(self) -> bool:
        """It holds, and the robot or someone it delegated to made it hold."""
        return bool(self.holds) and self.made_by not in (None, OTHERS)


OUTCOME_COLUMNS = ("fact", "holds", "made_by", "goal", "observed")
"""The columns of an outcome evidence row."""


@dataclass(frozen=True)
class TaskOutcome:
    """Every planned fact after execution, for the robot ``robot`` (its own facts say "I")."""

    robot: str
    facts: tuple[FactOutcome, ...]
    labels: Mapping[str, str] = field(default_factory=dict)
    containers: frozenset[str] = frozenset()

    @property
    def goals(self) -> list[FactOutcome]:
        """The facts the plans are for now (not superseded)."""
        return [outcome for outcome in self.facts if outcome.goal]

    @property
    def achieved(self) -> bool:
        """There is a goal fact, and the robot or its delegates made every goal fact hold."""
        goals = self.goals
        return bool(goals) and all(outcome.by_us for outcome in goals)

    @property
    def met_by_others(self) -> bool:
        """Every goal fact holds, but some only because someone else made it hold."""
        goals = self.goals
        return (
            bool(goals)
            and all(outcome.holds for outcome in goals)
            and any(outcome.made_by == OTHERS for outcome in goals)
        )

    def claimable(self) -> set[str]:
        """Ids the robot may name as done: those of goal facts it or its delegates made hold."""
        return {name for outcome in self.goals if outcome.by_us for name in outcome.fact.names()}

    def unclaimable(self) -> set[str]:
        """Ids named by some planned fact that the robot may not name as done."""
        named = {name for outcome in self.facts for name in outcome.fact.names()}
        return named - self.claimable()

    def unclaimable_forms(self) -> dict[str, set[str]]:
        """Each unclaimable id with the forms a sentence may name it by: id, words, label."""
        return {
            name: {name, name.replace("_", " "), self.labels.get(name) or name}
            for name in self.unclaimable()
        }

    def rows(self) -> list[dict[str, str | None]]:
        """One evidence row per fact (:data:`OUTCOME_COLUMNS`), labels instead of ids."""
        return [
            {
                "fact": self.clause(outcome.fact, negated=outcome.holds is False),
                "holds": {True: "yes", False: "no", None: "unknown"}[outcome.holds],
                "made_by": self._who(outcome.made_by) if outcome.made_by else None,
                "goal": "yes" if outcome.goal else "superseded",
                "observed": outcome.observed,
            }
            for outcome in self.facts
        ]

    def sentences(self) -> str:
        """What holds and who made it hold, what holds without the robot, what does not."""
        mine = [o for o in self.goals if o.by_us and o.made_by == self.robot]
        delegated = [o for o in self.goals if o.by_us and o.made_by != self.robot]
        others = [o for o in self.goals if o.holds and o.made_by == OTHERS]
        missing = [o for o in self.goals if not o.holds]
        superseded = [o for o in self.facts if not o.goal and not o.holds]
        parts: list[str] = []
        if mine:
            parts.append(f"Done by me: {joined([self.clause(o.fact) for o in mine])}.")
        for person in dict.fromkeys(o.made_by for o in delegated):
            done = [self.clause(o.fact) for o in delegated if o.made_by == person]
            parts.append(f"Done by {self._who(person)}: {joined(done)}.")
        if others:
            clauses = joined([self.clause(o.fact) for o in others])
            parts.append(f"Already so, but not by me or anyone I asked: {clauses}.")
        if missing:
            parts.append(f"Not done: {joined([self._not(o) for o in missing])}.")
        if superseded:
            dropped = joined([self._not(o) for o in superseded])
            parts.append(f"Planned at first, not done: {dropped}.")
        return " ".join(parts)

    def clause(self, fact: Fact, *, negated: bool = False) -> str:
        """The fact in words: "the bottle is on the bedroom table", "carlos did sign".

        ``negated``: that it does not hold ("the bottle is not on the bedroom table").
        """
        subject = self._who(fact.subject) if fact.kind == "at" else self._thing(fact.subject)
        me = fact.subject == self.robot
        be = ("am" if me else "is") + (" not" if negated else "")
        if fact.kind == "where":
            relation, _, support = fact.value.partition(":")
            if relation == "heldBy":
                mine = support == self.robot
                have = ("do not have" if mine else "does not have") if negated else "has"
                return f"{self._who(support)} {'have' if mine and not negated else have} {subject}"
            if relation == "onto":
                relation = "in" if support in self.containers else "on"
            return f"{subject} {be} {relation} {self._thing(support)}"
        if fact.kind == "beside":
            relation, _, landmark = fact.value.partition(":")
            return f"{subject} {be} {relation.replace('_', ' ')} {self._thing(landmark)}"
        if fact.kind == "at":
            return f"{subject} {be} in {self._thing(fact.value)}"
        if fact.kind == "did":
            did = "did not" if negated else "did"
            return f"{self._who(fact.value)} {did} {fact.subject.replace('_', ' ')}"
        if fact.kind == "filled":
            return f"{subject} {'has no' if negated else 'has'} liquid in it"
        return f"{subject} {be} {fact.value if fact.kind != 'clean' else 'clean'}"

    def _not(self, outcome: FactOutcome) -> str:
        if outcome.holds is None:
            return f"I cannot tell whether {self.clause(outcome.fact)}"
        return self.clause(outcome.fact, negated=True)

    def _who(self, agent: str | None) -> str:
        if agent is None:
            return "nobody"
        if agent == self.robot:
            return "I"
        return self.labels.get(agent) or agent.replace("_", " ")

    def _thing(self, node: str) -> str:
        return with_the(self.labels.get(node) or node.replace("_", " "))


# -- what each step is for ---------------------------------------------------------------------


def doer_of(attempt: PlanAttempt, step: PlanStep, robot: str) -> str:
    """Who does ``step``: the validation's assignment, else the step's assignee, else ``robot``.

    A DELEGATE step is done by the person it names.
    """
    if step.action == DELEGATE:
        return str(step.args.get("person") or step.assignee or robot)
    assigned = attempt.validation.assignments.get(step.id) if attempt.validation else None
    return assigned or step.assignee or robot


def step_facts(step: PlanStep, doer: str, rooms: Mapping[str, str | None]) -> list[Fact]:
    """The facts ``step`` leaves behind when ``doer`` does it (GOTO: the doer's room).

    ``rooms`` maps a thing or a room (a GOTO target) to its room; LOOK, SAY, WAIT and a step
    whose arguments do not validate leave nothing.
    """
    if step.action == DELEGATE:
        ability = step.args.get("ability")
        return [Fact("did", str(ability), doer)] if ability else []
    if step.action == LOOK:
        return []
    try:
        call = step.skill_call()
    except PlanError:
        return []
    return SKILLS[call.skill].facts(call.args, doer, rooms)


def plan_facts(
    attempt: PlanAttempt, robot: str, rooms: Mapping[str, str | None]
) -> dict[tuple[str, str], Fact]:
    """The facts ``attempt``'s plan is for, by key (a later step's fact replaces an earlier).

    A robot's room counts only when the plan ends with its GOTO (it means to be there).
    """
    facts: dict[tuple[str, str], Fact] = {}
    steps = attempt.plan.steps
    for index, step in enumerate(steps):
        for fact in step_facts(step, doer_of(attempt, step, robot), rooms):
            if fact.kind == "at" and index != len(steps) - 1:
                continue
            facts[fact.key] = fact
    return facts


def planned_facts(
    attempts: Sequence[PlanAttempt], robot: str, rooms: Mapping[str, str | None]
) -> list[tuple[Fact, bool]]:
    """Every attempt's facts, each with whether it is a goal now (module docs), oldest first.

    A plan the validation rejected never ran and states no goal (it may name things that do
    not exist).
    """
    goals: dict[tuple[str, str], Fact] = {}
    superseded: dict[Fact, None] = {}
    for attempt in attempts:
        if attempt.outcome == "rejected":
            continue
        for key, fact in plan_facts(attempt, robot, rooms).items():
            earlier = goals.get(key)
            if earlier is not None and earlier != fact:
                superseded[earlier] = None
            goals[key] = fact
    kept = [(fact, False) for fact in superseded if fact not in goals.values()]
    return kept + [(fact, True) for fact in goals.values()]


# -- holding the facts against the belief ------------------------------------------------------


def holds(fact: Fact, observed: Observed, reported: set[Fact]) -> tuple[bool | None, str]:
    """Whether ``fact`` holds in ``observed`` (``reported``: delegations reported done), and why."""
    if fact.kind == "did":
        done = fact in reported
        who = observed.label(fact.value)
        return done, f"{who} {'reported' if done else 'did not report'} {fact.subject} done"
    if fact.kind == "at":
        room = observed.robots.get(fact.subject)
        if room is None:
            return None, f"the belief does not say where {fact.subject} is"
        return room == fact.value, f"{fact.subject} is in {room}"
    if fact.kind == "where":
        placement = observed.placements.get(fact.subject)
        if placement is None:
            return None, f"the belief does not say where {fact.subject} is"
        relation, support = placement
        wanted, _, target = fact.value.partition(":")
        accepted = ("on", "in") if wanted == "onto" else (wanted,)
        return support == target and relation in accepted, f"{fact.subject} {relation} {support}"
    if fact.kind == "beside":
        relation, _, landmark = fact.value.partition(":")
        pairs = observed.beside.get(fact.subject, frozenset())
        return (relation, landmark) in pairs, f"{fact.subject} beside {sorted(pairs) or 'nothing'}"
    return _state(fact, observed)


def _state(fact: Fact, observed: Observed) -> tuple[bool | None, str]:
    if fact.kind == "filled":
        amount = observed.liquid_ml.get(fact.subject)
        if amount is None:
            return None, f"the belief does not say what {fact.subject} holds"
        return amount > 0, f"{fact.subject} holds {amount:g} ml"
    table = {"open": observed.open, "powered": observed.powered, "clean": observed.clean}[fact.kind]
    state = table.get(fact.subject)
    if state is None:
        return None, f"the belief does not say whether {fact.subject} is {fact.value}"
    wanted = fact.value in ("open", "on", "yes")
    return state == wanted, f"{fact.subject}: {fact.kind} is {state}"


def assess(
    attempts: Sequence[PlanAttempt],
    robot: str,
    observed: Observed,
) -> TaskOutcome:
    """Every planned fact of ``attempts`` held against ``observed`` (see the module docs)."""
    rooms = observed.rooms
    made: dict[Fact, str] = {}
    for attempt in attempts:
        achieved = {reflection.step for reflection in attempt.reflections if reflection.achieved}
        for step in attempt.plan.steps:
            if step.id in achieved:
                doer = doer_of(attempt, step, robot)
                for fact in step_facts(step, doer, rooms):
                    made[fact] = doer
    if observed.did is None:
        reported = {fact for fact in made if fact.kind == "did"}
    else:
        reported = {Fact("did", ability, person) for person, ability in observed.did}
    outcomes = []
    for fact, goal in planned_facts(attempts, robot, rooms):
        state, why = holds(fact, observed, reported)
        maker = (made.get(fact) or OTHERS) if state else None
        outcomes.append(FactOutcome(fact, state, maker, goal, why))
    return TaskOutcome(robot, tuple(outcomes), observed.labels, observed.containers)
