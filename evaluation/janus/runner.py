"""Runs each module's node on each evaluation item, per LLM backend, and scores the results.

Every item builds its node(s) afresh on a cleared blackboard and ticks them with
:class:`~trees.testing.TreeHarness` until they finish. What runs, per module:

- **scope**: ``DetectScope`` on ``/turn/utterance``; its ``/turn/domain`` is compared.
- **intent**: ``RecognizeIntent`` with ``/turn/domain`` preset to the item's domain; its
  ``/turn/intent`` task and slots are compared *as written*, i.e. the user's words (the
  contract of :class:`~knowledge.understanding.turn_state.IntentFrame`). PostProcess is not run:
  resolving the words to ids is measured by the readiness and query sets.
- **readiness**: ``RecognizeIntent`` -> ``PostProcess`` -> ``TaskReadinessGate`` on the
  item's utterance (``/turn/domain`` preset, ``/session/pending`` preset for follow-up turns),
  so ambiguous and unresolved referents are found in the scenario's world as in a real turn;
  ``/turn/control`` is compared.
- **query**: ``GenerateQuery`` with ``/turn/intent``, ``/turn/resolved`` and ``/turn/task``
  preset from the item's resolved ids; ``/turn/query`` is run by a
  :class:`~knowledge.scene.readonly_query.ReadOnlyQueryRunner` on the pack's graph (or the
  scenario's belief) and its rows are compared with the reference rows. A second run withholds
  the packs' templates, so that every query is model-written (JANUS's query generation).

Handles (:class:`~trees.handles.Handles`): ``domains`` (the shipped packs), ``scene_graph``
(the belief of the item's scenario, built once per scenario), ``memory`` (a MemoryStore in a
temporary directory) and ``llm``.

Backends: ``none`` (fast paths alone; where a model is needed the node's safe decision is its
answer), ``scripted`` (an ORACLE: every model call is answered with the item's reference in
the node's decision schema, so it measures the cascade and the guards, not a model),
``llama-cpp`` (SmolLM2-135M: a tiny model, not a quality figure) and ``ollama``.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import py_trees
from pydantic import ValidationError

from cogtree.behaviours import keys
from cogtree.behaviours.actions.grounding.post_process import PostProcess
from cogtree.behaviours.actions.grounding.query_generation import SCENE_PREFIXES, GenerateQuery
from cogtree.behaviours.gates.evidence import NeedsEvidence
from cogtree.behaviours.gates.intent import NO_TASK, RecognizeIntent
from cogtree.behaviours.gates.recall import SufficiencyGate
from cogtree.behaviours.gates.scope import DetectScope
from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.evaluation import metrics
from cogtree.evaluation.janus.datasets import (
    GroundingItem,
    IntentItem,
    Module,
    QueryItem,
    ReadinessItem,
    ScopeItem,
    SufficiencyItem,
)
from cogtree.evaluation.janus.memory_worlds import (
    EVAL_NOW,
    held_answers,
    remembering,
    working_context,
)
from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.scripted import Script, ScriptedReply
from cogtree.knowledge.llm.types import CallRecord
from cogtree.knowledge.packs.domain_pack import TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.readonly_query import QueryRefused, ReadOnlyQueryRunner
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import (
    GateRationale,
    GeneratedQuery,
    IntentFrame,
    PendingTask,
    SlotResolution,
)
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, ScenarioError, load_scenario
from cogtree.trees.handles import Handles
from cogtree.trees.testing import (
    BlackboardView,
    TreeHarness,
    mock_blackboard,
    parsed_first,
    scripted_llm,
)

log = logging.getLogger(__name__)

BACKENDS = ("none", "scripted", "llama-cpp", "ollama")
"""The backends ``cogtree eval modules`` can evaluate."""

BACKEND_LABELS = {
    "none": "none (fast paths only)",
    "scripted": "scripted ORACLE (measures the cascade and guards, not a model)",
    "llama-cpp": "llama-cpp SmolLM2-135M (tiny model: not a quality figure)",
    "ollama": "ollama",
}
"""How each backend is named in the report."""

MAX_TICKS = 500
"""A node that has not finished after this many ticks counts as a failed item."""

TICK_PERIOD_S = 0.02
"""Pause between ticks: scene-graph lookups run on worker threads, like model calls."""

WITHHELD = "templates withheld"
"""The variant name of a query run in which every query is model-written."""

ORACLE_REPEATS = 3
"""Each oracle answer is scripted this many times (retries and revisions ask again)."""

Progress = Callable[[str, int, int], None]
"""``progress(module, done, total)``, called after each item."""


@dataclass
class ItemResult:
    """One item's outcome: what was expected and predicted, who decided, what it cost."""

    index: int
    expected: str
    predicted: str
    correct: bool
    source: str | None = None
    calls: list[CallRecord] = field(default_factory=list)
    slots: metrics.SlotCounts | None = None
    query: bool | None = None
    valid: bool | None = None
    overlap: float | None = None
    why: str = ""
    error: str = ""
    seconds: float = 0.0
    """Wall time of the item: building and ticking its node(s), model calls included."""


@dataclass
class ModuleScore:
    """The Table 4 figures of one module on one backend."""

    module: Module
    backend: str
    items: list[ItemResult]
    elapsed_s: float
    label: str = ""
    variant: str = ""

    @property
    def title(self) -> str:
        """The module's name in a report, with its variant (``query (templates withheld)``)."""
        return f"{self.module} ({self.variant})" if self.variant else self.module

    @property
    def accuracy(self) -> float | None:
        """Domain, task or readiness accuracy (query generation: None)."""
        if self.module == "query":
            return None
        return metrics.rate([item.correct for item in self.items])

    @property
    def slot_counts(self) -> metrics.SlotCounts | None:
        """Micro-summed parameter counts (intent only)."""
        if self.module != "intent":
            return None
        total = metrics.SlotCounts()
        for item in self.items:
            total += item.slots or metrics.SlotCounts()
        return total

    @property
    def validity(self) -> float | None:
        """Share of generated queries the read-only runner accepted and ran (query only).

        A model's query that GenerateQuery's guard refused (it runs the runner's checks) counts
        as generated and not valid; an item with no query at all does not count.
        """
        return metrics.rate([bool(item.valid) for item in self.items if item.query])

    @property
    def queries(self) -> int:
        """How many items got a query at all."""
        return sum(1 for item in self.items if item.query)

    @property
    def overlap(self) -> float | None:
        """Mean result overlap over all items (no query: overlap with no rows)."""
        return metrics.mean([item.overlap for item in self.items if item.overlap is not None])

    def share(self, source: str) -> float | None:
        """Share of items the node under test decided by ``source``."""
        return metrics.rate([item.source == source for item in self.items])

    @property
    def calls(self) -> list[CallRecord]:
        """Every model call the items made (the node under test and those before it)."""
        return [call for item in self.items for call in item.calls]

    @property
    def errors(self) -> list[ItemResult]:
        """Items that could not be run (counted as wrong)."""
        return [item for item in self.items if item.error]


def select(items: Sequence[Any], limit: int | None) -> list[tuple[int, Any]]:
    """``(line, item)`` pairs: all, or ``limit`` spread evenly over the file (every domain)."""
    numbered = list(enumerate(items, start=1))
    if limit is None or limit >= len(numbered):
        return numbered
    return [numbered[position * len(numbered) // limit] for position in range(max(limit, 0))]


class BackendUnavailable(RuntimeError):
    """The backend cannot run here (no server, no model file); the message says why."""


def client_for(
    backend: str, judge: bool | None = None, *, config: LLMConfig | None = None
) -> LLMClient | None:
    """A client whose every module uses ``backend``; None for ``scripted`` (one per item).

    ``config``: the manifest to start from (the user's model and server); None: the packaged one.

    A model backend loads its model here, once: a load under a busy machine can outlast a
    tree's setup timeout, which would fail every run that shares the client.

    ``judge`` switches the plan judge on or off (None: as the manifest says). Raises
    :class:`BackendUnavailable` when a model backend does not answer its probe.
    """
    if backend == "scripted":
        return None
    config = (config or LLMConfig.load()).with_backend(backend)
    if judge is not None:
        config = config.with_judge(judge)
    client = LLMClient(config)
    if backend != "none":
        module = config.module_names[0]
        status = client.backend_for(module).probe(client.settings_for(module))
        if not status.ready:
            client.close()
            raise BackendUnavailable(f"{backend}: {status.detail}")
        for name in config.module_names:
            client.prepare(name)  # load the model now, not under a tree's setup timeout
    return client


def backend_label(backend: str, client: LLMClient | None) -> str:
    """The report's name for ``backend`` (the Ollama model tag when there is one)."""
    if backend == "ollama" and client is not None:
        return f"ollama {client.settings_for('intent').model}"
    return BACKEND_LABELS.get(backend, backend)


def preset_resolutions(
    spec: TaskSpec, slots: Mapping[str, str | list[str]]
) -> dict[str, SlotResolution]:
    """An item's slots (ids as the reference resolved them) as PostProcess would write them."""
    return {
        slot: SlotResolution(
            slot=slot,
            said=value,
            kind=spec.slots[slot].resolve if slot in spec.slots else "text",
            ids=value if isinstance(value, list) else [value],
        )
        for slot, value in slots.items()
    }


class ModuleRunner(Closeable):
    """Runs the module sets on one backend; owns the worlds, memory, client and ``workers``."""

    def __init__(
        self,
        backend: str,
        *,
        domains: DomainRegistry | None = None,
        config: LLMConfig | None = None,
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
        self.backend = backend
        self.domains = domains or DomainRegistry.discover()
        self.client = client_for(backend, config=config)
        self.label = backend_label(backend, self.client)
        self._worlds: dict[str, SimExecutor] = {}
        self._scenarios: dict[str, Scenario] = {}
        self.handles = Handles(domains=self.domains)
        self.handles.open_memory()
        self.handles.open_workers(name="cogtree-eval")
        settle = 10.0
        if self.client is not None and backend != "none":
            settings = self.client.settings_for("intent")
            settle = settings.timeout_s * 2 + 5.0
        self.settle_timeout_s = settle

    def close(self) -> None:
        """Close the worlds, the handles (workers, memory and its folder) and the client."""
        for world in self._worlds.values():
            world.close()
        self._worlds = {}
        self.handles.close()
        if self.client is not None:
            self.client.close()

    # -- modules ------------------------------------------------------------------------------

    def run_scope(
        self,
        items: Sequence[ScopeItem],
        *,
        limit: int | None = None,
        progress: Progress | None = None,
    ) -> ModuleScore:
        """Domain-selection accuracy of DetectScope."""
        return self._run("scope", items, self._scope_item, limit, progress)

    def run_intent(
        self,
        items: Sequence[IntentItem],
        *,
        limit: int | None = None,
        progress: Progress | None = None,
    ) -> ModuleScore:
        """Task accuracy and parameter P/R/F1 of RecognizeIntent."""
        return self._run("intent", items, self._intent_item, limit, progress)

    def run_readiness(
        self,
        items: Sequence[ReadinessItem],
        *,
        limit: int | None = None,
        progress: Progress | None = None,
    ) -> ModuleScore:
        """Readiness accuracy of TaskReadinessGate after RecognizeIntent and PostProcess."""
        return self._run("readiness", items, self._readiness_item, limit, progress)

    def run_query(
        self,
        items: Sequence[QueryItem],
        *,
        limit: int | None = None,
        progress: Progress | None = None,
        templates: bool = True,
    ) -> ModuleScore:
        """Validity rate and result overlap of GenerateQuery.

        With ``templates=False`` the packs' query templates are withheld, so every query is
        model-written (JANUS's query generation); the fast path then has nothing to bind.
        """
        domains = self.domains if templates else self._without_templates()

        def run_item(index: int, item: QueryItem) -> ItemResult:
            return self._query_item(index, item, domains)

        score = self._run("query", items, run_item, limit, progress)
        score.variant = "" if templates else WITHHELD
        return score

    def run_grounding(
        self,
        items: Sequence[GroundingItem],
        *,
        limit: int | None = None,
        progress: Progress | None = None,
    ) -> ModuleScore:
        """ρ accuracy: NeedsEvidence's ground / reuse decision after the turn's gates."""
        return self._run("grounding", items, self._grounding_item, limit, progress)

    def run_sufficiency(
        self,
        items: Sequence[SufficiencyItem],
        *,
        limit: int | None = None,
        progress: Progress | None = None,
    ) -> ModuleScore:
        """Sufficiency accuracy: SufficiencyGate's sufficient / archive decision."""
        return self._run("sufficiency", items, self._sufficiency_item, limit, progress)

    def _run(
        self,
        module: Module,
        items: Sequence[Any],
        run_item: Callable[[int, Any], ItemResult],
        limit: int | None,
        progress: Progress | None,
    ) -> ModuleScore:
        started = time.perf_counter()
        chosen = select(items, limit)
        results: list[ItemResult] = []
        for done, (index, item) in enumerate(chosen, start=1):
            item_started = time.perf_counter()
            try:
                result = run_item(index, item)
            except Exception as error:  # one broken item must not end the evaluation
                log.warning("%s item %d failed to run: %s", module, index, error, exc_info=True)
                result = ItemResult(
                    index, "", "error", False, error=f"{type(error).__name__}: {error}"
                )
            result.seconds = time.perf_counter() - item_started
            results.append(result)
            if progress is not None:
                progress(module, done, len(chosen))
        elapsed = round(time.perf_counter() - started, 3)
        return ModuleScore(module, self.backend, results, elapsed, label=self.label)

    @contextmanager
    def run_node(
        self,
        node: py_trees.behaviour.Behaviour,
        presets: Mapping[str, Any],
        oracle: Mapping[str, Mapping[str, Any]],
        *,
        extra_handles: Mapping[str, Any] | None = None,
    ) -> Iterator[_Run]:
        """Tick ``node`` on ``presets`` as the module sets are ticked (no world).

        For sets evaluated outside this class. ``oracle``: module -> the scripted answer.
        """
        with self._ticked(node, presets, oracle, None, extra_handles=extra_handles) as run:
            yield run

    # -- one item per module ------------------------------------------------------------------

    def _scope_item(self, index: int, item: ScopeItem) -> ItemResult:
        oracle = {"scope_detection": {"domain": item.domain, "confidence": 1.0}}
        node = DetectScope()
        with self._ticked(node, {keys.UTTERANCE.name: item.utterance}, oracle, None) as run:
            predicted = str(run.board.get(keys.DOMAIN.name, "unset"))
        return ItemResult(
            index,
            item.domain,
            predicted,
            predicted == item.domain,
            run.source,
            run.calls,
            why=run.why,
        )

    def _intent_item(self, index: int, item: IntentItem) -> ItemResult:
        oracle = {"intent": _intent_answer(item)}
        presets = {
            keys.UTTERANCE.name: item.utterance,
            keys.DOMAIN.name: item.domain,
            **self._speaker(item.scenario, item.speaker),
        }
        with self._ticked(RecognizeIntent(), presets, oracle, item.scenario) as run:
            frame = run.board.get(keys.INTENT.name)
        task = frame.task if isinstance(frame, IntentFrame) else None
        slots = dict(frame.slots) if isinstance(frame, IntentFrame) else {}
        return ItemResult(
            index,
            str(item.task),
            str(task),
            task == item.task,
            run.source,
            run.calls,
            slots=metrics.slot_counts(slots, item.slots),
            why=run.why,
        )

    def _readiness_item(self, index: int, item: ReadinessItem) -> ItemResult:
        oracle = {
            "intent": _intent_answer(item),
            "inner_speech": {"control": item.control, "missing": item.missing, "domain": None},
        }
        presets: dict[str, Any] = {
            keys.UTTERANCE.name: item.utterance,
            keys.DOMAIN.name: item.domain,
            **self._speaker(item.scenario, item.speaker),
        }
        if item.pending is not None:
            presets[keys.PENDING.name] = PendingTask(
                domain=item.domain,
                task=item.pending.task,
                slots=item.pending.slots,
                missing=item.pending.missing,
                said=item.pending.said,
                question=item.pending.question,
            )
        gate = TaskReadinessGate()
        chain = py_trees.composites.Sequence(
            "Readiness", memory=True, children=[RecognizeIntent(), PostProcess(), gate]
        )
        with self._ticked(chain, presets, oracle, item.scenario, judged=gate) as run:
            control = str(run.board.get(keys.CONTROL.name, "unset"))
        return ItemResult(
            index,
            item.control,
            control,
            control == item.control,
            run.source,
            run.calls,
            why=run.why,
        )

    def _query_item(self, index: int, item: QueryItem, domains: DomainRegistry) -> ItemResult:
        oracle = {"query_generation": {"sparql": item.reference_query}}
        pack = domains.get(item.domain)
        resolved = preset_resolutions(pack.task(item.task), item.slots)
        presets: dict[str, Any] = {
            keys.DOMAIN.name: item.domain,
            keys.INTENT.name: IntentFrame(
                domain=item.domain, task=item.task, slots=dict(item.slots), confidence=1.0
            ),
            keys.RESOLVED.name: resolved,
            **self._speaker(item.scenario, item.speaker),
        }
        try:
            presets[keys.TASK.name] = pack.schema_for(item.task).model_validate(item.slots)
        except ValidationError as error:  # the node then reads /turn/resolved alone
            log.info("query item %d: no task instance (%s)", index, error.error_count())
        with self._ticked(GenerateQuery(), presets, oracle, item.scenario, domains=domains) as run:
            query = run.board.get(keys.QUERY.name)
        # a query the guard refused (the runner's checks) was generated too, and is not valid
        generated = isinstance(query, GeneratedQuery) or run.vetoed
        rows: list[dict[str, str | None]] = []
        valid = False
        problem = ""
        if isinstance(query, GeneratedQuery):
            graph, prefixes = self._target(item, query)
            try:
                with ReadOnlyQueryRunner(graph, prefixes, timeout_s=10.0) as runner:
                    rows = runner.run(query.text, template=query.source == "template").rows
                valid = True
            except QueryRefused as refusal:
                problem = f"refused: {refusal}"
        overlap = metrics.result_overlap(rows, item.rows)
        return ItemResult(
            index,
            f"{len(item.rows)} rows",
            f"{len(rows)} rows" if valid else "refused" if generated else "no query",
            overlap == 1.0,
            run.source,
            run.calls,
            query=generated,
            valid=valid if generated else None,
            overlap=overlap,
            why=problem or run.why,
        )

    def _grounding_item(self, index: int, item: GroundingItem) -> ItemResult:
        oracle = {
            "intent": _intent_answer(item),
            "inner_speech": {"control": "Proceed", "missing": [], "domain": None},
        }
        speaker = self._speaker(item.scenario, item.speaker)
        presets: dict[str, Any] = {
            keys.UTTERANCE.name: item.utterance,
            keys.DOMAIN.name: item.domain,
            keys.HELD.name: held_answers(
                self.domains, item, speaker.get(keys.SPEAKER.name), EVAL_NOW
            ),
            keys.WORKING.name: working_context(item.facts),
            **speaker,
        }
        gate, ready = NeedsEvidence(), TaskReadinessGate()
        chain = py_trees.composites.Sequence(
            "Grounding", memory=True, children=[RecognizeIntent(), PostProcess(), ready, gate]
        )
        with self._ticked(
            chain,
            presets,
            oracle,
            item.scenario,
            judged=gate,
            extra_handles={"clock": lambda: EVAL_NOW},
        ) as run:
            rationale = run.board.get(keys.RATIONALE.key(node=keys.node_slug(gate.name)))
            control = run.board.get(keys.CONTROL.name)
            readiness = run.board.get(keys.RATIONALE.key(node=keys.node_slug(ready.name)))
        if isinstance(rationale, GateRationale):
            predicted = "query" if rationale.decision.get("needs_evidence") else "no query"
            why = rationale.rationale
        else:
            said = readiness.rationale if isinstance(readiness, GateRationale) else run.why
            predicted, why = f"not reached ({control})", said
        expected = "query" if item.ground else "no query"
        return ItemResult(
            index, expected, predicted, predicted == expected, run.source, run.calls, why=why
        )

    def _sufficiency_item(self, index: int, item: SufficiencyItem) -> ItemResult:
        oracle = {"sufficiency": {"sufficient": item.expected == "sufficient"}}
        presets: dict[str, Any] = {
            keys.UTTERANCE.name: item.utterance,
            keys.DOMAIN.name: item.domain,
            keys.INTENT.name: IntentFrame(
                domain=item.domain,
                task=item.task,
                slots=dict(item.slots),
                confidence=1.0,
                said=[item.utterance],
            ),
        }
        gate = SufficiencyGate()
        with (
            tempfile.TemporaryDirectory(prefix="cogtree-sufficiency-") as folder,
            remembering(Path(folder), item) as memory,
            self._ticked(gate, presets, oracle, None, extra_handles={"memory": memory}) as run,
        ):
            rationale = run.board.get(keys.RATIONALE.key(node=keys.node_slug(gate.name)))
        sufficient = isinstance(rationale, GateRationale) and rationale.decision.get("sufficient")
        predicted = "sufficient" if sufficient else "archive"
        return ItemResult(
            index,
            item.expected,
            predicted,
            predicted == item.expected,
            run.source,
            run.calls,
            why=rationale.rationale if isinstance(rationale, GateRationale) else run.why,
        )

    # -- shared machinery ---------------------------------------------------------------------

    @contextmanager
    def _ticked(
        self,
        root: py_trees.behaviour.Behaviour,
        presets: Mapping[str, Any],
        oracle: Mapping[str, Mapping[str, Any]],
        scenario: str | None,
        *,
        judged: py_trees.behaviour.Behaviour | None = None,
        domains: DomainRegistry | None = None,
        extra_handles: Mapping[str, Any] | None = None,
    ) -> Iterator[_Run]:
        """Tick ``root`` to the end on a fresh blackboard; yield what it wrote and cost.

        The blackboard is cleared when the block ends, so read it inside the block.
        """
        scripted = scripted_llm(_oracle_script(oracle)) if self.backend == "scripted" else None
        client = scripted.client if scripted is not None else self.client
        assert client is not None
        cursor = len(client.call_log)
        handles = {
            **self.handles.as_kwargs(),
            "domains": domains or self.domains,
            **(extra_handles or {}),
        }
        if scenario is not None:
            handles["scene_graph"] = self._belief(scenario)
        try:
            with mock_blackboard(presets) as board:
                node = judged or root
                turn = parsed_first(root) if keys.UTTERANCE.name in presets else root
                harness = TreeHarness(
                    turn, llm=client, handles=handles, settle_timeout_s=self.settle_timeout_s
                )
                try:
                    harness.tick_until(max_ticks=MAX_TICKS, period_s=TICK_PERIOD_S)
                    rationale = board.get(keys.RATIONALE.key(node=keys.node_slug(node.name)))
                    judged_by = rationale if isinstance(rationale, GateRationale) else None
                    calls, _ = client.call_log.since(cursor)
                    yield _Run(
                        board=board,
                        source=judged_by.source if judged_by else None,
                        vetoed=judged_by.vetoed if judged_by else False,
                        why=node.feedback_message,
                        calls=calls,
                    )
                finally:
                    harness.tree.shutdown()
        finally:
            if scripted is not None:
                scripted.client.close()

    def _without_templates(self) -> DomainRegistry:
        """The loaded packs with their knowledge tasks' query templates taken out."""
        packs = [
            replace(
                pack,
                manifest=pack.manifest.model_copy(
                    update={
                        "tasks": [
                            task.model_copy(update={"query": None}) for task in pack.manifest.tasks
                        ]
                    }
                ),
            )
            for pack in self.domains.packs
        ]
        return DomainRegistry(packs, active=self.domains.active.name)

    def _scenario(self, name: str) -> Scenario:
        """The scenario called ``name`` (read once per run)."""
        if name not in self._scenarios:
            try:
                self._scenarios[name] = load_scenario(name)
            except ScenarioError as error:
                raise ValueError(f"scenario {name!r}: {error}") from error
        return self._scenarios[name]

    def _belief(self, scenario: str) -> SceneGraph:
        """The main robot's belief at the start of ``scenario`` (built once per run)."""
        if scenario not in self._worlds:
            self._worlds[scenario] = SimExecutor.from_scenario(self._scenario(scenario))
        belief = self._worlds[scenario].belief
        assert belief is not None, "from_scenario builds a belief by default"
        return belief

    def _speaker(self, scenario: str | None, speaker: str | None) -> dict[str, str]:
        """``/turn/speaker``: the item's, else the scenario request's speaker."""
        if speaker is None and scenario is not None:
            speaker = self._scenario(scenario).request.speaker
        return {keys.SPEAKER.name: speaker} if speaker else {}

    def _target(self, item: QueryItem, query: GeneratedQuery) -> tuple[Any, Mapping[str, str]]:
        """The graph a query runs on and its allowed prefixes."""
        pack = self.domains.get(item.domain)
        if query.target == "domain_kg" and pack.has_own_knowledge:
            return pack.knowledge_graph(), pack.manifest.prefixes
        if item.scenario is None:
            raise ValueError(f"a {item.domain} query runs on the scene graph: name a scenario")
        return self._belief(item.scenario).graph, SCENE_PREFIXES


@dataclass
class _Run:
    """What one ticked item left: the blackboard view, the judged node's source, the calls."""

    board: BlackboardView
    source: str | None
    vetoed: bool
    why: str
    calls: list[CallRecord]


def _intent_answer(item: IntentItem) -> dict[str, Any]:
    """The oracle's intent answer: the item's task (or none) and its slots as said."""
    return {"task": item.task or NO_TASK, "slots": dict(item.slots), "confidence": 1.0}


def _oracle_script(answers: Mapping[str, Mapping[str, Any]]) -> Script:
    """Each module's reference answer, repeated, with an oracle rationale."""
    return Script(
        by_module={
            module: [ScriptedReply(answer={**answer, "rationale": "oracle: the item's reference"})]
            * ORACLE_REPEATS
            for module, answer in answers.items()
        }
    )
