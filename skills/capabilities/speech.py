"""Speech and waiting: say a sentence aloud, or wait some seconds.

The skills ``SAY(text)`` and ``WAIT(seconds)`` every robot has; each runs one command
(``speak``, ``wait``) and changes nothing in the belief.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import Field

from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import ArgValue, CommandName, Feedback, fail, ok
from cogtree.skills.action_model.ground_truth import BadArgument, GroundTruth, thing_arg
from cogtree.skills.action_model.specs import Args, CallSpec
from cogtree.skills.capabilities import capability as cap


class SayArgs(Args):
    """SAY: speak ``text`` aloud."""

    text: str = Field(min_length=1, max_length=500, pattern=r"\S")


class WaitArgs(Args):
    """WAIT: do nothing for ``seconds`` (at most an hour)."""

    seconds: float = Field(gt=0, le=3600)


def _way(
    skill: RobotSkill,
    args: type[Args],
    summary: str,
    command: CommandName,
    recovery: cap.RecoveryRole | None = None,
) -> cap.SkillKind:
    """A skill that needs only itself and runs one command with its one argument."""

    def preconditions(belief: Belief, args: Any) -> Iterator[checks.Check]:
        yield checks.has_skill(belief, skill)

    def commands(state: cap.SkillState, value: str | float) -> list[cap.Step]:
        return [(command, value)]

    return cap.SkillKind(
        CallSpec(skill, args, summary),
        preconditions,
        lambda belief, _: belief,
        (commands,),
        recovery=recovery,
    )


def _emit(state: cap.SkillState, value: str | float) -> cap.SkillState:
    return cap.done(state)


def _wait(world: GroundTruth, robot: str, args: Mapping[str, ArgValue]) -> Feedback:
    """Wait ``seconds`` (the simulator's clock runs them: the command takes that long)."""
    if world.kind_of(robot) != "robot":
        return fail("object_not_found", f"no robot {robot!r}")
    seconds = args.get("seconds", 0)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise BadArgument(f"`seconds` must be a number >= 0, got {seconds!r}")
    return ok(f"{robot} waited {seconds} s")


CAPABILITY = cap.Capability(
    name="speech",
    skills=(
        _way("SAY", SayArgs, "speak a sentence", "speak"),
        _way("WAIT", WaitArgs, "wait some seconds", "wait", recovery="waits"),
    ),
    commands=(
        cap.CommandKind(
            "speak",
            ("text",),
            _emit,
            lambda world, robot, args: world.speak(robot, thing_arg(args, "text")),
        ),
        cap.CommandKind("wait", ("seconds",), _emit, _wait),
    ),
)
"""Speaking and waiting."""
