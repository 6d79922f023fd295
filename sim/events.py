"""Disruptions: things that happen to the world at a tick or on a condition.

An event has exactly one *trigger* and exactly one *action*, written side by side (a
scenario's ``events:`` list holds these)::

    - id: anna_moves_bottle             # optional; default event_<position>
      after_commands: 1                 # trigger
      move_object: {object: bottle, on: table_2, by: anna}   # action
      note: Anna takes the bottle to the bedroom.

Triggers (each event fires at most once):

``at_tick: N``
    when the clock reaches tick N (N >= 1).
``after_commands: N``
    when the N-th command is submitted, before it runs. ``after_commands: 1`` is "after the
    robot has planned": the world changes under the plan it just made.
``on_command: NAME``
    when the first command of that name (``grasp``, ``navigate``, ...) is submitted.
``robot_enters: ROOM``
    when a robot arrives in that room by navigating (it was not there before).
``when: PREDICATE``
    the first time the predicate holds (``holds(robot1, bottle)``, ``did(anna, print)``):
    checked after every submitted command, every tick and every other event, so a condition
    that is true from the start fires at the first check.

With ``robot: ID`` only that robot's commands or arrivals count; ``delay_ticks: N`` acts N
ticks after the trigger.

Actions:

``move_object: {object: X, on|in|room|held_by: Y, by: PERSON}``
    someone moves an object (out of a robot's hand too).
``open: X`` / ``close: X``
    a container or door is opened or closed.
``lock: DOOR`` / ``unlock: DOOR``, ``block: DOOR`` / ``unblock: DOOR``
    a door is locked (and closed) or unlocked; a door or passage is blocked or cleared.
``move_person: {person: P, to: ROOM}``
    a person goes to a room; ``to: null`` means they leave the home.
``set_availability: {person: P, status: busy|available|away|asleep|null}``
    a person becomes busy (null: back to their schedule).
``set_reachable: {person: P, reachable: false}``
    a person stops (or starts) answering.
``grasp_slip: {probability: 0.5, object: X}``
    from now on, grasping or lifting that object (every object when ``object`` is left out)
    slips with that probability; the draw uses the world's seeded generator.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field, model_validator
from typing_extensions import Self

from cogtree.sim.predicates import PredicateText
from cogtree.sim.world import World
from cogtree.sim.world_spec import (
    Availability,
    Id,
    Kind,
    PlacementSpec,
    Problem,
    SpecModel,
    WorldSpec,
)
from cogtree.skills.action_model.commands import Command, CommandName

log = logging.getLogger(__name__)


class MoveObject(PlacementSpec):
    """Someone moves an object to a new place (exactly one of on / in / room / held_by)."""

    object: Id
    by: Id | None = Field(None, description="the person who does it (for the story)")


class MovePerson(SpecModel):
    """A person goes to another room, or leaves the home (``to: null``)."""

    person: Id
    to: Id | None


class SetAvailability(SpecModel):
    """A person's availability changes (``status: null``: back to their schedule)."""

    person: Id
    status: Availability | None


class SetReachable(SpecModel):
    """A person stops or starts answering."""

    person: Id
    reachable: bool


class GraspSlip(SpecModel):
    """Grasps and lifts of an object (or of every object) slip with this probability."""

    probability: float = Field(ge=0.0, le=1.0)
    object: Id | None = Field(None, description="None: every object")


class Event(SpecModel):
    """One disruption: exactly one trigger and exactly one action (see the module docs)."""

    TRIGGERS: ClassVar[tuple[str, ...]] = (
        "at_tick",
        "after_commands",
        "on_command",
        "robot_enters",
        "when",
    )
    ACTIONS: ClassVar[tuple[str, ...]] = (
        "move_object",
        "open",
        "close",
        "lock",
        "unlock",
        "block",
        "unblock",
        "move_person",
        "set_availability",
        "set_reachable",
        "grasp_slip",
    )

    id: Id | None = Field(None, description="default: event_<position, from 1>")
    note: str = Field("", description="what happens, in words, for people reading")
    at_tick: int | None = Field(None, ge=1)
    after_commands: int | None = Field(None, ge=1)
    on_command: CommandName | None = None
    robot_enters: Id | None = None
    when: PredicateText | None = None
    robot: Id | None = Field(None, description="only this robot's commands or arrivals count")
    delay_ticks: int = Field(0, ge=0)
    move_object: MoveObject | None = None
    open: Id | None = None
    close: Id | None = None
    lock: Id | None = None
    unlock: Id | None = None
    block: Id | None = None
    unblock: Id | None = None
    move_person: MovePerson | None = None
    set_availability: SetAvailability | None = None
    set_reachable: SetReachable | None = None
    grasp_slip: GraspSlip | None = None

    @model_validator(mode="after")
    def _one_trigger_one_action(self) -> Self:
        for group, names in (("trigger", self.TRIGGERS), ("action", self.ACTIONS)):
            given = [name for name in names if getattr(self, name) is not None]
            if len(given) != 1:
                got = f" (got {', '.join(given)})" if given else ""
                raise ValueError(
                    f"an event needs exactly one {group}: one of {', '.join(names)}{got}"
                )
        if self.robot is not None and self.trigger in ("at_tick", "when"):
            raise ValueError(f"`robot` does not apply to the `{self.trigger}` trigger")
        return self

    @property
    def trigger(self) -> str:
        """The name of the trigger field that is set."""
        return next(name for name in self.TRIGGERS if getattr(self, name) is not None)

    @property
    def action(self) -> str:
        """The name of the action field that is set."""
        return next(name for name in self.ACTIONS if getattr(self, name) is not None)

    def describe_trigger(self) -> str:
        """The trigger in words: ``after 1 command``, ``when robot1 enters kitchen``."""
        whose = f" of {self.robot}" if self.robot else ""
        texts = {
            "at_tick": f"at tick {self.at_tick}",
            "after_commands": f"after {self.after_commands} command"
            f"{'s' * (self.after_commands != 1)}{whose}",
            "on_command": f"on the first {self.on_command} command{whose}",
            "robot_enters": f"when {self.robot or 'a robot'} enters {self.robot_enters}",
            "when": f"when {self.when}",
        }
        delay = f", {self.delay_ticks} ticks later" if self.delay_ticks else ""
        return texts[self.trigger] + delay

    def describe_action(self) -> str:
        """The action in words: ``move bottle on table_2 (by anna)``, ``close fridge``."""
        action = self.action
        if self.move_object is not None:
            move = self.move_object
            by = f" (by {move.by})" if move.by else ""
            return f"move {move.object} {move.placement.describe()}{by}"
        if self.move_person is not None:
            person = self.move_person
            return f"{person.person} goes {'to ' + person.to if person.to else 'out'}"
        if self.set_availability is not None:
            status = self.set_availability.status or "back on schedule"
            return f"{self.set_availability.person} becomes {status}"
        if self.set_reachable is not None:
            reach = "reachable" if self.set_reachable.reachable else "unreachable"
            return f"{self.set_reachable.person} becomes {reach}"
        if self.grasp_slip is not None:
            what = self.grasp_slip.object or "every object"
            return f"grasps of {what} slip with probability {self.grasp_slip.probability}"
        return f"{action} {getattr(self, action)}"

    def problems(self, spec: WorldSpec, field: str) -> list[Problem]:
        """References to things that do not exist, or are of the wrong kind, in ``spec``."""
        checks: list[tuple[str, str | None, tuple[Kind, ...]]] = [
            ("robot_enters", self.robot_enters, ("room",)),
            ("robot", self.robot, ("robot",)),
            ("open", self.open, ("container", "door")),
            ("close", self.close, ("container", "door")),
            ("lock", self.lock, ("door",)),
            ("unlock", self.unlock, ("door",)),
            ("block", self.block, ("door",)),
            ("unblock", self.unblock, ("door",)),
        ]
        if self.move_object is not None:
            move = self.move_object
            checks += [("move_object.object", move.object, ("object",))]
            checks += [("move_object.by", move.by, ("person",))]
        if self.move_person is not None:
            checks.append(("move_person.person", self.move_person.person, ("person",)))
            checks.append(("move_person.to", self.move_person.to, ("room",)))
        if self.set_availability is not None:
            checks.append(("set_availability.person", self.set_availability.person, ("person",)))
        if self.set_reachable is not None:
            checks.append(("set_reachable.person", self.set_reachable.person, ("person",)))
        if self.grasp_slip is not None:
            checks.append(("grasp_slip.object", self.grasp_slip.object, ("object",)))
        found = [
            problem
            for name, thing, kinds in checks
            if thing is not None
            for problem in spec.reference(f"{field}.{name}", thing, *kinds)
        ]
        if self.move_object is not None:
            found += spec.placement_problems(f"{field}.move_object", self.move_object.placement)
        found += self._closing_problems(spec, field)
        if self.when is not None:
            found += self.when.problems(spec, f"{field}.when")
        return found

    def _closing_problems(self, spec: WorldSpec, field: str) -> list[Problem]:
        for name in ("open", "close", "lock", "unlock"):
            door = getattr(self, name)
            if door in spec.doors and spec.doors[door].kind == "passage":
                return [Problem(f"{field}.{name}", f"{door} is a passage: it has no door")]
        return []

    def apply(self, world: World) -> None:
        """Make the action happen to ``world`` (no checks: the scenario says it happens)."""
        if self.move_object is not None:
            move = self.move_object
            world.move_object(move.object, move.placement, by=move.by)
        elif self.open is not None or self.close is not None:
            world.set_open(self.open or self.close or "", self.open is not None)
        elif self.lock is not None or self.unlock is not None:
            world.set_locked(self.lock or self.unlock or "", self.lock is not None)
        elif self.block is not None or self.unblock is not None:
            world.set_blocked(self.block or self.unblock or "", self.block is not None)
        elif self.move_person is not None:
            world.move_person(self.move_person.person, self.move_person.to)
        elif self.set_availability is not None:
            world.set_availability(self.set_availability.person, self.set_availability.status)
        elif self.set_reachable is not None:
            world.set_reachable(self.set_reachable.person, self.set_reachable.reachable)
        elif self.grasp_slip is not None:
            world.set_slip(self.grasp_slip.object, self.grasp_slip.probability)


@dataclass(frozen=True)
class FiredEvent:
    """An event that happened: its id, when it was triggered and applied, what it did."""

    event: str
    triggered_at: int
    applied_at: int
    description: str


class EventEngine:
    """Fires a scenario's events as the run goes; the executor calls its hooks.

    Hooks: :meth:`command_submitted` (before the command runs), :meth:`robot_arrived` (after
    a navigation), :meth:`check` (every tick, after commands finish). Each applies what is
    due and then every ``when`` event whose condition holds, until nothing more fires.
    """

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._events = list(events)
        self.ids = [event.id or f"event_{i}" for i, event in enumerate(self._events, start=1)]
        self._triggered: dict[int, int] = {}
        self._due: list[tuple[int, int]] = []
        self._submitted: Counter[str] = Counter()
        self.fired: list[FiredEvent] = []

    @property
    def pending(self) -> list[str]:
        """The ids of events that have not happened yet."""
        done = {fired.event for fired in self.fired}
        return [event_id for event_id in self.ids if event_id not in done]

    def replay_on(self, world: World) -> None:
        """Apply the events that fired here to ``world``, in the order they fired (nothing else).

        What the world alone did during a run: replayed on a fresh world, it shows whether the
        goal would hold without the robot (:meth:`sim.scenario.Scenario.credit`).
        """
        by_id = dict(zip(self.ids, self._events, strict=True))
        for fired in self.fired:
            by_id[fired.event].apply(world)

    def command_submitted(self, command: Command, world: World) -> None:
        """Count ``command`` and fire ``after_commands`` / ``on_command`` events it triggers."""
        self._submitted[command.robot] += 1
        total = sum(self._submitted.values())
        for index, event in self._waiting():
            count = total if event.robot is None else self._submitted[event.robot]
            mine = event.robot in (None, command.robot)
            if (event.after_commands is not None and mine and count >= event.after_commands) or (
                event.on_command == command.name and mine
            ):
                self._trigger(index, world)
        self._settle(world)

    def robot_arrived(self, robot: str, room: str, world: World) -> None:
        """Fire ``robot_enters`` events for ``robot`` arriving in ``room``."""
        for index, event in self._waiting():
            if event.robot_enters == room and event.robot in (None, robot):
                self._trigger(index, world)
        self._settle(world)

    def check(self, world: World) -> None:
        """Fire ``at_tick`` events that are due, delayed actions, and ``when`` conditions."""
        for index, event in self._waiting():
            if event.at_tick is not None and world.tick >= event.at_tick:
                self._trigger(index, world)
        self._settle(world)

    def _waiting(self) -> list[tuple[int, Event]]:
        return [(i, e) for i, e in enumerate(self._events) if i not in self._triggered]

    def _trigger(self, index: int, world: World) -> None:
        self._triggered[index] = world.tick
        self._due.append((world.tick + self._events[index].delay_ticks, index))

    def _settle(self, world: World) -> None:
        """Apply due actions, then trigger ``when`` events that hold, until nothing changes."""
        while True:
            due = sorted(entry for entry in self._due if entry[0] <= world.tick)
            for entry in due:
                self._due.remove(entry)
                self._apply(entry[1], world)
            newly = [
                index
                for index, event in self._waiting()
                if event.when is not None and event.when.holds(world)
            ]
            for index in newly:
                self._trigger(index, world)
            if not due and not newly:
                return

    def _apply(self, index: int, world: World) -> None:
        event = self._events[index]
        description = event.describe_action()
        world.note(f"event {self.ids[index]} ({event.describe_trigger()}): {description}")
        event.apply(world)
        fired = FiredEvent(self.ids[index], self._triggered[index], world.tick, description)
        self.fired.append(fired)
        log.info("event %s at tick %d: %s", fired.event, fired.applied_at, description)
