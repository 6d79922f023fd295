"""The base kitchen of the hazard cases (tests/data/hazard_cases.yaml), built as a Belief."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, get_args

import yaml

from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.skills.action_model.belief import Belief, RobotProfile, Thing
from cogtree.skills.action_model.people import Person
from cogtree.skills.planning.plan_model import ToAPlan
from cogtree.skills.planning.plan_validation import PlanWorld, oracle_plan

CASES_FILE = Path(__file__).parents[1] / "data" / "hazard_cases.yaml"

BASE_THINGS: tuple[Thing, ...] = (
    Thing("counter", "surface", "kitchen"),
    Thing("table", "surface", "kitchen"),
    Thing("dining_table", "surface", "living_room"),
    Thing(
        "microwave",
        "container",
        "kitchen",
        type="Microwave",
        is_open=True,
        powered=False,
        flags=frozenset({"appliance", "electrical"}),
    ),
    Thing(
        "stove",
        "surface",
        "kitchen",
        type="Stove",
        powered=False,
        flags=frozenset({"appliance", "electrical", "heat_source"}),
    ),
    Thing(
        "toaster",
        "object",
        "kitchen",
        "on",
        "counter",
        powered=False,
        flags=frozenset({"appliance", "electrical"}),
    ),
    Thing(
        "kettle",
        "object",
        "kitchen",
        "on",
        "counter",
        powered=False,
        capacity_ml=1700,
        flags=frozenset({"appliance", "electrical"}),
    ),
    Thing("sink_tap", "object", "kitchen", "on", "counter", flags=frozenset({"water_source"})),
    Thing(
        "recycling_bin",
        "container",
        "kitchen",
        is_open=True,
        flags=frozenset({"bin"}),
        bin_kind="recycling",
    ),
    Thing(
        "landfill_bin",
        "container",
        "kitchen",
        is_open=True,
        flags=frozenset({"bin"}),
        bin_kind="landfill",
    ),
    Thing(
        "compost_bin",
        "container",
        "kitchen",
        is_open=True,
        flags=frozenset({"bin"}),
        bin_kind="compost",
    ),
)

PEOPLE = (
    Person("user", "living_room", "available", frozenset()),
    Person("grandma", "kitchen", "available", frozenset()),
)


@dataclass(frozen=True)
class HazardCase:
    """One case: its id, what must happen, the rule that must name it, the request and plan."""

    id: str
    expect: str
    rule: str | None
    said: list[str]
    belief: Belief
    plan: ToAPlan
    speaker: str | None = None
    """Who said it (what they said of themselves is theirs)."""
    offered: bool = False
    """The plan brings things nobody asked for (a missing first step's things)."""

    @property
    def heard(self) -> dict[str, Any]:
        """What the dry run is told of the request: ``said``, ``speaker``, ``offered``."""
        return {"said": self.said, "speaker": self.speaker, "offered": self.offered}

    @property
    def world(self) -> PlanWorld:
        """The one-robot team the plan is checked on."""
        return PlanWorld(beliefs={"robot1": self.belief}, people=self.belief.people)


def _thing(spec: Mapping[str, Any], things: Mapping[str, Thing]) -> tuple[Thing, str | None]:
    fields = dict(spec)
    hand = fields.pop("held", None)
    support = fields.pop("at", None if hand else "counter")
    beside = tuple(tuple(pair) for pair in fields.pop("beside", []))
    flags = frozenset(fields.pop("flags", []))
    kind = fields.pop("kind", "object")
    room = fields.pop("room", things[support].room if support in things else "kitchen")
    relation = fields.pop("relation", None)  # on top of a container, when said
    if hand:
        relation, support = "heldBy", "robot1"
    elif support is not None and relation is None:
        relation = "in" if things[support].kind == "container" else "on"
    thing = Thing(
        id=fields.pop("id"),
        kind=kind,
        room=room,
        relation=relation,
        support=support,
        flags=flags,
        beside=beside,
        **fields,  # type: ignore[arg-type]
    )
    return thing, hand


def _person(spec: Mapping[str, Any]) -> Person:
    fields = dict(spec)
    return Person(
        id=fields.pop("id"),
        room=fields.pop("room", "kitchen"),
        availability="available",
        vulnerabilities=frozenset(fields.pop("vulnerabilities", [])),
        **fields,
    )


def build_belief(case: Mapping[str, Any]) -> Belief:
    """The base kitchen with the case's things, its overrides (`set`) and what is held."""
    things = {thing.id: thing for thing in BASE_THINGS}
    held: dict[str, Any] = {}
    for name, changes in (case.get("set") or {}).items():
        changes = dict(changes)
        hand = changes.pop("held", None)
        if hand:
            held[name] = hand
            changes |= {"relation": "heldBy", "support": "robot1"}
        if "flags" in changes:
            changes["flags"] = frozenset(changes["flags"])
        things[name] = replace(things[name], **changes)
    for spec in case.get("things") or []:
        thing, hand = _thing(spec, things)
        things[thing.id] = thing
        if hand:
            held[thing.id] = hand
    skills = frozenset(get_args(RobotSkill))
    robot = RobotProfile("robot1", ("right", "left"), 5.0, None, None, skills)
    return Belief(
        robot=robot,
        robot_room="kitchen",
        held=held,
        things=things,
        people={
            **{person.id: person for person in PEOPLE},
            **{spec["id"]: _person(spec) for spec in case.get("people") or []},
        },
        rooms={"kitchen": ("living_room",), "living_room": ("kitchen",)},
        heights=dict(case.get("heights") or {}),
        homes={},
    )


def load_cases(path: Path = CASES_FILE) -> list[HazardCase]:
    """Every case of the file."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [
        HazardCase(
            id=case["id"],
            expect=case["expect"],
            rule=case.get("rule"),
            said=list(case.get("said") or []),
            belief=build_belief(case),
            plan=oracle_plan(case["plan"]),
            speaker=case.get("speaker"),
            offered=bool(case.get("offered")),
        )
        for case in raw
    ]
