"""The disposal table: which waste bin takes an object, by its material and whether it is empty.

The table is data (``knowledge/scene/disposal.yaml``): rules tried in order, the first whose
``material`` (and ``empty``, when a rule gives it) is one of the materials the object is
made of decides the bin (recycling, compost or landfill); the caller reads those materials
from every description of the thing, broader materials included (skills' dispose
capability). An object whose material is unknown or named by no rule goes into the table's
cautious bin, and the decision carries a note the robot says. A broken table file raises
:class:`DisposalTableError` naming the file, the rule and the fix.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from typing_extensions import Self

from cogtree.knowledge.validation_errors import first_problem

BinKind = Literal["recycling", "compost", "landfill"]
"""The kinds of waste bin (``cog:binKind`` values)."""

DISPOSAL_TABLE_PATH = Path(__file__).with_name("disposal.yaml")
"""The shipped disposal table."""


class DisposalTableError(ValueError):
    """A disposal table that cannot be read: the message names the file, the rule and the fix."""


class DisposalRule(BaseModel):
    """One row: objects of ``material`` (empty or not, when ``empty`` is given) go to ``bin``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    material: str = Field(min_length=1, pattern=r"^[a-z][a-z ]*$")
    empty: bool | None = None
    bin: BinKind

    def matches(self, material: str, empty: bool) -> bool:
        """Whether an object of ``material`` that is (not) ``empty`` falls under this rule."""
        return self.material == material and self.empty in (None, empty)


class DisposalTable(BaseModel):
    """The rules in order, the cautious bin for unknown materials and what the robot says then."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bins: tuple[BinKind, ...]
    cautious_bin: BinKind
    cautious_note: str = Field(min_length=1)
    rules: tuple[DisposalRule, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _known_bins(self) -> Self:
        unused = {self.cautious_bin, *(rule.bin for rule in self.rules)} - set(self.bins)
        if unused:
            raise ValueError(f"bins {sorted(unused)} are used but not listed under `bins`")
        return self

    def decide(
        self, thing: str, materials: Collection[str], empty: bool, said: str | None = None
    ) -> BinDecision:
        """The bin for ``thing`` made of ``materials``, empty or not.

        ``materials`` are every material its descriptions name, broader ones included
        ("PET plastic": pet, plastic, ...); the first rule that names one of them decides.
        ``said`` is its material as the belief words it, for the cautious note (None: unknown).
        """
        keys = {material.strip().lower() for material in materials}
        matching = (rule for rule in self.rules if any(rule.matches(key, empty) for key in keys))
        rule = next(matching, None)
        if rule is not None:
            state = "empty" if empty else "not empty"
            reason = f"{thing} is {rule.material} and {state}: the {rule.bin} bin takes it"
            return BinDecision(bin=rule.bin, reason=reason, cautious=False)
        note = self.cautious_note.format(object=thing, material=said or "material unknown")
        return BinDecision(bin=self.cautious_bin, reason=note, cautious=True)


@dataclass(frozen=True)
class BinDecision:
    """Which bin, why (a sentence the robot may say), and whether it is the cautious default."""

    bin: BinKind
    reason: str
    cautious: bool


def load_disposal_table(path: Path = DISPOSAL_TABLE_PATH) -> DisposalTable:
    """Read and check a disposal table; :class:`DisposalTableError` says what to fix."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise DisposalTableError(f"{path}: cannot read the disposal table: {error}") from error
    if not isinstance(raw, dict):
        raise DisposalTableError(f"{path}: expected a mapping with bins, cautious_bin and rules")
    for index, rule in enumerate(raw.get("rules") or ()):
        try:
            DisposalRule.model_validate(rule)
        except ValidationError as error:
            raise DisposalTableError(
                f"{path}: rule {index} ({rule}): {first_problem(error)}; write e.g. "
                "{material: glass, empty: true, bin: recycling}"
            ) from error
    try:
        return DisposalTable.model_validate(raw)
    except ValidationError as error:
        raise DisposalTableError(f"{path}: {first_problem(error)}") from error


@cache
def disposal_table(path: Path = DISPOSAL_TABLE_PATH) -> DisposalTable:
    """The table at ``path``, read once per path (the shipped one by default)."""
    return load_disposal_table(path)
