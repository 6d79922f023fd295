"""Disruptions: every trigger, every action, delays, chaining, and event checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from cogtree.sim.events import Event, EventEngine
from cogtree.sim.world import World
from cogtree.sim.world_spec import Placement, WorldSpec
from cogtree.skills.action_model.commands import Command


def event(**fields: Any) -> Event:
    return Event.model_validate(fields)


# -- triggers ---------------------------------------------------------------------------------


def test_at_tick_fires_when_the_clock_gets_there(world: World) -> None:
    engine = EventEngine([event(at_tick=3, close="kitchen_door")])
    world.advance(2)
    engine.check(world)
    assert world.is_open("kitchen_door") and engine.pending == ["event_1"]
    world.advance(1)
    engine.check(world)
    assert not world.is_open("kitchen_door")
    assert [(f.event, f.applied_at) for f in engine.fired] == [("event_1", 3)]
    assert engine.pending == []


def test_after_commands_counts_submissions_per_robot_or_all(
    world: World, cmd: Callable[..., Command]
) -> None:
    engine = EventEngine(
        [
            event(id="second_of_anyone", after_commands=2, block="kitchen_door"),
            event(id="first_of_base", after_commands=1, robot="base1", close="bedroom_door"),
        ]
    )
    engine.command_submitted(cmd("observe"), world)
    assert engine.fired == []
    engine.command_submitted(cmd("observe"), world)
    assert [f.event for f in engine.fired] == ["second_of_anyone"]
    engine.command_submitted(cmd("observe", robot="base1"), world)
    assert [f.event for f in engine.fired] == ["second_of_anyone", "first_of_base"]
    assert world.state.blocked["kitchen_door"] and not world.is_open("bedroom_door")


def test_on_command_fires_on_the_first_command_of_that_name(
    world: World, cmd: Callable[..., Command]
) -> None:
    engine = EventEngine([event(on_command="grasp", grasp_slip={"probability": 1.0})])
    engine.command_submitted(cmd("approach", target="table_1"), world)
    assert world.state.slip == {}
    engine.command_submitted(cmd("grasp", object="bottle", hand="left"), world)
    assert world.state.slip == {"*": 1.0}


def test_robot_enters_fires_on_arrival_of_the_named_robot(world: World) -> None:
    engine = EventEngine([event(robot_enters="kitchen", robot="robot1", open="fridge")])
    engine.robot_arrived("base1", "kitchen", world)
    assert not world.is_open("fridge")
    engine.robot_arrived("robot1", "bedroom", world)
    assert not world.is_open("fridge")
    engine.robot_arrived("robot1", "kitchen", world)
    assert world.is_open("fridge")


def test_when_fires_once_the_condition_holds_and_events_chain(world: World) -> None:
    engine = EventEngine(
        [
            event(when="holds(robot1, bottle)", move_person={"person": "alex", "to": None}),
            event(
                when="not at(alex, bedroom)", set_reachable={"person": "alex", "reachable": False}
            ),
        ]
    )
    engine.check(world)
    assert engine.fired == []
    world.move_object("bottle", Placement(relation="held_by", support="robot1"))
    engine.check(world)
    assert [f.event for f in engine.fired] == ["event_1", "event_2"]
    assert world.room_of("alex") is None and not world.state.people["alex"].reachable


def test_delay_ticks_postpone_the_action(world: World, cmd: Callable[..., Command]) -> None:
    engine = EventEngine([event(after_commands=1, delay_ticks=2, lock="kitchen_door")])
    engine.command_submitted(cmd("observe"), world)
    assert not world.state.locked["kitchen_door"]
    world.advance(1)
    engine.check(world)
    assert not world.state.locked["kitchen_door"]
    world.advance(1)
    engine.check(world)
    assert world.state.locked["kitchen_door"] and not world.is_open("kitchen_door")
    assert (engine.fired[0].triggered_at, engine.fired[0].applied_at) == (0, 2)


# -- actions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "check"),
    [
        ({"move_object": {"object": "bottle", "on": "table_2", "by": "anna"}},
         lambda w: w.placement("bottle") == Placement(relation="on", support="table_2")),
        ({"move_object": {"object": "bottle", "held_by": "robot1"}},
         lambda w: w.held("robot1") == {"left": "bottle"}),
        ({"open": "fridge"}, lambda w: w.is_open("fridge")),
        ({"close": "kitchen_door"}, lambda w: not w.is_open("kitchen_door")),
        ({"lock": "bedroom_door"},
         lambda w: w.state.locked["bedroom_door"] and not w.passable("bedroom_door")),
        ({"unlock": "bedroom_door"}, lambda w: not w.state.locked["bedroom_door"]),
        ({"block": "kitchen_door"}, lambda w: w.state.blocked["kitchen_door"]),
        ({"unblock": "kitchen_door"}, lambda w: not w.state.blocked["kitchen_door"]),
        ({"move_person": {"person": "anna", "to": "bedroom"}},
         lambda w: w.room_of("anna") == "bedroom"),
        ({"move_person": {"person": "anna", "to": None}}, lambda w: w.room_of("anna") is None),
        ({"set_availability": {"person": "anna", "status": "busy"}},
         lambda w: w.availability("anna") == "busy"),
        ({"set_reachable": {"person": "anna", "reachable": False}},
         lambda w: not w.state.people["anna"].reachable),
        ({"grasp_slip": {"probability": 0.25, "object": "bottle"}},
         lambda w: w.state.slip == {"bottle": 0.25}),
    ],
)  # fmt: skip
def test_each_action_changes_ground_truth(
    world: World, action: dict[str, Any], check: Callable[[World], bool]
) -> None:
    world.set_locked("bedroom_door", "unlock" in action)
    world.set_blocked("kitchen_door", "unblock" in action)
    assert not check(world)
    engine = EventEngine([event(at_tick=1, **action)])
    world.advance(1)
    engine.check(world)
    assert check(world)
    assert any(line.startswith("[1] event event_1 (at tick 1): ") for line in world.state.history)


def test_moving_an_object_out_of_a_robot_hand(world: World) -> None:
    world.navigate("robot1", "table_1")
    world.grasp("robot1", "bottle", "right")
    event(at_tick=1, move_object={"object": "bottle", "room": "kitchen"}).apply(world)
    assert world.held("robot1") == {}
    assert world.placement("bottle") == Placement(relation="room", support="kitchen")


# -- checks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"close": "fridge"}, "exactly one trigger"),
        ({"at_tick": 1, "after_commands": 2, "close": "fridge"}, "got at_tick, after_commands"),
        ({"at_tick": 1}, "exactly one action"),
        ({"at_tick": 1, "close": "fridge", "open": "fridge"}, "got open, close"),
        ({"at_tick": 1, "robot": "robot1", "close": "fridge"}, "`robot` does not apply"),
        ({"at_tick": 0, "close": "fridge"}, "greater than or equal to 1"),
        ({"on_command": "teleport", "close": "fridge"}, "on_command"),
        ({"when": "on(bottle)", "close": "fridge"}, "on takes 2 arguments"),
        ({"at_tick": 1, "grasp_slip": {"probability": 2}}, "less than or equal to 1"),
    ],
)
def test_bad_events_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Event.model_validate(fields)


def test_problems_name_unknown_or_wrong_things(world: World) -> None:
    bad = event(
        robot_enters="table_1",
        move_object={"object": "bottle", "in": "table_2", "by": "robot1"},
    )
    problems = {str(p) for p in bad.problems(world.spec, "events[0]")}
    assert any(
        p.startswith("field `events[0].robot_enters`: table_1 is a surface") for p in problems
    )
    assert any(
        p.startswith("field `events[0].move_object.in`: table_2 is a surface") for p in problems
    )
    assert any(
        p.startswith("field `events[0].move_object.by`: robot1 is a robot") for p in problems
    )
    assert event(at_tick=1, close="bathroom_door").problems(world.spec, "e") == []
    lock_fridge = event(at_tick=1, lock="fridge").problems(world.spec, "e")
    assert "fridge is a container, not a door" in lock_fridge[0].message
    when = event(when="on(bottle, fridge)", close="fridge").problems(world.spec, "e")
    assert when[0].field == "e.when"


def test_descriptions_read_as_sentences() -> None:
    moved = event(after_commands=1, move_object={"object": "bottle", "on": "table_2", "by": "anna"})
    assert moved.describe_trigger() == "after 1 command"
    assert moved.describe_action() == "move bottle on table_2 (by anna)"
    late = event(robot_enters="kitchen", delay_ticks=2, block="kitchen_door")
    assert late.describe_trigger() == "when a robot enters kitchen, 2 ticks later"
    assert late.describe_action() == "block kitchen_door"


def test_a_passage_cannot_be_closed_by_an_event(home_data: dict[str, Any]) -> None:
    home_data["doors"]["kitchen_door"]["kind"] = "passage"
    spec = WorldSpec.model_validate(home_data)
    [problem] = event(at_tick=1, close="kitchen_door").problems(spec, "events[2]")
    assert str(problem) == "field `events[2].close`: kitchen_door is a passage: it has no door"
