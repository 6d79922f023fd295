"""Open and close: open or close a container (a fridge, a cupboard, a drawer, an oven).

The skills ``OPEN(container)`` and ``CLOSE(container)`` need a free hand and the container in
reach (the robot approaches it and runs the ``open`` / ``close`` command). The tasks ``open``
and ``close`` go to the container and open or close it, unless the belief has it so already.
The helper task ``close_if_possible`` closes again what a fetch or delivery opened, or leaves
it open when no hand is free.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any

from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import ArgValue, CommandName, Feedback
from cogtree.skills.action_model.ground_truth import GroundTruth, thing_arg
from cogtree.skills.action_model.specs import Args, CallSpec, NodeId
from cogtree.skills.capabilities import capability as cap

log = logging.getLogger(__name__)


class ContainerArgs(Args):
    """OPEN / CLOSE and the tasks open / close: a container (a fridge, a drawer, a cupboard)."""

    container: NodeId


def _way(is_open: bool) -> tuple[cap.SkillKind, cap.CommandKind, cap.TaskKind]:
    """The skill, command and task that open a container (``is_open``) or close it."""
    skill: RobotSkill = "OPEN" if is_open else "CLOSE"
    command: CommandName = "open" if is_open else "close"

    def preconditions(belief: Belief, args: ContainerArgs) -> Iterator[checks.Check]:
        yield checks.has_skill(belief, skill)
        yield checks.has_hands(belief)
        yield (container := checks.of_kind(belief, args.container, ("container",), "is_container"))
        if not container.ok:
            return
        yield checks.in_robot_room(belief, args.container)
        yield checks.reachable(belief, args.container)
        yield checks.free_hand(belief, None)

    def effect(belief: Belief, args: ContainerArgs) -> Belief:
        return belief.with_container(args.container, is_open)

    def facts(args: ContainerArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
        return [cap.Fact("open", args.container, "open" if is_open else "closed")]

    def reflect(args: Mapping[str, Any], agent: str, belief: SceneGraph) -> tuple[bool, str]:
        container = str(args["container"])
        location = belief.locate_object(container)
        found = []
        if location is not None and location.room is not None:
            found = [i for i in belief.objects_in_room(location.room) if i.id == container]
        if not found or found[0].is_open is None:
            return False, f"the belief does not say whether {container} is open"
        state = found[0].is_open
        return state == is_open, f"{container} is {'open' if state else 'closed'}"

    def commands(state: cap.SkillState, container: str) -> list[cap.Step]:
        return [("approach", container), (command, container)]

    def act(state: cap.SkillState, container: str) -> cap.SkillState | bool:
        if state.near != container:
            return False
        state.belief = state.belief.with_container(container, is_open)
        return cap.done(state)

    def task(state: cap.TaskState, container: str) -> cap.Subtasks:
        """Go to ``container`` and OPEN or CLOSE it, unless the belief already has it so."""
        found = state.belief.things.get(container)
        if found is None or found.kind != "container":
            state.failures.add(
                f"{command}({container}): {container} is not a container of the belief"
            )
            return False
        if found.is_open is is_open:
            return []
        return [("go_to", container), (skill, container)]

    task.__name__ = f"_{command}"
    return (
        cap.SkillKind(
            CallSpec(skill, ContainerArgs, f"{command} a container"),
            preconditions,
            effect,
            (commands,),
            facts,
            reflect,
        ),
        cap.CommandKind(
            command,
            ("container",),
            act,
            lambda world, robot, args: _simulate(world, robot, args, open_it=is_open),
        ),
        cap.TaskKind(
            CallSpec(command, ContainerArgs, f"{command} a container"),
            (task,),
            ends_in="open" if is_open else "closed",
        ),
    )


def _simulate(
    world: GroundTruth, robot: str, args: Mapping[str, ArgValue], *, open_it: bool
) -> Feedback:
    """Open or close the thing named by ``container``, ``door`` or ``target``."""
    key = next((k for k in ("container", "door", "target") if k in args), "container")
    return world.open_or_close(robot, thing_arg(args, key), open_it=open_it)


def _close(state: cap.TaskState, container: str) -> cap.Subtasks:
    return [("CLOSE", container)]


def _leave_open(state: cap.TaskState, container: str) -> cap.Subtasks:
    log.debug("planning to leave %s open", container)
    return []


_OPEN, _CLOSE = _way(is_open=True), _way(is_open=False)

CAPABILITY = cap.Capability(
    name="open_close",
    skills=(_OPEN[0], _CLOSE[0]),
    commands=(_OPEN[1], _CLOSE[1]),
    tasks=(_OPEN[2], _CLOSE[2]),
    helpers={"close_if_possible": (_close, _leave_open)},
)
"""Opening and closing containers."""
