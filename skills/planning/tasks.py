"""Task-level HTN planning: a complete request decomposed into skill calls, with backtracking.

Tasks: ``fetch(object)`` (have it in a hand), ``bring(object, to)`` (to a person or onto a
place), ``put_away(object)`` (to its home place, when the belief has one) and ``tidy(room)``
(put away every object of the room that is out of place; those that cannot be put away are
left where they are and reported), ``place_relative(object, relation, landmark)`` (next to,
left of, ... an object or on/in a place), and the tasks of each capability
(:mod:`cogtree.skills.capabilities.registry`). The primitive actions are the skills themselves:
each checks its preconditions on the belief the plan has led to so far and applies its
expected effect (:mod:`cogtree.skills.capabilities.calls`), so a plan only contains skills
whose preconditions hold when their turn comes.

Several methods per task make the search matter: an object is fetched with either hand; a
closed container is opened first and closed again afterwards when a hand is free (left open
otherwise); a person is handed the object, a place receives it; a closed container that is
the destination is opened after fetching or, when the fetch leaves no hand free to open it,
before. When nothing works, the plan says which preconditions failed (e.g. every PICK was out
of reach), after the hazards of what the task asks for (:mod:`skills.safety.task_hazards`: picking
up a person, handing over hot tea), so a request that fails for another reason still names
its hazard.

The gtpyhop state (:class:`~cogtree.skills.capabilities.capability.TaskState`) has six
variables: ``belief`` (the immutable snapshot), ``start`` (the
belief planning started from, never changed: where a fetched thing was), ``failures``
(precondition failures met anywhere in the search; one log shared by every copy of the state),
``skipped`` (objects ``tidy`` left out of place on this branch), ``steps`` (one more per
action, so gtpyhop keeps every action in the plan) and ``said`` (the request's words: how
much a pour asks for).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializeAsAny,
    field_validator,
    model_validator,
)
from typing_extensions import Self

from cogtree.knowledge.safety.hazard_rules import HazardRules, shipped_hazard_rules
from cogtree.skills.action_model.belief import Belief, Thing
from cogtree.skills.action_model.specs import (
    CallSpec,
    Hand,
    NodeId,
    SpatialRelation,
    find_spec,
    typed_args,
)
from cogtree.skills.capabilities.calls import (
    SKILL_SPECS,
    SkillCall,
    check_preconditions,
    project,
    skill_call_from_values,
)
from cogtree.skills.capabilities.capability import (
    Action,
    Limit,
    Method,
    Subtasks,
    TaskState,
    closed_place,
    per_hand,
)
from cogtree.skills.capabilities.registry import TASK_METHODS
from cogtree.skills.capabilities.registry import TASK_SPECS as REGISTERED_TASKS
from cogtree.skills.planning.htn import HtnPlanner
from cogtree.skills.planning.limits import limit_of
from cogtree.skills.safety.hazard_check import Hazard
from cogtree.skills.safety.task_hazards import task_hazards

log = logging.getLogger(__name__)

MAX_REASONS = 3
"""How many distinct failure reasons a failed plan's message quotes."""

SKIP = "skip"
"""The bookkeeping action that records an object ``tidy`` leaves out of place."""

TASK_DONE = "task_done"
"""The bookkeeping action that ends one task of a sequence (where its skills stop)."""


class FetchArgs(BaseModel):
    """fetch: have ``object`` in one of the robot's hands."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    object: NodeId


class BringArgs(BaseModel):
    """bring: take ``object`` to a person or onto a surface / into a container (``to``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    object: NodeId
    to: NodeId


class PutAwayArgs(BaseModel):
    """put_away: take ``object`` to its home place."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    object: NodeId


class TidyArgs(BaseModel):
    """tidy: put away every object of ``room`` that is out of place."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    room: NodeId


RELATION_WORDS: Mapping[str, SpatialRelation] = MappingProxyType(
    {
        "beside": "next_to",
        "by": "next_to",
        "alongside": "next_to",
        "next": "next_to",
        "close to": "near",
        "nearby": "near",
        "left": "left_of",
        "right": "right_of",
        "in front": "in_front_of",
        "at the back of": "behind",
        "onto": "on",
        "on top of": "on",
        "into": "in",
        "inside": "in",
    }
)
"""Words for a spatial relation besides its own name with spaces (``next to``, ``left of``)."""


def _relation(value: object) -> object:
    """``"to the left of"`` → ``left_of``; other values are left for validation to judge."""
    if not isinstance(value, str):
        return value
    words = re.sub(r"^(?:to|on) the ", "", " ".join(value.lower().replace("-", " ").split()))
    return RELATION_WORDS.get(words, words.replace(" ", "_"))


class PlaceRelativeArgs(BaseModel):
    """place_relative: put ``object`` ``relation`` ``landmark`` (next_to the plate, in the bowl)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    object: NodeId
    relation: Annotated[SpatialRelation, BeforeValidator(_relation)]
    landmark: NodeId


TASK_SPECS: Mapping[str, CallSpec] = MappingProxyType(
    {
        "fetch": CallSpec("fetch", FetchArgs, "have an object in hand"),
        "bring": CallSpec("bring", BringArgs, "take an object to a person or a place"),
        "put_away": CallSpec("put_away", PutAwayArgs, "take an object to its home place"),
        "tidy": CallSpec("tidy", TidyArgs, "put away what is out of place in a room"),
        "place_relative": CallSpec(
            "place_relative", PlaceRelativeArgs, "put an object next to, left of, ... another"
        ),
        **REGISTERED_TASKS,
    }
)
"""Every task by name: the planner's own, then each capability's."""


class TaskCall(BaseModel):
    """A task with validated arguments, e.g. ``bring(bottle_blue, user)``; see :func:`task_call`.

    ``args`` is an instance of the task's argument model (also when read back from JSON).
    """

    model_config = ConfigDict(frozen=True)

    task: str
    args: SerializeAsAny[BaseModel]

    @model_validator(mode="before")
    @classmethod
    def _typed_args(cls, data: Any) -> Any:
        return typed_args(data, "task", TASK_SPECS)

    @field_validator("task")
    @classmethod
    def _known_task(cls, name: str) -> str:
        """A task of :data:`TASK_SPECS`; the error lists the valid ones."""
        find_spec("task", TASK_SPECS, name)
        return name

    @property
    def values(self) -> tuple[Any, ...]:
        """The argument values in the spec's order (how HTN tasks carry them).

        Trailing optional arguments that are unset (None) are left out: ``wipe(counter)``.
        """
        values = [getattr(self.args, name) for name in TASK_SPECS[self.task].parameters]
        while values and values[-1] is None:
            values.pop()
        return tuple(values)

    def describe(self) -> str:
        """``bring(bottle_blue, user)``."""
        return f"{self.task}({', '.join(str(value) for value in self.values)})"

    def __str__(self) -> str:
        return self.describe()


def task_call(name: str, args: Mapping[str, Any] | None = None, /, **kwargs: Any) -> TaskCall:
    """A validated call of task ``name``; ``SkillArgumentError`` otherwise."""
    spec = find_spec("task", TASK_SPECS, name)
    model = spec.validate({**(args or {}), **kwargs})
    return TaskCall.model_validate({"task": spec.name, "args": model})


class TaskPlan(BaseModel):
    """The skills that accomplish a task, or why none do.

    ``failures``: distinct precondition failures met during the search, in the order they
    were met (on success, the dead ends the search backed out of). ``skipped``: objects
    ``tidy`` had to leave out of place.
    """

    model_config = ConfigDict(frozen=True)

    task: TaskCall
    then: tuple[TaskCall, ...] = Field(
        (), description="a sequence: the tasks after ``task``, planned in order with it"
    )
    ok: bool = Field(description="a plan was found")
    skills: tuple[SkillCall, ...] = ()
    parts: tuple[int, ...] = Field(
        (), description="a sequence: how many of ``skills`` each task takes, in order"
    )
    skipped: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    limits: tuple[Limit, ...] = Field(
        (),
        description="with no plan: the robot's own limits the search met (a thing out of "
        "reach, a tool the belief lacks), which planning again would not change",
    )

    @property
    def tasks(self) -> tuple[TaskCall, ...]:
        """Every task the plan is for, in order (one, or a sequence)."""
        return (self.task, *self.then)

    def by_task(self) -> list[tuple[TaskCall, tuple[SkillCall, ...]]]:
        """Each task with its skills, in order (one task: all of them)."""
        if not self.parts:
            return [(self.task, self.skills)]
        found, start = [], 0
        for task, count in zip(self.tasks, self.parts, strict=True):
            found.append((task, self.skills[start : start + count]))
            start += count
        return found

    @property
    def message(self) -> str:
        """The skills in order, or why there is no plan."""
        asked = ", then ".join(str(task) for task in self.tasks)
        if not self.ok:
            reasons = "; ".join(self.failures[:MAX_REASONS]) or "no method applies"
            more = len(self.failures) - MAX_REASONS
            suffix = f" (and {more} more)" if more > 0 else ""
            return f"no plan for {asked}: {reasons}{suffix}"
        skills = ", ".join(str(skill) for skill in self.skills) or "nothing to do"
        left = f"; left out of place: {', '.join(self.skipped)}" if self.skipped else ""
        return f"{asked} → {skills}{left}"


class TaskPlanner:
    """Plans tasks into skill calls with gtpyhop (backtracking); create once, thread-safe.

    ``rules``: the hazard rules a plan-less task's hazards are named by (default: shipped).
    """

    def __init__(self, rules: HazardRules | None = None) -> None:
        self._planner = HtnPlanner("cogtree-tasks", _ACTIONS, _METHODS)
        self._rules = rules

    def plan(self, task: TaskCall, belief: Belief, said: tuple[str, ...] = ()) -> TaskPlan:
        """The skills that accomplish ``task`` from ``belief``, or why there are none."""
        return self.plan_sequence([task], belief, said)

    def plan_sequence(
        self, tasks: Sequence[TaskCall], belief: Belief, said: tuple[str, ...] = ()
    ) -> TaskPlan:
        """The skills that accomplish ``tasks`` in order from ``belief``, or why there are none.

        One todo list: each task is planned from the belief the tasks before it lead to,
        and the search backtracks across tasks (a hand used in the first may be chosen
        again so that the second can be done). A sequence's plan records which skills
        each task takes (``parts``).

        ``said``: the request's utterances; with no plan, the hazards of what the tasks ask
        for (in the manner ``said`` asks for it) come first among the reasons. Nothing to do
        is no plan either when what a task asks for is forbidden ("throw me the vase" when
        the speaker holds it).
        """
        if not tasks:
            raise ValueError("plan_sequence needs at least one task")
        first, *then = tasks
        failures = _FailureLog()
        state = {
            "belief": belief,
            "start": belief,
            "failures": failures,
            "skipped": (),
            "steps": 0,
            "said": tuple(said),
        }
        todo = [step for task in tasks for step in ((task.task, *task.values), (TASK_DONE,))]
        steps = self._planner.plan(state, todo)
        done = steps is not None and all(name == TASK_DONE for name, *_ in steps)
        hazards = self._hazards(tasks, belief, said) if steps is None or done else []
        if done and any(hazard.forbids for hazard in hazards):
            steps = None  # "throw it to me" when it is already given: still never thrown
            hazards = [hazard for hazard in hazards if hazard.forbids]
        if steps is None:
            reasons = (*(hazard.sentence for hazard in hazards), *failures.messages())
            plan = TaskPlan(
                task=first, then=tuple(then), ok=False, failures=reasons, limits=failures.limits()
            )
            log.info("%s", plan.message)
            return plan
        skills: list[SkillCall] = []
        parts: list[int] = []
        counted = 0
        for name, *values in steps:
            if name == TASK_DONE:
                parts.append(len(skills) - counted)
                counted = len(skills)
            elif name != SKIP:
                skills.append(skill_call_from_values(name, tuple(values)))
        return TaskPlan(
            task=first,
            then=tuple(then),
            ok=True,
            skills=tuple(skills),
            parts=tuple(parts) if then else (),
            skipped=tuple(s[1] for s in steps if s[0] == SKIP),
            failures=failures.messages(),
        )

    def _hazards(
        self, tasks: Sequence[TaskCall], belief: Belief, said: tuple[str, ...]
    ) -> list[Hazard]:
        """The hazards of what ``tasks`` ask for, whatever plan would do them."""
        rules = self._rules or shipped_hazard_rules()
        asked = [
            (task.task, {name: str(value) for name, value in _set_args(task).items()})
            for task in tasks
        ]
        return task_hazards(rules, asked, belief, said)


def _set_args(task: TaskCall) -> dict[str, Any]:
    """``task``'s arguments by name, without the optional ones left unset."""
    return task.args.model_dump(exclude_none=True)


class _FailureLog:
    """Precondition failures of one search; every copy of the state shares this one log."""

    def __init__(self) -> None:
        self._messages: dict[str, None] = {}
        self._limits: dict[Limit, None] = {}

    def add(self, message: str, limit: Limit | None = None) -> None:
        self._messages.setdefault(message)
        if limit is not None:
            self._limits.setdefault(limit)

    def messages(self) -> tuple[str, ...]:
        return tuple(self._messages)

    def limits(self) -> tuple[Limit, ...]:
        return tuple(self._limits)

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


Outcome = TaskState | Literal[False]


# -- actions: the skills, plus the bookkeeping of what tidy skipped ----------------------------


def _skill_action(skill: str) -> Action:
    def run_skill(state: TaskState, *values: Any) -> Outcome:
        call = skill_call_from_values(skill, values)
        report = check_preconditions(call, state.belief)
        if not report.ok:
            state.failures.add(report.message, limit_of(report, state.belief))
            return False
        state.belief = project(call, state.belief)
        state.steps += 1
        return state

    return run_skill


def _skip(state: TaskState, thing: str) -> Outcome:
    state.skipped = (*state.skipped, thing)
    state.steps += 1
    return state


def _task_done(state: TaskState) -> Outcome:
    state.steps += 1
    return state


_ACTIONS: Mapping[str, Action] = MappingProxyType(
    {
        **{skill: _skill_action(skill) for skill in SKILL_SPECS},
        SKIP: _skip,
        TASK_DONE: _task_done,
    }
)


# -- methods -----------------------------------------------------------------------------------


def _closed_container(belief: Belief, thing: str) -> str | None:
    """The closed container ``thing`` is believed to be in, if any."""
    found = belief.things.get(thing)
    if found is None or found.relation != "in" or found.support is None:
        return None
    return found.support if closed_place(belief, found.support) else None


def _fetch_held(state: TaskState, thing: str) -> Subtasks:
    return [] if thing in state.belief.held else False


def _fetch(state: TaskState, hand: Hand, thing: str) -> Subtasks:
    if thing in state.belief.held:
        return False
    container = _closed_container(state.belief, thing)
    if container is None:
        return [("go_to", thing), ("PICK", thing, hand)]
    return [
        ("go_to", thing),
        ("OPEN", container),
        ("PICK", thing, hand),
        ("close_if_possible", container),
    ]


def _already_here(state: TaskState, target: str) -> Subtasks:
    room = state.belief.room_of(target)
    return [] if room is not None and room == state.belief.robot_room else False


def _travel(state: TaskState, target: str) -> Subtasks:
    found = state.belief.things.get(target)
    if found is not None and found.relation in ("on", "in") and found.support is not None:
        return [("GOTO", found.support)]
    return [("GOTO", target)]


def _delivered(state: TaskState, thing: str, destination: str) -> Subtasks:
    found = state.belief.things.get(thing)
    return [] if found is not None and found.support == destination else False


def _bring_to_person(state: TaskState, thing: str, person: str) -> Subtasks:
    if state.belief.kind_of(person) != "person":
        return False
    return [("fetch", thing), ("give", thing, person)]


def _bring_to_place(state: TaskState, thing: str, place: str) -> Subtasks:
    if state.belief.kind_of(place) not in ("surface", "container"):
        return False
    return [("fetch", thing), ("deliver", thing, place)]


def _bring_opening_first(state: TaskState, thing: str, place: str) -> Subtasks:
    """For a closed container: open it before fetching, so a hand is free to open it."""
    if not closed_place(state.belief, place):
        return False
    return [
        ("go_to", place),
        ("OPEN", place),
        ("fetch", thing),
        ("deliver", thing, place),
        ("close_if_possible", place),
    ]


def _unknown_destination(state: TaskState, thing: str, destination: str) -> Subtasks:
    if state.belief.kind_of(destination) not in ("person", "surface", "container"):
        state.failures.add(
            f"bring({thing}, {destination}): {destination} is not a person, surface or "
            "container of the belief"
        )
    return False


def _give(state: TaskState, hand: Hand, thing: str, person: str) -> Subtasks:
    if not state.belief.may_hold_in(thing, hand):
        return False
    return [("HANDOVER", thing, person, hand)]


def _deliver(state: TaskState, hand: Hand, thing: str, place: str) -> Subtasks:
    if not state.belief.may_hold_in(thing, hand):
        return False
    if closed_place(state.belief, place):
        return [
            ("go_to", place),
            ("OPEN", place),
            ("PLACE", thing, place, hand),
            ("close_if_possible", place),
        ]
    return [("go_to", place), ("PLACE", thing, place, hand)]


def _place_relative(state: TaskState, thing: str, relation: str, landmark: str) -> Subtasks:
    if relation in ("on", "in"):
        return [("bring", thing, landmark)]
    if state.belief.landmark_surface(landmark) is None:
        found = state.belief.things.get(landmark)
        why = "not in the belief" if found is None else "not resting on a surface"
        state.failures.add(
            f"place_relative({thing}, {relation}, {landmark}): {landmark} is {why}: "
            f"look for {landmark} first"
        )
        return False
    return [("fetch", thing), ("set_beside", thing, relation, landmark)]


def _set_beside(state: TaskState, hand: Hand, thing: str, relation: str, landmark: str) -> Subtasks:
    surface = state.belief.landmark_surface(landmark)
    if surface is None or not state.belief.may_hold_in(thing, hand):
        return False
    return [("go_to", surface), ("PLACE", thing, landmark, hand, relation)]


def _at_home(state: TaskState, thing: str) -> Subtasks:
    return [] if state.belief.is_at_home(thing) else False


def _to_home(state: TaskState, thing: str) -> Subtasks:
    home = state.belief.homes.get(thing)
    if home is None:
        state.failures.add(f"put_away({thing}): the belief has no home place for {thing}")
        return False
    return [("bring", thing, home)]


def _tidy(state: TaskState, room: str) -> Subtasks:
    belief = state.belief
    if room not in belief.rooms:
        known = ", ".join(sorted(belief.rooms))
        state.failures.add(f"tidy({room}): {room} is not a room of the belief (rooms: {known})")
        return False
    out_of_place = _out_of_place(belief, room)
    homeless = _without_home(belief, room)
    if not out_of_place and homeless:
        state.failures.add(
            f"tidy({room}): no home place known for {', '.join(homeless)}: ask where they go"
        )
        return False
    return [("put_away_or_skip", thing) for thing in out_of_place]


def _objects_in(belief: Belief, room: str) -> list[Thing]:
    """The objects the belief places in ``room``, by id."""
    return [
        thing
        for thing in sorted(belief.things.values(), key=lambda t: t.id)
        if thing.kind == "object" and thing.room == room
    ]


def _without_home(belief: Belief, room: str) -> list[str]:
    """Loose objects in ``room`` (not held by anyone) whose home place the belief lacks."""
    return [
        thing.id
        for thing in _objects_in(belief, room)
        if thing.id not in belief.homes and thing.relation != "heldBy"
    ]


def _out_of_place(belief: Belief, room: str) -> list[str]:
    """Objects in ``room`` with a home they are not at (held by a person: in use, not out)."""
    return [
        thing.id
        for thing in _objects_in(belief, room)
        if thing.id in belief.homes
        and not belief.is_at_home(thing.id)
        and (thing.relation != "heldBy" or thing.id in belief.held)
    ]


def _put_away(state: TaskState, thing: str) -> Subtasks:
    return [("put_away", thing)]


def _skip_it(state: TaskState, thing: str) -> Subtasks:
    return [(SKIP, thing)]


_METHODS: Mapping[str, tuple[Method, ...]] = MappingProxyType(
    {
        "fetch": (_fetch_held, *per_hand("fetch", _fetch)),
        "go_to": (_already_here, _travel),
        "bring": (
            _delivered,
            _bring_to_person,
            _bring_to_place,
            _bring_opening_first,
            _unknown_destination,
        ),
        "give": per_hand("give", _give),
        "deliver": per_hand("deliver", _deliver),
        "put_away": (_at_home, _to_home),
        "put_away_or_skip": (_put_away, _skip_it),
        "tidy": (_tidy,),
        "place_relative": (_place_relative,),
        "set_beside": per_hand("set_beside", _set_beside),
        **TASK_METHODS,
    }
)
