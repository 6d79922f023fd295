"""Pour: pour what a held container holds into another.

The skill ``POUR(source, target, hand, amount_ml?)`` tips the held ``source`` into ``target``
(the robot approaches the target, or the furniture it rests on, and runs the ``pour`` command
with the amount decided from the belief, :func:`pour_amount`). Liquid moves without clamping,
so an overfill shows as ``liquid_ml > capacity_ml`` (the amount that would spill) for the
hazard rules. The task ``pour(source, target)`` fetches the source and pours it.

How much a pour asks for (:func:`pour_ml`): "pour some water into the glass" does not ask for
the whole jug: an amount the request does not give means what the target takes up to its usual
fill (:attr:`~skills.action_model.belief.Thing.room_ml`, short of the brim, so it can be carried
and handed over; nothing to do when it is already that full). The
words ask for everything when they say so ("all", "the whole", "empty the jug into ...") or
name the container poured from rather than what is in it ("pour the water jug into the
tumbler"); then the overfill hazard rule judges the whole amount and refuses what would
overflow. A partitive ("some", "a little", "a splash") always means part of it. The task's
POUR step and the hazards of the task both take their amount from :func:`pour_ml`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence

from pydantic import Field

from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import ArgValue, Feedback, fail
from cogtree.skills.action_model.ground_truth import GroundTruth, ml_arg, thing_arg
from cogtree.skills.action_model.specs import Args, CallSpec, Hand, NodeId
from cogtree.skills.capabilities import capability as cap

PART = re.compile(
    r"\b(some|a little|a bit|a splash|a drop|a dash|a drizzle|a glass of|a cup of|a mug of|"
    r"half|part of)\b",
    re.IGNORECASE,
)
"""Words that ask for part of what a container holds."""

WHOLE = re.compile(
    r"\b(all|whole|entire|everything|every drop|the rest|"
    r"empty\s+(?:out\s+)?(?:the|it|that|this|my|your|her|his|their))\b",
    re.IGNORECASE,
)
"""Words that ask for all of it; "empty" only as the verb ("empty the jug into ..."), not as
what the target is ("into the empty cup")."""


def pour_ml(belief: Belief, source: str, target: str, said: Iterable[str]) -> float | None:
    """The amount to pour from ``source`` into ``target``: None for everything it holds.

    When the request (``said``) leaves the amount open and the source holds more, what
    ``target`` takes up to its usual fill (0: it already holds that much); everything when it
    asks for all of it, names the source container, or the target's capacity is unknown.
    """
    poured, into = belief.things.get(source), belief.things.get(target)
    room = None if into is None else into.room_ml
    if poured is None or room is None or poured.liquid_ml <= room:
        return None
    text = " ".join(said)
    if not PART.search(text) and (WHOLE.search(text) or _names_container(text, source, belief)):
        return None
    return room


def _names_container(text: str, source: str, belief: Belief) -> bool:
    """Whether ``text`` pours the source by its container word ("pour the jug into ...").

    Naming where the liquid comes from ("the milk from the jug") is not asking for all of it,
    nor is naming a container by what it holds ("the orange juice" for a carton so labelled).
    """
    found = belief.things[source]
    name = (found.label or source.replace("_", " ")).lower()
    container = name.split(" of ")[0].rsplit(" ", 1)[-1]
    if found.liquid and container in found.liquid.lower().split():
        return False  # "the orange juice" names what the carton labelled so holds
    mentions = re.finditer(
        rf"(\bfrom\s+(?:\w+\s+){{0,2}})?\b{re.escape(container)}s?\b", text.lower()
    )
    return any(mention.group(1) is None for mention in mentions)


class PourArgs(Args):
    """POUR: pour from the held ``source`` container into ``target``, ``amount_ml`` or all."""

    source: NodeId
    target: NodeId
    hand: Hand
    amount_ml: float | None = Field(None, gt=0, le=20000)


class PourTaskArgs(Args):
    """pour: pour what ``source`` holds into ``target``."""

    source: NodeId
    target: NodeId


def pour_amount(belief: Belief, args: PourArgs) -> float:
    """How much POUR tips out: the amount asked for (at most what is there), else everything."""
    held = belief.things[args.source].liquid_ml
    return held if args.amount_ml is None else min(args.amount_ml, held)


def _checks(belief: Belief, args: PourArgs) -> Iterator[checks.Check]:
    yield from checks.held_tool(belief, args.source, args.hand, "POUR")
    source = belief.things[args.source]
    if source.liquid_ml <= 0:
        yield checks.failed(
            "has_liquid", "container_empty", f"{args.source} holds no liquid to pour"
        )
        return
    yield checks.passed(
        "has_liquid", f"{args.source} holds {source.liquid_ml:g} ml of {source.liquid}"
    )
    target = belief.things.get(args.target)
    if target is None or target.kind not in ("object", "container") or args.target in belief.held:
        what = "not in the belief" if target is None else "not something to pour into here"
        yield checks.failed("target_known", "object_not_found", f"{args.target} is {what}")
        return
    yield checks.passed("target_known", f"{args.target} is a {target.kind}")
    yield checks.in_robot_room(belief, args.target)
    if target.kind == "container":
        yield checks.container_open(belief, args.target, "the liquid must go into")
    elif target.relation == "in" and target.support is not None:
        yield checks.container_open(belief, target.support, f"{args.target} is in")
    yield checks.reachable(belief, args.target)
    yield checks.room_for_liquid(belief, args.target)


def _effect(belief: Belief, args: PourArgs) -> Belief:
    amount, source = pour_amount(belief, args), belief.things[args.source]
    poured = belief.with_liquid(args.source, source.liquid, -amount)
    return poured.with_liquid(args.target, source.liquid, amount, hot=source.hot)


def _resting_on(belief: Belief, thing: str) -> str | None:
    """The furniture ``thing`` rests on or in (None: on the floor, held, or furniture)."""
    found = belief.things.get(thing)
    if found is None or found.relation not in ("on", "in"):
        return None
    return found.support


def _facts(args: PourArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
    return [cap.Fact("filled", args.target, "yes")]


def _commands(
    state: cap.SkillState, source: str, target: str, hand: Hand, amount: float | None = None
) -> list[cap.Step]:
    args = PourArgs(source=source, target=target, hand=hand, amount_ml=amount)
    near = _resting_on(state.belief, target) or target
    return [("approach", near), ("pour", source, target, hand, pour_amount(state.belief, args))]


def _pour_command(
    state: cap.SkillState, source: str, target: str, hand: Hand, amount: float
) -> cap.SkillState | bool:
    if state.near not in (target, _resting_on(state.belief, target)):
        return False
    if not state.belief.may_hold_in(source, hand):
        return False
    liquid = state.belief.things[source].liquid
    state.belief = state.belief.with_liquid(source, liquid, -amount).with_liquid(
        target, liquid, amount
    )
    return cap.done(state)


def _simulate(world: GroundTruth, robot: str, args: Mapping[str, ArgValue]) -> Feedback:
    """Tip ``amount_ml`` from a held container into ``target``; more than fits spills.

    Fails: not_holding, object_not_found, object_not_visible, out_of_reach, container_empty,
    container_full.
    """
    source, target = thing_arg(args, "source"), thing_arg(args, "target")
    hand, amount = thing_arg(args, "hand"), ml_arg(args)
    refused = world.holding_near(robot, "Pour", "pour", source, hand, target)
    if refused:
        return refused
    if world.is_empty(source):
        return fail("container_empty", f"{source} is empty: nothing to pour")
    if world.is_full(target):
        return fail("container_full", f"{target} is already full")
    liquid, poured = world.take_liquid(source, amount)
    world.note(f"{robot} poured {poured:g} ml of {liquid} from {source} into {target}")
    under = world.landmark_surface(target) if world.kind_of(target) == "object" else target
    return world.add_liquid(target, liquid, poured, spill_on=under or target)


def _pour(state: cap.TaskState, source: str, target: str) -> cap.Subtasks:
    if pour_ml(state.belief, source, target, state.said) == 0:
        return []  # the target already holds its usual fill
    return [("fetch", source), ("pour_into", source, target)]


def _pour_into(state: cap.TaskState, hand: Hand, source: str, target: str) -> cap.Subtasks:
    if not state.belief.may_hold_in(source, hand):
        return False
    amount = pour_ml(state.belief, source, target, state.said)
    pour = (
        ("POUR", source, target, hand) if amount is None else ("POUR", source, target, hand, amount)
    )
    return [("go_to", target), pour]


def _outline(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    source, target = args["source"], args["target"]
    pour = {"source": source, "target": target}
    amount = pour_ml(belief, source, target, said)
    if amount == 0:
        return []
    if amount is not None:
        pour["amount_ml"] = f"{amount:g}"
    elif args.get("amount_ml"):
        pour["amount_ml"] = args["amount_ml"]
    return [("PICK", {"object": source}), ("POUR", pour)]


CAPABILITY = cap.Capability(
    name="pour",
    skills=(
        cap.SkillKind(
            CallSpec("POUR", PourArgs, "pour from a held container into another"),
            _checks,
            _effect,
            (_commands,),
            _facts,
        ),
    ),
    commands=(
        cap.CommandKind(
            "pour",
            ("source", "target", "hand", "amount_ml"),
            _pour_command,
            _simulate,
            ticks=2,
        ),
    ),
    tasks=(
        cap.TaskKind(
            CallSpec("pour", PourTaskArgs, "pour from one container into another"),
            (_pour,),
            outline=_outline,
            fits={"source": lambda thing: thing.liquid_ml > 0},
        ),
    ),
    helpers={"pour_into": cap.per_hand("pour_into", _pour_into)},
)
"""Pouring from one container into another."""
