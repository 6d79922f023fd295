"""A plan's hazards, step by step: what the user said, read once, and what earlier steps switched.

:class:`PlanHazards` runs :func:`~skills.safety.hazard_check.step_hazards` on each step of a
plan with what the user said of things and people (:func:`said_about`,
:mod:`knowledge.safety.said_of_people`) and with the appliances earlier steps switched on or
off, which the belief a plan projects may not show.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from cogtree.knowledge.safety.hazard_rules import HazardRules
from cogtree.knowledge.safety.said_of_people import said_of_people
from cogtree.knowledge.safety.said_of_things import contents_said, said_of_things
from cogtree.knowledge.safety.said_prohibitions import kept_from, not_to_use
from cogtree.knowledge.safety.thing_properties import (
    HOLDS_LIQUID,
    Descriptions,
    liquids_said_to_be,
    safety_properties,
)
from cogtree.knowledge.scene.scene_index import age_group_names
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.people import labels_of
from cogtree.skills.capabilities.calls import SkillCall
from cogtree.skills.capabilities.registry import SKILLS
from cogtree.skills.safety.hazard_check import Hazard, Said, step_hazards


class PlanHazards:
    """A plan's hazards, step by step, remembering what earlier steps switched on or off.

    ``said``: the request's utterances (they give the manners: a blade carried "running");
    ``earlier``: what the user said before in the conversation. Both say what things are
    ("the hob's still hot") and what the ``speaker`` is ("I'm only six"); only the request
    says how it is to be done. ``offered``: the plan brings things for a step the robot
    cannot do itself.
    """

    def __init__(
        self,
        rules: HazardRules,
        said: Iterable[str] = (),
        *,
        earlier: Iterable[str] = (),
        speaker: str | None = None,
        offered: bool = False,
    ) -> None:
        said = list(said)
        self.rules = rules
        self.said = (*earlier, *said)
        self.manners = rules.manners_of(said)
        self.speaker = speaker
        self.offered = offered
        self._powered: dict[str, bool] = {}
        self._said_of: Said | None = None

    def check(self, belief: Belief, call: SkillCall, step: int | None = None) -> list[Hazard]:
        """The hazards of ``call`` in ``belief`` as the earlier steps left it."""
        if self._said_of is None:  # the things' names do not change within a plan
            labels = labels_of(belief.people.values())
            names = {
                person.id: [
                    labels.get(person.id, person.id),
                    *(age_group_names(person.age_group) if person.age_group else ()),
                ]
                for person in belief.people.values()
            }
            self._said_of = Said(
                said_about(belief, self.said),
                self.speaker,
                said_of_people(self.said, belief.people, labels),
                self.offered,
                kept_from(self.said, names),
                not_to_use(self.said),
            )
        return step_hazards(
            self.rules,
            self._with_switches(belief),
            call,
            manners=self.manners,
            said=self._said_of,
            step=step,
        )

    def done(self, call: SkillCall) -> None:
        """Remember what ``call`` switched on or off for the later steps (its powered facts)."""
        for fact in SKILLS[call.skill].facts(call.args, "", {}):
            if fact.kind == "powered":
                self._powered[fact.subject] = fact.value == "on"

    def _with_switches(self, belief: Belief) -> Belief:
        changed = {
            name: replace(belief.things[name], powered=on)
            for name, on in self._powered.items()
            if name in belief.things and belief.things[name].powered != on
        }
        return replace(belief, things={**belief.things, **changed}) if changed else belief


def said_about(belief: Belief, utterances: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """What the user said each thing of ``belief`` is (:mod:`knowledge.safety.said_of_things`).

    A thing is named by its label, its id's words and its type's label and synonyms (a stove
    is "the hob").
    """
    if not utterances:
        return {}
    taxonomy = household_taxonomy()
    names: dict[str, list[str]] = {}
    for thing in belief.things.values():
        known = list(Descriptions(id=thing.id, label=thing.label).seen_names)
        if thing.type is not None and thing.type in taxonomy.types:
            known += [taxonomy.label(thing.type), *taxonomy.synonyms(thing.type)]
        names[thing.id] = [name.lower() for name in known if name]
    return _held_on_surfaces(belief, said_of_things(utterances, names))


def _held_on_surfaces(
    belief: Belief, said: dict[str, tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    """``said`` with the liquids a support is said to hold passed to the vessels resting on it.

    "The drink on the table is gin", "my whisky is on the tray": a table or a tray holds no
    drink, a glass or a cup on it does. Which one is not said, and a vessel's name is no
    observation of what it holds ("the glass of lemonade" may hold the gin): each of them (the
    union: the safe side). Only what names a drink, a chemical or a medicine is passed
    (crumbs on the table are in no cup).
    """
    passed = {thing: list(phrases) for thing, phrases in said.items()}
    for support, phrases in said.items():
        stated = [phrase for phrase in phrases if not phrase.startswith("with ")]
        held = liquids_said_to_be([*contents_said(phrases), *stated])
        if support not in belief.things or not held or _vessel(belief, support):
            continue
        for other in belief.things.values():
            if other.support == support and other.relation != "in" and _vessel(belief, other.id):
                passed.setdefault(other.id, []).extend(f"with {what}" for what in held)
    return {thing: tuple(dict.fromkeys(phrases)) for thing, phrases in passed.items()}


def _vessel(belief: Belief, thing_id: str) -> bool:
    """Whether the thing holds liquid by any of its descriptions (a glass, a cup, a jug)."""
    thing = belief.things[thing_id]
    described = Descriptions(thing.id, thing.type, thing.label, flags=thing.flags)
    return HOLDS_LIQUID in safety_properties(described).kinds
