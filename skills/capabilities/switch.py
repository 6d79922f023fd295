"""Switch: switch an appliance, a tap or a light on or off.

The skills ``SWITCH_ON(appliance)`` and ``SWITCH_OFF(appliance)`` need a free hand and the
appliance in reach (the robot approaches it and runs the ``switch_on`` / ``switch_off``
command); the appliance is powered on or off afterwards. The tasks ``switch_on`` and
``switch_off`` go to the appliance and switch it, unless the belief has it so already; an
appliance in hand (a kettle just filled) is put back where it stood first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import ArgValue, CommandName, Feedback, fail, ok
from cogtree.skills.action_model.ground_truth import GroundTruth, thing_arg
from cogtree.skills.action_model.specs import Args, CallSpec, NodeId
from cogtree.skills.capabilities import capability as cap


class SwitchArgs(Args):
    """SWITCH_ON / SWITCH_OFF and the tasks switch_on / switch_off: an appliance, tap or light."""

    appliance: NodeId


def _taken_from(state: cap.TaskState, thing: str) -> str | None:
    """The surface or container ``thing`` stood on or in when planning started, if any."""
    found = state.start.things.get(thing)
    if found is None or found.relation not in ("on", "in") or found.support is None:
        return None
    return found.support


def _way(powered: bool) -> tuple[cap.SkillKind, cap.CommandKind, cap.TaskKind]:
    """The skill, command and task that switch an appliance on (``powered``) or off."""
    skill: RobotSkill = "SWITCH_ON" if powered else "SWITCH_OFF"
    command: CommandName = "switch_on" if powered else "switch_off"
    word = "on" if powered else "off"

    def preconditions(belief: Belief, args: SwitchArgs) -> Iterator[checks.Check]:
        yield checks.has_skill(belief, skill)
        yield checks.has_hands(belief)
        yield (
            appliance := checks.flagged(
                belief,
                args.appliance,
                "appliance",
                "not_an_appliance",
                "an appliance, a tap or a light that switches on and off",
            )
        )
        if not appliance.ok:
            return
        yield checks.in_robot_room(belief, args.appliance)
        yield checks.reachable(belief, args.appliance)
        yield checks.free_hand(belief, None)

    def effect(belief: Belief, args: SwitchArgs) -> Belief:
        return belief.with_powered(args.appliance, powered)

    def facts(args: SwitchArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
        return [cap.Fact("powered", args.appliance, word)]

    def commands(state: cap.SkillState, appliance: str) -> list[cap.Step]:
        return [("approach", appliance), (command, appliance)]

    def act(state: cap.SkillState, appliance: str) -> cap.SkillState | bool:
        if state.near != appliance:
            return False
        state.belief = state.belief.with_powered(appliance, powered)
        return cap.done(state)

    def switch(state: cap.TaskState, appliance: str) -> cap.Subtasks:
        found = state.belief.things.get(appliance)
        if found is None or "appliance" not in found.flags:
            state.failures.add(
                f"{command}({appliance}): {appliance} is not an appliance, tap or light of the "
                "belief"
            )
            return False
        if found.powered is powered:
            return []
        if appliance in state.belief.held:  # just filled: it is switched where it stood
            origin = _taken_from(state, appliance)
            if origin is None:
                state.failures.add(f"{command}({appliance}): it is in hand; put it down first")
                return False
            return [("deliver", appliance, origin), ("go_to", appliance), (skill, appliance)]
        return [("go_to", appliance), (skill, appliance)]

    def outline(
        belief: Belief, args: dict[str, str], said: Sequence[str]
    ) -> list[tuple[str, dict[str, str]]]:
        return [(skill, {"appliance": args["appliance"]})]

    def simulate(world: GroundTruth, robot: str, args: Mapping[str, ArgValue]) -> Feedback:
        """Switch an appliance, tap or light (idempotent); needs a free hand.

        Fails: object_not_found, not_an_appliance, object_not_visible, out_of_reach (not
        near it), hand_full.
        """
        appliance = thing_arg(args, "appliance")
        refused = world.refusal(robot, "SwitchOn" if powered else "SwitchOff", "switch things")
        if refused:
            return refused
        if world.kind_of(appliance) is None:
            return fail("object_not_found", f"there is no {appliance!r}")
        if "appliance" not in world.flags_of(appliance):
            return fail("not_an_appliance", f"{appliance} does not switch on or off")
        room = world.room_of(robot)
        if not world.visible_to(robot, appliance):
            return fail("object_not_visible", f"{robot} does not see {appliance} in {room}")
        support = (
            world.landmark_surface(appliance) if world.kind_of(appliance) == "object" else None
        )
        if world.robot_near(robot) not in (appliance, support):
            return fail("out_of_reach", f"{robot} is not near {appliance}: approach it first")
        hands = world.hands(robot)
        if not hands or len(world.held(robot)) >= len(hands):
            return fail("hand_full", f"{robot} has no free hand to switch {appliance}")
        if world.is_powered(appliance) != powered:
            world.set_powered(appliance, powered)
            world.note(f"{robot} switched {appliance} {word}")
        return ok(f"{appliance} is {word}")

    commands.__name__ = f"{command}_method"
    switch.__name__ = command
    methods: tuple[cap.Method, ...] = (switch,)
    return (
        cap.SkillKind(
            CallSpec(skill, SwitchArgs, f"switch an appliance, tap or light {word}"),
            preconditions,
            effect,
            (commands,),
            facts,
        ),
        cap.CommandKind(command, ("appliance",), act, simulate),
        cap.TaskKind(
            CallSpec(command, SwitchArgs, f"switch an appliance, tap or light {word}"),
            methods,
            outline=outline if powered else None,  # switching off raises no hazard
            fits={"appliance": lambda thing: "appliance" in thing.flags},
            ends_in=word,
        ),
    )


_ON, _OFF = _way(powered=True), _way(powered=False)

CAPABILITY = cap.Capability(
    name="switch",
    skills=(_ON[0], _OFF[0]),
    commands=(_ON[1], _OFF[1]),
    tasks=(_ON[2], _OFF[2]),
)
"""Switching appliances, taps and lights on and off."""
