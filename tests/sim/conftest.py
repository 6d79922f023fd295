"""A small home shared by the simulator tests, and helpers to build commands and worlds."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cogtree.sim.executor import SimExecutor
from cogtree.sim.world import World
from cogtree.sim.world_spec import WorldSpec
from cogtree.skills.action_model.commands import ArgValue, Command

HOME: dict[str, Any] = {
    "rooms": ["hallway", "kitchen", "bedroom", "bathroom", "attic"],
    "doors": {
        "kitchen_door": {"between": ["hallway", "kitchen"]},
        "bedroom_door": {"between": ["hallway", "bedroom"]},
        "bathroom_door": {"between": ["hallway", "bathroom"], "open": False},
    },
    "furniture": {
        "table_1": {"kind": "surface", "type": "Table", "room": "kitchen", "height_m": 0.75},
        "top_shelf": {"kind": "surface", "type": "Shelf", "room": "kitchen", "height_m": 2.2},
        "fridge": {"kind": "container", "type": "Fridge", "room": "kitchen", "height_m": 1.0},
        "table_2": {"kind": "surface", "type": "Table", "room": "bedroom", "height_m": 0.7},
        "base1_locker": {
            "kind": "container",
            "type": "Locker",
            "mounted_on": "base1",
            "height_m": 0.6,
        },
    },
    "objects": {
        "bottle": {"type": "Bottle", "on": "table_1", "colour": "blue", "mass_kg": 0.5},
        "coffee": {"type": "Coffee", "on": "table_1", "caffeinated": True, "hot": True},
        "milk": {"type": "Milk", "in": "fridge", "mass_kg": 1.0},
        "jar": {"type": "Bottle", "on": "top_shelf"},
        "atlas": {"type": "Book", "on": "table_1", "mass_kg": 2.9},
        "statue": {"type": "Book", "on": "table_1", "graspable": False},
        "book": {"type": "Book", "on": "table_2", "owner": "alex"},
    },
    "robots": {
        "robot1": {"profile": "humanoid", "room": "hallway"},
        "base1": {"profile": "mobile_base", "room": "hallway"},
    },
    "people": {
        "alex": {"room": "bedroom", "refuses": ["Coffee"]},
        "anna": {
            "room": "kitchen",
            "abilities": {"sign": 3, "print": 4},
            "refuses": ["print"],
            "schedule": [{"from_tick": 50, "status": "asleep"}],
        },
        "bob": {"room": None, "reachable": False},
    },
}


@pytest.fixture
def home_data() -> dict[str, Any]:
    """A fresh copy of the home's spec as plain data, for tests that change it."""
    return copy.deepcopy(HOME)


@pytest.fixture
def world(home_data: dict[str, Any]) -> World:
    """The home as a running world (seed 0)."""
    return World(WorldSpec.model_validate(home_data))


@pytest.fixture
def executor(world: World) -> Iterator[SimExecutor]:
    """An executor on the home world, without a belief."""
    with SimExecutor(world) as sim:
        yield sim


@pytest.fixture
def cmd() -> Callable[..., Command]:
    """``cmd("grasp", object="bottle", hand="left")`` for robot1 (``robot=`` to change)."""

    def make(name: str, robot: str = "robot1", **args: ArgValue) -> Command:
        return Command(robot=robot, skill="PICK", name=name, args=args)

    return make
