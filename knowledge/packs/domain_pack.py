"""Domain packs (JANUS's customization layer): what a domain is about and the tasks it serves.

A pack is a directory::

    knowledge/packs/domains/<name>/
        pack.yaml      description, scope examples, lexicons, tasks (see PackManifest)
        tasks.py       the task schemas: one pydantic model per task
        queries/*.rq   query templates (knowledge tasks) and lexicon queries
        *.ttl          the domain's knowledge graph, when it has its own

``pack.yaml`` names each task's schema class in ``tasks.py``, how the task is grounded
(``physical``: a plan the robot executes; ``knowledge_query``: a read-only query whose rows are
the evidence of the reply; ``memory_write``: facts for the memory; ``memory_query``: an
answer from memory, :mod:`knowledge.memory.questions`), the slots' lexicons and
cues, and the templates the deterministic paths use. :func:`load_pack` checks everything that
can be checked before the robot runs (schema classes exist and are pydantic models, every
slot is a field of its schema, every template and lexicon query exists) and raises
:class:`PackError` naming the file, the entry and the fix.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)
from rdflib import Graph
from rdflib.query import ResultRow
from rdflib.term import Node

from cogtree.knowledge.packs.rows_hook import RowsHook, find_hook
from cogtree.knowledge.packs.sql_query import ReadOnlySqlRunner, SqlTemplate, build_database
from cogtree.knowledge.scene.named_queries import (
    NamedQuery,
    QueryFileError,
    QueryLibrary,
    QueryTemplate,
)
from cogtree.knowledge.scene.rdf_store import TurtleError, load_turtle, new_graph
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.scene.scene_questions import SCENE_QUESTIONS
from cogtree.knowledge.yaml_files import read_yaml_model

if TYPE_CHECKING:
    from cogtree.knowledge.packs.grounding_backend import GroundingBackend

log = logging.getLogger(__name__)

MANIFEST = "pack.yaml"
"""The file that makes a directory a domain pack."""

Grounding = Literal["physical", "knowledge_query", "memory_write", "memory_query"]
"""How a task is grounded: a plan, a knowledge query, a memory write or an answer from memory."""

SceneSource = Literal["objects", "furniture", "rooms", "people", "places"]
"""Scene-graph node families a lexicon can be built from (``places``: furniture and rooms)."""

_NAME = re.compile(r"[a-z][a-z0-9_]*")


class PackError(ValueError):
    """A domain pack that cannot be loaded; the message names the file, the entry and the fix."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LexiconSpec(_Strict):
    """Where the surface forms of a lexicon come from (exactly one source).

    ``query``: a query of the pack's ``queries/`` over its knowledge graph, selecting ``?id`` and
    ``?label`` (and optionally ``?alias``); ``scene``: node families of the scene graph (labels,
    synonyms and type names); ``terms``: inline, canonical id -> surface forms.
    """

    query: str | None = None
    scene: list[SceneSource] = Field(default_factory=list)
    terms: dict[str, list[str]] = Field(default_factory=dict)

    def source(self) -> str:
        """``query``, ``scene`` or ``terms``: the one source set."""
        given = [name for name in ("query", "scene", "terms") if getattr(self, name)]
        if len(given) != 1:
            raise ValueError(
                f"a lexicon takes exactly one of query, scene or terms; got {given or 'none'}"
            )
        return given[0]


class SlotSpec(_Strict):
    """How the deterministic slot filler finds one slot of a task in an utterance.

    ``lexicon``: the slot is a mention of that lexicon (its canonical id becomes the value);
    ``cues``: phrases that must come right before the mention ("without", "to"), none means any
    mention counts; ``many``: the slot takes every matching mention as a list; ``every``: a
    question's slot that is about every thing its words fit, a list, never asked which ("where
    are my keys": each); ``pattern``: a regular expression with one group, for values no
    lexicon lists; ``resolve``: where PostProcess looks the value up (``scene``: referent
    resolution, ``kg``: the lexicon's ids, ``value``: a closed set, ``text``: kept as said).
    """

    lexicon: str | None = None
    cues: list[str] = Field(default_factory=list)
    many: bool = False
    every: bool = False
    pattern: str | None = None
    resolve: Literal["scene", "kg", "value", "text"] = "text"

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                compiled = re.compile(pattern, re.IGNORECASE)  # as the slot filler reads it
            except re.error as error:
                raise ValueError(
                    f"pattern {pattern!r} is not a regular expression: {error}"
                ) from None
            if compiled.groups != 1:
                raise ValueError(f"pattern {pattern!r} needs exactly one (group) for the value")
        return pattern


SPEAKER_ARGUMENT = "$speaker"
"""A plan argument that stands for the person speaking (``bring(object, to=$speaker)``)."""


class PlanTemplate(_Strict):
    """A physical task as a task-level HTN call: ``task`` and argument -> slot name.

    An argument may be :data:`SPEAKER_ARGUMENT` instead of a slot: the person speaking.
    """

    task: str = Field(
        description="a task of cogtree.skills.planning.tasks (fetch, bring, put_away, tidy)"
    )
    args: dict[str, str] = Field(default_factory=dict, description="task argument -> slot")


class EvidencePart(_Strict):
    """Which rows of a held answer serve a request that asks for one part of it.

    A request whose ``slot`` holds value ``v`` needs the rows whose ``column`` is one of
    ``expands[v]`` (just ``v`` when not listed); rows whose column is in ``always`` (a
    profile row, say) come along. A request that leaves ``slot`` unfilled asks for every
    part: only a held answer that left it unfilled too serves it.
    """

    slot: str = Field(description="the task slot that picks a part of the answer")
    column: str = Field(description="the row column that says which part a row is")
    expands: dict[str, list[str]] = Field(
        default_factory=dict, description="a slot value asking for several parts: its parts"
    )
    always: list[str] = Field(
        default_factory=list, description="column values of rows that every answer carries"
    )


class EvidenceNeeds(_Strict):
    """What a knowledge task's answer depends on, so a held answer can serve it (JANUS's ρ).

    A held answer (the rows an earlier turn's query returned, kept on the blackboard) serves
    a request of the same task when: it is at most ``reusable_s`` seconds old, its ``slots``
    hold the same values, the memory-bound parameters of the template (``avoid``, ``favour``,
    ``diet``) bind the same ids now as then, and it holds the ``part`` asked for. Otherwise
    the task is grounded: its query runs.
    """

    slots: list[str] = Field(description="slots whose values fix the answer (the same ids)")
    part: EvidencePart | None = Field(
        None, description="a slot asking for a part of the answer, when the rows are split so"
    )
    reusable_s: float = Field(
        ge=0,
        description="how long a held answer stays good, in seconds; 0: never (the data "
        "changes under the robot, e.g. where things are)",
    )


TEMPLATE_TIMEOUT_S = 2.0
"""How long a pack's own query template may run on its graph. Templates are the pack author's
reviewed code run in-process; a loaded CPU must not turn a right answer into "I could not look
that up". A model's query keeps the runner's limit (0.5 s, in the sandbox)."""


class TaskSpec(_Strict):
    """One task of the domain: its schema, how it is grounded, and its deterministic paths."""

    name: str = Field(min_length=1)
    schema_name: str = Field(alias="schema", description="class name in the pack's tasks.py")
    grounding: Grounding
    description: str = Field(min_length=1)
    examples: list[str] = Field(min_length=1, description="utterances that ask for this task")
    cues: list[str] = Field(default_factory=list, description="phrases that signal the task")
    slots: dict[str, SlotSpec] = Field(default_factory=dict)
    query: str | None = Field(None, description="knowledge_query: template in queries/")
    perception: str | None = Field(
        None,
        description="knowledge_query: a question about the scene answered from the scene "
        "index instead of a template (a name of knowledge.scene.scene_questions)",
    )
    reply: str | None = Field(
        None, description="templated reply; {slot} and {column} fields come from the evidence"
    )
    open_ended: bool = Field(
        False,
        description="the catch-all for requests no other task fits (planned by the planner): "
        "taken when intent recognition is unsure and no model can decide",
    )
    plan: PlanTemplate | None = Field(
        None,
        description="physical: the task-level HTN call; none: the task needs the planner "
        "(people in the plan, several steps)",
    )
    evidence: EvidenceNeeds | None = Field(
        None,
        description="knowledge_query: what the answer depends on, so that a held answer may "
        "serve it; none: every request of the task runs its query",
    )
    asked_about: str | None = Field(
        None,
        description="a lexicon of one of the task's slots: a question naming a thing of it "
        "asks this task (a question about a dish is DishInfo), unless it holds a cue of another "
        "task with a slot of that lexicon",
    )
    post_process: str | None = Field(
        None,
        description="knowledge_query: a function of the pack's tasks.py that rewrites the "
        "template's rows before they are evidence (knowledge.packs.rows_hook)",
    )

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @property
    def answer_source(self) -> str | None:
        """The source of the evidence that answers this task: its template or scene question."""
        return self.query or self.perception

    @property
    def answers_only(self) -> bool:
        """The task answers from a knowledge graph and changes nothing.

        Words that might turn a request around or hedge it ("not", "maybe") are then read into
        its slots, not doubted.
        """
        return self.grounding == "knowledge_query"

    @model_validator(mode="after")
    def _asked_about_a_slot_lexicon(self) -> TaskSpec:
        """``asked_about`` names the lexicon of one of the task's slots."""
        lexicons = sorted({spec.lexicon for spec in self.slots.values() if spec.lexicon})
        if self.asked_about is not None and self.asked_about not in lexicons:
            raise ValueError(
                f"task {self.name}: asked_about {self.asked_about!r} is no lexicon of its slots "
                f"(theirs: {', '.join(lexicons) or 'none'})"
            )
        return self

    @model_validator(mode="after")
    def _evidence_names_slots(self) -> TaskSpec:
        """The evidence needs speak of the task's own slots, and only of a query task."""
        if self.evidence is None:
            return self
        if self.grounding != "knowledge_query":
            raise ValueError(f"task {self.name}: evidence needs are for knowledge_query tasks")
        named = [*self.evidence.slots, *([self.evidence.part.slot] if self.evidence.part else [])]
        unknown = [slot for slot in named if slot not in self.slots]
        if unknown:
            raise ValueError(
                f"task {self.name}: evidence names slots it does not have: {', '.join(unknown)} "
                f"(its slots: {', '.join(self.slots) or 'none'})"
            )
        return self


class PromptExample(_Strict):
    """A worked example for the model prompts: an utterance and the task and slots it means."""

    utterance: str
    task: str | None = None
    slots: dict[str, Any] = Field(default_factory=dict)


class DatabaseSpec(_Strict):
    """A pack grounded on SQLite: the script that builds its database, the tables it reads.

    Queries may read only the declared tables (the engine denies every other).
    """

    script: str = Field(description="SQL file next to pack.yaml: CREATE TABLE and INSERT rows")
    tables: list[str] = Field(min_length=1, description="the tables queries may read")


class PackManifest(_Strict):
    """The contents of ``pack.yaml``."""

    name: str = Field(description="lower-case identifier, e.g. advisor")
    title: str
    description: str = Field(min_length=1, description="what the domain is about, for scope")
    examples: list[str] = Field(default_factory=list, description="in-scope utterances")
    schemas: str = Field("tasks.py", description="the Python file with the task schemas")
    knowledge: list[str] = Field(
        default_factory=list,
        description="Turtle files of the pack's knowledge graph; none: the scene graph is it",
    )
    prefixes: dict[str, str] = Field(
        default_factory=dict, description="namespaces model-written queries may use"
    )
    lexicons: dict[str, LexiconSpec] = Field(default_factory=dict)
    database: DatabaseSpec | None = Field(
        None,
        description="SQLite grounding: the pack's knowledge tasks run its queries/*.sql "
        "templates on this database (read-only, declared tables only)",
    )
    constraints: str | None = Field(
        None,
        description="query in queries/ listing what the person's constraints forbid (one "
        "thing per row, with its label): rows of any query that name one are not evidence",
    )
    tasks: list[TaskSpec] = Field(min_length=1)
    prompt_examples: list[PromptExample] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _identifier(cls, name: str) -> str:
        if not _NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a pack name: use lower-case letters, digits, _")
        return name


@dataclass
class DomainPack:
    """A loaded domain pack: manifest, task schemas, query templates, lazily its knowledge."""

    manifest: PackManifest
    directory: Path
    schemas: Mapping[str, type[BaseModel]]
    queries: QueryLibrary
    hooks: Mapping[str, RowsHook] = field(default_factory=dict)
    _graph: Graph | None = field(default=None, repr=False)
    _rows: dict[str, tuple[Mapping[str, Node], ...]] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        """The pack's name (``advisor``)."""
        return self.manifest.name

    @property
    def tasks(self) -> list[TaskSpec]:
        """The pack's tasks, in manifest order."""
        return list(self.manifest.tasks)

    @property
    def open_ended_task(self) -> TaskSpec | None:
        """The pack's catch-all task (``open_ended: true``), if it has one."""
        return next((task for task in self.manifest.tasks if task.open_ended), None)

    def task(self, name: str) -> TaskSpec:
        """The task called ``name``; KeyError lists the pack's tasks."""
        for task in self.manifest.tasks:
            if task.name == name:
                return task
        known = ", ".join(task.name for task in self.manifest.tasks)
        raise KeyError(f"domain {self.name} has no task {name!r}; its tasks are {known}")

    def schema_for(self, task: str) -> type[BaseModel]:
        """The pydantic schema of ``task``."""
        return self.schemas[self.task(task).name]

    def query(self, name: str) -> QueryTemplate:
        """The query template ``queries/<name>.rq`` (or ``<name>.sql`` for a database pack)."""
        return self.queries[name]

    @property
    def has_own_knowledge(self) -> bool:
        """Whether the pack ships its knowledge (a graph or a database; else: the scene graph)."""
        return bool(self.manifest.knowledge) or self.manifest.database is not None

    @property
    def on_database(self) -> bool:
        """Whether the pack grounds on its SQLite database (SQL templates) rather than RDF."""
        return self.manifest.database is not None

    def open_backend(self) -> GroundingBackend:
        """A read-only runner over the pack's knowledge: its database, else its graph.

        The caller closes it. PackError when the pack has neither (it uses the scene graph) or
        its database script does not run.
        """
        spec = self.manifest.database
        if spec is None:
            return ReadOnlyQueryRunner(
                self.knowledge_graph(),
                self.manifest.prefixes,
                version=lambda: self.name,
                template_timeout_s=TEMPLATE_TIMEOUT_S,
            )
        try:
            database = build_database(self.directory / spec.script)
        except QueryFileError as error:
            raise PackError(f"domain {self.name}: {error}") from error
        return ReadOnlySqlRunner(database, spec.tables)

    def knowledge_graph(self) -> Graph:
        """The pack's knowledge graph (Oxigraph), loaded on first use; PackError if it has none."""
        if not self.manifest.knowledge:
            raise PackError(f"domain {self.name} has no knowledge graph of its own")
        if self._graph is None:
            graph = new_graph()
            for name in self.manifest.knowledge:
                try:
                    load_turtle(graph, self.directory / name)
                except TurtleError as error:
                    raise PackError(f"domain {self.name}: {error}") from error
            self._graph = graph
        return self._graph

    def select(self, text: str) -> tuple[Mapping[str, Node], ...]:
        """The rows (column -> term) of the SPARQL SELECT ``text`` over :meth:`knowledge_graph`.

        Kept per query text, as the graph does not change once loaded: every tree set up on
        this pack (its lexicons' queries) asks them again. Raises what :meth:`knowledge_graph`
        and the store raise.
        """
        rows = self._rows.get(text)
        if rows is None:
            found = self.knowledge_graph().query(text)
            rows = self._rows[text] = tuple(
                MappingProxyType(row.asdict()) for row in found if isinstance(row, ResultRow)
            )
        return rows


def load_pack(directory: str | Path) -> DomainPack:
    """Load and check the pack in ``directory``; raise :class:`PackError` saying what is wrong."""
    folder = Path(directory)
    manifest_path = folder / MANIFEST
    manifest = _read_manifest(manifest_path)
    schemas_module = _import_schemas(folder / manifest.schemas, manifest.name)
    schemas = {task.name: _schema(schemas_module, task, manifest_path) for task in manifest.tasks}
    queries = _load_queries(folder / "queries", manifest.name, sql=manifest.database is not None)
    _check_references(manifest, schemas, queries, manifest_path, folder)
    hooks = {task.name: _hook(schemas_module, task, manifest_path) for task in manifest.tasks}
    log.debug("loaded domain pack %s from %s", manifest.name, folder)
    return DomainPack(
        manifest=manifest,
        directory=folder,
        schemas=schemas,
        queries=queries,
        hooks={name: hook for name, hook in hooks.items() if hook is not None},
    )


def _read_manifest(path: Path) -> PackManifest:
    if not path.is_file():
        raise PackError(f"{path} not found: a domain pack is a directory with a {MANIFEST}")
    expected = "a mapping of name, description, tasks, ..."
    return read_yaml_model(path, PackManifest, PackError, expected=expected)


def _import_schemas(path: Path, pack: str) -> ModuleType:
    """Import the pack's schema file under a private module name (packs never collide)."""
    if not path.is_file():
        raise PackError(f"domain {pack}: schema file {path} not found (pack.yaml `schemas`)")
    module_name = f"cogtree_pack_{pack}_{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PackError(f"domain {pack}: cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:
        # a broken schema file must not take the other packs, nor the program, down
        del sys.modules[module_name]
        raise PackError(
            f"domain {pack}: {path} failed to import: {type(error).__name__}: {error}; "
            "a schema file defines pydantic models and must not exit or run a program"
        ) from error
    return module


def _schema(module: ModuleType, task: TaskSpec, manifest: Path) -> type[BaseModel]:
    found = getattr(module, task.schema_name, None)
    if not (isinstance(found, type) and issubclass(found, BaseModel)):
        raise PackError(
            f"{manifest}: task {task.name} names schema {task.schema_name!r}, which is not a "
            f"pydantic model class in {module.__file__}"
        )
    return found


def _hook(module: ModuleType, task: TaskSpec, manifest: Path) -> RowsHook | None:
    if task.post_process is None:
        return None
    found = find_hook(module, task.post_process)
    if found is None:
        raise PackError(
            f"{manifest}: task {task.name} names post_process {task.post_process!r}, which is "
            f"not a function in {module.__file__}"
        )
    return found


def _load_queries(folder: Path, pack: str, *, sql: bool) -> QueryLibrary:
    """The pack's ``.rq`` templates, and its ``.sql`` ones when it grounds on a database."""
    if not folder.is_dir():
        return QueryLibrary({})
    try:
        found: dict[str, QueryTemplate] = {
            path.stem: NamedQuery.from_file(path) for path in sorted(folder.glob("*.rq"))
        }
        if sql:
            found.update((path.stem, SqlTemplate.from_file(path)) for path in folder.glob("*.sql"))
    except QueryFileError as error:
        raise PackError(f"domain {pack}: {error}") from error
    return QueryLibrary(found)


def _check_references(
    manifest: PackManifest,
    schemas: Mapping[str, type[BaseModel]],
    queries: QueryLibrary,
    path: Path,
    folder: Path,
) -> None:
    problems: list[str] = []
    for name, lexicon in manifest.lexicons.items():
        try:
            source = lexicon.source()
        except ValueError as error:
            problems.append(f"lexicon {name}: {error}")
            continue
        if source == "query" and lexicon.query not in queries:
            problems.append(f"lexicon {name}: query {lexicon.query!r} is not in queries/")
        if source == "query" and not manifest.knowledge:
            problems.append(
                f"lexicon {name}: a query lexicon runs over the pack's knowledge graph; list "
                "its Turtle files under `knowledge:` or use `scene:` or `terms:` instead"
            )
    if manifest.constraints and manifest.constraints not in queries:
        problems.append(f"constraints: query {manifest.constraints!r} is not in queries/")
    names = [task.name for task in manifest.tasks]
    if len(set(names)) != len(names):
        problems.append(f"task names repeat: {', '.join(names)}")
    open_ended = [task.name for task in manifest.tasks if task.open_ended]
    if len(open_ended) > 1:
        problems.append(f"only one task may be open_ended; found {', '.join(open_ended)}")
    for task in manifest.tasks:
        fields = schemas[task.name].model_fields
        for slot, spec in task.slots.items():
            if slot not in fields:
                problems.append(
                    f"task {task.name}: slot {slot!r} is not a field of {task.schema_name} "
                    f"(fields: {', '.join(fields)})"
                )
            if spec.lexicon and spec.lexicon not in manifest.lexicons:
                problems.append(
                    f"task {task.name}: slot {slot} uses unknown lexicon {spec.lexicon!r}"
                )
        if task.query and task.query not in queries:
            problems.append(f"task {task.name}: query template {task.query!r} is not in queries/")
        if task.perception and task.perception not in SCENE_QUESTIONS:
            problems.append(f"task {task.name}: no scene question is named {task.perception!r}")
        if task.grounding == "knowledge_query" and not (task.query or task.perception):
            problems.append(
                f"task {task.name}: a knowledge_query task needs a `query` template or a "
                "`perception`"
            )
        if task.plan is not None:
            unknown = [
                slot
                for slot in task.plan.args.values()
                if slot not in fields and slot != SPEAKER_ARGUMENT
            ]
            if unknown:
                problems.append(f"task {task.name}: plan uses unknown slot(s) {unknown}")
    if manifest.database is not None and not (folder / manifest.database.script).is_file():
        problems.append(f"database script {manifest.database.script} not found next to {MANIFEST}")
    if manifest.database is not None and manifest.knowledge:
        problems.append("a pack grounds on `knowledge` (RDF) or on `database` (SQLite), not both")
    for name in manifest.knowledge:
        if not (folder / name).is_file():
            problems.append(f"knowledge file {name} not found next to {MANIFEST}")
    if problems:
        raise PackError(f"{path}: " + "; ".join(problems))
