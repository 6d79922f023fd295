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

The checks are the capabilities' (:mod:`cogtree.skills.capabilities.registry`). Each check
costs one or two scene-graph queries: a behaviour calls it on its ``workers``
pool.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.capabilities.capability import Reflect
from cogtree.skills.capabilities.registry import SKILLS
from cogtree.skills.planning.plan_model import PlanStep, Reflection


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
        achieved, observed = check(step.args, agent, belief)
    except (KeyError, ValueError) as error:  # arguments the step should have had
        achieved, observed = False, f"cannot check the step's effect: {error}"
    return Reflection(step=step.id, achieved=achieved, observed=observed)


def needs_belief(step: PlanStep, *, by_person: bool = False) -> bool:
    """Whether :func:`reflect` reads the belief for ``step`` (else it costs nothing)."""
    return not by_person and step.action in CHECKS


CHECKS: Mapping[str, Reflect] = MappingProxyType(
    {name: skill.reflect for name, skill in SKILLS.items() if skill.reflect is not None}
)
"""The belief check of each robot skill with an effect in the belief (from its capability)."""
