"""Scenarios and worlds rendered as text trees."""

from __future__ import annotations

from cogtree.sim.scenario import load_scenario
from cogtree.sim.show import render_scenario, render_world
from cogtree.sim.world import World
from cogtree.sim.world_spec import Placement


def test_the_robee_scenario_renders_world_request_goal_and_events() -> None:
    text = render_scenario(load_scenario("robee_bottle"))
    lines = text.splitlines()
    assert lines[0].startswith("robee_bottle: Fetch the bottle")
    assert "├── kitchen" in lines
    assert '│   ├── table_1 "kitchen table" [surface Table, 0.75 m]' in lines
    assert "│   │   └── bottle [Bottle; blue; plastic; 0.5 kg]" in lines
    assert "│       └── base1_locker [container Locker, 0.6 m, closed]" in lines
    assert "  living_room_arch: hallway - living_room (passage)" in lines
    assert (
        'request (alex): "go to the table in the kitchen, pick up the bottle and place it on '
        'the table in the bedroom"' in lines
    )
    assert "goal: on(bottle, table_2)" in lines
    assert (
        "  anna_moves_bottle: after 1 command -> move bottle on kitchen_counter (by anna)"
        " -- Anna clears the kitchen table and puts the bottle on the counter." in lines
    )
    assert "oracle answers: inner_speech (1), planner (2)" in lines
    assert lines[-1] == "limits: 150 ticks"


def test_a_running_world_shows_its_current_state(world: World) -> None:
    world.navigate("robot1", "table_1")
    world.grasp("robot1", "bottle", "left")
    world.move_object("coffee", Placement(relation="room", support="kitchen"))
    world.set_blocked("kitchen_door", True)
    world.set_availability("alex", "busy")
    text = render_world(world)
    assert "left hand: bottle [Bottle; blue; 0.5 kg]" in text
    assert "coffee [Coffee; caffeinated; hot; 0.3 kg] (on the floor)" in text
    assert "near table_1" in text
    assert "  kitchen_door: hallway - kitchen (open, blocked)" in text
    assert "alex [person, busy; refuses Coffee]" in text
    assert "└── away from home\n    └── bob [person, available; unreachable]" in text
    assert "  bathroom_door: hallway - bathroom (closed)" in text
