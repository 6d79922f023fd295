"""Reflection (InteractGen's manager): whether a plan step's intended effect shows in the belief.

:func:`reflect` reads the belief after a step ran and says whether what the step was for now
holds there:

- GOTO: the robot is in the target room, or in the room of the target thing;
- PICK: the robot holds the object;
- PLACE: the object is on or in the target, or set beside it with the step's side relation
  (next to, left of, ...);
- HANDOVER: the person holds the object;
- OPEN / CLOSE: the container is believed open / closed;
- DELEGATE (and robot skills done by a person): the person reported the task done;
- LOOK, SAY, WAIT: nothing to check in the belief; achieved when the step succeeded.

Each check costs one or two scene-graph queries: a behaviour calls it on its ``workers``
pool.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.specs import SIDE_RELATIONS
from cogtree.skills.planning.plan_model import PlanStep, Reflection

StepCheck = Callable[[PlanStep, str, SceneGraph], tuple[bool, str]]
"""A belief check: (step, agent, belief) -> (achieved, what the belief says)."""


def reflect(
    step: PlanStep,
    agent: str,
    belief: SceneGraph,
    *,
    succeeded: bool,
    report: str,
    by_person: bool = False,
) -> Reflection:
    """Whether ``step``, done by ``agent``, achieved its intended effect in ``belief``.

    ``succeeded`` and ``report`` are how the step's node ended and its message; they decide
    the steps whose effect the belief does not hold (delegations, looking, speaking, waiting),
    and ``by_person`` marks a robot skill that a person was asked to do.
    """
    check = CHECKS.get(step.action) if needs_belief(step, by_person=by_person) else None
    if check is None:
        outcome = "reported done" if succeeded else "did not finish"
        return Reflection(step=step.id, achieved=succeeded, observed=f"{outcome}: {report}")
    try:
        achieved, observed = check(step, agent, belief)
    except (KeyError, ValueError) as error:  # arguments the step should have had
        achieved, observed = False, f"cannot check the step's effect: {error}"
    return Reflection(step=step.id, achieved=achieved, observed=observed)


def needs_belief(step: PlanStep, *, by_person: bool = False) -> bool:
    """Whether :func:`reflect` reads the belief for ``step`` (else it costs nothing)."""
    return not by_person and step.action in CHECKS


def _robot_room(agent: str, belief: SceneGraph) -> str | None:
    states = belief.robot_state(agent)
    return states[0].room if states else None


def _at_target(step: PlanStep, agent: str, belief: SceneGraph) -> tuple[bool, str]:
    target = str(step.args["target"])
    room = _robot_room(agent, belief)
    if room is None:
        return False, f"the belief does not say where {agent} is"
    if room == target:
        return True, f"{agent} is in {room}"
    location = belief.locate_object(target)
    target_room = location.room if location is not None else None
    where = f"{target} is in {target_room}" if target_room else f"{target} has no known room"
    return room == target_room, f"{agent} is in {room}; {where}"


def _holds(step: PlanStep, agent: str, belief: SceneGraph) -> tuple[bool, str]:
    thing = str(step.args["object"])
    states = belief.robot_state(agent)
    if not states:
        return False, f"the belief has no robot {agent}"
    holding = states[0].holding
    return thing in holding, f"{agent} holds {', '.join(holding) or 'nothing'}"


def _placement(thing: str, belief: SceneGraph) -> tuple[str, str] | None:
    location = belief.locate_object(thing)
    return (location.relation, location.support) if location is not None else None


def _placed(step: PlanStep, agent: str, belief: SceneGraph) -> tuple[bool, str]:
    thing, target = str(step.args["object"]), str(step.args["target"])
    side = str(step.args.get("relation") or "")
    if side in SIDE_RELATIONS:
        return _set_beside(thing, side, target, belief)
    placement = _placement(thing, belief)
    if placement is None:
        return False, f"the belief does not say where {thing} is"
    relation, support = placement
    return relation in ("on", "in") and support == target, f"{thing} is {relation} {support}"


def _set_beside(thing: str, relation: str, landmark: str, belief: SceneGraph) -> tuple[bool, str]:
    """Whether the belief has ``thing`` set ``relation`` the ``landmark`` (a side placement)."""
    location = belief.locate_object(thing)
    if location is None or location.room is None:
        return False, f"the belief does not say where {thing} is"
    found = [info for info in belief.objects_in_room(location.room) if info.id == thing]
    pairs = [tuple(pair) for info in found for pair in info.beside]
    return (relation, landmark) in pairs, f"{thing} beside {sorted(pairs) or 'nothing'}"


def _handed_over(step: PlanStep, agent: str, belief: SceneGraph) -> tuple[bool, str]:
    thing, person = str(step.args["object"]), str(step.args["person"])
    placement = _placement(thing, belief)
    if placement is None:
        return False, f"the belief does not say where {thing} is"
    relation, support = placement
    return (relation, support) == ("heldBy", person), f"{thing} is {relation} {support}"


def _openness(step: PlanStep, belief: SceneGraph) -> tuple[str, bool | None]:
    container = str(step.args["container"])
    location = belief.locate_object(container)
    if location is None or location.room is None:
        return container, None
    found = [info for info in belief.objects_in_room(location.room) if info.id == container]
    return container, found[0].is_open if found else None


def _open_state(want_open: bool) -> StepCheck:
    def check(step: PlanStep, agent: str, belief: SceneGraph) -> tuple[bool, str]:
        container, is_open = _openness(step, belief)
        if is_open is None:
            return False, f"the belief does not say whether {container} is open"
        return is_open == want_open, f"{container} is {'open' if is_open else 'closed'}"

    return check


CHECKS: Mapping[str, StepCheck] = MappingProxyType(
    {
        "GOTO": _at_target,
        "PICK": _holds,
        "PLACE": _placed,
        "HANDOVER": _handed_over,
        "OPEN": _open_state(want_open=True),
        "CLOSE": _open_state(want_open=False),
    }
)
"""The belief check of each robot skill with an effect in the belief."""
