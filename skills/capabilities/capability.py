"""What a capability is: one thing the robot can do, whole, in one module.

A :class:`Capability` ("wipe", "fill", "switch") holds its robot skills (argument model,
preconditions, expected effect on the belief, the HTN methods that turn a call into low-level
commands, the facts a step leaves behind and how to see them in the scene graph after it
ran), the low-level commands it adds (with their effect during decomposition, and what
each does in a simulated world and how long it takes there), its tasks
(argument model, the HTN methods that decompose a request into skills, the skills the task
stands for when hazards are judged, which things an unsaid argument may take, and the state
the task leaves its one argument in) and the helper tasks its methods use. The registry
(:mod:`cogtree.skills.capabilities.registry`) gathers every capability, and the planner, the
decomposer, the plan validator and dry run, the hazard rules, the outcome checks and the
simulator's executor read it.

Capability methods are written against the two planning states defined here:
:class:`TaskState` (task planning) and :class:`SkillState` (skill decomposition), and use the
helpers below (one method per hand, the nearest of several candidates).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.belief import Belief, HazardFlag, Thing
from cogtree.skills.action_model.checks import Check
from cogtree.skills.action_model.commands import CommandName
from cogtree.skills.action_model.ground_truth import Rule, world_rule
from cogtree.skills.action_model.specs import HAND_NAMES, CallSpec, Hand

Step = tuple[Any, ...]
"""A task or action with its arguments: ``("PICK", "bottle_blue", "right")``."""

Method = Callable[..., Any]
"""``(state, *args) -> list of subtasks | False``: one way to decompose a task."""

Action = Callable[..., Any]
"""``(state, *args) -> state | False``: a primitive step and its effect on the state."""

SKIP = "skip"
"""The bookkeeping action of task planning that records an object ``tidy`` leaves out of
place (the plan reports it)."""

Subtasks = list[Step] | Literal[False]
"""What a method returns: the subtasks, or False when it does not apply."""

LimitKind = Literal["reach", "place", "grasp", "carry", "skill", "tool"]
"""Why the robot cannot: where the thing is, where a place is, what the thing is, what the
robot is, what the belief lacks."""


@dataclass(frozen=True)
class Limit:
    """One dead end of planning: ``kind``, the ``thing`` it is about, and why in plain words."""

    kind: LimitKind
    thing: str
    reason: str


def no_tool(thing: str, needed: str, verb: str) -> Limit:
    """A tool or fixture the belief does not hold: ``I know of no cloth or sponge to wipe with``."""
    return Limit("tool", thing, f"I know of no {needed} to {verb}")


class Failures(Protocol):
    """The failure log of one task-planning search (shared by every copy of the state)."""

    def add(self, message: str, limit: Limit | None = None) -> None:
        """Record why a method or skill failed, and the robot's limit behind it if any."""
        ...


class TaskState(Protocol):
    """The gtpyhop state of task planning.

    ``belief`` (the immutable snapshot the plan has led to), ``start`` (the belief planning
    started from, never changed), ``failures`` (the search's failure log), ``skipped``
    (objects ``tidy`` left out of place on this branch), ``steps`` (one more per action) and
    ``said`` (the request's words).
    """

    belief: Belief
    start: Belief
    failures: Failures
    skipped: tuple[str, ...]
    steps: int
    said: tuple[str, ...]


class SkillState(Protocol):
    """The gtpyhop state of skill decomposition.

    ``belief`` (the snapshot), ``near`` (what the robot last approached), ``gripper_open``
    (hands whose gripper is open and empty) and ``steps`` (one more per command).
    """

    belief: Belief
    near: str | None
    gripper_open: tuple[Hand, ...]
    steps: int


FactKind = Literal["where", "beside", "open", "powered", "clean", "filled", "at", "did"]
"""What a fact is about: where a thing is (on, in, held by), a side relation to a landmark, a
container's or appliance's state, a surface being clean, a container holding liquid, where a
robot is, and an ability a person did."""


@dataclass(frozen=True)
class Fact:
    """One fact a plan is for: ``kind`` of ``subject`` is ``value``.

    ``where``: value is the support (a surface, container, bin, or the robot or person holding
    it); ``beside``: value is ``relation:landmark``; ``open``: ``open``/``closed``;
    ``powered``: ``on``/``off``; ``clean`` / ``filled``: ``yes``; ``at``: the robot's room;
    ``did``: subject is the ability, value the person.
    """

    kind: FactKind
    subject: str
    value: str

    @property
    def key(self) -> tuple[str, str]:
        """What the fact is about: a later fact with the same key replaces it.

        A side relation is where the thing is, as a placement is: "the spoon is left of the
        bowl" replaces "the spoon is held by me" of the PICK before it.
        """
        return ("where" if self.kind == "beside" else self.kind, self.subject)

    def names(self) -> set[str]:
        """The ids the fact names."""
        if self.kind in ("where", "beside"):
            return {self.subject, self.value.partition(":")[2]}
        return {self.subject, self.value} if self.kind in ("at", "did") else {self.subject}


StepFacts = Callable[[Any, str, Mapping[str, str | None]], list[Fact]]
"""The facts a skill's step leaves behind: ``(args, doer, rooms) -> facts`` (``rooms``: a
GOTO target's room)."""


def no_facts(args: Any, doer: str, rooms: Mapping[str, str | None]) -> list[Fact]:
    """A step that leaves no fact behind (speaking, waiting)."""
    return []


Reflect = Callable[[Mapping[str, Any], str, SceneGraph], tuple[bool, str]]
"""Whether a step's intended effect shows in the belief after it ran: ``(step args, agent,
belief) -> (achieved, what the belief says)``."""


def robot_room(agent: str, belief: SceneGraph) -> str | None:
    """The room the scene graph puts robot ``agent`` in, if any."""
    states = belief.robot_state(agent)
    return states[0].room if states else None


def placement(thing: str, belief: SceneGraph) -> tuple[str, str] | None:
    """How the scene graph places ``thing``: (relation, support), if it does."""
    location = belief.locate_object(thing)
    return (location.relation, location.support) if location is not None else None


Checks = Callable[[Belief, Any], Iterator[Check]]
"""A skill's preconditions: ``(belief, args) -> checks``, in order."""

Effect = Callable[[Belief, Any], Belief]
"""A skill's expected effect: ``(belief, args) -> belief after the skill``."""

Outline = Callable[[Belief, dict[str, str], Sequence[str]], list[tuple[str, dict[str, str]]]]
"""The skills a task stands for in the simplest case, as ``(skill, args)`` pairs, from the
belief, the task's arguments and the request's words (how much a pour asks for)."""


RecoveryRole = Literal["goes", "waits"]
"""A skill's part in a recovery learnt from experience, which the HTN replan may run before the
task: it takes the robot to its ``target``, or lets time pass; neither changes a thing the
task acts on."""


@dataclass(frozen=True)
class SkillKind:
    """A robot skill: its spec, preconditions, effect, decomposition methods and step facts.

    ``facts``: what a step of the skill leaves behind, which a plan is for (outcome checks);
    ``reflect``: whether a step's effect shows in the belief (None: nothing to check there);
    ``recovery``: its part in a learnt recovery (None: a recovery holding it is left to the
    planner model).
    """

    spec: CallSpec
    checks: Checks
    effect: Effect
    methods: tuple[Method, ...]
    facts: StepFacts = no_facts
    reflect: Reflect | None = None
    recovery: RecoveryRole | None = None


@dataclass(frozen=True)
class CommandKind:
    """A low-level command: its argument names (in order) and its effect in decomposition.

    ``simulate``: what it does in a simulated world; ``ticks``: how long it takes there.
    """

    name: CommandName
    args: tuple[str, ...]
    action: Action
    simulate: Rule
    ticks: int = 1


def world_command(name: CommandName, args: tuple[str, ...], action: Action) -> CommandKind:
    """A one-tick command whose simulated effect is the world's method of the same name.

    That method is called with the robot and the things the arguments name, in order.
    """
    return CommandKind(name, args, action, world_rule(name, args))


@dataclass(frozen=True)
class TaskKind:
    """A task of the task planner.

    ``outline``: the skills it stands for when its hazards are judged (None: none);
    ``fits``: per argument, which things of the belief it may take when the user left it
    unsaid; ``ends_in``: the word for the state its one argument ends in (``clean``), for
    saying that nothing needed doing.
    """

    spec: CallSpec
    methods: tuple[Method, ...]
    outline: Outline | None = None
    fits: Mapping[str, Callable[[Thing], bool]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    ends_in: str | None = None


@dataclass(frozen=True)
class Capability:
    """One thing the robot can do: its skills, commands, tasks and helper tasks."""

    name: str
    skills: tuple[SkillKind, ...] = ()
    commands: tuple[CommandKind, ...] = ()
    tasks: tuple[TaskKind, ...] = ()
    helpers: Mapping[str, tuple[Method, ...]] = field(default_factory=lambda: MappingProxyType({}))


# -- helpers for capability methods -----------------------------------------------------------


def done(state: SkillState) -> SkillState:
    """Count one more command (so gtpyhop keeps commands that change nothing else)."""
    state.steps += 1
    return state


def hands_to_try(belief: Belief) -> tuple[Hand, ...]:
    """The robot's hands; for a robot without hands, one, so PICK can say why it fails."""
    return belief.robot.hands or HAND_NAMES[:1]


def per_hand(name: str, build: Callable[..., Subtasks]) -> tuple[Method, ...]:
    """One method per hand name: ``build(state, hand, *args)`` when the hand may be used."""

    def for_hand(hand: Hand) -> Method:
        def method(state: TaskState, *args: str) -> Subtasks:
            if hand not in hands_to_try(state.belief):
                return False
            return build(state, hand, *args)

        method.__name__ = f"{name}_with_{hand}"
        return method

    return tuple(for_hand(hand) for hand in HAND_NAMES)


def with_flag(belief: Belief, flag: HazardFlag) -> list[Thing]:
    """The things of ``belief`` that have ``flag``."""
    return [thing for thing in belief.things.values() if flag in thing.flags]


def nearest(belief: Belief, candidates: list[Thing], near: str | None) -> list[str]:
    """``candidates`` by id, those in the room of ``near`` (or the robot's) first."""
    room = belief.room_of(near) if near is not None else None
    here = room or belief.robot_room
    return [t.id for t in sorted(candidates, key=lambda t: (t.room != here, t.id))]


def closed_place(belief: Belief, place: str) -> bool:
    """Whether ``place`` is a container the belief has closed."""
    found = belief.things.get(place)
    return found is not None and found.kind == "container" and found.is_open is False


def into_place(belief: Belief, place: str, step: tuple[str, ...]) -> Subtasks:
    """Go to ``place`` and do ``step`` there, opened first and closed after if it is closed.

    A cupboard, a bin with a lid: :func:`closed_place` says whether the belief has it closed.
    """
    if closed_place(belief, place):
        return [("go_to", place), ("OPEN", place), step, ("close_if_possible", place)]
    return [("go_to", place), step]
