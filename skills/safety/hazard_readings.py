"""The hazards of what a request could mean, before the robot asks about it.

The readiness gate asks when a request is not clear enough to plan: a slot the user left
unsaid ("nuke the foil tray": in what?), a word that fits several things ("pour the water
onto the toaster": the kettle's water or the jug's?), or a request no single task holds
("put the foil tray in the microwave and start it" without a planner model). A question
that ignores a hazard every reading shares would invite the user to pick one. So the gate
first lists the *readings* of the request, as task-level calls (``heat(foil_tray,
microwave)``), and runs the hazard rules over the skills each stands for
(:func:`skills.safety.task_hazards.task_hazards`). When every reading has a forbidden hazard, the
gate refuses with the rule's sentence instead of asking.

- :func:`slot_readings`: the task the intent names, one reading per combination of the
  things its slots may refer to (an unsaid slot: the things of the belief that the task's
  argument can take, :func:`~cogtree.skills.safety.task_hazards.fitting`), at most
  :data:`MAX_READINGS`.
- :func:`frame_readings`: the steps of the request's frame
(:mod:`knowledge.language.request_frame`),
  each held by a task of the pack, their words looked up in the pack's lexicons; "it" in a
  later step is the thing the step before acted on that fits. One reading: the steps in order.

No model is involved and nothing runs; the belief is read once per question.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from cogtree.knowledge.language.pronouns import TalkedAbout
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_pack import SPEAKER_ARGUMENT, DomainPack, TaskSpec
from cogtree.knowledge.safety.hazard_rules import HazardRules
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.frame_tasks import step_task, with_referent
from cogtree.knowledge.understanding.lexicon import TYPE_PREFIX, Lexicon
from cogtree.knowledge.understanding.turn_state import SlotResolution
from cogtree.knowledge.wording import lower_first
from cogtree.skills.action_model.belief import Belief, BeliefError
from cogtree.skills.safety.task_hazards import fitting, task_hazards

MAX_READINGS = 8
"""At most this many readings are checked (the first ones, slot by slot)."""

Reading = list[tuple[str, dict[str, str]]]
"""Task-level calls, in order: ``[("heat", {"object": "foil_tray", "appliance": ...})]``."""


def scene_belief(scene: SceneGraph | None) -> Belief | None:
    """The belief of the scene's one robot; None without a scene or with several robots."""
    if scene is None:
        return None
    robots = scene.robot_state()
    if len(robots) != 1:
        return None
    try:
        return Belief.from_scene(scene, robots[0].id)
    except BeliefError:
        return None


def slot_readings(
    spec: TaskSpec,
    resolved: Mapping[str, SlotResolution],
    speaker: str | None,
    belief: Belief,
) -> list[Reading]:
    """One reading per combination of what the task's slots may refer to (see module docs)."""
    template = spec.plan
    if template is None:
        return []
    choices: dict[str, list[str]] = {}
    for argument, slot in template.args.items():
        if slot == SPEAKER_ARGUMENT:
            choices[argument] = [speaker] if speaker else []
            continue
        resolution = resolved.get(slot)
        ids = list(resolution.ids) if resolution is not None else []
        choices[argument] = ids or fitting(belief, template.task, argument)
    if not all(choices.values()):
        return []
    names = list(choices)
    combos = itertools.islice(itertools.product(*choices.values()), MAX_READINGS)
    return [[(template.task, dict(zip(names, combo, strict=True)))] for combo in combos]


def frame_readings(
    request: RequestFrame,
    pack: DomainPack,
    lexicons: Mapping[str, Lexicon],
    belief: Belief,
    earlier: TalkedAbout | None = None,
) -> list[Reading]:
    """The request's steps as one reading, each step's words looked up (see module docs).

    "it" said alone in the first step is what was talked about before (``earlier``). A step no task
    holds, or whose words do not name one thing each, is left out; no step left: no reading.
    """
    reading: Reading = []
    for step in request.steps:
        found = step_task(step, pack, request.text)
        if found is not None and not reading:  # later: "it" is what the step before acted on
            found = with_referent(found, step, pack, earlier=earlier)
        spec = pack.task(found.task) if found is not None else None
        if found is None or spec is None or spec.plan is None:
            continue
        args: dict[str, str] = {}
        for argument, slot in spec.plan.args.items():
            value = found.slots.get(slot)
            lexicon = lexicons.get(spec.slots[slot].lexicon or "") if slot in spec.slots else None
            named = _one_thing(str(value), lexicon) if value and lexicon else None
            if named is None and reading:  # "start it": what the step before acted on
                acted_on = [v for _, before in reading for v in before.values()]
                fits = set(fitting(belief, spec.plan.task, argument))
                named = next((thing for thing in reversed(acted_on) if thing in fits), None)
            if named is None:
                break
            args[argument] = named
        else:
            reading.append((spec.plan.task, args))
    return [reading] if reading else []


def conversation_said(
    working: WorkingContext | None, request: Sequence[str], utterance: str
) -> list[str]:
    """What the user said that the hazards of a reading are judged with, oldest first.

    The conversation's earlier turns (``working``'s history: "I put the descaler in the
    kettle" said a turn before the request), then the request's utterances and this one, as
    the plan's dry run reads them: a hazard said before is found before a plan is made.
    """
    earlier = [turn.user for turn in working.history] if working is not None else []
    return list(dict.fromkeys([*earlier, *request, utterance]))


def forbidden_in_every_reading(
    rules: HazardRules,
    readings: Sequence[Reading],
    belief: Belief,
    said: Sequence[str],
    speaker: str | None = None,
) -> list[str]:
    """Every hazard's sentence, once each, when every reading has a forbidden one; else none.

    ``speaker``: who said ``said`` (what they said of themselves is theirs: "I'm only six").

    The forbidden sentences of all the readings come first, then their ask-first ones, so a
    refusal names every hazard it saw ("it would overflow the tumbler", and "water near the
    toaster"), whichever reading the user meant.
    """
    if not readings:
        return []
    forbidden: list[str] = []
    ask_first: list[str] = []
    for reading in readings:
        hazards = task_hazards(rules, reading, belief, said, speaker)
        if not any(hazard.forbids for hazard in hazards):
            return []
        for hazard in hazards:
            (forbidden if hazard.forbids else ask_first).append(hazard.sentence)
    return list(dict.fromkeys([*forbidden, *ask_first]))


def _one_thing(words: str, lexicon: Lexicon) -> str | None:
    """The one scene node ``words`` name in ``lexicon`` (not a type), else None."""
    ids = {mention.id for mention in lexicon.find(words) if not mention.id.startswith(TYPE_PREFIX)}
    return ids.pop() if len(ids) == 1 else None


def said_together(sentences: Sequence[str]) -> str:
    """Hazard sentences as one reason, each said whole, the ones after the first with "And".

    "The tumbler holds only 300 ml; ..." and "The tumbler is next to the toaster; ..." ->
    "The tumbler holds only 300 ml; .... And the tumbler is next to the toaster; ...". Each
    keeps the rule's own words; a sentence said twice is said once.
    """
    clauses = [sentence.strip().rstrip(".") for sentence in sentences if sentence.strip()]
    clauses = list(dict.fromkeys(clauses))
    rest = [f"And {lower_first(clause)}" for clause in clauses[1:]]
    return " ".join(f"{clause}." for clause in clauses[:1] + rest)
