"""The hazards of what a task asks for, judged on the skills it stands for.

When the task planner finds no plan, its reasons are the preconditions that failed ("the mug
of tea is hot: grasping it is unsafe", "grandma is not in the belief"), which may hide that
the request itself is unsafe: handing hot tea to a person, picking up a person. For a task
(``bring(tea_mug, ana)``) :func:`intended_skills` lists the skill calls the task means in
the simplest case (PICK the mug, HANDOVER it to Ana), without checking whether they can run,
and :func:`task_hazards` runs the hazard rules over them, as the dry run would over a plan
(:class:`~skills.safety.plan_hazards.PlanHazards`, the belief projected step by step where a step's
effects can be projected). The hazards found are named with the reasons for no plan, so a
refusal says the hazard. Nothing here ever runs a skill.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cogtree.knowledge.safety.hazard_rules import HazardRules
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.specs import SkillArgumentError
from cogtree.skills.capabilities.calls import SKILL_SPECS, SkillCall, project, skill_call
from cogtree.skills.capabilities.registry import FITS, OUTLINES
from cogtree.skills.safety.hazard_check import Hazard
from cogtree.skills.safety.plan_hazards import PlanHazards

HAND = "right"
"""The hand the intended skills name (the rules do not look at it)."""


def fitting(belief: Belief, task: str, argument: str) -> list[str]:
    """The things of ``belief`` that ``task``'s ``argument`` can take when the user left it unsaid.

    "nuke the foil tray": see :data:`~cogtree.skills.capabilities.registry.FITS`; arguments no
    capability lists are never guessed.
    """
    fits = FITS.get((task, argument))
    return [] if fits is None else sorted(t.id for t in belief.things.values() if fits(t))


def intended_skills(
    task: str, args: dict[str, str], belief: Belief, said: Sequence[str] = ()
) -> list[SkillCall]:
    """The skill calls ``task`` with ``args`` stands for (see the module docs); [] if unknown.

    ``said``: the request's words (how much a pour asks for). A call whose arguments the
    skill's spec refuses is left out.
    """
    outline = OUTLINES.get(task)
    if outline is None:
        return []
    calls = []
    for skill, values in outline(belief, args, said):
        given = {**values, "hand": HAND} if _takes_hand(skill) else values
        try:
            calls.append(skill_call(skill, given))
        except SkillArgumentError:
            continue
    return calls


def _takes_hand(skill: str) -> bool:
    """Whether ``skill``'s arguments name the hand that does it."""
    return any(name == skill and "hand" in spec.parameters for name, spec in SKILL_SPECS.items())


def task_hazards(
    rules: HazardRules,
    tasks: Sequence[tuple[str, dict[str, str]]],
    belief: Belief,
    said: Iterable[str] = (),
    speaker: str | None = None,
) -> list[Hazard]:
    """The hazards of the skills ``tasks`` (one after the other) stand for, forbidden first.

    Each sentence once. ``said``: the request's utterances (the manners they ask for:
    "throw it to me"; what ``speaker``, who said them, said of themselves).
    """
    said = list(said)
    checker = PlanHazards(rules, said, speaker=speaker)
    found: dict[str, Hazard] = {}
    calls = [call for task, args in tasks for call in intended_skills(task, args, belief, said)]
    for number, call in enumerate(calls, start=1):
        for hazard in checker.check(belief, call, step=number):
            found.setdefault(hazard.sentence, hazard)
        checker.done(call)
        belief = _projected(call, belief)
    return sorted(found.values(), key=lambda hazard: not hazard.forbids)


def _projected(call: SkillCall, belief: Belief) -> Belief:
    """The belief after ``call``, or as it was when the call's effects cannot be projected."""
    try:
        return project(call, belief)
    except (KeyError, ValueError):  # a person picked up, a thing the belief lacks
        return belief
