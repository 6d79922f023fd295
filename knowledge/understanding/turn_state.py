"""What one assistant turn learns as it runs down the tree: scope, intent, referents, evidence.

These are the values of the ``/turn/*`` and ``/session/*`` blackboard keys of the assistant
tree (see :mod:`behaviours.keys`). Every model is plain JSON, so the tick log and the viewer
show them as they are.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

from cogtree.knowledge.llm.types import CallRecord
from cogtree.knowledge.packs.slot_values import SlotValue
from cogtree.knowledge.understanding.scope_matching import OUT_OF_SCOPE
from cogtree.knowledge.wording import BoundedText

__all__ = [
    "OUT_OF_SCOPE",
    "SPEAKER_SLOT",
    "EvidenceBundle",
    "EvidenceItem",
    "GeneratedQuery",
    "HeldAnswer",
    "IntentFrame",
    "IntentStep",
    "PendingTask",
    "ScopeDecision",
    "SequencedTask",
    "SlotResolution",
    "SlotValue",
    "TaskSequence",
    "plain",
]


NOT_PARSED = (
    "the request was not parsed this turn: put a ParseRequest after AwaitUtterance, before "
    "this gate (its checks read the parse)"
)
"""Why a gate refuses a turn no ``ParseRequest`` parsed: it cannot check what it cannot read."""

MISSING_TASK = "task"
"""The ``/turn/missing`` entry when the request names no task of the domain."""

SPEAKER_SLOT = "speaker"
"""What ``/turn/missing`` and a pending question name when the robot must ask who is speaking.
It is not a slot of any task: the answer sets ``/turn/speaker``."""


class ScopeDecision(BoundedText):
    """Which domain pack an utterance belongs to (or ``OutOfScope``), and how sure that is."""

    domain: str = Field(description="a domain pack name, or OutOfScope")
    confidence: float = Field(ge=0.0, le=1.0, description="0: a guess, 1: certain")
    rationale: str = Field("", max_length=300, description="one sentence: why this domain")


class SlotResolution(BaseModel):
    """What one slot value refers to: 0, 1 or several knowledge ids, each with a reason.

    ``kind`` says where the ids live: ``scene`` (the scene graph), ``kg`` (the pack's knowledge
    graph), ``value`` (a closed set of the pack, e.g. a nutrient) or ``text`` (kept as said).
    """

    model_config = ConfigDict(frozen=True)

    slot: str
    said: str | list[str] = Field(description="the value as the user said it")
    kind: Literal["scene", "kg", "value", "text"]
    ids: list[str] = Field(default_factory=list, description="what it may refer to")
    reasons: list[str] = Field(default_factory=list, description="one reason per id")
    guessed: bool = Field(
        False, description="the ids are only guesses (a label's words): asked about, never acted on"
    )

    @property
    def ambiguous(self) -> bool:
        """Several things match, or only guesses do: the robot must ask which one."""
        return len(self.ids) > 1 or (self.guessed and bool(self.ids))

    @property
    def guess(self) -> str | None:
        """The one thing only guessed at, which a question proposes ("Do you mean ...?")."""
        return self.ids[0] if self.guessed and len(self.ids) == 1 else None

    @property
    def unresolved(self) -> bool:
        """Nothing matches (only meaningful for ``scene`` and ``kg`` slots)."""
        return self.kind in ("scene", "kg") and not self.ids


class IntentStep(BaseModel):
    """One task of a request of several steps: its pack task, slots as said, and resolutions.

    ``said`` is the clause of the request it comes from ("switch it on"); ``resolved`` is
    filled by PostProcess like ``/turn/resolved`` is for a one-task request.
    """

    model_config = ConfigDict(frozen=True)

    task: str
    slots: dict[str, SlotValue] = Field(default_factory=dict)
    said: str = ""
    resolved: dict[str, SlotResolution] = Field(default_factory=dict)


class IntentFrame(BaseModel):
    """The task the user asked for in the active domain, with the slots they filled so far.

    ``slots`` holds values as the user said them (normalised: "carbs" stays "carbs"; units
    converted); :class:`SlotResolution` maps them to knowledge ids. ``task`` is None when no
    task of the domain matches. ``said`` lists the utterances the slots come from (this turn,
    and a pending turn it completes), so guards can check a value was really said.
    """

    model_config = ConfigDict(frozen=True)

    domain: str
    task: str | None
    slots: dict[str, SlotValue] = Field(default_factory=dict)
    confidence: float = Field(0.0, ge=0.0, le=1.0)
    said: list[str] = Field(default_factory=list)
    steps: list[IntentStep] = Field(
        default_factory=list,
        description="a request several tasks cover, one step per task in the order said "
        "(empty for a request of one task); task and slots are those of steps[focus]",
    )
    focus: int = Field(
        0, ge=0, description="the step task and slots show: the first that needs the user"
    )
    answers: bool = Field(
        False,
        description="the utterance answers the pending question (its words are merged in "
        "said), even when the answer became another task: where the thing asked about is, noted",
    )
    left: list[str] = Field(
        default_factory=list,
        description="clauses of the request no task holds and every clause after the first, "
        "as said: the robot does the steps before them and says it left these",
    )
    left_why: str = Field("", description="why the first left clause is no task, for the user")

    @property
    def sequence(self) -> bool:
        """Whether the request is a sequence of several tasks."""
        return len(self.steps) > 1

    def step_named(self) -> str:
        """The focus step as the user said it, for a question ("switch it on"); "" if none."""
        return self.steps[self.focus].said if self.sequence else ""


class EvidenceItem(BaseModel):
    """One piece of evidence for the reply: a query's rows, a plan outcome, a memory fact."""

    model_config = ConfigDict(frozen=True)

    source: str = Field(description="query template name, 'model-query', 'plan' or 'memory'")
    query: str = Field("", description="the SPARQL text that produced the rows, if any")
    rows: list[dict[str, str | None]] = Field(default_factory=list)
    text: str = Field("", description="a sentence for evidence that is not rows")
    ok: bool | None = Field(
        None, description="for actions (source 'plan'): whether it was done; None otherwise"
    )
    withheld: list[str] = Field(
        default_factory=list,
        description="ids and labels of what the person must not be offered (the pack's "
        "constraints query): rows naming them were dropped, and no reply may name them",
    )
    unclaimed: list[str] = Field(
        default_factory=list,
        description="for actions: ids a plan named that the robot may not say it got done "
        "(the fact does not hold, or someone it did not ask made it hold)",
    )
    nothing_needed: bool = Field(
        False,
        description="for actions: what the task asks for already held, so no step ran and "
        "no reply may say the robot did it",
    )


class EvidenceBundle(BaseModel):
    """Everything the robot may claim this turn besides the working context (JANUS)."""

    model_config = ConfigDict(frozen=True)

    items: list[EvidenceItem] = Field(default_factory=list)

    def values(self) -> list[str]:
        """Every cell and sentence of the bundle, as text."""
        found: list[str] = []
        for item in self.items:
            found.extend(cell for row in item.rows for cell in row.values() if cell is not None)
            if item.text:
                found.append(item.text)
        return found

    @property
    def empty(self) -> bool:
        """No item holds a row or a sentence."""
        return not self.values()


class HeldAnswer(BaseModel):
    """A knowledge task's answer kept after its turn, so a later turn may reuse it (JANUS's ρ).

    ``key`` is what the answer depends on: the values of the task's evidence slots and of the
    template's memory-bound and speaker parameters when it ran (sorted ids; empty: unbound).
    """

    model_config = ConfigDict(frozen=True)

    domain: str
    task: str
    key: dict[str, list[str]] = Field(description="slot or parameter -> the ids it bound")
    item: EvidenceItem = Field(description="the evidence the query gave (its rows)")
    at: float = Field(description="when the query ran, in seconds on the session's clock")
    utterance: str = Field("", description="what the user asked, for the rationale")


class GeneratedQuery(BaseModel):
    """The SPARQL query GenerateQuery wrote for the task, and where it came from."""

    model_config = ConfigDict(frozen=True)

    text: str
    source: Literal["template", "model"]
    template: str | None = Field(None, description="the pack's query template, if any")
    target: Literal["domain_kg", "scene_graph"] = "domain_kg"
    constraints: str | None = Field(
        None,
        description="the pack's constraints query, bound for this turn: what the person must "
        "not be offered; RunQuery drops every row that names one of its rows",
    )


class SequencedTask(BaseModel):
    """One task of a :class:`TaskSequence`: the pack task's name, the clause, the instance."""

    model_config = ConfigDict(frozen=True)

    task: str
    said: str = ""
    values: SerializeAsAny[BaseModel]


class TaskSequence(BaseModel):
    """``/turn/task`` for a request of several tasks: each task's schema instance, in order.

    The readiness gate writes it on Proceed once every step is complete; the planner plans
    the tasks as one sequence (one todo list), so the dry run sees all of it.
    """

    model_config = ConfigDict(frozen=True)

    steps: list[SequencedTask]


class PendingTask(BaseModel):
    """A task the robot asked about and is waiting to complete in a later turn."""

    model_config = ConfigDict(frozen=True)

    domain: str
    task: str
    slots: dict[str, SlotValue] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    said: list[str] = Field(default_factory=list)
    question: str = ""
    confirm: list[str] = Field(
        default_factory=list,
        description="the safety doubts the question asks the user to confirm with an explicit "
        "yes in the next turn (empty: the question confirms nothing)",
    )
    steps: list[IntentStep] = Field(
        default_factory=list,
        description="the request's steps when it is a sequence of tasks; the question is "
        "about steps[focus], and the answer completes it",
    )
    focus: int = Field(0, ge=0, description="the step the question is about")
    asked_again: bool = Field(
        False,
        description="the user moved on once and the question was asked again after the reply "
        "(knowledge/understanding/pending_question.py): moving on again drops it",
    )
    unseen: str = Field(
        "",
        description="the thing the question asks where it is, as the user said it, when the "
        "robot has never seen it: a place answer tells where it is "
        "(knowledge/understanding/answer_kinds.py)",
    )
    options: dict[str, list[str]] = Field(
        default_factory=dict,
        description="slot -> the labels of the things the question offers for it to choose "
        "from; an answer naming one of them by a word of its label, or by a word for the same "
        "type, picks it (knowledge/understanding/answer_kinds.py)",
    )
    proposed: dict[str, str] = Field(
        default_factory=dict,
        description='slot -> the value the question proposes for it ("Where should I put it: '
        'in the fridge?" proposes the fridge): a yes answers the slot with it',
    )
    guessed: list[str] = Field(
        default_factory=list,
        description="the slots whose options are only guesses: an answer that leaves the choice "
        'to the robot ("either") picks none of them',
    )
    offered: bool = Field(
        False,
        description="the question offers the task as the robot said it, its slots filled "
        '("I can bring it to you, if you like." after saying where a thing is: '
        "knowledge/understanding/pending_question.py): a yes runs it, anything else drops it",
    )
    ways: dict[str, str] = Field(
        default_factory=dict,
        description="the particles the question asks between, each with the request it makes "
        '("Should I switch the kettle on or off?": on -> "switch on the kettle"): a bare one '
        "answers with its request (knowledge/understanding/answer_kinds.py)",
    )

    @property
    def asks_to_confirm(self) -> bool:
        """Whether the question asks for a yes to the request as it stands, or to an offer.

        Safety doubts to confirm, nothing missing ("Just to be sure: should I go ahead
        with ...?"), or an offer ("The blue biro is there too, if you meant that one
        instead."): a "no" to it drops the request.
        """
        return bool(self.confirm) or not self.missing or self.offered


def plain(value: Any) -> SlotValue:
    """``value`` as a JSON-friendly slot value (tuples become lists, other objects text)."""
    if value is None or isinstance(value, str | bool | float):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list | tuple | set | frozenset):
        return [str(item) for item in value]
    return str(value)


RationaleSource = Literal["fast_path", "model", "safe_default"]


class GateRationale(BaseModel):
    """Why an LLM-backed node decided what it did: its inner speech, made inspectable."""

    node: str
    module: str
    source: RationaleSource = Field(
        description="fast_path: decided without a model; model: the model's answer; "
        "safe_default: the model failed and the node's declared safe decision was taken"
    )
    vetoed: bool = Field(False, description="the deterministic guard overrode the decision")
    decision: dict[str, Any]
    rationale: str
    notes: list[str] = []
    calls: list[CallRecord] = []
