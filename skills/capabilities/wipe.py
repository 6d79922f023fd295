"""Wipe: wipe a surface clean with a cloth or a sponge.

The skill ``WIPE(surface, tool, hand)`` wipes ``surface`` with the held ``tool`` (the robot
approaches the surface and runs the ``wipe`` command); the surface is clean afterwards. The
task ``wipe(surface, tool?)`` fetches the cloth or sponge the user named, else the one the
robot holds, else the nearest one the belief knows: a dirty one, or one its name keeps for
another thing ("floor cloth"), last.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from cogtree.knowledge.safety.materials import shipped_materials
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import ARTEFACTS, shipped_nouns
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief, Thing
from cogtree.skills.action_model.commands import ArgValue, Feedback, fail, ok
from cogtree.skills.action_model.ground_truth import GroundTruth, thing_arg
from cogtree.skills.action_model.specs import Args, CallSpec, Hand, NodeId
from cogtree.skills.capabilities import capability as cap


class WipeArgs(Args):
    """WIPE: wipe ``surface`` with the held ``tool`` (a cloth or a sponge)."""

    surface: NodeId
    tool: NodeId
    hand: Hand


class WipeTaskArgs(Args):
    """wipe: wipe ``surface`` clean with ``tool``, the cloth or sponge the user named.

    Without ``tool``, the robot takes the cloth or sponge it holds, else the nearest one the
    belief knows.
    """

    surface: NodeId
    tool: NodeId | None = None


def _checks(belief: Belief, args: WipeArgs) -> Iterator[checks.Check]:
    yield from checks.held_tool(belief, args.tool, args.hand, "WIPE")
    yield checks.flagged(belief, args.tool, "cleaning_tool", "wrong_tool", "a cloth or a sponge")
    yield (surface := checks.of_kind(belief, args.surface, ("surface",), "is_surface"))
    if not surface.ok:
        return
    yield checks.in_robot_room(belief, args.surface)
    yield checks.reachable(belief, args.surface)


def _effect(belief: Belief, args: WipeArgs) -> Belief:
    return belief.with_clean(args.surface)


def _facts(args: WipeArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
    return [cap.Fact("clean", args.surface, "yes")]


def _commands(state: cap.SkillState, surface: str, tool: str, hand: Hand) -> list[cap.Step]:
    return [("approach", surface), ("wipe", surface, tool, hand)]


def _wipe_command(
    state: cap.SkillState, surface: str, tool: str, hand: Hand
) -> cap.SkillState | bool:
    if state.near != surface or not state.belief.may_hold_in(tool, hand):
        return False
    state.belief = state.belief.with_clean(surface)
    return cap.done(state)


def _simulate(world: GroundTruth, robot: str, args: Mapping[str, ArgValue]) -> Feedback:
    """Wipe a surface with a held cloth or sponge: it is clean, its spills wiped up.

    Fails: not_holding, object_not_found (not a surface), object_not_visible, out_of_reach,
    wrong_tool (the held thing is not a cloth or a sponge).
    """
    surface, tool, hand = (
        thing_arg(args, "surface"),
        thing_arg(args, "tool"),
        thing_arg(args, "hand"),
    )
    refused = world.holding_near(robot, "Wipe", "wipe", tool, hand, surface)
    if refused:
        return refused
    if world.kind_of(surface) != "surface":
        return fail("object_not_found", f"{surface} is not a surface to wipe")
    if "cleaning_tool" not in world.flags_of(tool):
        return fail("wrong_tool", f"{tool} is not a cloth or a sponge")
    world.set_clean(surface)
    world.note(f"{robot} wiped {surface} with {tool}")
    return ok(f"{surface} is clean")


def _wipe(state: cap.TaskState, surface: str, tool: str | None = None) -> cap.Subtasks:
    belief = state.belief
    if tool is not None:  # the cloth or sponge the user named, and no other
        named = belief.things.get(tool)
        if named is None or "cleaning_tool" not in named.flags:
            why = "not in the belief" if named is None else "not a cloth or a sponge"
            state.failures.add(f"wipe({surface}, {tool}): {tool} is {why}")
            return False
        return [("fetch", tool), ("wipe_with", surface, tool)]
    tools = cap.with_flag(belief, "cleaning_tool")
    held = [tool.id for tool in tools if tool.id in belief.held]
    surface_thing = belief.things.get(surface)
    worse = {t.id: (t.clean is False, _kept_for_another(t, surface_thing)) for t in tools}
    ordered = held or sorted(cap.nearest(belief, tools, surface), key=worse.__getitem__)
    if not ordered:
        state.failures.add(
            f"wipe({surface}): the belief knows no cloth or sponge to wipe with",
            cap.no_tool(surface, "cloth or sponge", "wipe with"),
        )
        return False
    if not held and any(worse[ordered[0]]):  # the best is dirty or another thing's: not unasked
        unfit = belief.things[ordered[0]].label or ordered[0]
        said = [why for why, bad in zip(UNFIT, worse[ordered[0]], strict=True) if bad]
        why = f"the {unfit} is {' and '.join(said)}, and I know of no other cloth or sponge"
        state.failures.add(f"wipe({surface}): {why}", cap.Limit("tool", surface, why))
        return False
    return [("fetch", ordered[0]), ("wipe_with", surface, ordered[0])]


UNFIT = ("dirty", "kept for something else")
"""Why a cloth or sponge is not taken unasked, in the order :func:`_wipe` ranks them."""


def _kept_for_another(tool: Thing, surface: Thing | None) -> bool:
    """Whether ``tool``'s name keeps it for some other thing than ``surface``.

    A word before its head that names a made thing, first of all, and no material nor quality
    ("floor cloth", "dish sponge", "toilet cloth") keeps it for that thing: not for a high
    chair's tray. A cloth named by its colour ("blue"), its material ("muslin") or its state
    ("spare") is for anything.
    """
    nouns, lemmas, materials = shipped_nouns(), shipped_lemmas(), shipped_materials()
    said = (tool.label or "").lower().split()[:-1]
    surface_words = set((surface.label or "").lower().split()) if surface is not None else set()
    return (
        nouns is not None
        and lemmas is not None
        and any(
            nouns.files(word)[:1] == (ARTEFACTS,)
            and lemmas.lemma_of(word, "adj") is None
            and not materials.read(word)
            and word not in surface_words
            for word in said
        )
    )


def _wipe_with(state: cap.TaskState, hand: Hand, surface: str, tool: str) -> cap.Subtasks:
    if not state.belief.may_hold_in(tool, hand):
        return False
    return [("go_to", surface), ("WIPE", surface, tool, hand)]


CAPABILITY = cap.Capability(
    name="wipe",
    skills=(
        cap.SkillKind(
            CallSpec("WIPE", WipeArgs, "wipe a surface with a held cloth or sponge"),
            _checks,
            _effect,
            (_commands,),
            _facts,
        ),
    ),
    commands=(
        cap.CommandKind("wipe", ("surface", "tool", "hand"), _wipe_command, _simulate, ticks=3),
    ),
    tasks=(
        cap.TaskKind(
            CallSpec("wipe", WipeTaskArgs, "wipe a surface clean with a cloth or sponge"),
            (_wipe,),
            fits={"tool": lambda thing: "cleaning_tool" in thing.flags},
            ends_in="clean",
        ),
    ),
    helpers={"wipe_with": cap.per_hand("wipe_with", _wipe_with)},
)
"""Wiping a surface clean."""
