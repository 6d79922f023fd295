"""Ground truth of the symbolic world and its rules, with a clock and one seeded generator.

:class:`World` starts from a :class:`~sim.world_spec.WorldSpec` (what exists and how it
starts) and keeps what changes in a :class:`WorldState` (a pydantic model: where everything
is now, which doors and containers are open, who is busy, the tick, a history). Its one
:class:`random.Random` is the only randomness of a run, so the same seed gives the same run.

It implements :class:`~skills.action_model.ground_truth.GroundTruth`, the world a command's
rule acts on (each capability's module holds the rules of its commands; the simulator's
executor runs them):

- *Readings and checks* (``kind_of``, ``held``, ``is_full``, ``refusal``, ``holding_near``, ...).
- *Robot rules* for the commands that move things, robots and doors about (``navigate``,
  ``grasp``, ``put``, ``open_or_close``, ``handover``, ...), which share the world's geometry:
  each checks the command against ground truth, changes the state only when it succeeds, and
  returns a :class:`~skills.action_model.commands.Feedback` whose code comes from the
  failure-experience vocabulary and whose message names the reason ("bottle is not on table_1
  in kitchen").
- *Ground-truth changes* without checks (``put_in``, ``add_liquid``, ``move_object``,
  ``set_open``, ``move_person``, ...): what the other rules, disruptions (:mod:`sim.events`)
  and people (:mod:`sim.humans`) do to the world.

Geometry is symbolic. A robot is in a room and possibly *near* one thing (a piece of furniture,
a person, a robot, or an object on the floor) after ``approach`` or after navigating to a piece
of furniture; grasping and putting need the robot near the object's support or the target.
Heights: an object on a surface or in a container is at that furniture's ``height_m``, on the
floor at 0 m; a robot reaches heights from ``min_reach_m`` to ``max_reach_m``.

Kitchen state: what each object was set beside (``next_to`` a landmark, on the landmark's
surface), which appliances are switched on, what liquid each container holds and how much
(filling or pouring past the capacity spills the rest onto the furniture below, which is then
not clean), which surfaces are clean, and free space (a piece of furniture with ``slots``
takes that many objects at once).
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field

from cogtree.sim.world_spec import (
    CARRY,
    Availability,
    Kind,
    Placement,
    Relation,
    WorldError,
    WorldSpec,
)
from cogtree.skills.action_model.commands import Feedback, fail, ok

log = logging.getLogger(__name__)


class RobotPose(BaseModel):
    """Where a robot is: its room, and what it is near (None: nothing in particular)."""

    room: str
    near: str | None = None


class PersonState(BaseModel):
    """A person's situation now: where they are, any status set by an event, their work."""

    room: str | None
    status: Availability | None = Field(None, description="set by an event; beats schedule")
    reachable: bool = True
    busy_until: int | None = Field(None, description="tick a delegated task ends")


class TaskDone(BaseModel):
    """A delegated task someone finished."""

    model_config = ConfigDict(frozen=True)

    person: str
    ability: str
    tick: int


class Liquid(BaseModel):
    """What liquid a container holds and how much (millilitres)."""

    liquid: str
    ml: float


class Spill(BaseModel):
    """Liquid that ran over: where it landed, what it was, how much, and when."""

    model_config = ConfigDict(frozen=True)

    place: str
    liquid: str
    ml: float
    tick: int


class WorldState(BaseModel):
    """Everything about the world that changes. Dump it to compare two runs."""

    tick: int = 0
    placements: dict[str, Placement]
    robots: dict[str, RobotPose]
    people: dict[str, PersonState]
    open: dict[str, bool] = Field(description="containers and doors")
    locked: dict[str, bool]
    blocked: dict[str, bool]
    slip: dict[str, float] = Field(
        default_factory=dict, description="grasp-slip probability by object id, '*' for all"
    )
    grasped_from: dict[str, Placement] = Field(
        default_factory=dict, description="where held objects were taken from"
    )
    tasks_done: list[TaskDone] = Field(default_factory=list)
    history: list[str] = Field(default_factory=list, description="'[tick] what happened'")
    beside: dict[str, tuple[str, str]] = Field(
        default_factory=dict, description="object -> (relation, landmark) it was set in"
    )
    powered: dict[str, bool] = Field(default_factory=dict, description="appliances: on?")
    liquids: dict[str, Liquid] = Field(default_factory=dict, description="non-empty containers")
    clean: dict[str, bool] = Field(default_factory=dict, description="surfaces with a state")
    spills: list[Spill] = Field(default_factory=list)
    handle_first: list[str] = Field(
        default_factory=list, description="held objects turned handle first (present_handle)"
    )

    @classmethod
    def initial(cls, spec: WorldSpec) -> WorldState:
        """The state a world starts in; robot-held objects without a hand get a free one."""
        placements = {object_id: obj.placement for object_id, obj in spec.objects.items()}
        taken = {(p.support, p.hand) for p in placements.values() if p.hand is not None}
        for object_id, placement in list(placements.items()):
            robot = spec.robots.get(placement.support) if placement.relation == "held_by" else None
            if robot is not None and placement.hand is None:
                hand = next(h for h in robot.hands if (placement.support, h) not in taken)
                taken.add((placement.support, hand))
                placements[object_id] = placement.model_copy(update={"hand": hand})
        doors, furniture = spec.doors, spec.furniture
        return cls(
            placements=placements,
            robots={r: RobotPose(room=robot.room) for r, robot in spec.robots.items()},
            people={
                p: PersonState(room=person.room, reachable=person.reachable)
                for p, person in spec.people.items()
            },
            open={
                **{c: f.is_open_at_start for c, f in furniture.items() if f.kind == "container"},
                **{d: door.open for d, door in doors.items()},
            },
            locked={d: door.locked for d, door in doors.items()},
            blocked={d: door.blocked for d, door in doors.items()},
            powered={
                thing: bool(item.powered)
                for thing, item in [*furniture.items(), *spec.objects.items()]
                if "appliance" in item.flags
            },
            liquids={
                obj: Liquid(liquid=item.liquid, ml=item.liquid_ml)
                for obj, item in spec.objects.items()
                if item.liquid is not None
            },
            clean={f: item.clean for f, item in furniture.items() if item.clean is not None},
            beside={
                obj: ("next_to", item.next_to)
                for obj, item in spec.objects.items()
                if item.next_to is not None
            },
        )


class World:
    """Ground truth and its rules, with one seeded random generator.

    Args:
        spec: what the world holds at its start (checked: :class:`WorldError` lists every
            broken reference).
        seed: seeds the world's only random generator (grasp slips).

    """

    def __init__(self, spec: WorldSpec, *, seed: int = 0) -> None:
        problems = spec.problems()
        if problems:
            raise WorldError(problems)
        self.spec = spec
        self.seed = seed
        self.rng = random.Random(seed)
        self.state = WorldState.initial(spec)

    # -- time ----------------------------------------------------------------------------------

    @property
    def tick(self) -> int:
        """The clock's tick (0 at the start)."""
        return self.state.tick

    def now(self) -> datetime:
        """The simulated time (timezone-aware): the start plus the elapsed ticks."""
        clock = self.spec.clock
        return clock.start + timedelta(seconds=self.state.tick * clock.seconds_per_tick)

    def advance(self, ticks: int = 1) -> None:
        """Move the clock on by ``ticks``."""
        if ticks < 0:
            raise ValueError(f"the clock only moves forward, got {ticks} ticks")
        self.state.tick += ticks

    def note(self, text: str) -> None:
        """Add ``[tick] text`` to the history."""
        self.state.history.append(f"[{self.state.tick}] {text}")
        log.debug("world t=%d: %s", self.state.tick, text)

    # -- reading ground truth ------------------------------------------------------------------

    def kind_of(self, thing: str) -> Kind | None:
        """What ``thing`` names, or None."""
        return self.spec.kind_of(thing)

    def placement(self, obj: str) -> Placement:
        """Where object ``obj`` is now (KeyError for an unknown object)."""
        return self.state.placements[obj]

    def room_of(self, thing: str) -> str | None:
        """The room ``thing`` is in now (None: a person away from home, a door, unknown)."""
        kind = self.kind_of(thing)
        if kind == "room":
            return thing
        if kind == "robot":
            return self.state.robots[thing].room
        if kind == "person":
            return self.state.people[thing].room
        if kind in ("surface", "container"):
            furniture = self.spec.furniture[thing]
            if furniture.mounted_on is not None:
                return self.state.robots[furniture.mounted_on].room
            return furniture.room
        if kind == "object":
            placement = self.state.placements[thing]
            return (
                placement.support
                if placement.relation == "room"
                else self.room_of(placement.support)
            )
        return None

    def is_open(self, thing: str) -> bool:
        """Whether a container or door is open (surfaces and passages always are)."""
        return self.state.open.get(thing, True)

    def held(self, agent: str) -> dict[str, str]:
        """What ``agent`` holds: {hand: object} for a robot, {object: object} for a person."""
        return {
            placement.hand or obj: obj
            for obj, placement in self.state.placements.items()
            if placement.relation == "held_by" and placement.support == agent
        }

    def storage_of(self, robot: str) -> list[str]:
        """The containers mounted on ``robot``."""
        return [f for f, spec in self.spec.furniture.items() if spec.mounted_on == robot]

    def contents(self, furniture: str) -> list[str]:
        """The objects on or in ``furniture``."""
        return [
            obj
            for obj, placement in self.state.placements.items()
            if placement.relation in ("on", "in") and placement.support == furniture
        ]

    def flags_of(self, thing: str) -> tuple[str, ...]:
        """The hazard flags of furniture or an object (none for anything else)."""
        item = self.spec.furniture.get(thing) or self.spec.objects.get(thing)
        return item.flags if item is not None else ()

    def liquid_in(self, container: str) -> Liquid | None:
        """The liquid ``container`` holds now; None when empty."""
        return self.state.liquids.get(container)

    def is_empty(self, container: str) -> bool:
        """Whether ``container`` holds no liquid."""
        return self.liquid_in(container) is None

    def is_full(self, container: str) -> bool:
        """Whether ``container`` holds liquid up to its capacity (a known one)."""
        capacity, now = self._capacity(container), self.liquid_in(container)
        return capacity is not None and now is not None and now.ml >= capacity

    def _capacity(self, container: str) -> float | None:
        item = self.spec.objects.get(container)
        return item.capacity_ml if item is not None else None

    def bin_kind(self, thing: str) -> str | None:
        """The waste ``thing`` takes (recycling, compost, landfill), when it is a waste bin."""
        furniture = self.spec.furniture.get(thing)
        return furniture.bin if furniture is not None else None

    def robot_near(self, robot: str) -> str | None:
        """What ``robot`` is near (None: nothing in particular)."""
        return self.state.robots[robot].near

    def hands(self, robot: str) -> tuple[str, ...]:
        """The hands of ``robot`` (none for a base without an arm)."""
        return tuple(self.spec.robots[robot].hands)

    def is_powered(self, thing: str) -> bool:
        """Whether an appliance, tap or light is switched on."""
        return self.state.powered.get(thing, False)

    def carried_mass(self, robot: str) -> float:
        """Mass the robot carries: what it holds and what is in its mounted storage."""
        carried = list(self.held(robot).values())
        carried += [obj for storage in self.storage_of(robot) for obj in self.contents(storage)]
        return sum(self.spec.objects[obj].mass_kg for obj in carried)

    def hidden(self, obj: str) -> bool:
        """Whether ``obj`` is inside a closed container."""
        placement = self.state.placements[obj]
        return placement.relation == "in" and not self.is_open(placement.support)

    def visible_to(self, robot: str, thing: str) -> bool:
        """Whether ``robot`` can see ``thing``: same room, and not inside a closed container."""
        if self.room_of(thing) != self.state.robots[robot].room:
            return False
        return self.kind_of(thing) != "object" or not self.hidden(thing)

    def availability(self, person: str) -> Availability:
        """Whether ``person`` can help now: doing a task, an event's status, schedule, default."""
        state = self.state.people[person]
        if state.busy_until is not None and self.state.tick < state.busy_until:
            return "busy"
        if state.status is not None:
            return state.status
        spec = self.spec.people[person]
        entry = next((e for e in spec.schedule if e.covers(self.state.tick)), None)
        return entry.status if entry is not None else spec.availability

    def did(self, person: str, ability: str) -> bool:
        """Whether ``person`` has finished a delegated task of that ability."""
        return any(t.person == person and t.ability == ability for t in self.state.tasks_done)

    def height_of(self, obj: str) -> float:
        """The height an object rests at: its support's, 0 m on the floor."""
        placement = self.state.placements[obj]
        if placement.relation in ("on", "in"):
            return self.spec.furniture[placement.support].height_m
        return 0.0

    # -- navigation ----------------------------------------------------------------------------

    def route(
        self, start: str, goal: str, passable: Callable[[str], bool] | None = None
    ) -> list[str] | None:
        """The doors of a shortest way from room ``start`` to room ``goal`` (breadth first).

        ``passable`` says which doors may be used (all when omitted). Neighbours are visited
        in door-id order, so the route is deterministic. None when there is no way.
        """
        if start == goal:
            return []
        previous: dict[str, tuple[str, str]] = {}
        queue = deque([start])
        seen = {start}
        while queue:
            room = queue.popleft()
            for door_id in sorted(self.spec.doors):
                door = self.spec.doors[door_id]
                if room not in door.between or (passable is not None and not passable(door_id)):
                    continue
                other = door.between[1] if door.between[0] == room else door.between[0]
                if other in seen:
                    continue
                seen.add(other)
                previous[other] = (room, door_id)
                if other == goal:
                    doors = []
                    while other != start:
                        other, door_used = previous[other]
                        doors.append(door_used)
                    return doors[::-1]
                queue.append(other)
        return None

    def passable(self, door: str) -> bool:
        """Whether a robot can go through ``door`` now: open, unlocked and not blocked."""
        state = self.state
        return state.open[door] and not state.locked[door] and not state.blocked[door]

    def _unblocked(self, door: str) -> bool:
        return not self.state.blocked[door]

    def navigation_target_room(self, target: str) -> str | None:
        """The room navigating to ``target`` (a room or furniture) ends in; None otherwise."""
        if self.kind_of(target) in ("room", "surface", "container"):
            return self.room_of(target)
        return None

    # -- robot rules ---------------------------------------------------------------------------

    def refusal(self, robot: str, skill: str | None, action: str) -> Feedback | None:
        """A failure when ``robot`` is unknown or lacks ``skill``; None when it may act."""
        spec = self.spec.robots.get(robot)
        if spec is None:
            return fail(
                "object_not_found", f"no robot {robot!r} (robots: {', '.join(self.spec.robots)})"
            )
        if skill is not None and skill not in spec.skills:
            return fail(
                "capability_missing",
                f"{robot} cannot {action}: it lacks the {skill} skill "
                f"(skills: {', '.join(spec.skills) or 'none'})",
            )
        return None

    def _hand(self, robot: str, hand: str) -> Feedback | None:
        hands = self.spec.robots[robot].hands
        if not hands:
            return fail("capability_missing", f"{robot} has no hands")
        if hand not in hands:
            return fail(
                "capability_missing", f"{robot} has no hand {hand!r} (hands: {', '.join(hands)})"
            )
        return None

    def _object(self, obj: str) -> Feedback | None:
        if obj in self.spec.objects:
            return None
        kind = self.kind_of(obj)
        if kind is not None:
            return fail("object_not_found", f"{obj} is a {kind}, not an object")
        return fail("object_not_found", f"no object {obj!r} in the world")

    def navigate(self, robot: str, target: str) -> Feedback:
        """Drive to a room, or to a piece of furniture (then the robot is near it).

        Fails: object_not_found (no such room or furniture), path_blocked (no way, or the way
        is blocked), door_closed (the only ways go through a closed or locked door: it names
        the first one on the shortest such way).
        """
        refused = self.refusal(robot, "Goto", "navigate")
        if refused:
            return refused
        goal = self.navigation_target_room(target)
        if goal is None:
            kind = self.kind_of(target)
            what = f"{target} is a {kind}" if kind else f"there is no {target!r}"
            return fail(
                "object_not_found",
                f"cannot navigate to {target}: {what}; navigate to a room or a piece of furniture",
            )
        pose = self.state.robots[robot]
        doors = self.route(pose.room, goal, self.passable)
        if doors is None:
            return self._no_way(pose.room, goal)
        near = target if self.kind_of(target) in ("surface", "container") else None
        pose.room, pose.near = goal, near
        through = f" through {', '.join(doors)}" if doors else ""
        self.note(f"{robot} navigated to {target}{through}")
        return ok(f"{robot} is in {goal}" + (f" at {target}" if near else ""))

    def _no_way(self, start: str, goal: str) -> Feedback:
        closed_way = self.route(start, goal, self._unblocked)
        if closed_way is not None:
            door = next(d for d in closed_way if not self.passable(d))
            rooms = "-".join(self.spec.doors[door].between)
            state = "locked" if self.state.locked[door] else "closed"
            return fail("door_closed", f"{door} ({rooms}) on the way to {goal} is {state}")
        any_way = self.route(start, goal)
        if any_way is not None:
            blocked = [d for d in any_way if self.state.blocked[d]]
            return fail(
                "path_blocked", f"the way from {start} to {goal} is blocked at {', '.join(blocked)}"
            )
        return fail("path_blocked", f"no way from {start} to {goal}: the rooms are not connected")

    def approach(self, robot: str, target: str) -> Feedback:
        """Come within reach of furniture, an object, a person or a robot in the current room.

        Near an object means near its support (or the object itself, on the floor, or whoever
        holds it). Fails: object_not_found (no such thing, or a room or door),
        object_not_visible (not in this room, or inside a closed container),
        person_unavailable (the person is not in this room).
        """
        refused = self.refusal(robot, "Goto", "approach")
        if refused:
            return refused
        pose = self.state.robots[robot]
        kind = self.kind_of(target)
        if kind is None or kind in ("room", "door"):
            what = f"{target} is a {kind}" if kind else f"there is no {target!r}"
            return fail(
                "object_not_found",
                f"cannot approach {target}: {what}; approach furniture, an object or a person",
            )
        if not self.visible_to(robot, target):
            if kind == "person":
                return fail("person_unavailable", f"{target} is not in {pose.room}")
            return fail("object_not_visible", f"{robot} does not see {target} in {pose.room}")
        near = target
        if kind == "object":
            placement = self.state.placements[target]
            near = target if placement.relation == "room" else placement.support
        pose.near = near
        return ok(f"{robot} is near {near}")

    def open_gripper(self, robot: str, hand: str) -> Feedback:
        """Open a hand. Fails: capability_missing (no such hand), hand_full (it holds something)."""
        refused = self.refusal(robot, "Pick", "open a gripper") or self._hand(robot, hand)
        if refused:
            return refused
        held = self.held(robot).get(hand)
        if held is not None:
            return fail(
                "hand_full", f"{robot}'s {hand} hand holds {held}: opening it would drop it"
            )
        return ok(f"{robot}'s {hand} hand is open")

    def grasp(self, robot: str, obj: str, hand: str) -> Feedback:
        """Take ``obj`` into ``hand``; the robot must be near the object's support.

        Checks, in order: the robot and hand (capability_missing), the hand is free
        (hand_full), the object exists (object_not_found), nobody holds it and it is where the
        robot is looking (object_not_visible: "bottle is not on table_1 in kitchen"), it is not
        shut in a container (container_closed), the robot is near it (out_of_reach), it is not
        on or in a switched-on heat source (unsafe_object: ground truth, whatever the host
        believes), it can be grasped (capability_missing), its height is within reach
        (out_of_reach), the load stays within the payload (payload_exceeded), and the grasp
        does not slip (grasp_slipped: a seeded draw; the object stays where it was).
        """
        refused = (
            self.refusal(robot, "Pick", "grasp") or self._hand(robot, hand) or self._object(obj)
        )
        if refused:
            return refused
        in_hand = self.held(robot).get(hand)
        if in_hand is not None:
            return fail("hand_full", f"{robot}'s {hand} hand already holds {in_hand}")
        pose = self.state.robots[robot]
        placement = self.state.placements[obj]
        where = self._looking_at(pose)
        if placement.relation == "held_by":
            return fail("object_not_visible", f"{obj} is not {where}: {placement.describe()}")
        if self.room_of(obj) != pose.room or pose.near not in (None, obj, placement.support):
            return fail("object_not_visible", f"{obj} is not {where}")
        if self.hidden(obj):
            if pose.near == placement.support:
                return fail("container_closed", f"{obj} is in {placement.support}, which is closed")
            return fail("object_not_visible", f"{obj} is not {where}")
        if pose.near is None:
            return fail("out_of_reach", f"{robot} is not near {obj}: approach it first")
        heated = self._heated_by(obj)
        if heated is not None:
            return fail(
                "unsafe_object", f"{obj} is {placement.relation} {heated}, which is on: too hot"
            )
        return self._take(robot, obj, hand)

    def _heated_by(self, obj: str) -> str | None:
        """The switched-on heat source (stove, microwave, ...) ``obj`` is on or in, if any."""
        support = self.state.placements[obj].support
        if "heat_source" in self.flags_of(support) and self.is_powered(support):
            return support
        return None

    def _looking_at(self, pose: RobotPose) -> str:
        """Where the robot is looking, in words: ``on table_1 in kitchen`` or ``in kitchen``."""
        near = pose.near
        if near is not None and near in self.spec.furniture:
            relation = "on" if self.spec.furniture[near].kind == "surface" else "in"
            return f"{relation} {near} in {pose.room}"
        if near is not None:
            return f"at {near} in {pose.room}"
        return f"in {pose.room}"

    def _take(self, robot: str, obj: str, hand: str) -> Feedback:
        spec, profile = self.spec.objects[obj], self.spec.robots[robot]
        if not spec.graspable:
            return fail("capability_missing", f"{obj} cannot be grasped")
        height = self.height_of(obj)
        reach = self._reach_problem(robot, height, obj)
        if reach:
            return reach
        load = self.carried_mass(robot) + spec.mass_kg
        if load > profile.payload_kg:
            return fail(
                "payload_exceeded",
                f"{obj} ({spec.mass_kg} kg) would bring {robot}'s load to {load:.2f} kg, "
                f"over its payload of {profile.payload_kg} kg",
            )
        if self._slips(obj):
            self.note(f"{obj} slipped from {robot}'s {hand} hand")
            return fail("grasp_slipped", f"{obj} slipped from {robot}'s {hand} hand")
        self.state.grasped_from[obj] = self.state.placements[obj]
        self.state.placements[obj] = Placement(relation="held_by", support=robot, hand=hand)
        self.note(f"{robot} grasped {obj} with its {hand} hand")
        return ok(f"{robot} holds {obj} in its {hand} hand")

    def _reach_problem(self, robot: str, height: float, thing: str) -> Feedback | None:
        profile = self.spec.robots[robot]
        low, high = profile.min_reach_m, profile.max_reach_m
        if low is None or high is None:
            return fail("capability_missing", f"{robot} cannot reach anything")
        if height > high:
            return fail(
                "out_of_reach",
                f"{thing} at {height} m is above {robot}'s reach (highest {high} m)",
            )
        if height < low:
            return fail(
                "out_of_reach", f"{thing} at {height} m is below {robot}'s reach (lowest {low} m)"
            )
        return None

    def _slips(self, obj: str) -> bool:
        """A seeded draw; no draw at all when the slip probability is zero."""
        slip = self.state.slip
        probability = slip.get(obj, slip.get("*", self.spec.grasp_slip_probability))
        return probability > 0.0 and self.rng.random() < probability

    def verify_grasp(self, robot: str, obj: str, hand: str) -> Feedback:
        """Check that ``hand`` really holds ``obj``. Fails: grasp_slipped (it does not)."""
        refused = self.refusal(robot, "Pick", "verify a grasp") or self._hand(robot, hand)
        if refused:
            return refused
        if self.held(robot).get(hand) != obj:
            return fail("grasp_slipped", f"{obj} is not in {robot}'s {hand} hand")
        return ok(f"{robot}'s {hand} hand holds {obj}")

    def lift(self, robot: str, obj: str, hand: str) -> Feedback:
        """Lift a grasped object.

        Fails: not_holding; grasp_slipped (a seeded draw: the object falls back where it was
        grasped from).
        """
        refused = self.refusal(robot, "Pick", "lift") or self._hand(robot, hand)
        if refused:
            return refused
        if self.held(robot).get(hand) != obj:
            return fail("not_holding", f"{robot}'s {hand} hand does not hold {obj}")
        if self._slips(obj):
            back = self.state.grasped_from.pop(obj, Placement(relation="room", support=""))
            if not back.support:
                back = Placement(relation="room", support=self.state.robots[robot].room)
            self.state.placements[obj] = back
            self.note(f"{obj} slipped from {robot}'s {hand} hand while lifting: {back.describe()}")
            return fail("grasp_slipped", f"{obj} slipped from {robot}'s {hand} hand: it fell back")
        return ok(f"{robot} lifted {obj}")

    def put(self, robot: str, obj: str, target: str, hand: str) -> Feedback:
        """Set a held object down on a surface or in a container the robot is near.

        The hand is free afterwards (``release`` of an empty hand succeeds). Fails:
        not_holding, object_not_found (no such surface or container), object_not_visible
        (the target is not in this room), out_of_reach (not near the target, or its height
        is out of reach), container_closed.
        """
        refused = self.refusal(robot, "Place", "put things down") or self._hand(robot, hand)
        if refused:
            return refused
        if self.held(robot).get(hand) != obj:
            return fail("not_holding", f"{robot}'s {hand} hand does not hold {obj}")
        if self.kind_of(target) not in ("surface", "container"):
            return fail(
                "object_not_found",
                f"cannot put {obj} on {target}: there is no surface or container {target!r}",
            )
        pose = self.state.robots[robot]
        if self.room_of(target) != pose.room:
            return fail("object_not_visible", f"{target} is not in {pose.room}")
        if pose.near != target:
            return fail("out_of_reach", f"{robot} is not near {target}: approach it first")
        refused = self._room_on(robot, target)
        if refused:
            return refused
        relation: Relation = "on" if self.spec.furniture[target].kind == "surface" else "in"
        self._set_down(obj, Placement(relation=relation, support=target))
        self.note(f"{robot} put {obj} {relation} {target}")
        return ok(f"{obj} is {relation} {target}")

    def _room_on(self, robot: str, target: str, beside: str | None = None) -> Feedback | None:
        """Why nothing more can be set on or in ``target`` now: closed, out of reach, full."""
        furniture = self.spec.furniture[target]
        if not self.is_open(target):
            return fail("container_closed", f"{target} is closed")
        reach = self._reach_problem(robot, furniture.height_m, target)
        if reach:
            return reach
        if furniture.slots is not None and len(self.contents(target)) >= furniture.slots:
            where = f"next to {beside} on {target}" if beside else f"on {target}"
            return fail(
                "no_free_space",
                f"no free space {where}: it holds {', '.join(self.contents(target))}",
            )
        return None

    def put_beside(self, robot: str, obj: str, landmark: str, relation: str, hand: str) -> Feedback:
        """Set a held object down ``relation`` (next_to, left_of, ...) ``landmark``.

        It goes on the furniture the landmark rests on (or on the landmark, a surface), and the
        relation is recorded. Fails: not_holding, object_not_found (no such landmark, or it
        rests nowhere), object_not_visible (not in this room), out_of_reach (not near that
        furniture, or too high or low), container_closed, no_free_space.
        """
        refused = self.refusal(robot, "Place", "put things down") or self._hand(robot, hand)
        if refused:
            return refused
        if self.held(robot).get(hand) != obj:
            return fail("not_holding", f"{robot}'s {hand} hand does not hold {obj}")
        surface = self.landmark_surface(landmark)
        if surface is None:
            kind = self.kind_of(landmark)
            what = f"{landmark} is a {kind} that rests on nothing" if kind else "not found"
            return fail("object_not_found", f"cannot put {obj} {relation} {landmark}: {what}")
        pose = self.state.robots[robot]
        if self.room_of(surface) != pose.room or not self.visible_to(robot, landmark):
            return fail("object_not_visible", f"{robot} does not see {landmark} in {pose.room}")
        if pose.near != surface:
            return fail("out_of_reach", f"{robot} is not near {surface}: approach it first")
        refused = self._room_on(robot, surface, beside=landmark)
        if refused:
            return refused
        rests: Relation = "on" if self.spec.furniture[surface].kind == "surface" else "in"
        self._set_down(obj, Placement(relation=rests, support=surface))
        self.state.beside[obj] = (relation, landmark)
        self.note(f"{robot} put {obj} {relation} {landmark} ({rests} {surface})")
        return ok(f"{obj} is {relation.replace('_', ' ')} {landmark}, {rests} {surface}")

    def landmark_surface(self, landmark: str) -> str | None:
        """The furniture ``landmark`` rests on, or the landmark itself when a surface."""
        kind = self.kind_of(landmark)
        if kind == "surface":
            return landmark
        if kind == "object":
            placement = self.state.placements[landmark]
            return placement.support if placement.relation in ("on", "in") else None
        return None

    def _set_down(self, obj: str, placement: Placement) -> None:
        self.state.placements[obj] = placement
        if obj in self.state.handle_first:
            self.state.handle_first.remove(obj)
        self.state.grasped_from.pop(obj, None)
        self.state.beside.pop(obj, None)

    def release(self, robot: str, hand: str) -> Feedback:
        """Open ``hand``; whatever it still holds drops to the floor of the robot's room."""
        refused = self.refusal(robot, "Pick", "release") or self._hand(robot, hand)
        if refused:
            return refused
        held = self.held(robot).get(hand)
        if held is None:
            return ok(f"{robot}'s {hand} hand is empty")
        room = self.state.robots[robot].room
        self._set_down(held, Placement(relation="room", support=room))
        self.note(f"{robot} dropped {held} on the floor of {room}")
        return ok(f"{robot} let go of {held}: it is on the floor of {room}")

    def open_or_close(self, robot: str, target: str, *, open_it: bool) -> Feedback:
        """Open or close a container or a door in the robot's room (idempotent).

        Needs a free hand, except for a container mounted on the robot itself (its own
        locker opens by motor). Fails: object_not_found (not a container or door),
        object_not_visible (not here), capability_missing (no hands, a passage has no door),
        hand_full, door_closed (opening a locked door).
        """
        verb = "open" if open_it else "close"
        kind = self.kind_of(target)
        own = kind == "container" and self.spec.furniture[target].mounted_on == robot
        refused = self.refusal(robot, None if own else ("Open" if open_it else "Close"), verb)
        if refused:
            return refused
        pose = self.state.robots[robot]
        if kind == "door":
            door = self.spec.doors[target]
            if pose.room not in door.between:
                return fail("object_not_visible", f"{target} is not a door of {pose.room}")
            if door.kind == "passage":
                return fail("capability_missing", f"{target} is a passage with no door to {verb}")
            if open_it and self.state.locked[target]:
                return fail("door_closed", f"{target} is locked")
        elif kind == "container":
            if self.room_of(target) != pose.room:
                return fail("object_not_visible", f"{target} is not in {pose.room}")
        else:
            return fail("object_not_found", f"cannot {verb} {target}: not a container or a door")
        if not own:
            hands = self.spec.robots[robot].hands
            if not hands:
                return fail("capability_missing", f"{robot} has no hand to {verb} {target} with")
            if len(self.held(robot)) >= len(hands):
                return fail("hand_full", f"{robot} has no free hand to {verb} {target}")
        if self.state.open[target] != open_it:
            self.state.open[target] = open_it
            self.note(f"{robot} {'opened' if open_it else 'closed'} {target}")
        return ok(f"{target} is {'open' if open_it else 'closed'}")

    def handover(self, robot: str, obj: str, person: str, hand: str | None = None) -> Feedback:
        """Give ``obj`` to ``person`` in the robot's room, from a hand or the robot's storage.

        ``hand`` may be omitted: the hand that holds the object is used, else the robot's
        open storage. Fails: not_holding, container_closed (storage shut), object_not_found
        (no such person), person_unavailable (elsewhere, unreachable, busy, away, asleep),
        person_refused (the person refuses that object or its type), unsafe_object (a sharp
        object from a hand not turned handle first, or a container filled to its capacity).
        """
        refused = self.refusal(robot, None, "hand over") or self._object(obj)
        if refused:
            return refused
        held = self.held(robot)
        placement = self.state.placements[obj]
        from_storage = placement.relation == "in" and placement.support in self.storage_of(robot)
        if hand is not None:
            refused = self._hand(robot, hand)
            if refused:
                return refused
            if held.get(hand) != obj:
                return fail("not_holding", f"{robot}'s {hand} hand does not hold {obj}")
        elif obj not in held.values() and not from_storage:
            return fail("not_holding", f"{robot} holds no {obj}, in hand or storage")
        skill = CARRY if hand is None and from_storage else "Handover"
        refused = self.refusal(robot, skill, "hand over")
        if refused:
            return refused
        if hand is None and from_storage and not self.is_open(placement.support):
            return fail("container_closed", f"{placement.support} is closed: open it first")
        refused = self._receiver(robot, obj, person) or self._unsafe_to_hand(obj, from_hand=hand)
        if refused:
            return refused
        self._set_down(obj, Placement(relation="held_by", support=person))
        self.note(f"{robot} handed {obj} to {person}")
        return ok(f"{person} took {obj}")

    def _unsafe_to_hand(self, obj: str, *, from_hand: str | None) -> Feedback | None:
        """Why handing ``obj`` to a person would hurt them (unsafe_object), or None.

        From a hand, a sharp object must have been turned handle first (present_handle); a
        container filled to its capacity would spill on the person. From the robot's storage
        the person takes the object out themselves, so only the brimful check applies.
        """
        sharp = from_hand is not None and "sharp" in self.flags_of(obj)
        if sharp and obj not in self.state.handle_first:
            return fail(
                "unsafe_object",
                f"{obj} is sharp and would be handed over blade first: present its handle",
            )
        if self.is_full(obj):
            held = self.liquid_in(obj)
            assert held is not None  # a full container holds liquid
            return fail(
                "unsafe_object",
                f"{obj} is filled to the brim with {held.liquid}: it would spill on the person",
            )
        return None

    def _receiver(self, robot: str, obj: str, person: str) -> Feedback | None:
        if self.kind_of(person) != "person":
            return fail(
                "object_not_found",
                f"no person {person!r} (people: {', '.join(self.spec.people) or 'none'})",
            )
        room = self.state.robots[robot].room
        if self.state.people[person].room != room:
            return fail("person_unavailable", f"{person} is not in {room}")
        if not self.state.people[person].reachable:
            return fail("person_unavailable", f"{person} does not respond")
        status = self.availability(person)
        if status != "available":
            return fail("person_unavailable", f"{person} is {status}")
        refuses = self.spec.people[person].refuses
        if obj in refuses or self.spec.objects[obj].type in refuses:
            return fail("person_refused", f"{person} refuses to take {obj}")
        return None

    def store(self, robot: str, obj: str, storage: str) -> Feedback:
        """Put a held object into a container mounted on a robot (a locker) in this room.

        Fails: not_holding, object_not_found (not a mounted container), object_not_visible
        (its robot is elsewhere), container_closed, payload_exceeded (for the carrier).
        """
        refused = self.refusal(robot, "Place", "store things") or self._object(obj)
        if refused:
            return refused
        hand = next((h for h, held in self.held(robot).items() if held == obj), None)
        if hand is None:
            return fail("not_holding", f"{robot} does not hold {obj}")
        spec = self.spec.furniture.get(storage)
        if spec is None or spec.mounted_on is None:
            return fail("object_not_found", f"{storage} is not a storage mounted on a robot")
        room = self.state.robots[robot].room
        carrier = spec.mounted_on
        if self.state.robots[carrier].room != room:
            return fail("object_not_visible", f"{carrier} (with {storage}) is not in {room}")
        if not self.is_open(storage):
            return fail("container_closed", f"{storage} is closed")
        if carrier != robot:
            load = self.carried_mass(carrier) + self.spec.objects[obj].mass_kg
            payload = self.spec.robots[carrier].payload_kg
            if load > payload:
                return fail(
                    "payload_exceeded",
                    f"{obj} would bring {carrier}'s load to {load:.2f} kg, over {payload} kg",
                )
        self._set_down(obj, Placement(relation="in", support=storage))
        self.note(f"{robot} stored {obj} in {storage}")
        return ok(f"{obj} is in {storage}")

    def present_handle(self, robot: str, obj: str, hand: str) -> Feedback:
        """Turn a held object so its handle points to the person. Fails: not_holding."""
        refused = self.refusal(robot, "Handover", "present a handle") or self._hand(robot, hand)
        if refused:
            return refused
        if self.held(robot).get(hand) != obj:
            return fail("not_holding", f"{robot}'s {hand} hand does not hold {obj}")
        if obj not in self.state.handle_first:
            self.state.handle_first.append(obj)
        self.note(f"{robot} turned {obj} handle first")
        return ok(f"{obj} is handle first")

    def holding_near(
        self, robot: str, skill: str, action: str, obj: str, hand: str, place: str
    ) -> Feedback | None:
        """Why ``robot`` cannot use ``obj`` in ``hand`` at ``place`` (a thing of its room)."""
        refused = self.refusal(robot, skill, action) or self._hand(robot, hand)
        if refused:
            return refused
        if self.held(robot).get(hand) != obj:
            return fail("not_holding", f"{robot}'s {hand} hand does not hold {obj}")
        pose = self.state.robots[robot]
        if self.kind_of(place) is None:
            return fail("object_not_found", f"there is no {place!r}")
        if not self.visible_to(robot, place):
            return fail("object_not_visible", f"{robot} does not see {place} in {pose.room}")
        support = self.landmark_surface(place) if self.kind_of(place) == "object" else place
        if pose.near not in (place, support):
            return fail("out_of_reach", f"{robot} is not near {place}: approach it first")
        return None

    def speak(self, robot: str, text: str) -> Feedback:
        """Say ``text`` (recorded in the history)."""
        refused = self.refusal(robot, None, "speak")
        if refused:
            return refused
        self.note(f"{robot} said: {text}")
        return ok(f"{robot} said it")

    # -- ground-truth changes (command rules, disruptions, people) -----------------------------

    def move_object(self, obj: str, placement: Placement, *, by: str | None = None) -> None:
        """Put ``obj`` somewhere at once (taking it out of any hand); no checks."""
        if placement.relation == "held_by" and placement.support in self.spec.robots:
            free = [
                h
                for h in self.spec.robots[placement.support].hands
                if h not in self.held(placement.support)
            ]
            hand = placement.hand or (free[0] if free else None)
            placement = placement.model_copy(update={"hand": hand})
        self._set_down(obj, placement)
        self.note(f"{obj} moved {placement.describe()}" + (f" by {by}" if by else ""))

    def put_in(self, obj: str, container: str) -> None:
        """Put ``obj`` in ``container`` at once (out of any hand); no checks, no note."""
        self._set_down(obj, Placement(relation="in", support=container))

    def set_powered(self, thing: str, on: bool) -> None:
        """Switch ``thing`` on or off at once; no note."""
        self.state.powered[thing] = on

    def set_clean(self, surface: str) -> None:
        """Make ``surface`` clean, its spills wiped up; no note."""
        self.state.clean[surface] = True
        self.state.spills = [spill for spill in self.state.spills if spill.place != surface]

    def take_liquid(self, source: str, most: float) -> tuple[str, float]:
        """Take up to ``most`` ml out of ``source`` (KeyError when it is empty).

        Returns the liquid and how much was taken; a container emptied holds nothing.
        """
        held = self.state.liquids[source]
        taken = min(most, held.ml)
        held.ml -= taken
        if held.ml <= 0:
            del self.state.liquids[source]
        return held.liquid, taken

    def add_liquid(self, container: str, liquid: str, ml: float, *, spill_on: str) -> Feedback:
        """Add liquid to ``container`` up to its capacity; the rest spills on ``spill_on``."""
        if self.is_full(container):
            return fail("container_full", f"{container} is already full")
        capacity = self._capacity(container)
        now = self.liquid_in(container)
        have = now.ml if now is not None else 0.0
        fits = ml if capacity is None else min(ml, capacity - have)
        mixed = liquid if now is None or now.liquid == liquid else f"{now.liquid} and {liquid}"
        self.state.liquids[container] = Liquid(liquid=mixed, ml=have + fits)
        spilled = ml - fits
        if spilled > 0:
            self.state.spills.append(
                Spill(place=spill_on, liquid=liquid, ml=spilled, tick=self.state.tick)
            )
            if self.spec.furniture.get(spill_on) is not None:
                self.state.clean[spill_on] = False
            self.note(f"{spilled:g} ml of {liquid} spilled on {spill_on}")
            return ok(f"{container} is full of {mixed}; {spilled:g} ml spilled on {spill_on}")
        return ok(f"{container} holds {have + fits:g} ml of {mixed}")

    def set_open(self, thing: str, is_open: bool) -> None:
        """Open or close a container or door at once (closing unlocks nothing)."""
        self.state.open[thing] = is_open
        if is_open:
            self.state.locked[thing] = False
        self.note(f"{thing} {'opened' if is_open else 'closed'}")

    def set_locked(self, door: str, locked: bool) -> None:
        """Lock (and close) or unlock a door."""
        self.state.locked[door] = locked
        if locked:
            self.state.open[door] = False
        self.note(f"{door} {'locked' if locked else 'unlocked'}")

    def set_blocked(self, door: str, blocked: bool) -> None:
        """Block or clear a door or passage."""
        self.state.blocked[door] = blocked
        self.note(f"{door} {'blocked' if blocked else 'cleared'}")

    def move_person(self, person: str, room: str | None) -> None:
        """Move a person to ``room`` (None: they leave the home); what they hold goes along."""
        self.state.people[person].room = room
        self.note(f"{person} went {'to ' + room if room else 'out'}")

    def set_availability(self, person: str, status: Availability | None) -> None:
        """Override a person's availability (None: back to their schedule)."""
        self.state.people[person].status = status
        self.note(f"{person} is {status or 'back on schedule'}")

    def set_reachable(self, person: str, reachable: bool) -> None:
        """Make a person reachable or not."""
        self.state.people[person].reachable = reachable
        self.note(f"{person} is {'reachable' if reachable else 'unreachable'}")

    def set_slip(self, obj: str | None, probability: float) -> None:
        """Set the grasp-slip probability of ``obj`` (None: of every object)."""
        self.state.slip[obj or "*"] = probability
        self.note(f"grasp slip probability of {obj or 'every object'} is {probability}")

    def start_task(self, person: str, until_tick: int) -> None:
        """Mark ``person`` busy with a delegated task until ``until_tick``."""
        self.state.people[person].busy_until = until_tick

    def finish_task(self, person: str, ability: str) -> None:
        """Record that ``person`` finished a delegated task of ``ability``."""
        self.state.people[person].busy_until = None
        self.state.tasks_done.append(TaskDone(person=person, ability=ability, tick=self.tick))
        self.note(f"{person} finished {ability}")
