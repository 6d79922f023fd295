"""The story of each turn, told from the tick log: what decided, what was planned, what was said.

:class:`StoryBuilder` reads the ticks in order (with the tree's shape at each) and keeps a
list of :class:`StoryEntry`, the page's side panel:

* ``turn``: a turn began (the first tick, or the first after the root ended); the words
  the user said, read from ``/turn/utterance``.
* ``decision``: an LLM-backed node wrote its rationale (``/rationale/<node>``): the
  decision, where it came from (fast path, model or safe default), whether the guard vetoed
  it, and why.
* ``plan``: a plan was written to ``/plan/current``; its steps with their assignees (the
  plan's, else the validation's assignment in ``/plan/validation``), and each step's
  status as its ``step N`` node last showed it (updated as later ticks come).
* ``call``: a model call finished (module, tokens, latency, outcome).
* ``skill_failed``: a skill ended otherwise than succeeded (``/skill/outcome``).
* ``said``: the robot spoke (``/turn/reply``).

Each entry names the tick and the node (id and name) to show when it is clicked. Ticks of
:data:`MARK_KINDS` are marked on the page's timeline.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.knowledge.wording import clip
from cogtree.trees.recording.snapshot import RATIONALE_PREFIX, call_summary, decision_summary
from cogtree.trees.recording.tick_log import NodeShape, TickEntry

EntryKind = Literal["turn", "decision", "plan", "call", "skill_failed", "said"]

MARK_KINDS: tuple[EntryKind, ...] = ("decision", "plan", "skill_failed", "said")
"""The entries whose ticks the timeline marks (and the arrow keys jump between)."""

TERMINAL = frozenset({"SUCCESS", "FAILURE"})
"""Root statuses that end a turn: the next tick begins the next one."""

TEXT_CHARS = 600
"""Longest rationale, message or utterance an entry carries."""

SKILL_SUCCEEDED = "succeeded"


class PlanStepView(BaseModel):
    """One step of a plan as the story shows it; ``status`` "" until its node has run."""

    id: int
    action: str
    assignee: str = ""
    status: str = ""


class StoryEntry(BaseModel):
    """One line of a turn's story; ``node`` is the id to select ("" when none is known)."""

    kind: EntryKind
    tick: int
    turn: int
    node: str = ""
    node_name: str = ""
    headline: str
    text: str = ""
    source: str = ""
    vetoed: bool = False
    steps: list[PlanStepView] = []


class StoryBuilder:
    """Turns ticks into story entries, oldest first; one builder per run."""

    def __init__(self) -> None:
        self.entries: list[StoryEntry] = []
        self.turn = 0
        self._turn_entry: StoryEntry | None = None
        self._heard = False  # the turn entry has the user's words
        self._ended = True  # the next tick begins a turn
        self._plan: StoryEntry | None = None
        self._modules: dict[str, str] = {}  # model module -> the node that reported it

    def add(self, structure: Sequence[NodeShape], entry: TickEntry) -> list[StoryEntry]:
        """Read one tick (``structure``: the tree's shape after it); its new entries."""
        ids = _NodeIds(structure, entry)
        added: list[StoryEntry] = []
        if self._ended:
            self.turn += 1
            self._plan = None
            self._heard = False
            self._turn_entry = StoryEntry(
                kind="turn", tick=entry.tick, turn=self.turn, headline=f"turn {self.turn}"
            )
            added.append(self._turn_entry)
        self._hear(entry)
        for write in entry.writes:
            added.extend(self._written(write.key, write.client, write.value, entry.tick, ids))
        added.extend(self._calls(entry, ids))
        self._step_statuses(entry, ids)
        self._ended = entry.root_status in TERMINAL
        if self._ended and self._turn_entry is not None:
            self._turn_entry.text = _joined(self._turn_entry.text, f"ended {entry.root_status}")
        self.entries.extend(added)
        return added

    def forget_before(self, tick: int) -> None:
        """Drop the entries of ticks before ``tick`` (a live feed let those ticks go)."""
        self.entries = [entry for entry in self.entries if entry.tick >= tick]

    # -- reading one tick ------------------------------------------------------------------

    def _hear(self, entry: TickEntry) -> None:
        """Give the turn entry the words the user said, from the first read of them."""
        turn = self._turn_entry
        if turn is None or self._heard:
            return
        for read in entry.reads:
            if read.key == keys.UTTERANCE.name and isinstance(read.value, str) and read.value:
                turn.headline = f"turn {self.turn}: “{clip(read.value, 120)}”"
                self._heard = True
                return

    def _written(
        self, key: str, client: str, value: Any, tick: int, ids: _NodeIds
    ) -> list[StoryEntry]:
        base = {"tick": tick, "turn": self.turn, "node": ids.of(client), "node_name": client}
        if key.startswith(RATIONALE_PREFIX) and isinstance(value, Mapping):
            return [self._decision(value, base, ids)]
        if key == keys.PLAN.name and isinstance(value, Mapping):
            self._plan = StoryEntry(
                kind="plan",
                headline=f"plan ({value.get('source', '?')}): {len(_steps(value))} steps",
                text=clip(str(value.get("rationale", "")), TEXT_CHARS),
                steps=list(_steps(value)),
                **base,
            )
            return [self._plan]
        if key == keys.VALIDATION.name and isinstance(value, Mapping) and self._plan is not None:
            assigned = value.get("assignments")
            for step in self._plan.steps:
                if isinstance(assigned, Mapping) and not step.assignee:
                    step.assignee = str(assigned.get(str(step.id)) or "")
            return []
        if key == keys.SKILL_OUTCOME.name and isinstance(value, Mapping):
            status = str(value.get("status", ""))
            if status and status != SKILL_SUCCEEDED:
                code = value.get("code")
                return [
                    StoryEntry(
                        kind="skill_failed",
                        headline=f"{client} {status}" + (f" ({code})" if code else ""),
                        text=clip(str(value.get("message", "")), TEXT_CHARS),
                        **base,
                    )
                ]
        if key == keys.REPLY.name and isinstance(value, str) and value:
            return [StoryEntry(kind="said", headline="robot said", text=value, **base)]
        return []

    def _decision(
        self, value: Mapping[str, Any], base: dict[str, Any], ids: _NodeIds
    ) -> StoryEntry:
        node = str(value.get("node") or base["node_name"])
        module = str(value.get("module", ""))
        if module:
            self._modules[module] = node
        decision = value.get("decision")
        summary = decision_summary(_counted(decision) if isinstance(decision, Mapping) else {}, 60)
        return StoryEntry(
            kind="decision",
            headline=f"{node}: {clip(summary, 160) or 'decided'}",
            text=clip(str(value.get("rationale", "")), TEXT_CHARS),
            source=str(value.get("source", "")),
            vetoed=bool(value.get("vetoed", False)),
            **{**base, "node": ids.of(node), "node_name": node},
        )

    def _calls(self, entry: TickEntry, ids: _NodeIds) -> Iterable[StoryEntry]:
        for call in entry.llm_calls:
            node = self._modules.get(call.module, "")
            yield StoryEntry(
                kind="call",
                tick=entry.tick,
                turn=self.turn,
                node=ids.of(node) if node else "",
                node_name=node,
                headline=f"model call: {call.module}",
                text=call_summary(call),
            )

    def _step_statuses(self, entry: TickEntry, ids: _NodeIds) -> None:
        """The current plan's steps take the statuses their ``step N`` nodes show now."""
        if self._plan is None:
            return
        for step in self._plan.steps:
            status = ids.status(f"step {step.id}")
            if status and status != "INVALID":
                step.status = status


class _NodeIds:
    """Node ids by name in one tick's tree (a visited node first: names may repeat)."""

    def __init__(self, structure: Sequence[NodeShape], entry: TickEntry) -> None:
        visited = {state.id for state in entry.nodes if state.visited}
        self._statuses = {state.id: state.status for state in entry.nodes}
        self._ids: dict[str, str] = {}
        for shape in sorted(structure, key=lambda shape: shape.id not in visited):
            self._ids.setdefault(shape.name, shape.id)

    def of(self, name: str) -> str:
        """The id of the node called ``name`` ("" when the tree has none)."""
        return self._ids.get(name, "")

    def status(self, name: str) -> str:
        """The status of the node called ``name`` in this tick ("" when there is none)."""
        return self._statuses.get(self.of(name), "")


def _steps(plan: Mapping[str, Any]) -> list[PlanStepView]:
    steps = plan.get("steps")
    return [
        PlanStepView(
            id=int(step.get("id", position)),
            action=_action(step),
            assignee=str(step.get("assignee") or ""),
        )
        for position, step in enumerate(steps if isinstance(steps, list) else [], start=1)
        if isinstance(step, Mapping)
    ]


def _counted(decision: Mapping[str, Any]) -> dict[str, Any]:
    """A decision with each list of objects (a plan's steps) shown as its length."""
    return {
        key: f"{len(value)} {key}"
        if isinstance(value, list) and value and all(isinstance(item, Mapping) for item in value)
        else value
        for key, value in decision.items()
    }


def _action(step: Mapping[str, Any]) -> str:
    """``PICK(object=mug, hand=right)`` for a step (arguments that are not set left out)."""
    args = step.get("args")
    shown = ", ".join(
        f"{name}={value if isinstance(value, str) else json.dumps(value)}"
        for name, value in (args.items() if isinstance(args, Mapping) else [])
        if value is not None
    )
    return f"{step.get('action', '?')}({shown})"


def _joined(first: str, second: str) -> str:
    return f"{first}; {second}" if first else second
