"""The simulator executor: timing, every command, failures, events, people, belief, determinism."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cogtree.sim.events import Event, EventEngine
from cogtree.sim.executor import SimExecutor
from cogtree.sim.humans import DelegatedTask, People
from cogtree.sim.perception import belief_from_world
from cogtree.sim.scenario import load_scenario
from cogtree.sim.world import World
from cogtree.sim.world_spec import WorldSpec
from cogtree.skills.action_model.commands import Command, Executor

Make = Callable[..., Command]


def test_it_is_an_executor(executor: SimExecutor) -> None:
    def takes(runner: Executor) -> Executor:
        return runner

    assert takes(executor) is executor


# -- timing -----------------------------------------------------------------------------------


def test_a_command_finishes_after_its_ticks(executor: SimExecutor, cmd: Make) -> None:
    future = executor.submit(cmd("navigate", target="kitchen"))
    for _ in range(3):  # 1 tick + 3 per door crossed
        executor.step()
        assert not future.done()
        assert executor.world.room_of("robot1") == "hallway"
    executor.step()
    assert future.result().ok and executor.world.room_of("robot1") == "kitchen"
    [record] = executor.log
    assert (record.submitted_at, record.started_at, record.finished_at) == (0, 0, 4)


def test_each_robot_runs_its_commands_in_order_and_robots_run_side_by_side(
    executor: SimExecutor, cmd: Make
) -> None:
    first = executor.submit(cmd("speak", text="hello"))
    second = executor.submit(cmd("speak", text="again"))
    other = executor.submit(cmd("speak", robot="base1", text="beep"))
    executor.step()
    assert first.done() and other.done() and not second.done()
    executor.step()
    assert second.done() and executor.idle


def test_wait_takes_its_seconds(executor: SimExecutor, cmd: Make) -> None:
    executor.run(cmd("wait", seconds=2.5))
    assert executor.world.tick == 3
    bad = executor.run(cmd("wait", seconds=-1))
    assert bad.code == "object_not_found" and "`seconds` must be a number >= 0" in bad.message


def test_run_gives_up_with_timeout(executor: SimExecutor, cmd: Make) -> None:
    feedback = executor.run(cmd("wait", seconds=100), max_ticks=5)
    assert feedback.code == "timeout" and "not done after 5 ticks" in feedback.message


def test_cancel_a_running_and_a_waiting_command(executor: SimExecutor, cmd: Make) -> None:
    navigate = cmd("navigate", target="kitchen")
    speak = cmd("speak", text="on my way")
    running, waiting = executor.submit(navigate), executor.submit(speak)
    executor.step()
    executor.cancel(speak)
    executor.cancel(navigate)
    assert running.cancelled() and waiting.cancelled()
    for _ in range(5):
        executor.step()
    assert executor.world.room_of("robot1") == "hallway"
    assert [record.cancelled for record in executor.log] == [True, True]
    executor.cancel(navigate)  # unknown by now: nothing happens


# -- every command ----------------------------------------------------------------------------

AT_TABLE: list[tuple[str, dict[str, Any]]] = [("navigate", {"target": "table_1"})]
HOLDING = [*AT_TABLE, ("grasp", {"object": "bottle", "hand": "right"})]

CASES: list[tuple[list[tuple[str, dict[str, Any]]], str, dict[str, Any], str | None]] = [
    ([], "navigate", {"target": "bedroom"}, None),
    ([], "navigate", {"target": "bathroom"}, "door_closed"),
    ([], "navigate", {"target": "bottle"}, "object_not_found"),
    ([], "approach", {"target": "bottle"}, "object_not_visible"),
    (AT_TABLE, "approach", {"target": "bottle"}, None),
    (AT_TABLE, "approach", {"target": "alex"}, "person_unavailable"),
    ([], "observe", {}, None),
    ([], "open_gripper", {"hand": "left"}, None),
    ([], "open_gripper", {"hand": "tail"}, "capability_missing"),
    (HOLDING, "open_gripper", {"hand": "right"}, "hand_full"),
    (AT_TABLE, "grasp", {"object": "bottle", "hand": "left"}, None),
    ([], "grasp", {"object": "bottle", "hand": "left"}, "object_not_visible"),
    (AT_TABLE, "grasp", {"object": "ghost", "hand": "left"}, "object_not_found"),
    (AT_TABLE, "grasp", {"object": "atlas", "hand": "left"}, None),
    ([("navigate", {"target": "kitchen"})], "grasp", {"object": "bottle", "hand": "left"},
     "out_of_reach"),
    ([("navigate", {"target": "fridge"})], "grasp", {"object": "milk", "hand": "left"},
     "container_closed"),
    (HOLDING, "grasp", {"object": "coffee", "hand": "right"}, "hand_full"),
    ([*HOLDING, ("grasp", {"object": "coffee", "hand": "left"})], "grasp",
     {"object": "atlas", "hand": "left"}, "hand_full"),
    (HOLDING, "verify_grasp", {"object": "bottle", "hand": "right"}, None),
    (AT_TABLE, "verify_grasp", {"object": "bottle", "hand": "right"}, "grasp_slipped"),
    (HOLDING, "lift", {"object": "bottle", "hand": "right"}, None),
    (AT_TABLE, "lift", {"object": "bottle", "hand": "right"}, "not_holding"),
    (HOLDING, "put", {"object": "bottle", "target": "table_1", "hand": "right"}, None),
    (HOLDING, "put", {"object": "bottle", "target": "fridge", "hand": "right"}, "out_of_reach"),
    ([*HOLDING, ("approach", {"target": "fridge"})], "put",
     {"object": "bottle", "target": "fridge", "hand": "right"}, "container_closed"),
    (HOLDING, "put", {"object": "bottle", "target": "table_2", "hand": "right"},
     "object_not_visible"),
    (HOLDING, "release", {"hand": "right"}, None),
    (AT_TABLE, "open", {"container": "fridge"}, None),
    ([], "open", {"container": "fridge"}, "object_not_visible"),
    ([], "open", {"door": "bathroom_door"}, None),
    ([], "close", {"target": "kitchen_door"}, None),
    ([], "close", {"container": "bottle"}, "object_not_found"),
    ([], "close", {}, "object_not_found"),
    ([*HOLDING, ("navigate", {"target": "bedroom"})], "handover",
     {"object": "bottle", "person": "alex", "hand": "right"}, None),
    (HOLDING, "handover", {"object": "bottle", "person": "alex"}, "person_unavailable"),
    ([*AT_TABLE, ("grasp", {"object": "coffee", "hand": "left"}),
      ("navigate", {"target": "bedroom"})],
     "handover", {"object": "coffee", "person": "alex"}, "person_refused"),
    (AT_TABLE, "handover", {"object": "bottle", "person": "anna"}, "not_holding"),
    (HOLDING, "store", {"object": "bottle", "storage": "base1_locker"}, "object_not_visible"),
    ([], "speak", {"text": "hello"}, None),
    ([], "wait", {"seconds": 1}, None),
    ([], "grasp", {"hand": "left"}, "object_not_found"),  # missing argument
    ([], "navigate", {"target": 3}, "object_not_found"),  # wrong argument type
]  # fmt: skip


@pytest.mark.parametrize(("setup", "name", "args", "code"), CASES)
def test_every_command_through_the_executor(
    executor: SimExecutor,
    cmd: Make,
    setup: list[tuple[str, dict[str, Any]]],
    name: str,
    args: dict[str, Any],
    code: str | None,
) -> None:
    for setup_name, setup_args in setup:
        feedback = executor.run(cmd(setup_name, **setup_args))
        assert feedback.ok, (setup_name, feedback)
    feedback = executor.run(cmd(name, **args))
    assert (feedback.ok, feedback.code) == (code is None, code), feedback
    assert feedback.message


def test_the_payload_counts_what_is_already_held(executor: SimExecutor, cmd: Make) -> None:
    executor.run(cmd("navigate", target="table_1"))
    assert executor.run(cmd("grasp", object="bottle", hand="left")).ok
    assert executor.run(cmd("grasp", object="atlas", hand="right")).code == "payload_exceeded"


def test_a_closed_door_fails_a_drive_already_under_way(world: World, cmd: Make) -> None:
    events = EventEngine([Event.model_validate({"at_tick": 2, "close": "kitchen_door"})])
    with SimExecutor(world, events=events) as executor:
        feedback = executor.run(cmd("navigate", target="kitchen"))
    assert feedback.code == "door_closed" and world.room_of("robot1") == "hallway"


def test_store_and_hand_over_from_the_base(executor: SimExecutor, cmd: Make) -> None:
    for command in (
        cmd("navigate", target="kitchen", robot="base1"),
        cmd("open", target="base1_locker", robot="base1"),
        *(cmd(name, **args) for name, args in HOLDING),
        cmd("store", object="bottle", storage="base1_locker"),
        cmd("navigate", target="bedroom", robot="base1"),
        cmd("handover", object="bottle", person="alex", robot="base1"),
    ):
        feedback = executor.run(command)
        assert feedback.ok, (command.describe(), feedback)
    assert executor.world.placement("bottle").support == "alex"


# -- events, people, belief -------------------------------------------------------------------


def test_events_fire_on_submission_and_arrival(world: World, cmd: Make) -> None:
    events = EventEngine(
        [
            Event.model_validate({"after_commands": 1, "close": "fridge"}),
            Event.model_validate({"robot_enters": "kitchen", "open": "fridge"}),
        ]
    )
    world.set_open("fridge", True)
    with SimExecutor(world, events=events) as executor:
        executor.submit(cmd("navigate", target="kitchen"))
        assert not world.is_open("fridge")  # before the command even started
        executor.step()
        assert not world.is_open("fridge")
        for _ in range(3):
            executor.step()
        assert world.is_open("fridge") and events.pending == []


def test_people_work_as_the_clock_advances(world: World, cmd: Make) -> None:
    people = People(world)
    with SimExecutor(world, people=people) as executor:
        task = people.delegate("anna", DelegatedTask(ability="sign"))
        assert not executor.idle
        executor.run(cmd("wait", seconds=3))
        assert task.result(timeout=0).ok and executor.idle


def test_observe_and_first_hand_knowledge_update_the_belief(world: World, cmd: Make) -> None:
    with belief_from_world(world, "robot1") as belief, SimExecutor(world, belief=belief) as sim:
        sim.run(cmd("navigate", target="table_1"))
        robot = belief.locate_object("robot1")
        assert robot is not None and robot.support == "kitchen"
        sim.run(cmd("grasp", object="bottle", hand="right"))
        assert belief.robot_state("robot1")[0].holding == ["bottle"]
        world.set_open("fridge", True)
        feedback = sim.run(cmd("observe"))
        assert "fridge (open)" in feedback.message and "milk (in fridge)" in feedback.message
        fridge = next(o for o in belief.objects_in_room("kitchen") if o.id == "fridge")
        assert fridge.is_open is True
        sim.run(cmd("navigate", target="table_2"))
        sim.run(cmd("put", object="bottle", target="table_2", hand="right"))
        bottle = belief.locate_object("bottle")
        assert bottle is not None and (bottle.support, bottle.source) == ("table_2", "sim:robot1")


# -- RoBee's example --------------------------------------------------------------------------


def grasp_at_table_1(sim: SimExecutor) -> Callable[..., Any]:
    """Drive robot1 to table_1 and grasp the bottle there; the command runner, for more."""

    def run(name: str, **args: Any) -> Any:
        return sim.run(Command(robot="robot1", skill="PICK", name=name, args=args))

    assert run("navigate", target="table_1").ok  # the first command: Anna moves the bottle
    assert run("approach", target="table_1").ok
    assert run("open_gripper", hand="right").ok
    return run


def test_robee_example_carried_pick_fails_then_looking_again_finds_the_goal_met() -> None:
    scenario = load_scenario("robee_bottle_carried")
    with SimExecutor.from_scenario(scenario) as sim:
        assert sim.belief is not None
        run = grasp_at_table_1(sim)
        failed = run("grasp", object="bottle", hand="right")
        assert (failed.code, failed.message) == (
            "object_not_visible",
            "bottle is not on table_1 in kitchen",
        )
        believed = sim.belief.locate_object("bottle")
        assert believed is not None and believed.support == "table_1"  # stale
        assert scenario.goal.achieved(sim.world)  # truth: Anna put it there; belief: not
        # the re-planned sequence: look again, then where the bottle has to go
        assert "bottle" not in run("observe").message
        assert run("navigate", target="bedroom").ok
        assert "bottle (on table_2)" in run("observe").message
        seen = sim.belief.locate_object("bottle")
        assert seen is not None and (seen.support, seen.source) == ("table_2", "sim:robot1")
        assert scenario.goal.unmet(sim.world) == []
        assert [fired.event for fired in sim.events.fired] == ["anna_moves_bottle", "anna_follows"]


def test_robee_example_a_failed_grasp_does_not_reveal_where_the_bottle_went() -> None:
    # The paper's version: Anna moves the bottle to the kitchen counter. The grasp at table_1
    # fails without seeing it; only looking around the kitchen shows where it is now.
    scenario = load_scenario("robee_bottle")
    with SimExecutor.from_scenario(scenario) as sim:
        assert sim.belief is not None
        run = grasp_at_table_1(sim)
        assert run("grasp", object="bottle", hand="right").code == "object_not_visible"
        believed = sim.belief.locate_object("bottle")
        assert believed is not None and believed.support == "table_1"  # stale, not revealed
        assert "bottle (on kitchen_counter)" in run("observe").message
        seen = sim.belief.locate_object("bottle")
        assert seen is not None and (seen.support, seen.source) == ("kitchen_counter", "sim:robot1")


# -- determinism ------------------------------------------------------------------------------


def test_same_seed_same_run(home_data: dict[str, Any], cmd: Make) -> None:
    def run(seed: int) -> tuple[list[str], str]:
        world = World(WorldSpec.model_validate(home_data), seed=seed)
        world.set_slip(None, 0.5)
        messages = []
        with SimExecutor(world) as executor:
            executor.run(cmd("navigate", target="table_1"))
            for _ in range(8):
                for name, args in (
                    ("grasp", {"object": "bottle", "hand": "left"}),
                    ("lift", {"object": "bottle", "hand": "left"}),
                    ("put", {"object": "bottle", "target": "table_1", "hand": "left"}),
                ):
                    messages.append(executor.run(cmd(name, **args)).message)
        return messages, world.state.model_dump_json()

    first, again = run(11), run(11)
    assert first == again
    assert any("slipped" in message for message in first[0])
    assert any(message == "bottle is on table_1" for message in first[0])
