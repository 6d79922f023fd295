"""Fill: fill a held container with water at a tap.

The skill ``FILL(container, source, hand, amount_ml?)`` holds ``container`` under the tap
``source`` (the robot approaches the tap and runs the ``fill`` command with the amount decided
from the belief, :func:`fill_amount`: with no amount, up to the container's usual fill,
:attr:`~skills.action_model.belief.Thing.room_ml`). Liquid is added without clamping, so an
overfill shows as ``liquid_ml > capacity_ml`` (the amount that would spill) for the hazard
rules. The task ``fill(container)`` fetches the container and fills it at the tap the belief
knows nearest; a container already at its usual fill needs nothing. A request that says how
full ("fill the kettle about halfway", "a quarter full") fills it to that share of its
capacity (:func:`said_share`), not to its usual fill.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from pydantic import Field

from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import ArgValue, Feedback, fail
from cogtree.skills.action_model.ground_truth import GroundTruth, ml_arg, thing_arg
from cogtree.skills.action_model.specs import Args, CallSpec, Hand, NodeId
from cogtree.skills.capabilities import capability as cap

DEFAULT_FILL_ML = 250.0
"""How much FILL runs into a container whose capacity the belief does not know (a glassful)."""

FILLED_LIQUID = "water"
"""What FILL takes from a tap."""

SHARES = (
    (re.compile(r"\bthree[ -]quarters?[ -](?:full|way)\b"), 0.75),
    (re.compile(r"\btwo[ -]thirds?[ -](?:full|way)\b"), 2 / 3),
    (re.compile(r"\b(?:a |one )?quarter[ -](?:full|way)\b"), 0.25),
    (re.compile(r"\b(?:a |one )?third[ -](?:full|way)\b"), 1 / 3),
    (re.compile(r"\bhalf(?:[ -]?way\b|[ -]full\b|[ -]fill)"), 0.5),
    (re.compile(r"\ba (?:little |tiny )?(?:bit|drop|splash|dash) of (?:\w+ )?water\b"), 0.25),
    (re.compile(r"\ba little (?:\w+ )?water\b"), 0.25),
)
"""How full a request says to fill a container ("half full", "halfway", "half-fill", and a
little: "a bit of water", "a splash of"), and that share of its capacity: never "half past
three" nor "half a biscuit"."""


def said_share(said: Sequence[str]) -> float | None:
    """The share of its capacity the request (``said``) asks a container filled to, or None.

    With the capacity unknown, the share is of a glassful (:data:`DEFAULT_FILL_ML`).
    """
    text = " ".join(said).lower()
    return next((share for words, share in SHARES if words.search(text)), None)


class FillArgs(Args):
    """FILL: fill the held ``container`` from ``source`` (a tap), up to ``amount_ml`` if given."""

    container: NodeId
    source: NodeId
    hand: Hand
    amount_ml: float | None = Field(None, gt=0, le=20000)


class FillTaskArgs(Args):
    """fill: fill ``container`` with water at a tap."""

    container: NodeId


def fill_amount(belief: Belief, args: FillArgs) -> float:
    """How much FILL runs.

    The amount asked for; else what the container takes up to its usual fill
    (:attr:`~skills.action_model.belief.Thing.room_ml`); else, its capacity unknown, a glassful.
    """
    if args.amount_ml is not None:
        return args.amount_ml
    room = belief.things[args.container].room_ml
    return DEFAULT_FILL_ML if room is None else room


def _checks(belief: Belief, args: FillArgs) -> Iterator[checks.Check]:
    yield from checks.held_tool(belief, args.container, args.hand, "FILL")
    yield (tap := checks.flagged(belief, args.source, "water_source", "wrong_tool", "a tap"))
    if not tap.ok:
        return
    yield checks.in_robot_room(belief, args.source)
    yield checks.reachable(belief, args.source)
    yield checks.room_for_liquid(belief, args.container, usual=args.amount_ml is None)


def _effect(belief: Belief, args: FillArgs) -> Belief:
    return belief.with_liquid(args.container, FILLED_LIQUID, fill_amount(belief, args))


def _facts(args: FillArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
    return [cap.Fact("filled", args.container, "yes")]


def _commands(
    state: cap.SkillState, container: str, source: str, hand: Hand, amount: float | None = None
) -> list[cap.Step]:
    args = FillArgs(container=container, source=source, hand=hand, amount_ml=amount)
    return [
        ("approach", source),
        ("fill", container, source, hand, fill_amount(state.belief, args)),
    ]


def _fill_command(
    state: cap.SkillState, container: str, source: str, hand: Hand, amount: float
) -> cap.SkillState | bool:
    if state.near != source or not state.belief.may_hold_in(container, hand):
        return False
    state.belief = state.belief.with_liquid(container, FILLED_LIQUID, amount)
    return cap.done(state)


def _simulate(world: GroundTruth, robot: str, args: Mapping[str, ArgValue]) -> Feedback:
    """Hold a container under a tap until ``amount_ml`` ran in; more than fits spills.

    Fails: not_holding, object_not_found, object_not_visible, out_of_reach, wrong_tool (the
    source is not a tap), container_full.
    """
    container, source = thing_arg(args, "container"), thing_arg(args, "source")
    hand, amount = thing_arg(args, "hand"), ml_arg(args)
    refused = world.holding_near(robot, "Fill", "fill things", container, hand, source)
    if refused:
        return refused
    if "water_source" not in world.flags_of(source):
        return fail("wrong_tool", f"{source} is not a tap: nothing to fill {container} from")
    world.note(f"{robot} filled {container} at {source}")
    return world.add_liquid(container, FILLED_LIQUID, amount, spill_on=source)


def _fill(state: cap.TaskState, container: str) -> cap.Subtasks:
    found = state.belief.things.get(container)
    if found is not None and found.room_ml == 0:
        return []  # already at its usual fill: nothing to do
    taps = cap.nearest(state.belief, cap.with_flag(state.belief, "water_source"), container)
    if not taps:
        state.failures.add(
            f"fill({container}): the belief knows no tap to fill it at",
            cap.no_tool(container, "tap", "fill it at"),
        )
        return False
    return [("fetch", container), ("fill_at", container, taps[0])]


def _fill_at(state: cap.TaskState, hand: Hand, container: str, tap: str) -> cap.Subtasks:
    if not state.belief.may_hold_in(container, hand):
        return False
    share = said_share(state.said)
    if share is None:
        return [("go_to", tap), ("FILL", container, tap, hand)]
    found = state.belief.things[container]
    capacity = found.capacity_ml
    amount = round(share * capacity - found.liquid_ml if capacity else share * DEFAULT_FILL_ML, 1)
    return [("go_to", tap), ("FILL", container, tap, hand, amount)] if amount > 0 else []


def _outline(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    taps = sorted(thing.id for thing in belief.things.values() if "water_source" in thing.flags)
    fill = [("FILL", {"container": args["container"], "source": taps[0]})] if taps else []
    return [("PICK", {"object": args["container"]}), *fill]


CAPABILITY = cap.Capability(
    name="fill",
    skills=(
        cap.SkillKind(
            CallSpec("FILL", FillArgs, "fill a held container from a tap"),
            _checks,
            _effect,
            (_commands,),
            _facts,
        ),
    ),
    commands=(
        cap.CommandKind(
            "fill",
            ("container", "source", "hand", "amount_ml"),
            _fill_command,
            _simulate,
            ticks=3,
        ),
    ),
    tasks=(
        cap.TaskKind(
            CallSpec("fill", FillTaskArgs, "fill a container with water at a tap"),
            (_fill,),
            outline=_outline,
            ends_in="full",
        ),
    ),
    helpers={"fill_at": cap.per_hand("fill_at", _fill_at)},
)
"""Filling a container with water at a tap."""
