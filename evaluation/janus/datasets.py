"""The curated module-evaluation sets (``tests/data/eval/*.jsonl``): item models and loaders.

One JSON object per line; blank lines are skipped. Each file has its item model below, and
``tests/data/eval/README.md`` describes the fields and how the references were made. A line that
is not JSON or does not fit its model raises :class:`DatasetError` naming the file, the line
number, the field and the fix.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cogtree.knowledge.packs.domain_registry import SHIPPED_NAMES
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE, SlotValue
from cogtree.knowledge.validation_errors import first_problem

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "eval"
"""Where the shipped evaluation sets live (a source checkout's ``tests/data/eval``)."""

SCENE_DOMAINS = frozenset({"household", "office"})
"""Domains whose knowledge is the scene graph: their items name a simulator scenario."""

Module = Literal["scope", "intent", "readiness", "query", "grounding", "sufficiency"]
MODULES: tuple[Module, ...] = ("scope", "intent", "readiness", "query", "grounding", "sufficiency")
"""The evaluated modules, in report order; each has ``<module>.jsonl``."""

ItemT = TypeVar("ItemT", bound=BaseModel)


class DatasetError(ValueError):
    """An evaluation file that cannot be read; the message names file, line and field."""


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tag: str = Field("plain", description="the kind of case: plain, short, injection, ...")


def _known_domain(domain: str, *, out_of_scope: bool) -> str:
    allowed = [*SHIPPED_NAMES, *([OUT_OF_SCOPE] if out_of_scope else [])]
    if domain not in allowed:
        raise ValueError(f"unknown domain {domain!r}; use one of {', '.join(allowed)}")
    return domain


class _WorldItem(_Item):
    """An item read against a domain, in a simulator scenario's world when it has no KG."""

    domain: str
    scenario: str | None = Field(
        None, description="sim scenario whose robot belief is the scene graph (household, office)"
    )
    speaker: str | None = Field(None, description="who speaks; default: the scenario's speaker")

    @field_validator("domain")
    @classmethod
    def _domain(cls, domain: str) -> str:
        return _known_domain(domain, out_of_scope=False)

    def needs_scenario(self) -> bool:
        """The item's domain reads the scene graph, so a scenario must be named."""
        return self.domain in SCENE_DOMAINS


class ScopeItem(_Item):
    """An utterance and the domain it belongs to (or ``OutOfScope``)."""

    utterance: str
    domain: str

    @field_validator("domain")
    @classmethod
    def _domain(cls, domain: str) -> str:
        return _known_domain(domain, out_of_scope=True)


class IntentItem(_WorldItem):
    """An utterance read in ``domain``: the task it asks for and the slots the user filled.

    ``slots`` hold the values as the user said them (the contract of
    :class:`~knowledge.understanding.turn_state.IntentFrame`): the words of the mention, without
    post-modifying phrases ("blue bottle", "carbohydrates", "allergic"); lists for list slots.
    """

    utterance: str
    task: str | None
    slots: dict[str, SlotValue] = Field(default_factory=dict)


class PendingFrame(BaseModel):
    """A task the robot asked about in the previous turn (becomes ``/session/pending``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: str
    slots: dict[str, SlotValue] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    said: list[str] = Field(default_factory=list, description="the earlier turn's utterance")
    question: str = Field("", description="what the robot asked")


class ReadinessItem(IntentItem):
    """A turn and the readiness decision it deserves: Proceed, Clarify (missing) or Reject.

    ``domain`` is the turn's domain as scope detection decided it (OutOfScope included);
    ``task`` and ``slots`` are the frame the turn means (what an oracle intent module answers).
    """

    pending: PendingFrame | None = None
    control: Literal["Proceed", "Clarify", "Reject"]
    missing: list[str] = Field(default_factory=list)

    @field_validator("domain")
    @classmethod
    def _domain(cls, domain: str) -> str:
        """A readiness turn may be out of scope (as DetectScope decided): the gate rejects it."""
        return _known_domain(domain, out_of_scope=True)


class QueryItem(_WorldItem):
    """A knowledge task with resolved slots, and the rows a correct query returns.

    ``slots`` hold resolved ids (kg ids, scene ids, pack values; lists for list slots);
    ``reference_query`` is the hand-written SPARQL whose result, computed once, is ``rows``.
    """

    question: str = Field(description="what the user asked, for model-written queries")
    task: str
    slots: dict[str, str | list[str]] = Field(default_factory=dict)
    reference_query: str
    rows: list[dict[str, str | None]]


class HeldItem(BaseModel):
    """An answer an earlier turn of the conversation fetched (becomes a held answer)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    utterance: str = Field(description="what the user asked then")
    task: str
    slots: dict[str, str | list[str]] = Field(
        default_factory=dict, description="the ids its slots resolved to then"
    )
    profile: dict[str, list[str]] = Field(
        default_factory=dict, description="avoid / favour / diet ids memory bound then"
    )
    speaker: str | None = Field(None, description="who asked; default: this turn's speaker")
    age_s: float = Field(ge=0, description="how long ago it was fetched, in seconds")
    rows: list[dict[str, str | None]] = Field(default_factory=list)


class ClaimItem(BaseModel):
    """A fact the user told the robot (core memory, or the archive)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    kind: Literal["identifier", "hard_constraint", "preference", "other"] = "other"
    slot: str | None = None


class GroundingItem(IntentItem):
    """A turn in a conversation and JANUS's ρ decision: run the task's query, or not.

    ``held`` are the answers earlier turns fetched; ``facts`` the profile memory holds now
    (the working context); ``ground`` whether the task's query must run. ``task`` and
    ``slots`` are the frame the turn means, as said (what an oracle intent module answers).
    """

    held: list[HeldItem] = Field(default_factory=list)
    facts: list[ClaimItem] = Field(default_factory=list)
    ground: bool


class SufficiencyItem(_Item):
    """A request, what memory holds, and whether core memory and recent turns suffice.

    ``core`` facts stay in core memory, ``archive`` facts were archived (older sessions),
    ``recent`` are the user's last turns. ``task`` and ``slots`` are the intent (preset).
    """

    utterance: str
    domain: str
    task: str | None = None
    slots: dict[str, SlotValue] = Field(default_factory=dict)
    core: list[ClaimItem] = Field(default_factory=list)
    archive: list[ClaimItem] = Field(default_factory=list)
    recent: list[str] = Field(default_factory=list)
    expected: Literal["sufficient", "archive"]

    @field_validator("domain")
    @classmethod
    def _domain(cls, domain: str) -> str:
        return _known_domain(domain, out_of_scope=False)


ITEM_MODELS: dict[Module, type[BaseModel]] = {
    "scope": ScopeItem,
    "intent": IntentItem,
    "readiness": ReadinessItem,
    "query": QueryItem,
    "grounding": GroundingItem,
    "sufficiency": SufficiencyItem,
}


def load_items(
    path: str | Path,
    model: type[ItemT],
    *,
    check: Callable[[ItemT], str | None] | None = None,
) -> list[ItemT]:
    """Every item of the JSONL file ``path`` as ``model``; DatasetError on the first bad line.

    ``check`` may return a problem for an item that parses but cannot be used.
    """
    source = Path(path)
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise DatasetError(
            f"{source} not found: pass --data DIR with the evaluation files "
            f"({', '.join(f'{name}.jsonl' for name in MODULES)})"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise DatasetError(f"cannot read {source}: {error}") from error
    items: list[ItemT] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as error:
            raise DatasetError(
                f"{where}: not a JSON object ({error.msg} at column {error.colno}); write one "
                "object per line"
            ) from None
        try:
            item = model.model_validate(raw)
        except ValidationError as error:
            raise DatasetError(f"{where}: {first_problem(error)}") from None
        problem = check(item) if check else None
        if problem:
            raise DatasetError(f"{where}: {problem}")
        items.append(item)
    if not items:
        raise DatasetError(f"{source} holds no items; write one JSON object per line")
    return items


def _scenario_named(item: BaseModel) -> str | None:
    if isinstance(item, _WorldItem) and item.needs_scenario() and not item.scenario:
        return (
            f"field `scenario`: a {item.domain} item reads the scene graph; name the sim "
            "scenario whose belief it uses (e.g. robee_bottle)"
        )
    return None


@dataclass(frozen=True)
class EvalData:
    """The six evaluation sets of one directory."""

    scope: list[ScopeItem]
    intent: list[IntentItem]
    readiness: list[ReadinessItem]
    query: list[QueryItem]
    grounding: list[GroundingItem]
    sufficiency: list[SufficiencyItem]

    @classmethod
    def load(cls, directory: str | Path = DEFAULT_DATA) -> EvalData:
        """Load ``scope``, ``intent``, ``readiness``, ``query``, ``grounding``, ``sufficiency``."""
        folder = Path(directory)
        if not folder.is_dir():
            raise DatasetError(
                f"{folder} is not a directory; pass --data DIR holding the evaluation files"
            )
        return cls(
            scope=load_items(folder / "scope.jsonl", ScopeItem),
            intent=load_items(folder / "intent.jsonl", IntentItem, check=_scenario_named),
            readiness=load_items(folder / "readiness.jsonl", ReadinessItem, check=_scenario_named),
            query=load_items(folder / "query.jsonl", QueryItem, check=_scenario_named),
            grounding=load_items(folder / "grounding.jsonl", GroundingItem, check=_scenario_named),
            sufficiency=load_items(folder / "sufficiency.jsonl", SufficiencyItem),
        )

    def count(self, module: Module) -> int:
        """How many items ``module``'s set holds."""
        return len(getattr(self, module))
