"""Low-level commands, their feedback, and the executor protocol that runs them.

Skills decompose (HTN) into :class:`Command` s; an :class:`Executor` runs one command at a time
for a robot and answers with :class:`Feedback`. The simulator's executor acts on ground truth
(so a wrong belief shows up as a failed command); a ROS 2 executor will send the same commands
to a real robot. Failure codes are the failure-experience vocabulary, so a failed command can
be explained from past experience.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.memory.experience import ErrorCode
from cogtree.knowledge.robot_skills import Skill

CommandName = Literal[
    "navigate",  # target: a room or a piece of furniture; drive there
    "approach",  # target: furniture or object in the current room; come within reach
    "observe",  # look around the current room (refreshes the belief)
    "open_gripper",  # hand
    "grasp",  # object, hand
    "verify_grasp",  # object, hand: is it really held?
    "lift",  # object, hand
    "put",  # object, target (surface or container), hand: set it down there
    "release",  # hand
    "open",  # container (or door)
    "close",  # container (or door)
    "handover",  # object, person, hand
    "present_handle",  # object, hand: turn a sharp object so its handle points out
    "put_beside",  # object, landmark, relation, hand: set it down beside a landmark
    "drop_in",  # object, bin, hand: drop a held object into a waste bin
    "switch_on",  # appliance (an appliance, a tap, a light)
    "switch_off",  # appliance
    "fill",  # container, source, hand, amount_ml: hold a container under a running tap
    "pour",  # source, target, hand, amount_ml: tip a held container into another
    "wipe",  # surface, tool, hand: wipe a surface with a held cloth or sponge
    "store",  # object, storage (a locker on a mobile base)
    "speak",  # text
    "wait",  # seconds
]
"""The low-level commands every executor understands (arguments in the comments)."""

ArgValue = str | int | float | bool


class Command(BaseModel):
    """One low-level command for one robot, and the skill it belongs to."""

    model_config = ConfigDict(frozen=True)

    robot: str = Field(min_length=1)
    skill: Skill
    name: CommandName
    args: dict[str, ArgValue] = Field(default_factory=dict)

    def describe(self) -> str:
        """``grasp(object=bottle, hand=left)``."""
        args = ", ".join(f"{key}={value}" for key, value in self.args.items())
        return f"{self.name}({args})"


class Feedback(BaseModel):
    """How a command ended: ok, or a failure code from the experience vocabulary and why."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    code: ErrorCode | None = None
    message: str = ""


def ok(message: str) -> Feedback:
    """A successful command's feedback."""
    return Feedback(ok=True, message=message)


def fail(code: ErrorCode, message: str) -> Feedback:
    """A failed command's feedback: the experience code and the reason in words."""
    return Feedback(ok=False, code=code, message=message)


@runtime_checkable
class Executor(Protocol):
    """Runs commands. ``submit`` returns at once; the future resolves with the feedback.

    Implementations must never raise from ``submit`` for a command they cannot run: they
    resolve the future with a failed :class:`Feedback` instead (code and reason), so the
    controller can explain it. ``cancel`` asks a running command to stop (best effort).
    """

    def submit(self, command: Command) -> Future[Feedback]:
        """Start ``command``; the future resolves when it is done."""
        ...

    def cancel(self, command: Command) -> None:
        """Ask the executor to stop ``command`` if it is still running."""
        ...
