"""A command in a simulated world: the world its rule acts on, and reading its arguments.

Each capability says, beside its low-level commands, what each one does in a simulated world:
the command's *rule* checks it against ground truth, changes the world only when it succeeds,
and answers with :class:`~cogtree.skills.action_model.commands.Feedback`. Rules are written
against :class:`GroundTruth` (the readings, checks and changes of the simulator's world, which
implements it); the simulator's executor finds a command's rule in the capability registry. A
robot's own executor runs its commands on the robot and has no use for the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from cogtree.skills.action_model.commands import ArgValue, Feedback


class BadArgument(ValueError):
    """A command argument is missing or of the wrong type."""


def thing_arg(args: Mapping[str, ArgValue], key: str) -> str:
    """The argument ``key`` naming a thing (:class:`BadArgument` when it names none)."""
    value = args.get(key)
    if not isinstance(value, str) or not value:
        raise BadArgument(f"needs a `{key}` argument naming a thing (got {value!r})")
    return value


def ml_arg(args: Mapping[str, ArgValue]) -> float:
    """The ``amount_ml`` argument: millilitres above 0 (:class:`BadArgument` otherwise)."""
    value = args.get("amount_ml")
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise BadArgument(f"`amount_ml` must be a number of millilitres > 0, got {value!r}")
    return float(value)


class GroundTruth(Protocol):
    """The simulated world as command rules see it.

    Its readings, checks and changes, and the rules of the commands that move things about,
    which the world keeps (they share its geometry: reach, free space, slips).
    """

    def kind_of(self, thing: str) -> str | None:
        """What ``thing`` names (room, door, surface, container, object, robot, person)."""
        ...

    def flags_of(self, thing: str) -> tuple[str, ...]:
        """The hazard flags of furniture or an object."""
        ...

    def room_of(self, thing: str) -> str | None:
        """The room ``thing`` is in now."""
        ...

    def robot_near(self, robot: str) -> str | None:
        """What ``robot`` is near (None: nothing in particular)."""
        ...

    def visible_to(self, robot: str, thing: str) -> bool:
        """Whether ``robot`` can see ``thing``."""
        ...

    def held(self, agent: str) -> dict[str, str]:
        """What ``agent`` holds: {hand: object} for a robot."""
        ...

    def hands(self, robot: str) -> tuple[str, ...]:
        """The hands of ``robot`` (none for a base without an arm)."""
        ...

    def landmark_surface(self, landmark: str) -> str | None:
        """The furniture ``landmark`` rests on (itself, a surface), if any."""
        ...

    def is_open(self, thing: str) -> bool:
        """Whether a container or door is open."""
        ...

    def is_powered(self, thing: str) -> bool:
        """Whether an appliance, tap or light is switched on."""
        ...

    def is_empty(self, container: str) -> bool:
        """Whether ``container`` holds no liquid."""
        ...

    def is_full(self, container: str) -> bool:
        """Whether ``container`` holds liquid up to its capacity."""
        ...

    def bin_kind(self, thing: str) -> str | None:
        """The waste ``thing`` takes, when it is a waste bin."""
        ...

    def refusal(self, robot: str, skill: str | None, action: str) -> Feedback | None:
        """Why ``robot`` may not act: unknown, or lacking ``skill``; None when it may."""
        ...

    def holding_near(
        self, robot: str, skill: str, action: str, obj: str, hand: str, place: str
    ) -> Feedback | None:
        """Why ``robot`` cannot use ``obj`` in ``hand`` at ``place``; None when it can."""
        ...

    def note(self, text: str) -> None:
        """Add ``text`` to the world's history."""
        ...

    def set_powered(self, thing: str, on: bool) -> None:
        """Switch ``thing`` on or off."""
        ...

    def set_clean(self, surface: str) -> None:
        """Make ``surface`` clean, its spills gone."""
        ...

    def put_in(self, obj: str, container: str) -> None:
        """Put ``obj`` in ``container`` at once."""
        ...

    def take_liquid(self, source: str, most: float) -> tuple[str, float]:
        """Take up to ``most`` ml out of ``source`` (not empty): the liquid and how much."""
        ...

    def add_liquid(self, container: str, liquid: str, ml: float, *, spill_on: str) -> Feedback:
        """Add liquid to ``container`` up to its capacity; the rest spills on ``spill_on``."""
        ...

    def navigate(self, robot: str, target: str) -> Feedback:
        """Drive to a room or a piece of furniture."""
        ...

    def approach(self, robot: str, target: str) -> Feedback:
        """Come within reach of a thing of the robot's room."""
        ...

    def open_gripper(self, robot: str, hand: str) -> Feedback:
        """Open an empty hand."""
        ...

    def grasp(self, robot: str, obj: str, hand: str) -> Feedback:
        """Take ``obj`` into ``hand``."""
        ...

    def verify_grasp(self, robot: str, obj: str, hand: str) -> Feedback:
        """Check that ``hand`` holds ``obj``."""
        ...

    def lift(self, robot: str, obj: str, hand: str) -> Feedback:
        """Lift a grasped object."""
        ...

    def put(self, robot: str, obj: str, target: str, hand: str) -> Feedback:
        """Set a held object down on a surface or in a container."""
        ...

    def put_beside(self, robot: str, obj: str, landmark: str, relation: str, hand: str) -> Feedback:
        """Set a held object down beside a landmark."""
        ...

    def release(self, robot: str, hand: str) -> Feedback:
        """Open ``hand``, dropping what it holds."""
        ...

    def open_or_close(self, robot: str, target: str, *, open_it: bool) -> Feedback:
        """Open or close a container or a door."""
        ...

    def handover(self, robot: str, obj: str, person: str, hand: str | None = None) -> Feedback:
        """Give ``obj`` to ``person``, from a hand or the robot's storage."""
        ...

    def present_handle(self, robot: str, obj: str, hand: str) -> Feedback:
        """Turn a held object handle first."""
        ...

    def speak(self, robot: str, text: str) -> Feedback:
        """Say ``text``."""
        ...


Rule = Callable[[GroundTruth, str, Mapping[str, ArgValue]], Feedback]
"""What a command does in a simulated world: ``(world, robot, args) -> feedback``."""


def world_rule(method: str, params: tuple[str, ...]) -> Rule:
    """The rule of a command the world carries out itself.

    It calls the world's method ``method`` with the robot and the things ``params`` name, in
    order (:class:`BadArgument` when one is missing).
    """

    def rule(world: GroundTruth, robot: str, args: Mapping[str, ArgValue]) -> Feedback:
        carry_out: Callable[..., Feedback] = getattr(world, method)
        return carry_out(robot, *(thing_arg(args, param) for param in params))

    return rule
