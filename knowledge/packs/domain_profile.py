"""Domain profiles: what a domain is about and which tasks it serves, without any grounding.

JANUS routes among 11 domains plus OutOfScope. cogtree grounds three of them as domain packs
(``household``, ``office``, ``advisor``); the other eight are profiles, YAML files in
``knowledge/packs/domain_profiles/`` holding a description and the domain's tasks with example
requests, and nothing that could run a task. Profiles exist to measure scope detection at the
paper's scale (``cogtree eval modules``) and how similar domains confuse it (``cogtree eval
scope-similarity``); the robot itself never routes to a profile.

Two sets ship. ``domain_profiles/`` holds the eight domains cogtree chose for a home robot
(with the household, office and advisor packs: cogtree's own eleven). ``janus_profiles/``
holds ten of JANUS's Table 2 domains, described in cogtree's words; with the advisor pack
(the paper's Advisor) they are the paper's eleven, used only by the paper study
(``cogtree eval scope-similarity --paper``).

A profile file::

    name: weather                      # lower-case identifier, the label of scope items
    title: Weather
    description: The weather: today's forecast, rain, wind, ...
    tasks:
      - name: Forecast
        description: Say the forecast for a day and a place.
        examples: [what's the weather going to be like tomorrow, ...]

:func:`load_profiles` returns the shipped packs' profiles (from their manifests) followed by
the files', in name order; a name used twice, or a file that does not fit, is a
:class:`ProfileError` naming the file and the field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.yaml_files import read_yaml_model

SHIPPED_PROFILES = Path(__file__).with_name("domain_profiles")
"""Where the profiles of the domains that have no pack live."""

JANUS_PROFILES = Path(__file__).with_name("janus_profiles")
"""The ten profiles that, with the advisor pack, are JANUS's Table 2 (the paper study's set)."""

JANUS_PACKS = ("advisor",)
"""The shipped packs that belong to JANUS's Table 2 (the paper's Advisor)."""

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class ProfileError(ValueError):
    """A profile that cannot be used; the message names the file, the field and the fix."""


class ProfileTask(BaseModel):
    """One task a domain serves: what it does and how people ask for it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    examples: list[str] = Field(min_length=3, description="requests that ask for the task")


class DomainProfile(BaseModel):
    """A domain as scope detection sees it: a description and tasks with example requests.

    ``pack`` names the domain pack the profile was read from (None for a profile file).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=_NAME.pattern)
    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    examples: list[str] = Field(default_factory=list)
    tasks: list[ProfileTask] = Field(min_length=1)
    pack: str | None = None

    @classmethod
    def from_pack(cls, pack: DomainPack) -> DomainProfile:
        """The profile of a loaded pack: its description, scope examples and tasks."""
        return cls(
            name=pack.name,
            title=pack.manifest.title,
            description=pack.manifest.description,
            examples=list(pack.manifest.examples),
            tasks=[
                ProfileTask(name=task.name, description=task.description, examples=task.examples)
                for task in pack.tasks
                if len(task.examples) >= 3
            ],
            pack=pack.name,
        )

    def scope_texts(self) -> list[str]:
        """What the scope matcher compares an utterance with: description and examples.

        The same texts a pack gives it
        (:func:`~knowledge.understanding.scope_matching.domain_examples`).
        """
        return [
            self.description,
            *self.examples,
            *(example for task in self.tasks for example in task.examples),
        ]

    def document(self) -> str:
        """The domain described in prose: its description and its tasks' descriptions."""
        return " ".join([self.description, *(task.description for task in self.tasks)])


def read_profile(path: Path) -> DomainProfile:
    """One profile file; :class:`ProfileError` when it cannot be read or does not fit."""
    expected = "a profile: a mapping with name, title, description and tasks"
    return read_yaml_model(path, DomainProfile, ProfileError, expected=expected)


def load_profiles(
    packs: Sequence[DomainPack] = (), directory: Path = SHIPPED_PROFILES
) -> list[DomainProfile]:
    """The profiles of ``packs`` (in their order), then every ``*.yaml`` of ``directory``."""
    if not directory.is_dir():
        raise ProfileError(f"{directory} is not a directory of domain profiles (*.yaml)")
    profiles = [DomainProfile.from_pack(pack) for pack in packs]
    seen = {profile.name: f"pack {profile.pack}" for profile in profiles}
    for path in sorted(directory.glob("*.yaml")):
        profile = read_profile(path)
        if profile.name in seen:
            raise ProfileError(
                f"{path}: the domain {profile.name!r} is already described by "
                f"{seen[profile.name]}; rename it"
            )
        seen[profile.name] = str(path)
        profiles.append(profile)
    return profiles
