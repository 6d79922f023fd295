"""Skills the robot does not have, as data, so a request that needs one gets an honest answer.

This module is the one reader of ``knowledge/language/unsupported_skills.yaml`` and owns its
model (:class:`UnsupportedSkill`); the request grammar
(:mod:`~knowledge.language.request_frame`) takes the list from :func:`unsupported_skills`.
:func:`unsupported_skill` finds the first unsupported skill a request names ("slice the
bread" → cut: "I can't cut things yet."); :func:`unsupported_skills` lists them all. A broken
file raises ValueError naming the file, the entry and the fix.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogtree.knowledge.validation_errors import first_problem
from cogtree.knowledge.yaml_files import LOADER

UNSUPPORTED_SKILLS_PATH = Path(__file__).with_name("unsupported_skills.yaml")
"""The shipped list of skills the robot lacks."""

_CANT = re.compile(r"^\s*I can'?t\s+|\s+yet\.?\s*$|\.\s*$", re.IGNORECASE)


class UnsupportedSkill(BaseModel):
    """A skill the robot lacks: its name, the words that ask for it and what the robot says.

    ``handles``: the hazard flags of what doing it works with (``sharp`` for a blade,
    ``heat_source`` for a hob); a person the hazard rules protect from such things is not
    asked to do it instead (:mod:`~skills.planning.delegation`). ``acts_on``: what it is done
    to, as types of the household taxonomy (with every type under them) or words ("floor"),
    for a verb that also names one of the robot's capabilities: "mop the floor" asks for this
    skill, "mop up the spill on the table" for wiping.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z_]+$")
    verbs: tuple[str, ...] = Field(min_length=1)
    say: str = Field(min_length=1)
    handles: tuple[str, ...] = ()
    acts_on: tuple[str, ...] = ()

    def named_in(self, text: str) -> bool:
        """Whether ``text`` names this skill (one of its verbs, as whole words)."""
        words = " ".join(re.findall(r"[a-z']+", text.lower()))
        return any(re.search(rf"\b{re.escape(verb)}\b", words) for verb in self.verbs)

    @property
    def missing(self) -> str:
        """What the robot cannot do, as words after "I can't" ("cut things").

        ``say`` without "I can't" and "yet"; the name when that leaves nothing.
        """
        return _CANT.sub("", self.say).strip() or self.name


class _Catalogue(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    skills: tuple[UnsupportedSkill, ...]


@cache
def unsupported_skills(path: Path = UNSUPPORTED_SKILLS_PATH) -> tuple[UnsupportedSkill, ...]:
    """Every unsupported skill of the list at ``path`` (read once per path)."""
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
        return _Catalogue.model_validate(raw).skills
    except (OSError, yaml.YAMLError) as error:
        raise ValueError(f"{path}: cannot read the unsupported skills: {error}") from error
    except ValidationError as error:
        raise ValueError(
            f"{path}: {first_problem(error)}; each entry needs name, verbs and say"
        ) from error


def skill_named(name: str, path: Path = UNSUPPORTED_SKILLS_PATH) -> UnsupportedSkill | None:
    """The unsupported skill called ``name`` ("cut"); None when the list has none."""
    return next((skill for skill in unsupported_skills(path) if skill.name == name), None)


def unsupported_skill(text: str, path: Path = UNSUPPORTED_SKILLS_PATH) -> UnsupportedSkill | None:
    """The first unsupported skill ``text`` (a request) names; None when it names none."""
    return next((skill for skill in unsupported_skills(path) if skill.named_in(text)), None)
