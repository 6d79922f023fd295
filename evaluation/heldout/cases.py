"""The held-out sets' cases as pydantic models, and their loader.

``tests/data/heldout/everyday.yaml`` and ``hazards.yaml`` were written by people who never read
the robot's code (their ``README.md`` gives the schema and the scoring advice). :func:`load_set`
reads one file and checks every case; :class:`HeldoutError` names the file, the case id and the
field of each problem, all at once, so a broken case is found and fixed in the data (never by
fitting the robot to it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from typing_extensions import Self

from cogtree.knowledge.yaml_files import read_yaml

HELDOUT_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "heldout"
"""Where the held-out sets live (a source checkout's ``tests/data/heldout``)."""

SetName = Literal["everyday", "hazards"]
SET_NAMES: tuple[SetName, ...] = ("everyday", "hazards")
"""The held-out sets, in report order."""

Decision = Literal["act", "ask", "refuse", "answer", "delegate_partial"]
"""What the robot is expected to do with the tested utterance."""

Verb = Literal[
    "fetch",
    "place",
    "open",
    "close",
    "switch_on",
    "switch_off",
    "fill",
    "pour",
    "wipe",
    "dispose",
    "say",
    "delegate",
    "throw",
    "drop",
    "cut",
    "climb",
    "leave_house",
]
"""The step verbs of the README; the last five only ever appear in ``must_not``."""

NO_SKILL_VERBS = frozenset({"throw", "drop", "cut", "climb", "leave_house"})
"""Verbs the robot has no skill for: allowed in ``must_not`` only."""

Variant = Literal["hazard", "lookalike_safe", "unknown"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Location(_Model):
    """Where a thing is: ``on``/``in``/``next_to``/``under`` a thing or a room."""

    relation: Literal["on", "in", "next_to", "under"]
    target: str = Field(min_length=1)


class Thing(_Model):
    """A thing of a case's world, in the author's words (``None``: unknown on purpose)."""

    id: str = Field(min_length=1)
    label: str = Field(min_length=1)
    kind: str | None
    material: str | None
    location: Location
    state: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _state(cls, value: Any) -> Any:
        if isinstance(value, dict) and value.get("state") is None:
            return {**value, "state": {}}
        return value


class CasePerson(_Model):
    """A person of the case (``user`` is the speaker)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    age_group: Literal["adult", "child", "toddler", "elderly"]
    vulnerabilities: tuple[str, ...] = ()
    relation_to_user: str | None = None
    can: tuple[str, ...] = ()
    """What the case says this person can be asked to do ("cut", "cook"); see ``world_map``."""


class CaseWorld(_Model):
    """A case's small world: rooms, people, things."""

    rooms: tuple[str, ...] = Field(min_length=1)
    people: tuple[CasePerson, ...] = Field(min_length=1)
    things: tuple[Thing, ...]

    @model_validator(mode="after")
    def _references(self) -> Self:
        ids = [thing.id for thing in self.things]
        people = {person.id for person in self.people}
        if "user" not in people:
            raise ValueError("people: the speaker `user` is missing")
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"things: ids used twice: {', '.join(doubled)}")
        known = set(ids) | set(self.rooms)
        for thing in self.things:
            if thing.location.target not in known:
                raise ValueError(
                    f"things.{thing.id}.location.target: {thing.location.target!r} is neither "
                    "a thing nor a room of the world"
                )
        return self


class Step(_Model):
    """One step of ``steps`` or ``must_not`` (see the README's verb table)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    verb: Verb
    object: str | list[str] | None = None
    to: str | None = None
    relation: str | None = None
    target: str | list[str] | None = None
    into: str | list[str] | None = None
    content: str | None = None
    task: str | None = None
    while_: str | None = Field(None, alias="while")

    def objects(self) -> tuple[str, ...]:
        """The ids ``object`` names (any one satisfies the step)."""
        return _ids(self.object)

    def targets(self) -> tuple[str, ...]:
        """The ids ``target`` (or ``into``) names (any one satisfies the step)."""
        return _ids(self.target) or _ids(self.into)

    def describe(self) -> str:
        """``place(towel_1 on hob_1)``: the step in one short line."""
        parts = [" / ".join(self.objects()) or (self.content or self.task or "")]
        if self.relation or self.targets():
            parts.append(f"{self.relation or 'into'} {' / '.join(self.targets())}")
        if self.to:
            parts.append(f"to {self.to}")
        if self.while_:
            parts.append(f"while {self.while_}")
        return f"{self.verb}({' '.join(p for p in parts if p)})"


def _ids(value: str | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


class Expected(_Model):
    """What must happen (``decision``, ``steps``), be said, and must not happen."""

    decision: Decision
    steps: tuple[Step, ...] = ()
    answer_must_mention: tuple[str | int, ...] = ()
    ask_about: str | None = None
    must_not: tuple[Step, ...] = ()

    @model_validator(mode="after")
    def _verbs(self) -> Self:
        wrong = sorted({step.verb for step in self.steps} & NO_SKILL_VERBS)
        if wrong:
            raise ValueError(f"steps: {', '.join(wrong)} may only appear in must_not")
        return self


class Case(_Model):
    """One held-out case: a world, a dialogue, the tested utterance and what is expected."""

    id: str = Field(pattern=r"^(ev|hz)-\d{3}$")
    category: str = Field(min_length=1)
    world: CaseWorld
    dialogue: tuple[dict[Literal["user", "robot"], str], ...] = ()
    utterance: str = Field(min_length=1)
    expected: Expected
    why: str = ""
    variant: Variant | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        for position, turn in enumerate(self.dialogue):
            if len(turn) != 1:
                raise ValueError(f"dialogue[{position}]: one of `user` or `robot` per turn")
        if self.id.startswith("hz") and self.variant is None:
            raise ValueError("variant: a hazard case needs one (hazard, lookalike_safe, unknown)")
        ids = {thing.id for thing in self.world.things} | {p.id for p in self.world.people}
        for name, steps in (("steps", self.expected.steps), ("must_not", self.expected.must_not)):
            for position, step in enumerate(steps):
                unknown = [i for i in step.objects() if i not in ids]
                if unknown:
                    raise ValueError(
                        f"expected.{name}[{position}].object: {', '.join(unknown)} is not a "
                        "thing of the world"
                    )
        return self

    @property
    def set_name(self) -> SetName:
        """``everyday`` or ``hazards``, from the id."""
        return "everyday" if self.id.startswith("ev") else "hazards"

    def user_turns(self) -> list[str]:
        """The dialogue's user turns, oldest first (the robot's lines cannot be replayed)."""
        return [turn["user"] for turn in self.dialogue if "user" in turn]


class HeldoutError(ValueError):
    """A held-out file that cannot be used: each problem with its case id and field."""


def load_set(name_or_path: SetName | Path) -> list[Case]:
    """Every case of a held-out set (``everyday``, ``hazards``, or a file of that schema).

    Raises :class:`HeldoutError` listing every problem as ``file: case ID: field: what``.
    """
    path = HELDOUT_DIR / f"{name_or_path}.yaml" if isinstance(name_or_path, str) else name_or_path
    data = read_yaml(path, HeldoutError)
    if not isinstance(data, list):
        raise HeldoutError(f"{path}: expected a list of cases")
    cases: list[Case] = []
    problems: list[str] = []
    seen: set[str] = set()
    for position, raw in enumerate(data):
        ident = raw.get("id", f"#{position}") if isinstance(raw, dict) else f"#{position}"
        try:
            case = Case.model_validate(raw)
        except ValidationError as error:
            problems += [
                f"case {ident}: {_where(detail['loc'])}: {detail['msg']}"
                for detail in error.errors()
            ]
            continue
        if case.id in seen:
            problems.append(f"case {case.id}: id: used twice")
        seen.add(case.id)
        cases.append(case)
    if problems:
        raise HeldoutError(f"{path}: {len(problems)} problem(s)\n  " + "\n  ".join(problems))
    return cases


def _where(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "<case>"
