"""``RunQuery``: run the turn's query read-only, in the background, and keep its rows as evidence.

Every query, a bound template or a model's, goes through the pack's grounding backend
(:mod:`knowledge.packs.grounding_backend`): a
:class:`~knowledge.scene.readonly_query.ReadOnlyQueryRunner` on the pack's own knowledge graph
(SELECT/ASK only, whitelisted namespaces, at most 200 rows, a time limit), a
:class:`~knowledge.packs.sql_query.ReadOnlySqlRunner` on its SQLite database (read only by the
engine, declared tables, a deadline, capped rows), or the scene graph
(:meth:`SceneGraph.query_readonly`) for packs whose knowledge it is. A model's SPARQL runs in the
runner's worker process (killed at its time limit), a template in-process; either way the call
waits on the ``workers`` pool, and the node (a
:class:`~behaviours.background.BackgroundWork`) polls it and never blocks a tick. An ASK
query's answer is kept as one row ``{"answer": "yes" | "no"}``.

Constraints hold on every pack query that returns rows, on the things themselves: when the
query carries the pack's bound constraints query (what the person must not be offered: dishes
with their allergens, say), that query runs on the same worker after it, in-process, and

- on a knowledge graph, the query runs again on a view of the graph without the things it lists
  (:mod:`knowledge.scene.graph_view`: no triple of theirs, nor of their ingredient lines), and
  only the rows it finds there too are kept: a row a query could find only with a forbidden
  dish present is dropped, whatever words it projects ("chicken satay", cut from the dish's
  label); a row that reads otherwise without them (a count, a "none") is dropped too;
- on any backend, every row with a cell naming one of the things (its id, its label or the
  id's local name, as whole words) is dropped,

before the rows become evidence, a template's rows and a model's alike. If the constraints
cannot be checked, or name more things than one answer holds, the query fails: unfiltered rows
are no evidence. An ASK query runs on the whole graph (a yes or no names nothing, and on the
view "does any dish hold peanuts?" would be answered no) and is kept; scene-graph queries have
no constraints query yet.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.answer_node import task_on_blackboard
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_pack import DomainPack, PackError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.grounding_backend import GroundingBackend
from cogtree.knowledge.scene.graph_view import nodes_named
from cogtree.knowledge.scene.readonly_query import (
    QueryOutcome,
    QueryRefused,
    ReadOnlyQueryRunner,
)
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.evidence_needs import MODEL_QUERY, TurnTask, task_rows
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem, GeneratedQuery
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Answer:
    """A query's outcome (constrained rows) and the ids and labels its constraints withheld."""

    outcome: QueryOutcome
    withheld: tuple[str, ...] = ()


class RunQuery(keys.DeclaredKeys, BackgroundWork[Answer]):
    """Run ``/turn/query`` read-only and append its rows to ``/turn/evidence``.

    Handles: ``domains``, ``workers``; ``scene_graph`` (optional: needed for queries on the
    scene graph).
    Reads ``/turn/domain``, ``/turn/query``, ``/turn/evidence``, ``/turn/intent`` and
    ``/memory/working`` (the rows of the task's own template go through its pack's
    ``post_process`` hook with what memory binds). Writes ``/turn/evidence``: the bundle so
    far plus one :class:`EvidenceItem` (source: the template's name or ``model-query``; the
    query text; the rows).
    SUCCESS: the query ran; an empty result is evidence too ("nothing found"). FAILURE: no
    query, no graph to run it on, or the runner refused it or stopped it at its time limit;
    the feedback says why. RUNNING: the query is running on a worker. Interrupted, it drops
    the result (a running query cannot be stopped; the runner bounds it).
    """

    first_poll_next_tick = False
    reads = (keys.DOMAIN, keys.QUERY, keys.INTENT, keys.WORKING)
    writes = (keys.EVIDENCE,)

    def __init__(self, name: str = "RunQuery") -> None:
        super().__init__(name)
        self.domains: DomainRegistry | None = None
        self.scene: SceneGraph | None = None
        self.domain_key = self.key_of(keys.DOMAIN)
        self.query_key = self.key_of(keys.QUERY)
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self.intent_key = self.key_of(keys.INTENT)
        self.working_key = self.key_of(keys.WORKING)
        self._runners: dict[str, GroundingBackend] = {}
        self._runners_lock = threading.Lock()  # runners are made on worker threads
        self._query: GeneratedQuery | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take ``domains``, ``workers`` and the optional ``scene_graph``."""
        super().setup(**kwargs)
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Future[Answer] | Status:
        """Submit the query to the graph it targets; FAILURE at once when it cannot run."""
        assert self.domains is not None
        query = keys.read(self.blackboard, self.query_key)
        if not isinstance(query, GeneratedQuery):
            return self._fail("no query on /turn/query (GenerateQuery writes it)")
        self._query = query
        if query.target == "scene_graph":
            if self.scene is None:
                return self._fail(
                    "the query targets the scene graph, and no `scene_graph` handle was given"
                )
            return self.submit(_on_scene, self.scene, query)
        domain = keys.read(self.blackboard, self.domain_key)
        if not isinstance(domain, str) or domain not in self.domains:
            return self._fail(f"domain {domain!r} is not loaded")
        return self.submit(self._run_on_pack, self.domains.get(domain), query)

    def waiting(self, waited: float) -> str:
        """Which query runs on which graph."""
        assert self._query is not None
        return f"running the {self._describe(self._query)}"

    def on_error(self, error: Exception) -> Status:
        """FAILURE: the query was refused, its pack could not load, or it crashed (logged)."""
        assert self._query is not None
        if isinstance(error, (QueryRefused, PackError)):
            return self._fail(f"the {self._describe(self._query)} did not run: {error}")
        log.error("%s: the query crashed", self.name, exc_info=error)
        return self._fail(f"the query crashed: {type(error).__name__}: {error}")

    def on_cancel(self, work: Pending[Answer]) -> None:
        """Forget the query (its result is discarded)."""
        work.cancel()
        self.feedback_message = "interrupted; the query's result is discarded"

    def finish(self, answer: Answer) -> Status:
        """SUCCESS: the rows are kept as evidence (none is an answer too)."""
        assert self._query is not None
        outcome = answer.outcome
        self._remember(self._query, answer)
        rows = len(outcome.rows)
        more = " (more rows were cut off)" if outcome.truncated else ""
        self.feedback_message = (
            f"{self._describe(self._query)}: {rows} row(s){more} in {outcome.elapsed_ms:.1f} ms"
        )
        return Status.SUCCESS

    def shutdown(self) -> None:
        """Release the runners."""
        with self._runners_lock:
            runners, self._runners = list(self._runners.values()), {}
        for runner in runners:
            runner.close()

    def _run_on_pack(self, pack: DomainPack, query: GeneratedQuery) -> Answer:
        """On the worker: the pack's runner (made, and its graph loaded, on first use) runs."""
        with self._runners_lock:
            runner = self._runners.get(pack.name)
            if runner is None:
                # a pack's graph or database does not change: opened once, kept for the session
                runner = pack.open_backend()
                self._runners[pack.name] = runner
        template = query.source == "template"
        outcome = runner.run(query.text, template=template)
        if query.constraints is None or outcome.kind == "ask":
            return Answer(outcome)
        try:
            forbidden = runner.run(query.constraints, template=True)
        except QueryRefused as refusal:
            raise QueryRefused(f"the user's constraints could not be checked: {refusal}") from None
        if forbidden.truncated:  # an incomplete list of what is forbidden filters nothing safely
            raise QueryRefused(
                "the user's constraints could not be checked: they name more things than the "
                "runner returns at once"
            )
        rows = allowed_rows(outcome.rows, forbidden.rows)
        if isinstance(runner, ReadOnlyQueryRunner):  # a graph: the things themselves hidden
            cells = (cell for row in forbidden.rows for cell in row.values())
            hidden = nodes_named(cells, runner.prefixes)
            if hidden:
                again = runner.run(query.text, template=template, without=hidden)
                rows = rows_found_again(rows, again.rows)
        if len(rows) < len(outcome.rows):
            log.info(
                "%s: dropped %d row(s) naming what the user must not be offered",
                self.name,
                len(outcome.rows) - len(rows),
            )
        withheld = {cell for row in forbidden.rows for cell in row.values() if cell}
        return Answer(outcome.model_copy(update={"rows": rows}), tuple(sorted(withheld)))

    def _remember(self, query: GeneratedQuery, answer: Answer) -> None:
        outcome = answer.outcome
        rows = outcome.rows
        if outcome.kind == "ask":
            rows = [{"answer": "yes" if outcome.boolean else "no"}]
        from_template = query.source == "template" and query.template
        source = query.template if from_template and query.template else MODEL_QUERY
        task = self._task()
        if task is not None and from_template and task.spec.query == query.template:
            working = keys.read(self.blackboard, self.working_key)
            rows = task_rows(task, rows, working if isinstance(working, WorkingContext) else None)
        item = EvidenceItem(
            source=source, query=query.text, rows=rows, withheld=list(answer.withheld)
        )
        bundle = keys.read(self.blackboard, self.evidence_key)
        items = list(bundle.items) if isinstance(bundle, EvidenceBundle) else []
        self.blackboard.set(self.evidence_key, EvidenceBundle(items=[*items, item]))

    def _task(self) -> TurnTask | None:
        """The turn's task, whose pack may post-process its template's rows."""
        assert self.domains is not None
        try:
            return task_on_blackboard(
                self.domains, self.blackboard, self.domain_key, self.intent_key
            )
        except LookupError:
            return None

    def _describe(self, query: GeneratedQuery) -> str:
        what = f"template {query.template}" if query.source == "template" else "model's query"
        where = "the scene graph" if query.target == "scene_graph" else "the domain's graph"
        return f"{what} on {where}"

    def _fail(self, reason: str) -> Status:
        self.feedback_message = reason
        return Status.FAILURE


def _on_scene(scene: SceneGraph, query: GeneratedQuery) -> Answer:
    """On the worker: run ``query`` on the scene graph (no constraints apply there)."""
    return Answer(scene.query_readonly(query.text, query.source == "template"))


def rows_found_again(
    rows: Sequence[dict[str, str | None]], again: Sequence[dict[str, str | None]]
) -> list[dict[str, str | None]]:
    """``rows`` that are among ``again`` too (each as often as it is there), in their order.

    ``rows``: a query's rows on the whole graph; ``again``: the same query's on the graph
    without the forbidden things. A row kept is true of the graph and found without them.
    """
    left = Counter(_row_key(row) for row in again)
    kept = []
    for row in rows:
        key = _row_key(row)
        if left[key] > 0:
            left[key] -= 1
            kept.append(row)
    return kept


def _row_key(row: dict[str, str | None]) -> tuple[tuple[str, str | None], ...]:
    return tuple(sorted(row.items(), key=lambda item: item[0]))


def allowed_rows(
    rows: Sequence[dict[str, str | None]], forbidden: Sequence[dict[str, str | None]]
) -> list[dict[str, str | None]]:
    """``rows`` without those naming a thing of ``forbidden`` (the constraints query's rows).

    A cell names a thing when it holds one of the thing's cells (its id, its label) or the id's
    local name as whole words, whatever the case, punctuation or spacing: "Chicken satay, Pad
    thai", "PAD-THAI", "pad_thai" and the full IRI ``https://…#pad_thai`` all name the dish
    ``adv:pad_thai`` labelled "Pad thai" (``adv:pad_thai_2`` does not).
    """
    names = sorted(
        {
            name
            for row in forbidden
            for cell in row.values()
            if cell
            for name in (_words(cell), _words(re.split(r"[#/:]", cell)[-1]))
            if name
        },
        key=len,
        reverse=True,
    )
    if not names:
        return list(rows)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(name) for name in names) + r")(?!\w)")
    return [
        row
        for row in rows
        if not any(cell and pattern.search(_words(cell)) for cell in row.values())
    ]


def _words(text: str) -> str:
    """``text`` lowercased, every run of punctuation and spaces one space (``_`` is kept)."""
    return re.sub(r"\W+", " ", text.lower()).strip()
