"""People as the planner believes them: where they are, whether they can be asked, who they are.

:class:`Person` is one person of a :class:`~skills.action_model.belief.Belief`: room,
availability, abilities (what they can be asked to do), and what the hazard rules need: their
age group and vulnerabilities. :func:`person_of` reads one from the scene graph's answer and
its index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from cogtree.knowledge.safety.said_of_people import CHILDREN
from cogtree.knowledge.scene.scene_index import Node as IndexedNode
from cogtree.knowledge.scene.scene_models import HumanInfo

AVAILABLE = "available"
"""The availability a person must have to take a handover (unknown availability is allowed)."""

GONE = frozenset({"away", "asleep"})
"""Availabilities that rule a person out of a plan; a busy person may be asked (and may say
no: the delegation then fails at run time and the plan is repaired)."""


@dataclass(frozen=True)
class Person:
    """A person: where they are believed to be, whether they are available, their abilities."""

    id: str
    room: str | None
    availability: str | None
    abilities: frozenset[str] = frozenset()
    age_group: str | None = None
    """toddler, child, adult or elderly; None when the robot does not know."""
    vulnerabilities: frozenset[str] = frozenset()
    """What makes them vulnerable (dementia, frail, weak grip...)."""
    label: str | None = None
    """What they are called (the scene's label); None when the scene gives none."""

    @property
    def is_child(self) -> bool:
        """Whether they are a toddler or a child."""
        return self.age_group in CHILDREN

    @property
    def is_available(self) -> bool:
        """True when the person is available or their availability is unknown."""
        return self.availability in (None, AVAILABLE)

    @property
    def can_be_asked(self) -> bool:
        """False only when they are away or asleep; a busy person may be free by then."""
        return self.availability not in GONE

    def ability_for(self, skill: str) -> str | None:
        """Their ability named like ``skill`` (``pick`` or ``pick_up`` for PICK); None."""
        wanted = skill.lower()
        return next(
            (
                ability
                for ability in sorted(self.abilities)
                if wanted in re.split(r"[\s_-]+", ability.lower())
            ),
            None,
        )


def labels_of(people: Iterable[Person]) -> dict[str, str]:
    """Person id -> what the scene calls them (for reading what was said of whom)."""
    return {person.id: person.label for person in people if person.label}


def person_of(human: HumanInfo, indexed: IndexedNode | None) -> Person:
    """The Person of ``human``, with their age group and vulnerabilities from the index."""
    values = indexed.values if indexed is not None else ()
    ages = [value for name, value in values if name == "ageGroup"]
    return Person(
        id=human.id,
        room=human.room,
        availability=human.availability,
        abilities=frozenset(human.abilities),
        age_group=ages[0] if ages else None,
        vulnerabilities=frozenset(value for name, value in values if name == "vulnerability"),
        label=human.label or None,
    )
