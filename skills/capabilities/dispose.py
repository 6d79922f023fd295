"""Dispose: throw a thing away into the right waste bin.

The skill ``DISPOSE(object, bin, hand)`` drops the held object into ``bin`` (the robot
approaches the bin, runs ``drop_in`` and releases); it needs the bin the disposal table
chooses for what the thing is made of (recycling, compost, landfill; :func:`made_of`). The
task ``dispose(object)`` fetches the object and drops it into the nearest bin of the right
kind, opening a closed bin first; an unknown material goes to the cautious bin, and the plan
says so first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from cogtree.knowledge.safety.materials import shipped_materials
from cogtree.knowledge.scene.disposal import BinDecision, disposal_table
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief, Thing
from cogtree.skills.action_model.commands import ArgValue, Feedback, fail, ok
from cogtree.skills.action_model.ground_truth import GroundTruth, thing_arg
from cogtree.skills.action_model.specs import Args, CallSpec, Hand, NodeId
from cogtree.skills.capabilities import capability as cap


class DisposeArgs(Args):
    """DISPOSE: drop the held ``object`` into the waste ``bin`` (recycling, compost, landfill)."""

    object: NodeId
    bin: NodeId
    hand: Hand


class DisposeTaskArgs(Args):
    """dispose: throw ``object`` away into the right bin."""

    object: NodeId


def _checks(belief: Belief, args: DisposeArgs) -> Iterator[checks.Check]:
    yield from checks.held_tool(belief, args.object, args.hand, "DISPOSE")
    yield (is_bin := checks.flagged(belief, args.bin, "bin", "object_not_found", "a waste bin"))
    if not is_bin.ok:
        return
    yield checks.in_robot_room(belief, args.bin)
    if belief.things[args.bin].kind == "container":
        yield checks.container_open(belief, args.bin, f"{args.object} must go into")
    yield checks.reachable(belief, args.bin)
    yield _right_bin(belief, args.object, args.bin)


def _decision(found: Thing) -> BinDecision:
    """The bin for ``found`` by what it is made of (:func:`made_of`) and whether it is empty.

    A thing its material names several materials of ("foil-lined plastic", none broader
    than another), or joins one to another ("plastic and lithium": one unknown), is a
    composite no home bin takes apart: the cautious bin, saying why.
    """
    said = shipped_materials().parts(found.material)
    several = len([part for part in said if not any(part < other for other in said)]) > 1
    joined = bool(JOINED.search(found.material or ""))
    materials = frozenset() if several or joined else made_of(found)
    return disposal_table().decide(found.id, materials, found.is_empty, found.material)


JOINED: Final = re.compile(r"\b(?:and|with|plus)\b|&", re.IGNORECASE)
"""Words that join one material to another in a thing's material ("glass with a metal lid")."""

ORGANIC: Final = "organic"
"""The material of food and plants: what such a thing is, whatever it is called."""


def made_of(found: Thing) -> frozenset[str]:
    """The materials a thing is made of, with broader ones, by its most direct description.

    Its material as the belief words it ("PET plastic": plastic), else its type's usual
    material in the taxonomy when that is organic (a banana, a plant). A label's material
    words may be its wrapping's ("plastic-wrapped sandwich"), and a made thing's usual
    material a guess (a lid may be metal or plastic): neither is read. Empty when none says.
    """
    materials = shipped_materials()
    if read := materials.read(found.material):
        return read
    typical = household_taxonomy().properties(found.type).material if found.type else None
    usual = materials.read(typical)
    return usual if ORGANIC in usual else frozenset()


def _right_bin(belief: Belief, thing: str, bin_id: str) -> checks.Check:
    found, bin_kind = belief.things[thing], belief.things[bin_id].bin_kind
    decision = _decision(found)
    if decision.bin == bin_kind:
        return checks.passed("right_bin", decision.reason)
    return checks.failed(
        "right_bin",
        "wrong_bin",
        f"{bin_id} is a {bin_kind} bin, but {decision.reason}: use a {decision.bin} bin",
    )


def _effect(belief: Belief, args: DisposeArgs) -> Belief:
    return belief.with_disposed(args.object, args.bin)


def _facts(args: DisposeArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
    return [cap.Fact("where", args.object, f"in:{args.bin}")]


def _commands(state: cap.SkillState, thing: str, bin_id: str, hand: Hand) -> list[cap.Step]:
    return [("approach", bin_id), ("drop_in", thing, bin_id, hand), ("release", hand)]


def _drop_in(state: cap.SkillState, thing: str, bin_id: str, hand: Hand) -> cap.SkillState | bool:
    if state.near != bin_id or not state.belief.may_hold_in(thing, hand):
        return False
    state.belief = state.belief.with_disposed(thing, bin_id)
    return cap.done(state)


def _simulate(world: GroundTruth, robot: str, args: Mapping[str, ArgValue]) -> Feedback:
    """Drop a held object into a waste bin the robot is near.

    Fails: not_holding, object_not_found (not a bin), object_not_visible, out_of_reach,
    container_closed. The world does not judge the bin: goals do (``in(can, recycling)``).
    """
    thing, bin_id, hand = thing_arg(args, "object"), thing_arg(args, "bin"), thing_arg(args, "hand")
    refused = world.holding_near(robot, "Dispose", "throw things away", thing, hand, bin_id)
    if refused:
        return refused
    waste = world.bin_kind(bin_id)
    if waste is None:
        return fail("object_not_found", f"{bin_id} is not a waste bin")
    if not world.is_open(bin_id):
        return fail("container_closed", f"{bin_id} is closed: open its lid first")
    world.put_in(thing, bin_id)
    world.note(f"{robot} threw {thing} into {bin_id} ({waste})")
    return ok(f"{thing} is in {bin_id}")


def _disposed(state: cap.TaskState, thing: str) -> cap.Subtasks:
    found = state.belief.things.get(thing)
    if found is None or found.support is None:
        return False
    holder = state.belief.things.get(found.support)
    return [] if holder is not None and "bin" in holder.flags else False


def _dispose(state: cap.TaskState, thing: str) -> cap.Subtasks:
    belief = state.belief
    found = belief.things.get(thing)
    if found is None or found.kind != "object":
        state.failures.add(f"dispose({thing}): {thing} is not an object of the belief")
        return False
    decision = _decision(found)
    bins = [t for t in cap.with_flag(belief, "bin") if t.bin_kind == decision.bin]
    if not bins:
        state.failures.add(
            f"dispose({thing}): {decision.reason}, and the belief has no {decision.bin} bin"
        )
        return False
    bin_id = cap.nearest(belief, bins, thing)[0]
    say = [("SAY", decision.reason)] if decision.cautious else []
    return [*say, ("fetch", thing), ("drop_into", thing, bin_id)]


def _drop_into(state: cap.TaskState, hand: Hand, thing: str, bin_id: str) -> cap.Subtasks:
    if not state.belief.may_hold_in(thing, hand):
        return False
    return cap.into_place(state.belief, bin_id, ("DISPOSE", thing, bin_id, hand))


def _outline(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    bins = sorted(thing.id for thing in belief.things.values() if "bin" in thing.flags)
    drop = [("DISPOSE", {"object": args["object"], "bin": bins[0]})] if bins else []
    return [("PICK", {"object": args["object"]}), *drop]


CAPABILITY = cap.Capability(
    name="dispose",
    skills=(
        cap.SkillKind(
            CallSpec("DISPOSE", DisposeArgs, "drop a held object into a waste bin"),
            _checks,
            _effect,
            (_commands,),
            _facts,
        ),
    ),
    commands=(cap.CommandKind("drop_in", ("object", "bin", "hand"), _drop_in, _simulate),),
    tasks=(
        cap.TaskKind(
            CallSpec("dispose", DisposeTaskArgs, "throw an object away into the right bin"),
            (_disposed, _dispose),
            outline=_outline,
        ),
    ),
    helpers={"drop_into": cap.per_hand("drop_into", _drop_into)},
)
"""Throwing things away into the right bin."""
