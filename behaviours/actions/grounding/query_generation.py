"""``GenerateQuery``: the read-only SPARQL query that fetches the evidence a task needs.

Fast path: the task's query template (``queries/<name>.rq`` of its pack) bound with
:meth:`~knowledge.scene.named_queries.NamedQuery.bind`. Each ``VALUES ?p { UNDEF }`` parameter is
filled from what it is named after:

- a slot of the task, from ``/turn/task`` (or ``/turn/resolved`` when there is no task
  instance), by the slot's kind: ``kg`` ids become IRIs in the namespace of the pack's first
  prefix, ``scene`` ids ``SceneGraph.iri(id)``, ``value`` and ``text`` literals; a list slot
  binds several terms (an empty list leaves the parameter unbound);
- ``avoid``, ``favour``, ``diet``: the working context's facts (see
  :func:`behaviours.gates.evidence.memory_bindings`), as kg IRIs;
- ``speaker``: ``/turn/speaker``, an IRI of the graph the query runs on, or a literal when it
  is no id of it (any name binds: "zoë", "o'brien"; rdflib escapes it, the runner checks it).

Every query, template or model's, carries the pack's *constraints* query (``constraints:`` in
``pack.yaml``) bound the same way and leniently (what nothing fills stays unbound, ``?asked``
takes the kg ids the request names): RunQuery drops the rows naming what it lists.

Model path (a template that cannot be bound, e.g. a parameter nothing fills): the model writes
a SELECT or ASK query, given the pack's prefixes, a compact summary of the graph's vocabulary
(classes and properties with their labels), the task with its slot ids and the template.

Guard: a model's query must pass the read-only runner's checks (its text rules: no SERVICE,
only whitelisted namespaces, the default graph, the size limit; then Oxigraph, the engine
that runs it, must read one SELECT or ASK). The check *is* the runner's: a
:class:`~knowledge.scene.readonly_query.QueryVetter` with the same prefixes, which runs the
query over no data. It runs on the model call's worker as soon as the answer arrives
(``screen``), never on a tick: ``revise`` and ``guard`` only look its finding up, and an
answer with no finding is refused. A refused query is sent back to the model once with the
refusal (``revise``); refused again, the node takes its safe decision: no query. Template
queries are the pack author's and are checked by the runner when RunQuery runs them, off the
tick.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from py_trees.common import Status
from pydantic import BaseModel, Field
from rdflib import XSD, Graph, Namespace, URIRef
from rdflib import Literal as RdfLiteral

from cogtree.behaviours import keys
from cogtree.behaviours.answer_node import task_on_blackboard
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_pack import PackError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.named_queries import Binding, Term
from cogtree.knowledge.scene.readonly_query import STANDARD_PREFIXES, QueryVetter
from cogtree.knowledge.scene.scene_graph import COG, SCENE, SceneGraph
from cogtree.knowledge.understanding.evidence_needs import (
    ASKED_PARAMETER,
    MEMORY_PARAMETERS,
    SPEAKER_PARAMETER,
    TARGETS_PARAMETER,
    TurnTask,
    memory_bindings,
)
from cogtree.knowledge.understanding.turn_state import GeneratedQuery, SlotResolution
from cogtree.knowledge.wording import BoundedText

log = logging.getLogger(__name__)

SCENE_PREFIXES: Mapping[str, str] = {"cog": str(COG), "scene": str(SCENE)}
"""The namespaces a query over the scene graph may use (besides rdf, rdfs, owl, xsd)."""

VOCABULARY_LIMIT = 60
"""At most this many classes and this many properties go into the model's prompt."""

_LOCAL_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_VOCABULARY_QUERY = """
SELECT ?term ?kind ?label WHERE {
  VALUES ?kind { owl:Class rdfs:Class owl:ObjectProperty owl:DatatypeProperty rdf:Property }
  ?term a ?kind .
  OPTIONAL { ?term rdfs:label ?label }
}
"""
_PROPERTY_KINDS = ("ObjectProperty", "DatatypeProperty", "Property")
_SYSTEM = (
    "You write one read-only SPARQL query (SELECT or ASK) that fetches the evidence a robot "
    "needs to answer a request. Use only the prefixes listed (they are declared for you) and "
    "the vocabulary given; never INSERT, DELETE, LOAD, SERVICE or BASE; add LIMIT 50 to a "
    "SELECT. Select labels (rdfs:label) next to ids where there are any. Answer in JSON: "
    '{"sparql": "...", "rationale": "one sentence"}; an empty sparql if no query can answer.'
)


class QueryDecision(BoundedText):
    """The query for the task (empty when there is none) and why."""

    sparql: str = Field("", description="one SPARQL SELECT or ASK query; empty if none fits")
    rationale: str = Field("", max_length=300, description="one sentence: what it fetches")


class BindingError(ValueError):
    """A template parameter that cannot be bound; the message names it and why."""


class GenerateQuery(LLMBehaviour[QueryDecision]):
    """Write the SPARQL query that fetches the evidence for a knowledge task.

    Handles: ``llm``, ``domains``; ``scene_graph`` (optional: needed for packs whose knowledge
    is the scene graph). Reads ``/turn/domain``, ``/turn/intent``, ``/turn/task``,
    ``/turn/resolved``, ``/turn/speaker``, ``/memory/working``. Writes ``/turn/query``
    (:class:`GeneratedQuery`) and ``/rationale/<node>``.
    SUCCESS: a query is on the blackboard (bound template, or a model's query that passed the
    runner's checks). FAILURE: no query (no knowledge task, refused twice, no model); the
    rationale says why. RUNNING: waiting for the model.
    """

    reads = (keys.DOMAIN, keys.INTENT, keys.TASK, keys.RESOLVED, keys.SPEAKER, keys.WORKING)
    writes = (keys.QUERY,)

    module = "query_generation"

    def __init__(self, name: str = "GenerateQuery") -> None:
        super().__init__(name, QueryDecision)
        self.domains: DomainRegistry | None = None
        self.scene: SceneGraph | None = None
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)
        self.task_key = self.key_of(keys.TASK)
        self.resolved_key = self.key_of(keys.RESOLVED)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.working_key = self.key_of(keys.WORKING)
        self.query_key = self.key_of(keys.QUERY)
        self._vocabulary: dict[str, str] = {}
        self._vetters: dict[str, QueryVetter] = {}  # made and used on the model's worker
        self._checked: dict[tuple[str, str], str | None] = {}
        self._task: TurnTask | None = None
        self._template: GeneratedQuery | None = None
        self._unbound = ""

    # -- py_trees lifecycle -------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Take ``llm``, ``domains`` and the optional ``scene_graph``; read the vocabularies.

        Loads each pack's knowledge graph once to summarise its vocabulary for the prompt.
        """
        super().setup(**kwargs)
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        self._vocabulary = {}
        for pack in self.domains.packs:
            if not pack.has_own_knowledge or pack.on_database:
                continue
            try:
                graph = pack.knowledge_graph()
            except PackError as error:
                log.warning("%s: no vocabulary for the prompt: %s", self.name, error)
                continue
            self._vocabulary[pack.name] = vocabulary_summary(graph, pack.manifest.prefixes)
        if self.scene is not None:
            self._vocabulary[""] = vocabulary_summary(self.scene.graph, SCENE_PREFIXES)

    def prepare(self) -> None:
        """Forget the last turn's query, then decide (template, or ask the model)."""
        self._task = None
        self._template = None
        self._unbound = ""
        self._checked = {}

    # -- the cascade --------------------------------------------------------------------------

    def fast_path(self) -> Verdict[QueryDecision] | None:
        """Bind the task's template; no model without a knowledge task or a graph to ask."""
        try:
            task = task_on_blackboard(
                self.domains, self.blackboard, self.domain_key, self.intent_key
            )
        except LookupError as problem:
            return self._no_query(str(problem))
        self._task = task
        if task.spec.grounding != "knowledge_query":
            return self._no_query(f"{task.spec.name} is {task.spec.grounding}, not a query")
        if not task.pack.has_own_knowledge and self.scene is None:
            return self._no_query(
                f"domain {task.pack.name} queries the scene graph, and no `scene_graph` "
                "handle was given to setup"
            )
        if task.spec.query is None:
            self._unbound = f"{task.spec.name} has no query template"
            return None
        try:
            text = self._bind(task, task.spec.query)
        except BindingError as problem:
            if task.pack.on_database:
                return self._no_query(
                    f"{problem}; domain {task.pack.name} grounds on SQL, which only its "
                    "templates write (no model-written SQL from the tree)"
                )
            self._unbound = str(problem)
            log.info("%s: %s; asking the model", self.name, problem)
            return None
        self._template = GeneratedQuery(
            text=text, source="template", template=task.spec.query, target=_target(task)
        )
        decision = QueryDecision(sparql=text, rationale=f"template {task.spec.query}, bound")
        return Verdict(decision, f"bound template {task.spec.query} of {task.pack.name}")

    def messages(self) -> list[Message]:
        """Prefixes, vocabulary, the task with its ids, and the template that did not bind."""
        task = self._task
        assert task is not None, "the model is only asked for a knowledge task"
        prefixes = _prefixes(task)
        lines = [
            f"Domain: {task.pack.name} ({task.pack.manifest.title}).",
            f"Task: {task.spec.name}: {task.spec.description}",
            "Slots: " + json.dumps(self._slot_summary(task), ensure_ascii=False),
            "Prefixes: " + ", ".join(f"{name}: <{iri}>" for name, iri in prefixes.items()),
            "Vocabulary:",
            self._vocabulary.get(task.pack.name if task.pack.has_own_knowledge else "", "")
            or "(no summary)",
        ]
        memory = {name: ids for name, ids in memory_bindings(self._working()).items() if ids}
        if memory:
            lines.append("From the user's memory: " + json.dumps(memory))
        if task.spec.query is not None:
            template = task.pack.query(task.spec.query).text
            lines.append(f"The task's template could not be used ({self._unbound}):\n{template}")
        return [
            Message(role="system", content=_SYSTEM),
            Message(role="user", content="\n".join(lines)),
        ]

    def safe_decision(self, reason: str) -> QueryDecision:
        """No query: the evidence cannot be fetched."""
        return QueryDecision(sparql="", rationale=reason)

    def revise(self, decision: QueryDecision) -> str | None:
        """Send a refused query back to the model once, with the runner's reason."""
        refusal = self._refusal(decision)
        return f"the read-only runner refused the query: {refusal}" if refusal else None

    def guard(self, decision: QueryDecision) -> Verdict[QueryDecision] | None:
        """Refuse a model's query that fails the runner's static checks."""
        refusal = self._refusal(decision)
        if refusal is None:
            return None
        return Verdict(self.safe_decision(f"query refused: {refusal}"), f"refused: {refusal}")

    def apply(self, decision: QueryDecision) -> Status:
        """Write ``/turn/query`` with the pack's constraints bound; FAILURE when there is no query.

        FAILURE too when the constraints cannot be bound: rows nothing filters are no evidence.
        """
        if not decision.sparql.strip():
            return Status.FAILURE
        task = self._task
        assert task is not None
        try:
            constraints = self._constraints(task)
        except BindingError as problem:
            self.feedback_message = f"no query: the user's constraints cannot be bound: {problem}"
            return Status.FAILURE
        template = self._template
        if template is not None and template.text == decision.sparql:
            query = template.model_copy(update={"constraints": constraints})
        else:
            query = GeneratedQuery(
                text=decision.sparql,
                source="model",
                target=_target(task),
                constraints=constraints,
            )
        self.blackboard.set(self.query_key, query)
        return Status.SUCCESS

    def summary(self, decision: QueryDecision) -> str:
        """``template dish_info``, ``model query (312 chars)`` or ``no query``."""
        if not decision.sparql.strip():
            return "no query"
        if self._template is not None and self._template.text == decision.sparql:
            return f"template {self._template.template}"
        return f"model query ({len(decision.sparql)} chars)"

    # -- binding ------------------------------------------------------------------------------

    def _bind(self, task: TurnTask, template_name: str, *, lenient: bool = False) -> str:
        """The template with every parameter bound; BindingError names what could not be.

        ``lenient`` (the constraints query): a parameter nothing fills stays unbound, a memory
        id that is no kg id is skipped, and ``?asked`` takes the kg ids of the task's slots.
        """
        template = task.pack.query(template_name)
        memory = memory_bindings(self._working())
        values: dict[str, Binding] = dict.fromkeys(template.parameters) if lenient else {}
        for parameter in template.parameters:
            if parameter in task.spec.slots or parameter in self._slot_values(lenient=lenient):
                values[parameter] = self._slot_terms(task, parameter, lenient=lenient)
            elif parameter == SPEAKER_PARAMETER:
                values[parameter] = self._speaker_term(task)
            elif parameter in MEMORY_PARAMETERS:
                values[parameter] = self._kg_terms(task, memory[parameter], lenient=lenient)
            elif parameter == TARGETS_PARAMETER:
                values[parameter] = target_rows(memory[parameter])
            elif lenient and parameter == ASKED_PARAMETER:
                values[parameter] = self._asked_terms(task)
            elif not lenient:
                raise BindingError(
                    f"template {template_name} takes ?{parameter}, which is neither a slot of "
                    f"{task.spec.name} nor one of speaker, {', '.join(MEMORY_PARAMETERS)}"
                )
        try:
            return template.bind(**values)
        except (TypeError, ValueError) as error:
            raise BindingError(f"template {template_name}: {error}") from error

    def _speaker_term(self, task: TurnTask) -> Term | None:
        """``/turn/speaker`` as an IRI of the target graph, or as text when it is no id.

        A name such as "zoë" or "o'brien" binds as a literal (rdflib escapes it): templates
        compare the speaker with people's ids and names as text.
        """
        speaker = keys.read(self.blackboard, self.speaker_key)
        if not isinstance(speaker, str) or not speaker.strip():
            return None
        try:
            return self._iri(task, "scene" if not task.pack.has_own_knowledge else "kg", speaker)
        except BindingError:
            return RdfLiteral(speaker)

    def _kg_terms(self, task: TurnTask, ids: Sequence[str], *, lenient: bool) -> Binding:
        """``ids`` as kg IRIs; ``lenient``: ids that are no kg id are skipped."""
        terms: list[Term] = []
        for identifier in ids:
            try:
                terms.append(self._iri(task, "kg", identifier))
            except BindingError:
                if not lenient:
                    raise
        return terms or None

    def _asked_terms(self, task: TurnTask) -> Binding:
        """The kg ids the request names in its slots (what the user asks about)."""
        values = self._slot_values(lenient=True)
        ids = [
            str(item)
            for slot, value in values.items()
            if self._kind(task, slot) == "kg"
            for item in _listed(value)
        ]
        return self._kg_terms(task, ids, lenient=True)

    def _constraints(self, task: TurnTask) -> str | None:
        """The pack's constraints query bound for this turn (None: the pack declares none)."""
        name = task.pack.manifest.constraints
        if name is None or not task.pack.has_own_knowledge:
            return None
        return self._bind(task, name, lenient=True)

    def _slot_terms(self, task: TurnTask, slot: str, *, lenient: bool = False) -> Binding:
        """The slot's value as terms; ``lenient``: values that cannot be bound are left out."""
        value = self._slot_values(lenient=lenient).get(slot)
        kind = self._kind(task, slot)
        terms: list[Term] = []
        for item in _listed(value):
            try:
                terms.append(self._term(task, kind, slot, item))
            except BindingError:
                if not lenient:
                    raise
        if isinstance(value, list | tuple):
            return terms or None
        return terms[0] if terms else None

    def _term(self, task: TurnTask, kind: str, slot: str, value: object) -> Term:
        if kind in ("scene", "kg"):
            if not isinstance(value, str):
                raise BindingError(f"slot {slot} holds {value!r}, not a {kind} id")
            return self._iri(task, kind, value)
        if isinstance(value, str | bool | int | float):
            return RdfLiteral(value)
        raise BindingError(f"slot {slot} holds {type(value).__name__}, not text or a number")

    def _iri(self, task: TurnTask, kind: str, identifier: str) -> URIRef:
        """A scene id as ``SceneGraph.iri``, a kg id in the pack's first prefix namespace."""
        if kind == "scene":
            try:
                return SceneGraph.iri(identifier)
            except ValueError as error:
                raise BindingError(str(error)) from None
        prefixes = task.pack.manifest.prefixes
        if not prefixes:
            raise BindingError(f"domain {task.pack.name} declares no prefixes for its kg ids")
        prefix, _, local = identifier.rpartition(":")
        namespace = prefixes.get(prefix) if prefix else next(iter(prefixes.values()))
        if namespace is None or not _LOCAL_ID.fullmatch(local):
            raise BindingError(
                f"{identifier!r} is not a kg id of {task.pack.name}: use a local name such as "
                f"'tiramisu' or one of its prefixes ({', '.join(prefixes)})"
            )
        return Namespace(namespace)[local]

    def _kind(self, task: TurnTask, slot: str) -> str:
        spec = task.spec.slots.get(slot)
        if spec is not None:
            return spec.resolve
        resolution = self._resolved().get(slot)
        return resolution.kind if resolution is not None else "text"

    def _slot_values(self, *, lenient: bool = False) -> dict[str, object]:
        """Slot -> value: the task instance's fields, else the resolutions (one id, or all).

        ``lenient``: an ambiguous slot gives no values instead of a BindingError.
        """
        if lenient:
            try:
                return self._slot_values()
            except BindingError:
                return {}
        task = keys.read(self.blackboard, self.task_key)
        if isinstance(task, BaseModel):
            return dict(task)
        values: dict[str, object] = {}
        for slot, resolution in self._resolved().items():
            if resolution.kind == "text":
                values[slot] = resolution.said
            elif len(resolution.ids) == 1:
                values[slot] = resolution.ids[0]
            elif resolution.ids and isinstance(resolution.said, list):
                values[slot] = list(resolution.ids)
            elif resolution.ids:
                raise BindingError(
                    f"slot {slot} is ambiguous ({', '.join(resolution.ids)}); "
                    "the readiness gate should have asked which one"
                )
        return values

    def _slot_summary(self, task: TurnTask) -> dict[str, Any]:
        try:
            values = self._slot_values()
        except BindingError as problem:
            return {"problem": str(problem)}
        return {
            slot: {"value": value, "kind": self._kind(task, slot)}
            for slot, value in values.items()
            if value not in (None, [], "")
        }

    # -- checks -------------------------------------------------------------------------------

    def screen(self, decision: QueryDecision) -> None:
        """On the model's worker: the runner's checks of a model's query, kept for the tick."""
        task, text = self._task, decision.sparql
        if task is None or not text.strip():
            return
        key = _target_key(task)
        vetter = self._vetters.get(key)
        if vetter is None:
            vetter = self._vetters[key] = QueryVetter(_prefixes(task))
        self._checked[(key, text)] = vetter.refusal(text)

    def shutdown(self) -> None:
        """Stop the checks' worker processes."""
        vetters, self._vetters = list(self._vetters.values()), {}
        for vetter in vetters:
            vetter.close()

    def _refusal(self, decision: QueryDecision) -> str | None:
        """Why the runner would refuse a model's query, as ``screen`` found, or None.

        Templates are not checked here; a model's query ``screen`` did not check is refused.
        """
        text = decision.sparql
        if not text.strip() or self._task is None:
            return None
        if self._template is not None and self._template.text == text:
            return None
        return self._checked.get((_target_key(self._task), text), "it was not checked")

    # -- helpers ------------------------------------------------------------------------------

    def _no_query(self, reason: str) -> Verdict[QueryDecision]:
        return Verdict(self.safe_decision(reason), reason)

    def _working(self) -> WorkingContext | None:
        working = keys.read(self.blackboard, self.working_key)
        return working if isinstance(working, WorkingContext) else None

    def _resolved(self) -> dict[str, SlotResolution]:
        resolved = keys.read(self.blackboard, self.resolved_key)
        return resolved if isinstance(resolved, dict) else {}


def vocabulary_summary(graph: Graph, prefixes: Mapping[str, str]) -> str:
    """Classes and properties of ``graph`` in ``prefixes``' namespaces, with labels, compact.

    ``classes: adv:Dish (dish), ...`` and ``properties: adv:servings (servings), ...``; at most
    :data:`VOCABULARY_LIMIT` of each, sorted.
    """
    header = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in STANDARD_PREFIXES.items())
    classes: dict[str, str] = {}
    properties: dict[str, str] = {}
    for row in graph.query(header + _VOCABULARY_QUERY):
        term, kind, label = _row(row)
        short = _compact(str(term), prefixes)
        if short is None:
            continue
        shelf = properties if str(kind).endswith(_PROPERTY_KINDS) else classes
        if label is not None or short not in shelf:
            shelf[short] = f"{short} ({label})" if label is not None else short
    parts = []
    for title, shelf in (("classes", classes), ("properties", properties)):
        if shelf:
            names = [shelf[key] for key in sorted(shelf)][:VOCABULARY_LIMIT]
            parts.append(f"{title}: " + ", ".join(names))
    return "\n".join(parts)


def target_rows(found: Sequence[str]) -> Binding:
    """The user's daily targets as rows of ``VALUES (?daily ?target)``; None for none.

    ``found``: ``energy=2000`` and the like (:func:`memory_bindings`).
    """
    rows = [item.split("=", 1) for item in found]
    return [
        (RdfLiteral(what), RdfLiteral(amount, datatype=XSD.decimal)) for what, amount in rows
    ] or None


def _listed(value: object) -> list[object]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _row(row: object) -> tuple[object, object, object]:
    values: Sequence[object] = row if isinstance(row, tuple) else ()
    term, kind, label = [*values, None, None, None][:3]
    return term, kind, label


def _compact(iri: str, prefixes: Mapping[str, str]) -> str | None:
    for name, namespace in prefixes.items():
        if iri.startswith(namespace) and _LOCAL_ID.fullmatch(iri[len(namespace) :]):
            return f"{name}:{iri[len(namespace) :]}"
    return None


def _target_key(task: TurnTask) -> str:
    return task.pack.name if task.pack.has_own_knowledge else ""


def _target(task: TurnTask) -> Literal["domain_kg", "scene_graph"]:
    return "domain_kg" if task.pack.has_own_knowledge else "scene_graph"


def _prefixes(task: TurnTask) -> Mapping[str, str]:
    return task.pack.manifest.prefixes if task.pack.has_own_knowledge else SCENE_PREFIXES
