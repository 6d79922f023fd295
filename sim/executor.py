"""``SimExecutor``: runs low-level commands on the simulator's ground truth, tick by tick.

It implements :class:`skills.action_model.commands.Executor`. A wrong belief therefore shows up as a
failed command: the skill planned from the map, the world says "bottle is not on table_1 in
kitchen" (``object_not_visible``).

What a command does is its capability's: the executor looks the command up in the capability
registry and runs its rule (``simulate``) on the world, which offers the rules its readings and
changes (:class:`~skills.action_model.ground_truth.GroundTruth`). The executor runs the two
commands of no capability itself: ``observe`` (perception) and ``store`` (a mounted locker).

Timing (the design choice): commands take simulated time, and the caller drives the clock.

- :meth:`SimExecutor.submit` queues the command and returns its future at once; each robot
  runs its commands one after another, robots run side by side.
- :meth:`SimExecutor.step` is one tick: the clock advances, due events fire, every command
  whose time is up *finishes*: its checks and effects happen then (so a door closed while the
  robot drives fails the navigation), its future resolves with the
  :class:`~skills.action_model.commands.Feedback`, and the robot's next command starts. Then people
  finish their delegated tasks and ``when`` events are checked.
- A command takes its capability's ``ticks`` (at least one, so its future resolves on a
  later ``step``); ``navigate`` takes the world's ``ticks_per_room`` per door on the shortest
  way, ``wait`` its seconds in ticks (rounded up).

The tree's runner calls ``step()`` once per tree tick, and behaviours poll their futures, so
a skill's commands are RUNNING for several ticks like on a real robot. Scripts and tests can
use :meth:`SimExecutor.run` to submit and step until a command is done.

Grasp slips are applied on ``grasp`` and ``lift`` by the world rules, with the world's seeded
generator. Events fire on the hooks of :class:`~sim.events.EventEngine` (a command submitted,
a robot arrived, a tick). When the executor has a belief (a
:class:`~knowledge.scene.scene_graph.SceneGraph`), ``observe`` updates it through
:mod:`sim.perception`, and every finished command reports what the robot knows first-hand
(where it is, what it holds, the things it just handled, as they are now; an object a
command failed to find where the belief put it, ``object_not_visible``, is not reported: the
robot did not see where it went, and must look).
"""

from __future__ import annotations

import logging
import math
import threading
from collections import deque
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from types import MappingProxyType

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.sim.events import EventEngine
from cogtree.sim.humans import People
from cogtree.sim.perception import facts_about, update_belief, visible
from cogtree.sim.scenario import Scenario
from cogtree.sim.world import World
from cogtree.skills.action_model.commands import Command, Feedback, fail, ok
from cogtree.skills.action_model.ground_truth import BadArgument, thing_arg
from cogtree.skills.capabilities.registry import COMMANDS

log = logging.getLogger(__name__)

OWN_COMMANDS: Mapping[str, int] = MappingProxyType({"observe": 1, "store": 1})
"""The commands of no capability, which the executor runs itself, and their ticks; every
other command's rule and ticks are its capability's (see the module docs for navigate and
wait)."""

HANDLED_ARGUMENTS = (
    "object",
    "target",
    "container",
    "door",
    "person",
    "storage",
    "landmark",
    "bin",
    "appliance",
    "source",
    "surface",
    "tool",
)
"""Arguments naming things whose state the robot reports after a command on them."""


@dataclass
class CommandRecord:
    """One submitted command: when it was submitted, started and finished, and its feedback."""

    command: Command
    submitted_at: int
    started_at: int | None = None
    finished_at: int | None = None
    feedback: Feedback | None = None
    cancelled: bool = False


@dataclass
class _Job:
    record: CommandRecord
    future: Future[Feedback]
    due: int = 0


@dataclass
class _Queues:
    waiting: dict[str, deque[_Job]] = field(default_factory=dict)
    running: dict[str, _Job] = field(default_factory=dict)


class SimExecutor(Closeable):
    """Runs commands on ``world`` (see the module docs for timing).

    Args:
        world: the ground truth.
        events: the disruptions to fire (none when omitted).
        people: the simulated people whose delegated tasks advance with each step.
        belief: the scene graph that ``observe`` and first-hand knowledge update.
        owns_belief: close ``belief`` in :meth:`close`.

    It owns :attr:`workers`, the pool a tree acting in this simulator runs its background
    work on (the tree's ``workers`` handle); :meth:`close` stops it.

    """

    def __init__(
        self,
        world: World,
        *,
        events: EventEngine | None = None,
        people: People | None = None,
        belief: SceneGraph | None = None,
        owns_belief: bool = False,
    ) -> None:
        self.world = world
        self.events = events if events is not None else EventEngine()
        self.people = people if people is not None else People(world)
        self.belief = belief
        self._owns_belief = owns_belief
        self.workers = WorkerPool(2, "cogtree-workers")
        self.log: list[CommandRecord] = []
        self._queues = _Queues()
        self._lock = threading.Lock()

    @classmethod
    def from_scenario(
        cls, scenario: Scenario, *, seed: int | None = None, with_belief: bool = True
    ) -> SimExecutor:
        """A fresh run of ``scenario``: its world, people, events and the main robot's belief.

        The belief is owned by the executor (:meth:`close` closes it).
        """
        world = scenario.new_world(seed)
        belief = scenario.new_belief(world) if with_belief else None
        return cls(
            world,
            events=scenario.new_events(),
            people=scenario.new_people(world),
            belief=belief,
            owns_belief=with_belief,
        )

    # -- the Executor protocol -----------------------------------------------------------------

    def submit(self, command: Command) -> Future[Feedback]:
        """Queue ``command`` for its robot; events triggered by it fire before it runs."""
        future: Future[Feedback] = Future()
        with self._lock:
            record = CommandRecord(command=command, submitted_at=self.world.tick)
            self.log.append(record)
            self._queues.waiting.setdefault(command.robot, deque()).append(_Job(record, future))
            self.events.command_submitted(command, self.world)
            self._start_next(command.robot)
        log.debug("submitted %s for %s", command.describe(), command.robot)
        return future

    def cancel(self, command: Command) -> None:
        """Drop ``command`` if it is waiting or running.

        It has no effect, its future is cancelled, and the robot goes on with its next command.
        """
        with self._lock:
            robot = command.robot
            running = self._queues.running.get(robot)
            if running is not None and running.record.command == command:
                del self._queues.running[robot]
                job = running
                self._start_next(robot)
            else:
                waiting = self._queues.waiting.get(robot, deque())
                job_or_none = next((j for j in waiting if j.record.command == command), None)
                if job_or_none is None:
                    return
                job = job_or_none
                waiting.remove(job)
            job.record.cancelled = True
            job.record.finished_at = self.world.tick
        job.future.cancel()
        log.debug("cancelled %s for %s", command.describe(), robot)

    # -- the clock -----------------------------------------------------------------------------

    def step(self) -> None:
        """One tick: advance the clock, fire events, finish due commands, step the people."""
        with self._lock:
            self.world.advance(1)
            self.events.check(self.world)
            finished = []
            for robot in sorted(self._queues.running):
                job = self._queues.running[robot]
                if job.due <= self.world.tick:
                    del self._queues.running[robot]
                    finished.append((job, self._finish(job)))
                    self._start_next(robot)
            self.people.step()
            self.events.check(self.world)
        for job, feedback in finished:
            if not job.future.cancelled():
                job.future.set_result(feedback)

    def run(self, command: Command, *, max_ticks: int = 1000) -> Feedback:
        """Submit ``command`` and step until it is done (for scripts and tests).

        Returns a ``timeout`` failure if it is not done after ``max_ticks`` steps.
        """
        future = self.submit(command)
        for _ in range(max_ticks):
            if future.done():
                break
            self.step()
        if not future.done():
            return fail("timeout", f"{command.describe()} was not done after {max_ticks} ticks")
        return future.result()

    @property
    def idle(self) -> bool:
        """No command waiting or running, and nobody working on a delegated task."""
        with self._lock:
            busy = self._queues.running or any(self._queues.waiting.values())
        return not busy and not self.people.working

    def close(self) -> None:
        """Stop the workers; close the belief if this executor owns it."""
        self.workers.close()
        if self._owns_belief and self.belief is not None:
            self.belief.close()

    # -- running one command -------------------------------------------------------------------

    def _start_next(self, robot: str) -> None:
        waiting = self._queues.waiting.get(robot)
        if robot in self._queues.running or not waiting:
            return
        job = waiting.popleft()
        job.record.started_at = self.world.tick
        job.due = self.world.tick + self._ticks(job.record.command)
        self._queues.running[robot] = job

    def _ticks(self, command: Command) -> int:
        """How long ``command`` takes, decided when it starts."""
        own = OWN_COMMANDS.get(command.name)
        ticks = own if own is not None else COMMANDS[command.name].ticks
        if command.name == "navigate":
            pose = self.world.state.robots.get(command.robot)
            target = command.args.get("target")
            goal = self.world.navigation_target_room(target) if isinstance(target, str) else None
            route = self.world.route(pose.room, goal) if pose and goal else None
            ticks += self.world.spec.ticks_per_room * len(route or ())
        if command.name == "wait":
            seconds = command.args.get("seconds")
            if isinstance(seconds, int | float) and not isinstance(seconds, bool):
                ticks = max(ticks, math.ceil(seconds / self.world.spec.clock.seconds_per_tick))
        return ticks

    def _finish(self, job: _Job) -> Feedback:
        command = job.record.command
        if job.future.cancelled():
            job.record.cancelled = True
            return Feedback(ok=False, message="cancelled")
        room_before = self._room(command.robot)
        try:
            feedback = self._apply(command)
        except BadArgument as error:
            feedback = fail("object_not_found", f"{command.describe()}: {error}")
        job.record.finished_at = self.world.tick
        job.record.feedback = feedback
        log.debug("%s %s: %s", command.robot, command.describe(), feedback.message)
        room_after = self._room(command.robot)
        if room_after is not None and room_after != room_before:
            self.events.robot_arrived(command.robot, room_after, self.world)
        if self.belief is not None and command.robot in self.world.spec.robots:
            self._tell_belief(command, self.belief, feedback)
        return feedback

    def _room(self, robot: str) -> str | None:
        pose = self.world.state.robots.get(robot)
        return pose.room if pose else None

    def _apply(self, command: Command) -> Feedback:
        """Run ``command`` on the world: its capability's rule, or the executor's own."""
        world, robot, args = self.world, command.robot, command.args
        if command.name == "observe":
            return self._observe(robot)
        if command.name == "store":
            return world.store(robot, thing_arg(args, "object"), thing_arg(args, "storage"))
        return COMMANDS[command.name].simulate(world, robot, args)

    def _observe(self, robot: str) -> Feedback:
        if robot not in self.world.spec.robots:
            return fail("object_not_found", f"no robot {robot!r}")
        seen = []
        for thing in visible(self.world, robot):
            kind = self.world.kind_of(thing)
            if kind == "object":
                seen.append(f"{thing} ({self.world.placement(thing).describe()})")
            elif kind == "container":
                seen.append(f"{thing} ({'open' if self.world.is_open(thing) else 'closed'})")
            elif thing != robot:
                seen.append(thing)
        room = self.world.state.robots[robot].room
        return ok(f"{robot} sees in {room}: {', '.join(seen) or 'nothing'}")

    def _tell_belief(self, command: Command, belief: SceneGraph, feedback: Feedback) -> None:
        """Tell the belief what the robot knows first-hand after ``command``.

        That is itself, what it holds, and the things the command handled, unless it failed
        because it could not see them there (``object_not_visible``): it then knows they are
        not there, not where they are.
        """
        robot = command.robot
        if command.name == "observe":
            update_belief(belief, self.world, robot)
            return
        unseen = not feedback.ok and feedback.code == "object_not_visible"
        handled = [
            value
            for key, value in command.args.items()
            if key in HANDLED_ARGUMENTS and isinstance(value, str) and self.world.kind_of(value)
        ]
        if unseen:
            handled = [thing for thing in handled if self.world.kind_of(thing) != "object"]
        things = [robot, *self.world.held(robot).values(), *handled]
        belief.observe(facts_about(self.world, dict.fromkeys(things), robot=robot, scene=belief))
