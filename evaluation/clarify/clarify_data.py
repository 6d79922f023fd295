"""Ask-or-act evaluation items: one request in one scene, and what a good robot does with it.

The schema (documented for users in ``docs/evaluation.md``) is one JSON object per line:

- ``id`` (text) and ``task`` (what the user says) are required;
- ``scene_objects``: the names of the objects in the scene, as a person says them; the
  evaluation builds a kitchen holding them (see :mod:`evaluation.clarify.clarify_world`);
- ``scene``: instead of ``scene_objects``, a scenario whose world the request runs in: a shipped
  scenario's id, or a path (relative to the items file);
- ``should_ask``: whether a good robot asks (or refuses) before acting;
- ``expect``: the outcome expected, one of ``act`` (act on ``intent_object``), ``ask`` (ask a
  question), ``missing_skill`` (say which skill the robot lacks) or ``decline``; when absent
  it follows from ``should_ask``;
- ``ask_about``: words of which the right question names at least one (``["which", "cola"]``);
- ``intent_object``: the object(s) meant, comma-separated names of ``scene_objects`` or ids of
  the scenario's objects; ``intent_location``: where it should go;
- ``category`` or ``ambiguity_type``: the group a result row is reported under;
- ``source``: which set the item comes from (``knowno-...`` items get the tabletop layout).

Any other field is kept and ignored (``question``, ``answer``, ``clear_twin``, ...).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from typing_extensions import Self

Expectation = Literal["act", "ask", "missing_skill", "decline"]
"""What a good robot does with a request."""

Layout = Literal["tabletop", "kitchen"]
"""The kitchen built around an item's ``scene_objects``."""


class ClarifyDataError(ValueError):
    """An item file that cannot be used: names the file, the line and what is wrong."""


class ClarifyItem(BaseModel):
    """One evaluation item (see the module docs for every field)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(min_length=1)
    task: str = Field(min_length=1)
    source: str = ""
    scene_objects: tuple[str, ...] = ()
    scene: str | None = None
    layout: Layout | None = None
    should_ask: bool | None = None
    expect: Expectation | None = None
    intent_object: str | None = None
    intent_location: str | None = None
    ask_about: tuple[str, ...] = ()
    category: str | None = None
    ambiguity_type: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _text_id(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("id"), int):
            return {**data, "id": str(data["id"])}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if not self.scene_objects and self.scene is None:
            raise ValueError("give `scene_objects` (a list of object names) or `scene`")
        if self.should_ask is None and self.expect is None:
            raise ValueError("give `should_ask` (true/false) or `expect`")
        return self

    @property
    def expected(self) -> Expectation:
        """The expected outcome: ``expect``, else ask when ``should_ask``, else act."""
        if self.expect is not None:
            return self.expect
        return "ask" if self.should_ask else "act"

    @property
    def asks(self) -> bool:
        """Whether a good robot asks (or refuses) first: the positive class of the ask decision."""
        if self.should_ask is not None:
            return self.should_ask
        return self.expected in ("ask", "decline")

    @property
    def group(self) -> str:
        """The row the item is reported under: its category, ambiguity type or expectation."""
        return self.category or self.ambiguity_type or self.expected

    @property
    def intended(self) -> tuple[str, ...]:
        """The names (or ids) of the objects meant, from ``intent_object``."""
        if not self.intent_object:
            return ()
        return tuple(part.strip() for part in self.intent_object.split(",") if part.strip())

    @property
    def item_layout(self) -> Layout:
        """The layout built for ``scene_objects``: tabletop for KnowNo-style items."""
        if self.layout is not None:
            return self.layout
        return "tabletop" if self.source.lower().startswith("knowno") else "kitchen"


def load_items(path: Path) -> list[ClarifyItem]:
    """Every item of the JSONL file ``path``, in order; blank lines are skipped.

    Raises :class:`ClarifyDataError` naming the file, the line and the problem (every bad
    line, not only the first).
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ClarifyDataError(f"{path}: cannot read it ({error.strerror})") from error
    except UnicodeDecodeError as error:
        raise ClarifyDataError(f"{path}: not UTF-8 text") from error
    items: list[ClarifyItem] = []
    problems: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            items.append(ClarifyItem.model_validate(json.loads(line)))
        except json.JSONDecodeError as error:
            problems.append(f"line {number}: not JSON ({error.msg})")
        except ValidationError as error:
            detail = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'item'}: "
                + e["msg"].removeprefix("Value error, ")
                for e in error.errors()
            )
            problems.append(f"line {number}: {detail}")
    if problems:
        shown = "\n".join(f"  - {problem}" for problem in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise ClarifyDataError(
            f"{path}: {len(problems)} bad line(s); see docs/evaluation.md for the schema\n"
            f"{shown}{more}"
        )
    if not items:
        raise ClarifyDataError(f"{path}: no items (one JSON object per line)")
    items = [_scene_beside(item, path.parent) for item in items]
    counts = Counter(item.id for item in items)
    twice = sorted(ident for ident, count in counts.items() if count > 1)
    if twice:
        raise ClarifyDataError(f"{path}: ids used twice: {', '.join(twice[:10])}; make them unique")
    return items


def _scene_beside(item: ClarifyItem, folder: Path) -> ClarifyItem:
    """The item with its ``scene`` path resolved against the items file's folder."""
    if item.scene is None or not (folder / item.scene).is_file():
        return item
    return item.model_copy(update={"scene": str(folder / item.scene)})
