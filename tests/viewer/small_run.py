"""A small hand-made run for the viewer tests: Root (a sequence) over a gate and a leaf."""

from __future__ import annotations

from typing import Any

from cogtree.knowledge.llm.types import CallRecord
from cogtree.knowledge.understanding.turn_state import GateRationale
from cogtree.trees.recording.tick_log import (
    BlackboardRead,
    BlackboardWrite,
    LogHeader,
    NodeShape,
    NodeState,
    TickEntry,
)

TIRAMISU = "How many carbohydrates are in tiramisu?"
DOUBTFUL = "maybe put the magazine on the bookshelf, I guess"
REFUSAL = "the user is unsure"
GATE_NAME = "Gate <b>"

ROOT = NodeShape(
    id="root",
    name="Root",
    behaviour="py_trees.composites.Sequence",
    kind="sequence",
    memory=True,
    children=["gate", "say"],
)
GATE = NodeShape(id="gate", name=GATE_NAME, behaviour="behaviours.x.Gate", kind="leaf")
SAY = NodeShape(
    id="say", name="Say", behaviour="cogtree.behaviours.actions.dialogue.dialogue.Say", kind="leaf"
)


def small_header(started_at: float = 1.0) -> LogHeader:
    """A three-node run: Root (sequence) over a gate and a leaf; the utterance preset."""
    return LogHeader(
        tree="small",
        started_at=started_at,
        blackboard={"/turn/utterance": "hello"},
        structure=[ROOT, GATE, SAY],
    )


def call_record(**changes: Any) -> CallRecord:
    """A model call of the gate's module."""
    fields: dict[str, Any] = {
        "module": "inner_speech",
        "backend": "scripted",
        "model": "m1",
        "prompt_tokens": 120,
        "completion_tokens": 30,
        "tokens_estimated": False,
        "latency_s": 0.25,
    }
    return CallRecord(**{**fields, **changes})


def gate_rationale(
    text: str = "the user is <i>unsure</i>", calls: list[CallRecord] | None = None
) -> dict[str, Any]:
    """The gate's rationale as the runner logs it (a real GateRationale, dumped)."""
    return GateRationale(
        node=GATE_NAME,
        module="inner_speech",
        source="model",
        vetoed=True,
        decision={"control": "Reject", "missing": [], "rationale": text},
        rationale=text,
        notes=["guard: a slot is missing"],
        calls=calls if calls is not None else [call_record()],
    ).model_dump(mode="json")


def small_tick(
    number: int,
    gate: str,
    say: str = "INVALID",
    *,
    writes: list[BlackboardWrite] | None = None,
    reads: list[BlackboardRead] | None = None,
    calls: list[CallRecord] | None = None,
    feedback: str = "",
) -> TickEntry:
    """A tick of the small run with the gate's and the leaf's statuses."""
    root = "RUNNING" if "RUNNING" in (gate, say) else gate
    return TickEntry(
        tick=number,
        wall_time=100.0 + number,
        duration_ms=0.5,
        root_status=root,
        nodes=[
            NodeState(id="root", status=root, visited=True),
            NodeState(id="gate", status=gate, feedback=feedback, visited=True),
            NodeState(id="say", status=say, visited=say != "INVALID"),
        ],
        writes=writes or [],
        reads=reads or [],
        llm_calls=calls or [],
    )
