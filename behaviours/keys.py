"""The blackboard contract: every key cogtree behaviours read or write, in one catalogue.

Like Nav2's port catalogue, each entry names the key, its value type, who writes it and what
it means. Behaviours register keys through :func:`register`, which refuses keys that are not
in the catalogue, so the contract cannot drift from the code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import py_trees
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from behaviours.llm.types import CallRecord
from behaviours.turn_state import (
    EvidenceBundle,
    GeneratedQuery,
    IntentFrame,
    PendingTask,
    SlotResolution,
)
from knowledge.memory_model import WorkingContext
from knowledge.scene_models import Candidate, Location, ObjectInfo, Room
from skills.controller import SkillOutcome
from skills.plan_model import PlanAttempt, Reflection, ToAPlan, ValidationReport
from skills.specs import SkillCall

T = TypeVar("T")

Control = Literal["Proceed", "Clarify", "SwitchDomain", "Reject"]
"""Inner-speech readiness decisions (JANUS): act, ask, change domain, or refuse."""

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


class Explanation(BaseModel):
    """RoBee's explainer output: a failure and the fixes that worked for similar ones."""

    skill: str
    code: str
    failure: str
    suggestions: list[str] = Field(description="fixes to give the planner, best first")
    scores: list[float] = Field(description="cosine similarity of each suggestion's case")
    fallback: bool = Field(False, description="suggestions come from other skills' failures")


@dataclass(frozen=True)
class KeySpec:
    """One blackboard key: ``name`` (may hold ``{node}``), value type, writer and meaning."""

    name: str
    type: Any
    writer: str
    meaning: str

    def key(self, **params: str) -> str:
        """The concrete key name, with any ``{placeholder}`` filled in."""
        return self.name.format(**params) if params else self.name

    def validate(self, value: Any) -> Any:
        """Return ``value`` checked (and coerced) against the key's type; raise ValueError."""
        try:
            return TypeAdapter(self.type).validate_python(value)
        except ValidationError as error:
            raise ValueError(f"bad value for blackboard key {self.name}: {error}") from error


UTTERANCE = KeySpec(
    "/turn/utterance",
    str,
    "the input channel (`cogtree tick --say`, a test preset, later a ROS 2 topic)",
    "what the user said this turn",
)
TASK = KeySpec(
    "/turn/task",
    BaseModel,
    "TaskReadinessGate (ReadinessGate in the examples)",
    "the requested task as an instance of the task schema; unfilled slots are None",
)
CONTROL = KeySpec(
    "/turn/control",
    Control,
    "TaskReadinessGate (ReadinessGate in the examples)",
    "the readiness decision: Proceed, Clarify, SwitchDomain or Reject",
)
MISSING = KeySpec(
    "/turn/missing",
    list[str],
    "TaskReadinessGate (ReadinessGate in the examples)",
    "required task slots still missing (empty when the decision is Proceed)",
)
REPLY = KeySpec(
    "/turn/reply",
    str,
    "Say",
    "what the robot says to the user this turn",
)
RATIONALE = KeySpec(
    "/rationale/{node}",
    GateRationale,
    "every LLMBehaviour",
    "why the node decided: source, guard veto, notes and the model calls it made",
)

REFERENT = KeySpec(
    "/turn/referent",
    str,
    "RecognizeIntent / PostProcess, or a test preset",
    'how the user described the thing they mean ("the blue bottle", "my mug")',
)
SPEAKER = KeySpec(
    "/turn/speaker",
    str,
    "the input channel (voice identification), IdentifySpeaker (from what was said; the "
    "session keeps it), or a test preset",
    'scene-graph id of the person speaking; who "my" refers to',
)
CANDIDATES = KeySpec(
    "/turn/candidates",
    list[Candidate],
    "ResolveReferent",
    "scene-graph nodes the referent may mean, each with why it matched (0, 1 or several)",
)
ROOMS = KeySpec(
    "/perception/rooms",
    list[Room],
    "GetMapRooms",
    "every room of the belief with the rooms it opens onto",
)
TARGET_ROOM = KeySpec(
    "/perception/target_room",
    str,
    "ReActStep, or a test preset",
    "scene-graph id of the room GetObjectsInRoom looks in",
)
OBJECTS = KeySpec(
    "/perception/objects",
    list[ObjectInfo],
    "GetObjectsInRoom",
    "objects and furniture believed to be in the target room",
)
TARGET_OBJECT = KeySpec(
    "/perception/target_object",
    str,
    "ReActStep, or a test preset",
    "scene-graph id of the thing, person or robot LocateObject looks for",
)
LOCATION = KeySpec(
    "/perception/location",
    Location,
    "LocateObject",
    "where the target object is believed to be, with who saw it there and when",
)

SKILL_CALL = KeySpec(
    "/skill/call",
    SkillCall,
    "ReActStep, or a test preset (ExecutePlan gives each SkillAction its call)",
    "the skill a SkillAction built without a fixed call runs next, e.g. PICK(bottle, right)",
)
SKILL_OUTCOME = KeySpec(
    "/skill/outcome",
    SkillOutcome,
    "SkillAction",
    "how the last skill ended: status, message naming skill, command, code and reason",
)
EXPLANATION = KeySpec(
    "/skill/explanation",
    Explanation,
    "Explain",
    "the explainer's suggestions for the last failed skill, from the experience store",
)

DOMAIN = KeySpec(
    "/turn/domain",
    str,
    "DetectScope; TaskReadinessGate on SwitchDomain; the session, to give a turn its domain",
    "the domain pack this turn belongs to, or OutOfScope",
)
INTENT = KeySpec(
    "/turn/intent",
    IntentFrame,
    "RecognizeIntent (PostProcess normalises its slots)",
    "the task of the active domain the user asked for, with the slots said so far",
)
RESOLVED = KeySpec(
    "/turn/resolved",
    dict[str, SlotResolution],
    "PostProcess",
    "slot -> the scene-graph or knowledge-graph ids its value may refer to (0, 1 or several)",
)
WORKING = KeySpec(
    "/memory/working",
    WorkingContext,
    "RecallMemory (SufficiencyGate or RetrieveArchive)",
    "the bounded memory this turn works with: core facts, recent turns, recalled archive",
)
QUERY = KeySpec(
    "/turn/query",
    GeneratedQuery,
    "GenerateQuery",
    "the read-only SPARQL query that fetches the evidence the task needs",
)
EVIDENCE = KeySpec(
    "/turn/evidence",
    EvidenceBundle,
    "RunQuery, the physical-task branch",
    "what the reply may claim besides the working context: query rows, what was done",
)
PENDING = KeySpec(
    "/session/pending",
    PendingTask,
    "AskClarification (cleared by Consolidate once the task ran)",
    "a task waiting for the user's answer to a clarification question",
)
PLAN = KeySpec(
    "/plan/current",
    ToAPlan,
    "PlanTask (the task-level HTN methods, or the planner model)",
    "the Thought-of-Action plan for this turn's physical task: steps, dependencies, assignees",
)
VALIDATION = KeySpec(
    "/plan/validation",
    ValidationReport,
    "ValidationGate",
    "the dry run's (and the judge's) verdict on /plan/current, with the assignment of steps",
)
ATTEMPTS = KeySpec(
    "/plan/attempts",
    list[PlanAttempt],
    "PlanTask, ValidationGate, ExecutePlan, ExplainFailure",
    "every round of plan -> validate -> execute this turn, with failures and suggestions",
)
REFLECTIONS = KeySpec(
    "/plan/reflections",
    list[Reflection],
    "ExecutePlan",
    "for each step run so far: did it achieve its intended effect",
)

CATALOGUE: tuple[KeySpec, ...] = (
    UTTERANCE,
    TASK,
    CONTROL,
    MISSING,
    REPLY,
    RATIONALE,
    REFERENT,
    SPEAKER,
    CANDIDATES,
    ROOMS,
    TARGET_ROOM,
    OBJECTS,
    TARGET_OBJECT,
    LOCATION,
    SKILL_CALL,
    SKILL_OUTCOME,
    EXPLANATION,
    DOMAIN,
    INTENT,
    RESOLVED,
    WORKING,
    QUERY,
    EVIDENCE,
    PENDING,
    PLAN,
    VALIDATION,
    ATTEMPTS,
    REFLECTIONS,
)


def spec_for(key: str) -> KeySpec:
    """The catalogue entry a concrete key belongs to; unknown keys list the known ones."""
    for spec in CATALOGUE:
        pattern = re.escape(spec.name).replace(r"\{node\}", r"[^/]+")
        if re.fullmatch(pattern, key):
            return spec
    known = ", ".join(spec.name for spec in CATALOGUE)
    raise KeyError(f"{key!r} is not in the blackboard catalogue (behaviours/keys.py): {known}")


def node_slug(node_name: str) -> str:
    """A node name made safe for use inside a key (``Readiness Gate`` -> ``readiness_gate``)."""
    return re.sub(r"[^0-9a-z]+", "_", node_name.lower()).strip("_") or "node"


def register(
    client: py_trees.blackboard.Client,
    spec: KeySpec,
    access: py_trees.common.Access,
    **params: str,
) -> str:
    """Register ``spec``'s key on ``client`` with ``access`` and return the concrete name."""
    if spec not in CATALOGUE:
        raise KeyError(f"{spec.name} is not in the blackboard catalogue (behaviours/keys.py)")
    key = spec.key(**params)
    client.register_key(key=key, access=access)
    return key


def read(client: py_trees.blackboard.Client, key: str) -> Any:
    """The value at ``key``, or None when it is unset (never raises)."""
    return client.get(key) if client.exists(key) else None


def read_optional(client: py_trees.blackboard.Client, key: str, kind: type[T]) -> T | None:
    """The value at ``key`` when it is set and a ``kind``; None otherwise (never raises)."""
    value = read(client, key)
    return value if isinstance(value, kind) else None


def catalogue_markdown() -> str:
    """The catalogue as a Markdown table (for docs and ``cogtree keys``)."""
    rows = ["| key | type | writer | meaning |", "|---|---|---|---|"]
    for spec in CATALOGUE:
        type_name = spec.type.__name__ if isinstance(spec.type, type) else str(spec.type)
        type_name = re.sub(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])", "", type_name)
        rows.append(f"| `{spec.name}` | `{type_name}` | {spec.writer} | {spec.meaning} |")
    return "\n".join(rows)
