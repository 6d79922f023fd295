"""The robot's own limits: what stops every plan for a task, in plain words, and who could help.

When the task planner finds no plan, some of the reasons are dead ends that planning again
cannot change: a thing lower or higher than the robot reaches, a thing it cannot grasp or
carry, a skill it has not got, a tool or tap the belief does not hold. :func:`limit_of`
turns a failed precondition into a :class:`Limit` (``None`` for a reason another method or
step may still get round: a closed door, a full hand); a capability's task methods add the
tool limits themselves (:func:`~cogtree.skills.capabilities.capability.no_tool`).
:func:`infeasible_text` says, before anything moves, why the robot cannot do it and what
would make it possible: someone putting the thing where it reaches, naming a person the belief
holds who could be asked, or showing it a tool.
"""

from __future__ import annotations

from collections.abc import Iterable

from cogtree.knowledge.wording import joined, looks_plural, with_the
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import PreconditionReport
from cogtree.skills.capabilities.capability import Limit


def spoken(node: str, belief: Belief | None = None) -> str:
    """A belief node as words: its label, else its id (``watering_can`` -> ``the watering can``).

    A person by their name, with no article ("Mia already has the colouring book").
    """
    person = belief.people.get(node) if belief is not None else None
    if person is not None:
        name = (person.label or node).replace("_", " ")
        return name.title() if name.islower() else name
    found = belief.things.get(node) if belief is not None else None
    name = (found.label if found is not None and found.label else node).replace("_", " ")
    return with_the(name)


def verb_be(node: str, belief: Belief | None = None) -> str:
    """``is``, or ``are`` when the name's head looks plural (slippers; not "deck of cards")."""
    return "are" if looks_plural(spoken(node, belief)) else "is"


def _it(nodes: list[str], belief: Belief) -> str:
    return "them" if len(nodes) > 1 or verb_be(nodes[0], belief) == "are" else "it"


def limit_of(report: PreconditionReport, belief: Belief) -> Limit | None:
    """The robot's limit behind a failed precondition, or None when planning may get round it."""
    failed = report.failure
    if failed is None:
        return None
    thing = failed.about or ""
    robot = belief.robot
    if failed.name == "reachable" and thing in belief.things:
        found, height = belief.things[thing], belief.place_height(thing)
        low = robot.min_reach_m
        how = "lower" if height is not None and low is not None and height < low else "higher"
        if found.is_furniture:
            return Limit(
                "place",
                thing,
                f"{spoken(thing, belief)} {verb_be(thing, belief)} {how} than I reach",
            )
        where = (
            "on the floor"
            if found.relation == "inRoom"
            else f"{found.relation} {spoken(str(found.support), belief)}"
        )
        return Limit(
            "reach",
            thing,
            f"{spoken(thing, belief)} {verb_be(thing, belief)} {where}, {how} than I reach",
        )
    if failed.name == "graspable" and thing:
        return Limit(
            "grasp",
            thing,
            f"{spoken(thing, belief)} {verb_be(thing, belief)} not something I can pick up",
        )
    if failed.name == "payload" and thing and not belief.held:
        return Limit(
            "carry",
            thing,
            f"{spoken(thing, belief)} {verb_be(thing, belief)} heavier than I can carry",
        )
    if failed.name in ("has_skill", "has_hands"):
        return Limit("skill", thing, f"I cannot {report.call.skill.lower()}")
    return None


def infeasible_text(limits: Iterable[Limit], belief: Belief, speaker: str | None) -> str:
    """Why the robot cannot do the task as things are, and what would make it possible.

    Said before anything moves. Empty when ``limits`` is empty.
    """
    found = list(dict.fromkeys(limits))
    if not found:
        return ""
    text = f"I can't do that as things are: {joined([limit.reason for limit in found])}."
    text += " I have not started anything."
    moved = [limit.thing for limit in found if limit.kind in ("reach", "grasp", "carry")]
    if moved:
        nodes = list(dict.fromkeys(moved))
        things = joined([spoken(thing, belief) for thing in nodes])
        text += (
            f" If someone hands me {things} or puts {_it(nodes, belief)} where I can reach, I can"
        )
        text += " finish."
        helpers = _helpers(belief, speaker)
        if helpers:
            text += f" {helpers} could help."
    if any(limit.kind == "tool" for limit in found):
        text += " If you show me where one is, I can do it."
    return text


def _helpers(belief: Belief, speaker: str | None) -> str:
    """The people the robot could ask, with where they are: ``Tom (in the kitchen)``."""
    people = [
        person for person in belief.people.values() if person.can_be_asked and person.id != speaker
    ]
    named = [
        f"{person.id.replace('_', ' ').title()}"
        + (f" (in the {person.room.replace('_', ' ')})" if person.room else "")
        for person in sorted(people, key=lambda person: person.id)
    ]
    return joined(named[:2], "or")
