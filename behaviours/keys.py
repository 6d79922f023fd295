"""The blackboard contract: every key cogtree behaviours read or write, in one catalogue.

Like Nav2's port catalogue, each entry names the key, its value type, who writes it, what it
means and how long it lives (:data:`Lifetime`). Like a BT.CPP node's ``providedPorts``, each
behaviour class declares the keys it reads and writes (``reads``, ``writes``); the
:class:`DeclaredKeys` mixin registers them when the node is built and refuses keys not in the
catalogue, so the contract cannot drift from the code. Code outside the tree (session, command
line, test kit) presets and clears keys through :func:`preset` and :func:`clear`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal, NamedTuple, TypeVar

import py_trees
from py_trees.common import Access
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from cogtree.knowledge.language.pronouns import TalkedAbout
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.memory.experience import RecoveryStep
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.safety.candidate_readings import CalibratedReadings
from cogtree.knowledge.scene.scene_models import Candidate, Location, ObjectInfo, Room
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    GateRationale,
    GeneratedQuery,
    HeldAnswer,
    IntentFrame,
    PendingTask,
    SlotResolution,
)
from cogtree.skills.capabilities.calls import SkillCall
from cogtree.skills.execution.controller import SkillOutcome
from cogtree.skills.planning.plan_model import PlanAttempt, Reflection, ToAPlan, ValidationReport

T = TypeVar("T")

Control = Literal["Proceed", "Clarify", "SwitchDomain", "Reject", "Acknowledge"]
"""Inner-speech readiness decisions (JANUS): act, ask, change domain, refuse, answer thanks."""

Lifetime = Literal["turn", "session"]
"""How long a key's value lives. ``turn``: one turn; :func:`clear` unsets it before the next
(the plan, perception, skill and rationale keys are turn keys too: a plan belongs to the turn
that made it, and tree-local keys of one tree run start empty each turn). ``session``: kept
from turn to turn until a node replaces or unsets it."""


class Explanation(BaseModel):
    """RoBee's explainer output: a failure and the fixes that worked for similar ones."""

    skill: str
    code: str
    failure: str
    suggestions: list[str] = Field(description="fixes to give the planner, best first")
    scores: list[float] = Field(description="cosine similarity of each suggestion's case")
    fallback: bool = Field(False, description="suggestions come from other skills' failures")
    records: list[str] = Field(
        default_factory=list, description="the id of each suggestion's experience record"
    )
    context: dict[str, str] = Field(default_factory=dict, description="the failure's facets")
    recovery: list[RecoveryStep] = Field(
        default_factory=list, description="the first suggestion in the plan vocabulary"
    )


NODE = "{node}"
"""The placeholder of per-node keys (``/rationale/{node}``), filled with a node's slug."""


@dataclass(frozen=True)
class KeySpec:
    """One blackboard key: ``name`` (may hold ``{node}``), value type, writer, meaning, lifetime."""

    name: str
    type: Any
    writer: str
    meaning: str
    lifetime: Lifetime = "turn"

    def key(self, **params: str) -> str:
        """The concrete key name, with any ``{placeholder}`` filled in."""
        return self.name.format(**params) if params else self.name

    def for_node(self, node_name: str) -> KeySpec:
        """The key of the node called ``node_name`` (``{node}`` filled with its slug).

        A spec without the placeholder is returned as it is. Declare the filled spec when a
        node reads another node's key (``Decline`` reads its gate's rationale).
        """
        if NODE not in self.name:
            return self
        return replace(self, name=self.key(node=node_slug(node_name)))

    def matches(self, key: str) -> bool:
        """Whether the concrete ``key`` is this spec's key (any node's, for ``{node}``)."""
        pattern = re.escape(self.name).replace(re.escape(NODE), r"[^/]+")
        return re.fullmatch(pattern, key) is not None

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
    lifetime="turn",
)
REQUEST_FRAME = KeySpec(
    "/turn/frame",
    RequestFrame,
    "ParseRequest",
    "the one parse of this turn's utterance: its steps (verb, objects, roles), the skills it "
    "asks for that the robot lacks, and the clauses that only give context",
    lifetime="turn",
)
TASK = KeySpec(
    "/turn/task",
    BaseModel,
    "TaskReadinessGate (ReadinessGate in the examples)",
    "the requested task as an instance of the task schema; unfilled slots are None",
    lifetime="turn",
)
CONTROL = KeySpec(
    "/turn/control",
    Control,
    "TaskReadinessGate (ReadinessGate in the examples)",
    "the readiness decision: Proceed, Clarify, SwitchDomain, Reject or Acknowledge",
    lifetime="turn",
)
MISSING = KeySpec(
    "/turn/missing",
    list[str],
    "TaskReadinessGate (ReadinessGate in the examples)",
    "required task slots still missing (empty when the decision is Proceed)",
    lifetime="turn",
)
SAFETY = KeySpec(
    "/turn/safety",
    list[str],
    "TaskReadinessGate",
    "the safety doubts on the request the user has not confirmed (a Clarify asks to confirm)",
    lifetime="turn",
)
REPLY = KeySpec(
    "/turn/reply",
    str,
    "Say",
    "what the robot says to the user this turn",
    lifetime="turn",
)
RATIONALE = KeySpec(
    "/rationale/{node}",
    GateRationale,
    "every LLMBehaviour",
    "why the node decided: source, guard veto, notes and the model calls it made",
    lifetime="turn",
)

REFERENT = KeySpec(
    "/turn/referent",
    str,
    "RecognizeIntent / PostProcess, or a test preset",
    'how the user described the thing they mean ("the blue bottle", "my mug")',
    lifetime="turn",
)
SPEAKER = KeySpec(
    "/turn/speaker",
    str,
    "the input channel (voice identification), IdentifySpeaker (from what was said; the "
    "session keeps it), or a test preset",
    'scene-graph id of the person speaking; who "my" refers to',
    lifetime="turn",
)
CANDIDATES = KeySpec(
    "/turn/candidates",
    list[Candidate],
    "ResolveReferent",
    "scene-graph nodes the referent may mean, each with why it matched (0, 1 or several)",
    lifetime="turn",
)
ROOMS = KeySpec(
    "/perception/rooms",
    list[Room],
    "GetMapRooms",
    "every room of the belief with the rooms it opens onto",
    lifetime="turn",
)
TARGET_ROOM = KeySpec(
    "/perception/target_room",
    str,
    "ReActStep, or a test preset",
    "scene-graph id of the room GetObjectsInRoom looks in",
    lifetime="turn",
)
OBJECTS = KeySpec(
    "/perception/objects",
    list[ObjectInfo],
    "GetObjectsInRoom",
    "objects and furniture believed to be in the target room",
    lifetime="turn",
)
TARGET_OBJECT = KeySpec(
    "/perception/target_object",
    str,
    "ReActStep, or a test preset",
    "scene-graph id of the thing, person or robot LocateObject looks for",
    lifetime="turn",
)
LOCATION = KeySpec(
    "/perception/location",
    Location,
    "LocateObject",
    "where the target object is believed to be, with who saw it there and when",
    lifetime="turn",
)

SKILL_CALL = KeySpec(
    "/skill/call",
    SkillCall,
    "ReActStep, or a test preset (ExecutePlan gives each SkillAction its call)",
    "the skill a SkillAction built without a fixed call runs next, e.g. PICK(bottle, right)",
    lifetime="turn",
)
SKILL_OUTCOME = KeySpec(
    "/skill/outcome",
    SkillOutcome,
    "SkillAction",
    "how the last skill ended: status, message naming skill, command, code and reason",
    lifetime="turn",
)
EXPLANATION = KeySpec(
    "/skill/explanation",
    Explanation,
    "Explain",
    "the explainer's suggestions for the last failed skill, from the experience store",
    lifetime="turn",
)

DOMAIN = KeySpec(
    "/turn/domain",
    str,
    "DetectScope; TaskReadinessGate on SwitchDomain; the session, to give a turn its domain",
    "the domain pack this turn belongs to, or OutOfScope",
    lifetime="turn",
)
INTENT = KeySpec(
    "/turn/intent",
    IntentFrame,
    "RecognizeIntent (PostProcess normalises its slots)",
    "the task of the active domain the user asked for, with the slots said so far",
    lifetime="turn",
)
RESOLVED = KeySpec(
    "/turn/resolved",
    dict[str, SlotResolution],
    "PostProcess",
    "slot -> the scene-graph or knowledge-graph ids its value may refer to (0, 1 or several)",
    lifetime="turn",
)
WORKING = KeySpec(
    "/memory/working",
    WorkingContext,
    "RecallMemory (SufficiencyGate or RetrieveArchive)",
    "the bounded memory this turn works with: core facts, recent turns, recalled archive",
    lifetime="session",
)
QUERY = KeySpec(
    "/turn/query",
    GeneratedQuery,
    "GenerateQuery",
    "the read-only SPARQL query that fetches the evidence the task needs",
    lifetime="turn",
)
EVIDENCE = KeySpec(
    "/turn/evidence",
    EvidenceBundle,
    "RunQuery, the physical-task branch",
    "what the reply may claim besides the working context: query rows, what was done",
    lifetime="turn",
)
HELD = KeySpec(
    "/session/held_answers",
    list[HeldAnswer],
    "HoldAnswer",
    "the last knowledge answers of the session, newest last, that a later turn may reuse "
    "instead of querying again (NeedsEvidence decides)",
    lifetime="session",
)
PENDING = KeySpec(
    "/session/pending",
    PendingTask,
    "AskClarification (cleared by Consolidate, or by the session on a particle_answered)",
    "a task waiting for the user's answer to a clarification question",
    lifetime="session",
)
TALKED_ABOUT = KeySpec(
    "/session/talked_about",
    TalkedAbout,
    "RecognizeIntent",
    "the words that named things and people in the last requests, the last task and request, "
    'for "it" and "her", a thing said alone and a follow-up ("the pepper too") in the next one',
    lifetime="session",
)
READINGS = KeySpec(
    "/turn/readings",
    CalibratedReadings,
    "TaskReadinessGate (calibrated: a conformal threshold is configured)",
    "the request's candidate readings as lettered options, their probabilities, the "
    "conformal threshold, the prediction set and what the gate did with it",
    lifetime="turn",
)
PLAN = KeySpec(
    "/plan/current",
    ToAPlan,
    "PlanTask (the task-level HTN methods, or the planner model), PlanDelegation",
    "the Thought-of-Action plan for this turn's physical task: steps, dependencies, assignees",
    lifetime="turn",
)
VALIDATION = KeySpec(
    "/plan/validation",
    ValidationReport,
    "ValidationGate",
    "the dry run's (and the judge's) verdict on /plan/current, with the assignment of steps",
    lifetime="turn",
)
ATTEMPTS = KeySpec(
    "/plan/attempts",
    list[PlanAttempt],
    "PlanTask, ValidationGate, ExecutePlan, ExplainFailure",
    "every round of plan -> validate -> execute this turn, with failures and suggestions",
    lifetime="turn",
)
REFLECTIONS = KeySpec(
    "/plan/reflections",
    list[Reflection],
    "ExecutePlan",
    "for each step run so far: did it achieve its intended effect",
    lifetime="turn",
)

CATALOGUE: tuple[KeySpec, ...] = (
    UTTERANCE,
    REQUEST_FRAME,
    TASK,
    CONTROL,
    MISSING,
    SAFETY,
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
    HELD,
    PENDING,
    TALKED_ABOUT,
    READINGS,
    PLAN,
    VALIDATION,
    ATTEMPTS,
    REFLECTIONS,
)


def spec_for(key: str) -> KeySpec:
    """The catalogue entry a concrete key belongs to; unknown keys list the known ones."""
    for spec in CATALOGUE:
        if spec.matches(key):
            return spec
    known = ", ".join(spec.name for spec in CATALOGUE)
    raise KeyError(f"{key!r} is not in the blackboard catalogue (behaviours/keys.py): {known}")


@cache
def by_port_name() -> Mapping[str, KeySpec]:
    """Port name -> catalogue entry: each key by its constant's name, lowered (built once).

    ``SKILL_OUTCOME`` is ``skill_outcome`` (XML ports and BT.CPP scripts name keys so).
    """
    return {
        name.lower(): spec
        for name, spec in globals().items()
        if isinstance(spec, KeySpec) and spec in CATALOGUE
    }


def node_slug(node_name: str) -> str:
    """A node name made safe for use inside a key (``Readiness Gate`` -> ``readiness_gate``)."""
    return re.sub(r"[^0-9a-z]+", "_", node_name.lower()).strip("_") or "node"


def catalogue_entry(spec: KeySpec) -> KeySpec:
    """The catalogue entry of ``spec``: itself, or the entry a filled spec comes from.

    KeyError when it is not in the catalogue (a filled spec: see :meth:`KeySpec.for_node`).
    """
    if spec in CATALOGUE:
        return spec
    entry = next((e for e in CATALOGUE if e.matches(spec.name)), None)
    if entry is None or replace(entry, name=spec.name) != spec:
        raise KeyError(f"{spec.name} is not in the blackboard catalogue (behaviours/keys.py)")
    return entry


def register(
    client: py_trees.blackboard.Client,
    spec: KeySpec,
    access: py_trees.common.Access,
    **params: str,
) -> str:
    """Register ``spec``'s key on ``client`` with ``access`` and return the concrete name."""
    catalogue_entry(spec)
    key = spec.key(**params)
    client.register_key(key=key, access=access)
    return key


class Contract(NamedTuple):
    """The keys a behaviour reads and the keys it writes (a written key may be read too)."""

    reads: tuple[KeySpec, ...]
    writes: tuple[KeySpec, ...]


def declared(cls: type) -> Contract:
    """The keys ``cls`` declares: its own ``reads``/``writes`` and those of its bases.

    A class without declarations (not a :class:`DeclaredKeys` behaviour) declares nothing.
    """

    def collect(attribute: str) -> tuple[KeySpec, ...]:
        found: dict[KeySpec, None] = {}
        for klass in reversed(cls.__mro__):
            found.update(dict.fromkeys(vars(klass).get(attribute, ())))
        return tuple(found)

    return Contract(collect("reads"), collect("writes"))


class DeclaredKeys:
    """Mixin for py_trees behaviours: register the blackboard keys the class declares.

    List it first among the bases (``class Decline(DeclaredKeys, Behaviour)``). A class
    declares ``reads`` and ``writes`` (catalogue specs) and inherits its bases' declarations,
    so an :class:`~behaviours.llm_behaviour.LLMBehaviour` keeps its ``/rationale/{node}``
    write. ``__init__`` attaches ``self.blackboard`` and registers each key with read or write
    access; ``{node}`` is filled with the node's slug unless the spec is already filled
    (:meth:`KeySpec.for_node`). Reading or writing a key that is not declared raises (py_trees
    checks the access). A node whose keys depend on its constructor arguments passes
    ``reads=`` or ``writes=``, which replace the class declaration for that node; the class
    declaration stays what the node catalogue shows.
    """

    reads: tuple[KeySpec, ...] = ()
    writes: tuple[KeySpec, ...] = ()
    name: str
    blackboard: py_trees.blackboard.Client

    def __init__(
        self,
        *args: Any,
        reads: Iterable[KeySpec] | None = None,
        writes: Iterable[KeySpec] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not isinstance(self, py_trees.behaviour.Behaviour):
            raise TypeError(f"{type(self).__name__}: DeclaredKeys is a mixin for behaviours")
        contract = declared(type(self))
        self.reads = contract.reads if reads is None else tuple(reads)
        self.writes = contract.writes if writes is None else tuple(writes)
        self.blackboard = self.attach_blackboard_client(name=self.name)
        for specs, access in ((self.reads, Access.READ), (self.writes, Access.WRITE)):
            for spec in specs:
                register(self.blackboard, spec.for_node(self.name), access)

    def key_of(self, spec: KeySpec) -> str:
        """The concrete key this node registered for ``spec``; KeyError when not declared."""
        for mine in (*self.reads, *self.writes):
            if spec in (mine, catalogue_entry(mine)):
                return mine.for_node(self.name).name
        raise KeyError(f"{self.name}: {spec.name} is not among the keys it declares")


def read(client: py_trees.blackboard.Client, key: str) -> Any:
    """The value at ``key``, or None when it is unset (raises only for an undeclared key)."""
    return client.get(key) if client.exists(key) else None


def read_optional(client: py_trees.blackboard.Client, key: str, kind: type[T]) -> T | None:
    """The value at ``key`` when it is set and a ``kind``; None otherwise (never raises)."""
    value = read(client, key)
    return value if isinstance(value, kind) else None


def add_note(
    client: py_trees.blackboard.Client, key: str, note: str, *, vetoed: bool = False
) -> None:
    """Add ``note`` to the gate rationale at ``key`` (and mark it vetoed when ``vetoed``).

    Nothing is written when ``key`` holds no :class:`GateRationale`.
    """
    rationale = read_optional(client, key, GateRationale)
    if rationale is None:
        return
    update = {"vetoed": rationale.vetoed or vetoed, "notes": [*rationale.notes, note]}
    client.set(key, rationale.model_copy(update=update))


def preset(key: str | KeySpec, value: Any, *, uncatalogued: bool = False) -> None:
    """Write ``value`` at ``key`` from outside the tree (a turn's input, a CLI or test preset).

    A catalogue key's value is checked against its type (ValueError when it does not fit). A
    key outside the catalogue raises KeyError, unless ``uncatalogued`` (a test of a tree that
    defines its own keys).
    """
    name = key.name if isinstance(key, KeySpec) else key
    try:
        value = spec_for(name).validate(value)
    except KeyError:
        if not uncatalogued:
            raise
    py_trees.blackboard.Blackboard.set(name, value)


def clear(lifetime: Lifetime) -> list[str]:
    """Unset every catalogue key of ``lifetime`` on the blackboard; return the keys unset.

    The session calls ``clear("turn")`` before each turn; session keys are kept.
    """
    storage = py_trees.blackboard.Blackboard.storage
    gone = [key for key in storage if _lifetime(key) == lifetime]
    for key in gone:
        py_trees.blackboard.Blackboard.unset(key)
    return gone


def _lifetime(key: str) -> Lifetime | None:
    try:
        return spec_for(key).lifetime
    except KeyError:
        return None


def catalogue_markdown(declared_by: Mapping[str, Contract] | None = None) -> str:
    """The catalogue as a Markdown table (for docs and ``cogtree keys``).

    ``declared_by`` maps node class names to their declarations (:func:`declared`); given,
    the table says which nodes declare writing and reading each key.
    """
    rows = ["| key | type | lifetime | writer | meaning |", "|---|---|---|---|---|"]
    if declared_by is not None:
        rows = ["| key | type | lifetime | writer | written by | read by | meaning |"]
        rows.append("|---|---|---|---|---|---|---|")
    for spec in CATALOGUE:
        type_name = spec.type.__name__ if isinstance(spec.type, type) else str(spec.type)
        type_name = re.sub(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])", "", type_name)
        cells = [f"`{spec.name}`", f"`{type_name}`", spec.lifetime, spec.writer]
        if declared_by is not None:
            cells += [_nodes(declared_by, spec, "writes"), _nodes(declared_by, spec, "reads")]
        rows.append(f"| {' | '.join(cells)} | {spec.meaning} |")
    return "\n".join(rows)


def _nodes(declared_by: Mapping[str, Contract], spec: KeySpec, field: str) -> str:
    names = sorted(
        node
        for node, contract in declared_by.items()
        if spec in map(catalogue_entry, getattr(contract, field))
    )
    return ", ".join(names) or "-"


# ``/plan/attempts``: every node that touches the record goes through these three (the client
# must have declared the key: reading for the first, writing for the others).


def read_attempts(client: py_trees.blackboard.Client) -> list[PlanAttempt]:
    """Every attempt of this turn so far, oldest first (empty when there is none)."""
    found = read_optional(client, ATTEMPTS.name, list) or []
    return [attempt for attempt in found if isinstance(attempt, PlanAttempt)]


def add_attempt(
    client: py_trees.blackboard.Client,
    plan: ToAPlan,
    *,
    failure: str = "",
    recovered_with: Sequence[RecoveryStep] = (),
    infeasible: str = "",
) -> None:
    """Record a new attempt for ``plan``: ``running``, or ``failed`` with ``failure`` given.

    ``recovered_with``: the recovery from experience the plan starts with, if any;
    ``infeasible``: with no plan, the robot's limits said plainly (:mod:`skills.planning.limits`).
    """
    so_far = read_attempts(client)
    attempt = PlanAttempt(
        number=len(so_far) + 1,
        plan=plan,
        outcome="failed" if failure else "running",
        failure=failure,
        recovered_with=tuple(recovered_with),
        infeasible=infeasible,
    )
    client.set(ATTEMPTS.name, [*so_far, attempt])


def update_last_attempt(
    client: py_trees.blackboard.Client, change: Callable[[PlanAttempt], PlanAttempt | None]
) -> PlanAttempt | None:
    """Replace the last attempt by ``change(last)``; return the new one.

    Nothing is written when there is no attempt or ``change`` returns None (it may refuse,
    e.g. when the last attempt is for another plan); the result is then None.
    """
    so_far = read_attempts(client)
    updated = change(so_far[-1]) if so_far else None
    if updated is not None:
        client.set(ATTEMPTS.name, [*so_far[:-1], updated])
    return updated


def read_request_frame(client: py_trees.blackboard.Client) -> RequestFrame | None:
    """The turn's parse (``/turn/frame``, written by ``ParseRequest``); None when unset.

    A node that needs the parse and finds None takes its cautious path and says in its
    feedback that no ``ParseRequest`` ran before it this turn.
    """
    return read_optional(client, REQUEST_FRAME.name, RequestFrame)
