"""Asking a person to do the steps of a request the robot cannot do: who, and the plan.

A request with a step that needs a skill the robot lacks (``unsupported`` on the step:
:mod:`~knowledge.language.unsupported_skills`) is not only refused: the robot asks someone in
the house who can do that step, as a ``DELEGATE`` step of a plan (:func:`delegation_plan`).

Who may be asked (:func:`may_do`), by principle:

- someone the belief says has an ability named like the skill (``cut``) or like the verb the
  step was asked with (``sew`` for a repair: :func:`ability`), who can be asked now
  (not away, not asleep: :attr:`~skills.action_model.people.Person.can_be_asked`);
- never a toddler or a child: the robot does not hand a child work it cannot do itself;
  what the user said this turn counts as it does for the hazard check ("I'm only eight" makes
  the speaker a child, "my hands are shaking" vulnerable: :func:`as_said`);
- never someone with a vulnerability (dementia, frail, weak grip...) for a skill that works
  with something the hazard rules keep from them (the skill's ``handles``: a blade is
  ``sharp``, a hob a ``heat_source``).

Only a request refused for want of a skill alone is passed on (:func:`refused_for_want_of_skill`):
never one the readiness gate refused for anything else (forbidden, a hazard, out of scope), nor
one with words of harm in it.

Of those, someone other than the speaker first: the speaker asked the robot so as not to do it
themselves. Then the available before the busy, then by id (:func:`helper_for`). The speaker
is handed the step only when nobody else may, they may themselves, and the robot did its part
of the request first (``did_part``: it brought the loaf, the step left is slicing it): the reply
says what it did, what it cannot do, and that it asked them. A request the robot can do no part
of (the missing skill alone) is not asked back: handing the whole of it to the one who asked is
a refusal, said as one ("Sorry, I can't cook yet."). Nobody able: the robot only says what it
cannot do.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from cogtree.knowledge.language.request_frame import RequestFrame, Step
from cogtree.knowledge.language.unsupported_skills import UnsupportedSkill, skill_named
from cogtree.knowledge.safety.doubts import harm_word
from cogtree.knowledge.safety.said_of_people import SPEAKER, is_allergy, said_of_people, youngest
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.knowledge.wording import joined
from cogtree.skills.action_model.people import Person, labels_of, person_of
from cogtree.skills.planning.plan_model import DELEGATE, PlanStep, ToAPlan

DELEGATION_SOURCE = "delegation"
"""The ``source`` of a plan that asks people to do what the robot cannot."""


def skill_of(step: Step) -> str:
    """The skill a step lacks, by name ("cut"; the grammar may prefix where it read it)."""
    return step.unsupported.rsplit(":", 1)[-1]


def asked_with(step: Step) -> str:
    """The verb ``step`` was asked with, its first word ("sew" of "sew it back on"); or ""."""
    return step.verb.split()[0] if step.verb else ""


def refused_for_want_of_skill(why: GateRationale | None, frame: RequestFrame) -> bool:
    """Whether the readiness gate refused ``frame``'s request only because the robot lacks a skill.

    ``why`` is the gate's rationale: decided without a model, not vetoed, its reason the one the
    gate gives for missing skills ("I can't cut things yet"), and no word of harm said.
    """
    if why is None or why.source != "fast_path" or why.vetoed or not frame.missing_skills:
        return False
    lacking = f"I can't {joined(frame.missing_skills, 'or')} yet"
    return why.rationale.strip().rstrip(".") == lacking and harm_word(frame.text) is None


def ability(person: Person, skill: str, asked_as: str = "") -> str | None:
    """``person``'s ability for ``skill``, named like it or like the verb it was ``asked_as``.

    Gran "can sew": a repair asked as "sew it back on" is hers; soldering is not. The verb
    counts only when it is one of the skill's own verbs and the ability is that verb alone
    (someone who can "make beds" is not asked to "make the dinner"). None when neither.
    """
    named = person.ability_for(skill)
    if named is not None or not asked_as:
        return named
    known = skill_named(skill)
    said = known is not None and asked_as in known.verbs and asked_as in person.abilities
    return asked_as if said else None


def may_do(person: Person, skill: str, handles: Iterable[str] = (), *, asked_as: str = "") -> bool:
    """Whether ``person`` may be asked to do ``skill`` (see the module docs).

    ``handles``: the hazard flags of what the skill works with (:class:`UnsupportedSkill`);
    ``asked_as``: the verb the step was asked with (:func:`ability`).
    """
    if person.is_child or not person.can_be_asked or ability(person, skill, asked_as) is None:
        return False
    frail = [v for v in person.vulnerabilities if not is_allergy(v)]  # an allergy is no frailty
    return not (frail and tuple(handles))


def helper_for(
    people: Iterable[Person],
    skill: str,
    speaker: str | None,
    handles: Iterable[str] = (),
    did_part: bool = False,
    asked_as: str = "",
) -> Person | None:
    """Who to ask to do ``skill``: others before ``speaker``, the available before the busy.

    The speaker only when ``did_part`` (the robot did its part of the request) and nobody else
    may; None when nobody may. ``asked_as``: the verb the step was asked with (:func:`ability`).
    """
    flags = tuple(handles)
    able = [
        p
        for p in people
        if (did_part or p.id != speaker) and may_do(p, skill, flags, asked_as=asked_as)
    ]
    able.sort(key=lambda person: (person.id == speaker, not person.is_available, person.id))
    return able[0] if able else None


@dataclass(frozen=True)
class Delegation:
    """One step of the request given to a person: the step, the skill, who, as what ability."""

    step: Step
    skill: str
    person: Person
    ability: str


def as_said(people: Sequence[Person], speaker: str | None, said: Sequence[str]) -> list[Person]:
    """The ``people`` with what the user ``said`` of them, or of themselves, added.

    The union, as the hazard check reads it (:mod:`knowledge.safety.said_of_people`): "I'm
    only eight" makes the speaker a child, "my hands are shaking" vulnerable; a statement never
    makes anyone an adult or safe.
    """
    heard = said_of_people(said, [p.id for p in people], labels_of(people)) if said else {}
    found = []
    for person in people:
        own = [heard.get(person.id), heard.get(SPEAKER) if person.id == speaker else None]
        told = [item for item in own if item is not None]
        found.append(
            replace(
                person,
                age_group=youngest(person.age_group, *(item.age_group for item in told)),
                vulnerabilities=person.vulnerabilities
                | {condition for item in told for condition in item.conditions},
            )
            if told
            else person
        )
    return found


def delegations(
    undone: Sequence[Step],
    people: Sequence[Person],
    speaker: str | None,
    said: Sequence[str] = (),
    did_part: bool = False,
) -> list[Delegation]:
    """Who does each missing skill of the ``undone`` steps (one person per skill; none: left).

    ``said``: the request's utterances (what they say of people counts: :func:`as_said`);
    ``did_part``: the robot does its part of the request first, so the speaker may be handed
    the step when nobody else may (:func:`helper_for`). A step with no missing skill of its own
    (it comes after the missing one) is left: it may need what the missing step makes.
    """
    people = as_said(people, speaker, said)
    found: dict[str, Delegation] = {}
    for step in undone:
        skill = skill_of(step)
        if not step.unsupported or skill in found:
            continue
        known: UnsupportedSkill | None = skill_named(skill)
        handles, asked_as = known.handles if known else (), asked_with(step)
        person = helper_for(people, skill, speaker, handles, did_part, asked_as)
        if person is not None:
            able = ability(person, skill, asked_as)
            assert able is not None  # may_do checked it
            found[skill] = Delegation(step, skill, person, able)
    return list(found.values())


def task_words(step: Step) -> str:
    """The step as a task for a person: its verb and the things it names ("chop these carrots").

    The people it names ("slice us ...") are left out; the step's words from its verb on when it
    names nothing ("sew it back on" of "can you sew it back on").
    """
    things = [phrase.text for phrase in step.wanted if not phrase.person and not phrase.pronoun]
    if step.verb and things:
        return " ".join([step.verb, *things])
    found = re.search(rf"\b{re.escape(step.verb)}\b", step.text.lower()) if step.verb else None
    return step.text[found.start() :] if found else step.text


ASKED = "I can't "
"""How the thought of a ``DELEGATE`` step asking for a missing skill begins (:func:`is_asked`)."""


def is_asked(step: PlanStep) -> bool:
    """Whether ``step`` asks a person to do a step the robot lacks the skill for."""
    return step.action == DELEGATE and step.thought.startswith(ASKED)


def asked_steps(chosen: Sequence[Delegation], start: int = 1) -> list[PlanStep]:
    """One ``DELEGATE`` step per chosen person, numbered from ``start``."""
    return [
        PlanStep(
            id=number,
            thought=f"{ASKED}{item.step.missing_skill or item.skill}: {item.person.id} can",
            action=DELEGATE,
            args={
                "person": item.person.id,
                "ability": item.ability,
                "description": task_words(item.step)[:300],
            },
            assignee=item.person.id,
        )
        for number, item in enumerate(chosen, start=start)
    ]


def delegation_plan(chosen: Sequence[Delegation]) -> ToAPlan:
    """The plan of ``DELEGATE`` steps that asks each chosen person; no steps when none."""
    who = ", ".join(f"{item.person.id} ({item.skill})" for item in chosen) or "nobody able"
    return ToAPlan(steps=asked_steps(chosen), rationale=f"ask {who}", source=DELEGATION_SOURCE)


def believed_people(scene: SceneGraph) -> list[Person]:
    """The people of the belief, with their abilities, age groups and vulnerabilities.

    Reads the scene graph: run it off the tick thread.
    """
    return [person_of(human, scene.index.node(human.id)) for human in scene.humans()]


def plan_for_undone(
    scene: SceneGraph, undone: Sequence[Step], speaker: str | None, said: Sequence[str] = ()
) -> ToAPlan:
    """:func:`delegation_plan` for the ``undone`` steps, on the belief's people (off the tick)."""
    return delegation_plan(delegations(undone, believed_people(scene), speaker, said))


def asked_sentence(
    plan: ToAPlan, achieved: Collection[int], names: Mapping[str, str], speaker: str | None
) -> str:
    """What the robot says of a :func:`delegation_plan` once it ran; "" when it asked nobody.

    ``achieved``: the ids of its steps the person reported done; ``names``: person id -> how
    to call them (the speaker is "you"). "I asked Sam to do that part (slice the bread), and
    Sam has done it." or "... but Sam did not take it on."
    """
    said = []
    for step in plan.steps:
        person = str(step.args.get("person", step.assignee or ""))
        who = "you" if person == speaker else names.get(person, person)
        what = str(step.args.get("description", "")).strip()
        part = f"that part ({what})" if what else "that part"
        if step.id in achieved:
            done = "you have done it" if who == "you" else f"{who} has done it"
            said.append(f"I asked {who} to do {part}, and {done}.")
        else:
            said.append(f"I asked {who} to do {part}, but it was not done.")
    return " ".join(said)
