"""RosHost in this process over real DDS: readiness, turns that act, fail, raise; shutdown.

The host's node and the simulated robot's node each have their own participant (as if in
their own processes). ``start_if_ready`` runs on this, the main, thread, as ``cogtree ros``
does: py_trees' tree setup needs it. A goal the host stops before the robot's acceptance
reached it is cancelled twice (by its id, then through its handle), so the tests count
"at least one" cancel request.
"""

from __future__ import annotations

import json
import time
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree.behaviours import keys
from cogtree.evaluation.scenarios.scenario_run import oracle_client
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.ros.host import NOT_READY, TreeHooks
from cogtree.trees.viewer.feed import TickFeed
from tests.ros.host_session import HostBench

SCENARIO = "mug_to_sink"  # the no-model fast path solves it: GOTO, PICK, PLACE
REQUEST = "take the mug from the kitchen table to the sink"


def test_without_a_robot_the_host_says_it_is_not_ready(host_bench: HostBench) -> None:
    waiting = host_bench.host()
    user = host_bench.user()
    assert not waiting.start_if_ready()
    assert user.say(REQUEST) == NOT_READY.format(topic="/robot1/state")
    assert not waiting.ready and waiting.turns == 0


def test_a_request_reaches_the_goal_through_the_robot_and_the_reply_is_said(
    host_bench: HostBench,
) -> None:
    robot = host_bench.robot(SCENARIO)
    _, user = host_bench.serve()
    first = host_bench.until(
        lambda: user.snapshots and json.loads(user.snapshots[0]), what="a snapshot"
    )
    assert first["tick"]["tick"] == 0  # the idle tree, published when the host became ready
    reply = user.say(REQUEST)
    assert "mug" in reply and "sink" in reply, reply
    assert load_scenario(SCENARIO).goal.unmet(robot.simulator.world) == []
    assert robot.goals_accepted >= 3  # navigate, then the grasp and place commands
    feed = TickFeed()
    for message in user.snapshots:  # what `cogtree view` does with the topic
        feed.push_json(json.loads(message))
    index = feed.index()
    assert index.last is not None and index.last > 1
    assert feed.tree == "cogtree.trees.assistant:create_root"


def test_a_delegation_reaches_the_simulated_person_over_the_people_topics(
    host_bench: HostBench,
) -> None:
    """The oracle plans (print by Priya, then carry the agenda); Priya answers over DDS."""
    scenario = load_scenario("print_agenda")
    robot = host_bench.robot("print_agenda")
    with oracle_client(scenario) as planner:
        _, user = host_bench.serve(host_bench.assistant(planner))
        reply = user.say(scenario.request.text)
    assert "could not" not in reply, reply
    assert scenario.goal.unmet(robot.simulator.world) == []  # did(priya, print) among them
    assert robot.people.pending == 0


def test_a_robot_that_goes_silent_fails_the_skill_and_the_host_goes_on(
    host_bench: HostBench,
) -> None:
    # navigate succeeds; the next command (approach) is accepted and never ends
    host_bench.robot(SCENARIO, stop_answering_after=1)
    serving, user = host_bench.serve(command_timeout_s=3.0)
    reply = user.say(REQUEST)
    assert "could not" in reply and "timeout" in reply, reply
    assert "stopped answering on /robot1/execute_skill" in reply
    assert "mug" in user.say("where is the mug?")
    assert serving.turns == 2


def test_a_tree_that_cannot_be_set_up_says_why_on_every_utterance(host_bench: HostBench) -> None:
    def broken(hooks: TreeHooks) -> AssistantSession:
        raise RuntimeError("no domain packs found in /nowhere")

    host_bench.robot(SCENARIO)
    serving = host_bench.host(broken)
    user = host_bench.user()
    host_bench.until(serving.start_if_ready, what="the host to try")
    assert not serving.ready
    assert serving.failure == "no domain packs found in /nowhere"
    assert user.say(REQUEST) == "I cannot take requests: no domain packs found in /nowhere"


class Exploding(py_trees.behaviour.Behaviour):
    """Raises when told to explode; otherwise replies "fine"."""

    def __init__(self) -> None:
        super().__init__("Exploding")
        self.client = self.attach_blackboard_client(self.name)
        self.client.register_key(keys.UTTERANCE.name, access=py_trees.common.Access.READ)
        self.client.register_key(keys.REPLY.name, access=py_trees.common.Access.WRITE)

    def update(self) -> Status:
        if self.client.get(keys.UTTERANCE.name) == "explode":
            raise RuntimeError("boom")
        self.client.set(keys.REPLY.name, "fine")
        return Status.SUCCESS


def test_a_turn_that_raises_is_reported_and_the_next_turn_runs(host_bench: HostBench) -> None:
    parts = host_bench.parts

    def exploding(hooks: TreeHooks) -> AssistantSession:
        return AssistantSession(
            llm=parts["llm"],
            before_tick=hooks.before_tick,
            on_tick=hooks.on_tick,
            rate_hz=None,
            root_factory=lambda robot: Exploding(),
            handles={"domains": parts["domains"], "memory": parts["memory"], **hooks.handles},
        )

    host_bench.robot(SCENARIO)
    _, user = host_bench.serve(exploding)
    assert user.say("explode") == (
        "Sorry, something went wrong while I was doing that (boom). I stopped it."
    )
    assert user.say("hello") == "fine"


def test_close_stops_a_turn_in_progress_and_cancels_its_command(host_bench: HostBench) -> None:
    # accepts the navigation, never finishes it
    robot = host_bench.robot(SCENARIO, stop_answering_after=0)
    serving, user = host_bench.serve(command_timeout_s=60.0)
    user.speak(REQUEST)
    host_bench.until(lambda: robot.goals_accepted == 1, what="the robot to accept the navigation")
    serving.close()
    host_bench.until(lambda: robot.cancels_requested >= 1, what="the cancel of the navigation")
    assert user.heard == []  # the stopped turn said nothing


def test_with_a_given_belief_and_no_robot_the_skill_fails_saying_what_to_start(
    host_bench: HostBench,
) -> None:
    scenario = load_scenario(SCENARIO)
    with scenario.new_belief(scenario.new_world()) as belief:
        # no robot state needed to set the tree up
        _, user = host_bench.serve(belief=belief, accept_timeout_s=0.5)
        reply = user.say(REQUEST)
    assert reply.startswith("I could not do it"), reply
    assert "no action server on /robot1/execute_skill after 0.5 s" in reply
    assert "cogtree sim-ros" in reply


def test_deactivate_stops_the_turn_cancels_the_robots_goal_and_pauses(
    host_bench: HostBench,
) -> None:
    robot = host_bench.robot(SCENARIO, stop_answering_after=0)  # accepts, never finishes
    serving, user = host_bench.serve(command_timeout_s=60.0)
    user.speak(REQUEST)
    host_bench.until(lambda: robot.goals_accepted == 1, what="the robot to accept the navigation")
    before = len(user.heard)
    serving.deactivate()
    host_bench.until(lambda: robot.cancels_requested >= 1, what="the cancel of the navigation")
    host_bench.until(lambda: len(user.heard) > before, what="the interrupted turn's words")
    assert user.heard[before] == "I stopped what I was doing (I was deactivated)."
    assert user.say("where is the mug?").startswith("I am paused")
    serving.activate()
    assert "mug" in user.say("where is the mug?")


def test_a_flood_of_utterances_leaves_the_next_request_answered_within_one_turn(
    host_bench: HostBench,
) -> None:
    from std_msgs.msg import String

    host_bench.robot(SCENARIO)
    serving, user = host_bench.serve()
    user.speak("hello")  # the host and the user know each other
    host_bench.until(lambda: user.heard, what="the first reply")
    started = time.perf_counter()
    for n in range(3000):
        user.mouth.publish(String(data=f"junk {n}"))
    flooded = time.perf_counter()
    before, turns = len(user.heard), serving.turns
    user.speak("where is the mug?")
    host_bench.until(
        lambda: any("mug" in words for words in user.heard[before:]), what="the request's reply"
    )
    answered = time.perf_counter()
    print(
        f"\nflood of 3000 published in {flooded - started:.2f} s; the request answered "
        f"{answered - flooded:.2f} s later, after {serving.turns - turns} turn(s)"
    )
    said = user.heard[before:]
    answer = next(index for index, words in enumerate(said) if "mug" in words)
    notices = [index for index, words in enumerate(said) if words.startswith("I was busy")]
    assert notices, said  # most of the flood was dropped, and the host said so
    # after the flood's last dropped utterances, at most the turn in progress came first
    assert answer - notices[-1] - 1 <= 1, said


def request_client(host_bench: HostBench) -> Any:
    """An action client of the host's ``request`` action (see :meth:`HostBench.requester`)."""
    from cogtree_interfaces.action import HandleRequest

    return host_bench.requester(HandleRequest, "/request")


def send(client: Any, text: str) -> Any:
    """Send a request; its goal handle once accepted."""
    from cogtree_interfaces.action import HandleRequest

    sent = client.send_goal_async(HandleRequest.Goal(utterance=text))
    handle = wait_for(sent)
    assert handle.accepted
    return handle


def wait_for(future: Any, timeout_s: float = 60.0) -> Any:
    """The result of an rclpy future (spun by its node's thread)."""
    deadline = time.monotonic() + timeout_s
    while not future.done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)
    return future.result()


def test_a_request_action_returns_the_dialogue_and_the_outcome(host_bench: HostBench) -> None:
    host_bench.robot(SCENARIO)
    host_bench.serve()
    client = request_client(host_bench)
    answer = wait_for(send(client, REQUEST).get_result_async())
    assert answer.result.outcome == "SUCCESS" and answer.result.ticks > 0
    [reply] = answer.result.dialogue
    assert "mug" in reply and "sink" in reply and "could not" not in reply, reply


def test_cancelling_a_request_stops_its_turn_and_cancels_the_robots_goal(
    host_bench: HostBench,
) -> None:
    robot = host_bench.robot(SCENARIO, stop_answering_after=0)  # accepts, never finishes
    serving, _ = host_bench.serve(command_timeout_s=60.0)
    handle = send(request_client(host_bench), REQUEST)
    host_bench.until(lambda: robot.goals_accepted == 1, what="the robot to accept the navigation")
    wait_for(handle.cancel_goal_async())
    answer = wait_for(handle.get_result_async())
    assert answer.result.outcome == "INVALID"
    assert answer.result.dialogue == ["I stopped what I was doing (the request was cancelled)."]
    host_bench.until(lambda: robot.cancels_requested >= 1, what="the cancel of the navigation")
    assert serving.executor.in_flight == 0


def test_the_tree_is_published_and_served_as_typed_snapshots(host_bench: HostBench) -> None:
    from cogtree_interfaces.msg import Behaviour, BehaviourTree
    from cogtree_interfaces.srv import GetTree

    from cogtree.skills.ros.protocol import latched_qos

    host_bench.robot(SCENARIO)
    _, user = host_bench.serve()
    watcher = host_bench.ros.node("tree_watcher", spin=False)
    trees: list[Any] = []
    watcher.create_subscription(BehaviourTree, "/tree/snapshots", trees.append, latched_qos())
    getter = watcher.create_client(GetTree, "/tree/get")
    host_bench.ros.spin(watcher)
    assert "mug" in user.say(REQUEST)
    host_bench.until(lambda: any(tree.tick > 0 for tree in trees), what="a ticked snapshot")
    assert getter.wait_for_service(timeout_sec=30.0)
    answer = getter.call(GetTree.Request(), timeout_sec=30.0)
    assert answer is not None and answer.ready
    tree = answer.tree
    assert tree.tree_name == "cogtree.trees.assistant:create_root" and tree.tick > 0
    by_id = {behaviour.own_id: behaviour for behaviour in tree.behaviours}
    [root] = [behaviour for behaviour in tree.behaviours if behaviour.parent_id == ""]
    assert root.child_ids and all(by_id[child].parent_id == root.own_id for child in root.child_ids)
    assert root.is_active and root.status == Behaviour.SUCCESS
    assert any(behaviour.blackboard_access for behaviour in tree.behaviours)
    assert tree.blackboard_on_visited_path  # the keys the visited behaviours use, with values
