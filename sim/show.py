"""Scenarios and worlds as text: ``cogtree sim show SCENARIO`` prints :func:`render_scenario`.

The world is drawn as a tree, rooms → furniture and people and robots → what is on, in or
held by them, then the doors; a scenario adds the robot's starting belief, the request, the
hidden intent, the goal, the events, the oracle and the limits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from cogtree.sim.perception import BeliefSpec
from cogtree.sim.scenario import Scenario
from cogtree.sim.world import World
from cogtree.sim.world_spec import ScheduleEntry


@dataclass
class _Node:
    text: str
    children: list[_Node] = field(default_factory=list)


def _draw(node: _Node, prefix: str = "", last: bool = True, root: bool = True) -> Iterator[str]:
    if root:
        yield node.text
        child_prefix = ""
    else:
        yield f"{prefix}{'└── ' if last else '├── '}{node.text}"
        child_prefix = prefix + ("    " if last else "│   ")
    for index, child in enumerate(node.children):
        yield from _draw(child, child_prefix, index == len(node.children) - 1, root=False)


def render_world(world: World) -> str:
    """The world as it is now: a tree of rooms and what they hold, then the doors."""
    spec = world.spec
    clock = spec.clock
    root = _Node(
        f"world at tick {world.tick} ({world.now().isoformat()}; "
        f"{clock.seconds_per_tick:g} s per tick; seed {world.seed})"
    )
    for room_id, room in spec.rooms.items():
        synonyms = f" ({', '.join(room.synonyms)})" if room.synonyms else ""
        node = _Node(f"{room_id}{_label(world, room_id)}{synonyms}")
        for furniture_id, furniture in spec.furniture.items():
            if furniture.room == room_id:
                node.children.append(_furniture(world, furniture_id))
        node.children += [_floor_object(world, obj) for obj in _on_floor(world, room_id)]
        node.children += [_person(world, p) for p in spec.people if world.room_of(p) == room_id]
        node.children += [_robot(world, r) for r in spec.robots if world.room_of(r) == room_id]
        root.children.append(node)
    away = [person for person in spec.people if world.room_of(person) is None]
    if away:
        root.children.append(_Node("away from home", [_person(world, p) for p in away]))
    lines = list(_draw(root))
    if spec.doors:
        lines.append("doors:")
        for door_id, door in spec.doors.items():
            lines.append(f"  {door_id}: {' - '.join(door.between)} ({_door_state(world, door_id)})")
    return "\n".join(lines)


def _label(world: World, thing: str) -> str:
    label = world.spec.label(thing)
    return "" if label == thing.replace("_", " ") else f' "{label}"'


def _door_state(world: World, door: str) -> str:
    states = []
    if world.spec.doors[door].kind == "passage":
        states.append("passage")
    else:
        states.append("locked" if world.state.locked[door] else _open(world, door))
    if world.state.blocked[door]:
        states.append("blocked")
    return ", ".join(states)


def _open(world: World, thing: str) -> str:
    return "open" if world.is_open(thing) else "closed"


def _furniture(world: World, furniture_id: str) -> _Node:
    furniture = world.spec.furniture[furniture_id]
    state = f", {_open(world, furniture_id)}" if furniture.kind == "container" else ""
    if furniture.bin is not None:
        state += f", {furniture.bin} bin"
    if furniture.slots is not None:
        state += f", takes {furniture.slots}"
    state += "".join(f", {detail}" for detail in _kitchen(world, furniture_id))
    node = _Node(
        f"{furniture_id}{_label(world, furniture_id)} "
        f"[{furniture.kind} {furniture.type}, {furniture.height_m:g} m{state}]"
    )
    node.children = [_object(world, obj) for obj in world.contents(furniture_id)]
    return node


def _kitchen(world: World, thing: str) -> list[str]:
    """Flags, power, liquid, cleanliness, spills and side relation of a thing, in words."""
    item = world.spec.furniture.get(thing) or world.spec.objects.get(thing)
    details = [flag.replace("_", " ") for flag in item.flags] if item is not None else []
    if thing in world.state.powered:
        details.append("switched on" if world.is_powered(thing) else "switched off")
    held = world.liquid_in(thing)
    obj = world.spec.objects.get(thing)
    if held is not None:
        capacity = f" of {obj.capacity_ml:g}" if obj is not None and obj.capacity_ml else ""
        details.append(f"{held.ml:g}{capacity} ml {held.liquid}")
    elif obj is not None and obj.capacity_ml is not None:
        details.append(f"empty, holds {obj.capacity_ml:g} ml")
    if thing in world.state.clean:
        details.append("clean" if world.state.clean[thing] else "dirty")
    spilled = sum(spill.ml for spill in world.state.spills if spill.place == thing)
    if spilled:
        details.append(f"{spilled:g} ml spilled")
    beside = world.state.beside.get(thing)
    if beside is not None:
        details.append(f"{beside[0].replace('_', ' ')} {beside[1]}")
    return details


def _on_floor(world: World, room: str) -> list[str]:
    return [
        obj
        for obj, placement in world.state.placements.items()
        if placement.relation == "room" and placement.support == room
    ]


def _object(world: World, obj: str) -> _Node:
    item = world.spec.objects[obj]
    details = [item.type]
    for name, value in item.attributes().items():
        if isinstance(value, bool):
            details.append(name if value else f"not {name}")
        else:
            details.append(value)
    details.append(f"{item.mass_kg:g} kg")
    details += _kitchen(world, obj)
    if not item.graspable:
        details.append("not graspable")
    if item.owner:
        details.append(f"{item.owner}'s")
    hand = world.placement(obj).hand
    held = f"{hand} hand: " if hand else ""
    return _Node(f"{held}{obj}{_label(world, obj)} [{'; '.join(details)}]")


def _floor_object(world: World, obj: str) -> _Node:
    node = _object(world, obj)
    node.text += " (on the floor)"
    return node


def _person(world: World, person: str) -> _Node:
    spec = world.spec.people[person]
    details = [f"person, {world.availability(person)}"]
    if not world.state.people[person].reachable:
        details.append("unreachable")
    if spec.abilities:
        details.append("can " + ", ".join(spec.abilities))
    if spec.schedule:
        details.append("schedule " + ", ".join(_entry(entry) for entry in spec.schedule))
    if spec.refuses:
        details.append("refuses " + ", ".join(spec.refuses))
    node = _Node(f"{person}{_label(world, person)} [{'; '.join(details)}]")
    node.children = [_object(world, obj) for obj in world.held(person).values()]
    return node


def _entry(entry: ScheduleEntry) -> str:
    until = "" if entry.until_tick is None else str(entry.until_tick)
    return f"{entry.status} {entry.from_tick}-{until}"


def _robot(world: World, robot: str) -> _Node:
    spec = world.spec.robots[robot]
    details = [f"robot{' ' + spec.profile if spec.profile else ''}"]
    details.append(f"hands {', '.join(spec.hands)}" if spec.hands else "no hands")
    details.append(f"payload {spec.payload_kg:g} kg")
    if spec.min_reach_m is not None and spec.max_reach_m is not None:
        details.append(f"reach {spec.min_reach_m:g}-{spec.max_reach_m:g} m")
    details.append("skills " + ", ".join(spec.skills))
    near = world.state.robots[robot].near
    if near:
        details.append(f"near {near}")
    node = _Node(f"{robot}{_label(world, robot)} [{'; '.join(details)}]")
    node.children = [_object(world, obj) for obj in world.held(robot).values()]
    node.children += [_furniture(world, storage) for storage in world.storage_of(robot)]
    return node


def _belief(belief: BeliefSpec) -> list[str]:
    def known(ids: tuple[str, ...] | None) -> str:
        return "all" if ids is None else ", ".join(ids) or "none"

    lines = [
        f"belief: knows objects: {known(belief.objects)}; people: {known(belief.people)}; "
        f"last seen {belief.seen_seconds_ago:g} s before the start (source {belief.source})"
    ]
    for obj, place in belief.misplaced.items():
        lines.append(f"  believes {obj} is {place.placement.describe()}")
    return lines


def render_scenario(scenario: Scenario) -> str:
    """A scenario as text: header, world tree, belief, request, intent, goal, events, oracle."""
    lines = [
        f"{scenario.id}: {scenario.title}",
        f"tier {scenario.tier}; robot {scenario.main_robot}; seed {scenario.seed}",
    ]
    if scenario.description.strip():
        lines += [f"  {line}" for line in scenario.description.strip().splitlines()]
    lines.append(render_world(scenario.new_world()))
    lines += _belief(scenario.belief)
    speaker = scenario.request.speaker or "someone"
    lines.append(f'request ({speaker}): "{scenario.request.text}"')
    if scenario.hidden_intent:
        lines.append("hidden intent:")
        for name, slot in scenario.hidden_intent.items():
            asked = f" (asked by: {', '.join(slot.keywords)})" if slot.keywords else ""
            lines.append(f"  {name}: {slot.value}{asked}")
    lines += _goal(scenario)
    if scenario.events:
        lines.append("events:")
        for event_id, event in zip(scenario.new_events().ids, scenario.events, strict=True):
            note = f" -- {event.note}" if event.note else ""
            lines.append(
                f"  {event_id}: {event.describe_trigger()} -> {event.describe_action()}{note}"
            )
    if scenario.oracle:
        answers = ", ".join(f"{module} ({len(items)})" for module, items in scenario.oracle.items())
        lines.append(f"oracle answers: {answers}")
    limits = scenario.limits
    commands = f", {limits.max_commands} commands" if limits.max_commands else ""
    lines.append(f"limits: {limits.max_ticks} ticks{commands}")
    return "\n".join(lines)


def _goal(scenario: Scenario) -> list[str]:
    goal = scenario.goal
    if goal.expect == "refuse":
        lines = [f"goal: refuse ({goal.reason})"]
    else:
        lines = ["goal: " + " and ".join(str(predicate) for predicate in goal.all)]
    if goal.never:
        lines.append("  never: " + ", ".join(str(predicate) for predicate in goal.never))
    if goal.must_clarify:
        lines.append("  the robot must ask before acting")
    return lines
