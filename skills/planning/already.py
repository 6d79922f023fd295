"""What is already so when a task needs no step: said plainly, so no reply claims an action.

The task planner finds nothing to do when the belief already holds what a task asks for ("put
the lemon back on the worktop" with the lemon on the worktop). :func:`already_so` says so in
words ("Nothing needed doing: the lemon is already on the worktop."); the reply then says that
instead of the task's template ("I brought the lemon to the worktop"), which would claim what
the robot did not do.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogtree.knowledge.wording import joined
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.registry import END_STATES
from cogtree.skills.planning.limits import spoken, verb_be
from cogtree.skills.planning.tasks import TaskCall


def already_so(tasks: Sequence[TaskCall], belief: Belief, speaker: str | None = None) -> str:
    """``Nothing needed doing: the lemon is already on the worktop.`` for ``tasks``.

    ``speaker``: who asked; a thing they hold is said to be theirs already ("You already have
    the remote").
    """
    said = [_already(task, belief, speaker) for task in tasks]
    return f"Nothing needed doing: {joined(list(dict.fromkeys(said)))}."


def _already(task: TaskCall, belief: Belief, speaker: str | None) -> str:
    args = {name: str(value) for name, value in task.args.model_dump().items()}
    if task.task in END_STATES:
        node = next(iter(args.values()))
        return f"{spoken(node, belief)} {verb_be(node, belief)} already {END_STATES[task.task]}"
    into = args.get("target", "")  # poured from a source into a target at its usual fill
    if "source" in args and into in belief.things and belief.things[into].room_ml == 0:
        return f"{spoken(into, belief)} {verb_be(into, belief)} already full"
    thing = args.get("object")
    if thing is None or thing not in belief.things:
        return f"{task} holds already"
    if thing in belief.held:
        return f"I already hold {spoken(thing, belief)}"
    found = belief.things[thing]
    if found.relation == "heldBy" and found.support == speaker:
        return f"you already have {spoken(thing, belief)}"
    if found.relation == "heldBy" and found.support:
        return f"{spoken(found.support, belief)} already has {spoken(thing, belief)}"
    if args.get("landmark"):  # set beside it
        relation = args.get("relation", "next_to").replace("_", " ")
        where = f"{relation} {spoken(args['landmark'], belief)}"
    elif found.support:
        where = f"{found.relation} {spoken(found.support, belief)}"
    else:
        where = "where it belongs"
    return f"{spoken(thing, belief)} {verb_be(thing, belief)} already {where}"
