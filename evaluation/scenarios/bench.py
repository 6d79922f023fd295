"""The scenario benchmark: every scenario x tree x backend in one run, so the ratios compare.

:func:`run_bench` runs :func:`~evaluation.scenarios.scenario_run.run_scenario` for each combination
and
:class:`BenchResults` tabulates them (Markdown and CSV): one row per run with InteractGen's
SR (scored as :mod:`evaluation.scenarios.scenario_run` says: only goals the robot or its delegates
made hold), false claims, whether the goal was met by others, timeouts, CR, RR and RSR, model
calls, tokens, clarifications, guard violations, hazardous steps
executed (:mod:`evaluation.scenarios.hazard_audit`) and wall time;
aggregates per tree, backend and tier, and overall; and tokens per successful task of the
gated tree next to the ReAct tree for the same backend.

Backends:

- ``none``: no model; the fast paths alone, and each node's safe decision where they cannot
  decide.
- ``oracle``: the scripted ORACLE (:mod:`evaluation.scenarios.oracle`), an *ideal model with the
  robot's knowledge*: each module that the scenario has ideal answers for is answered from
  them, the others get ``none``; the answers use only what the robot knew when asked
  (:mod:`evaluation.scenarios.hindsight`). It measures the cascade and the guards, not a model.
- ``faults``: the oracle behind a fault injector: 20% of its answers are malformed, wrong but
  valid, late or lost (seeded per scenario, so runs repeat).
- ``llama-cpp``: SmolLM2-135M in-process: a tiny model, a cost figure, not a quality figure.
- ``ollama``: the configured Ollama model, when the server answers its probe.

A backend that cannot run here (no server, no model file) is skipped with a note.
"""

from __future__ import annotations

import csv
import io
import logging
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import get_args

from cogtree.evaluation.janus.runner import BackendUnavailable, backend_label, client_for
from cogtree.evaluation.scenarios.oracle import TreeMode
from cogtree.evaluation.scenarios.scenario_run import ScenarioResult, oracle_client, run_scenario
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.faults import FaultPlan
from cogtree.sim.scenario import Scenario, Tier

log = logging.getLogger(__name__)

BACKENDS = ("none", "oracle", "faults", "llama-cpp", "ollama")
"""The backends the bench knows, in table order."""

BACKEND_LABELS = {
    "none": "none (fast paths only)",
    "oracle": "ideal model with the robot's knowledge (the scenarios' oracle answers, checked "
    "for hindsight; it measures the cascade and guards, not a model)",
    "faults": "oracle with 20% injected faults",
    "llama-cpp": "llama-cpp SmolLM2-135M (tiny model: not a quality figure)",
    "ollama": "ollama",
}
"""How each backend is described in the report's notes."""

FAULT_RATE = 0.2
"""Share of the oracle's answers the ``faults`` backend spoils."""

RATE_HZ: dict[str, float] = {"faults": 200.0, "llama-cpp": 100.0, "ollama": 100.0}
"""Tick rate per backend where calls may wait (a timeout, a real model), so a long wait does
not pile up tens of thousands of tick entries; the others tick at :data:`FAST_RATE_HZ`."""

FAST_RATE_HZ = 2000.0
"""The tick rate without slow calls: fast, but each tick leaves the model and scene workers
time to run (ticking back to back starves them of the interpreter, and a turn's tick budget
can run out before a 5 ms call returns)."""

NOT_APPLICABLE = "–"
"""What a cell shows when there is nothing to show (no successes, no steps run)."""

Cell = str | int | float | None
Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)``: called before each run (``what`` names it) and at the end."""

RUN_COLUMNS = (
    "scenario",
    "tier",
    "tree",
    "backend",
    "success",
    "false_claims",
    "met_by_others",
    "timeouts",
    "cr",
    "rr",
    "rsr",
    "model_calls",
    "prompt_tokens",
    "completion_tokens",
    "clarifications",
    "guard_violations",
    "hazardous_steps",
    "sim_ticks",
    "seconds",
)
"""Columns of a per-run row."""

GROUP_COLUMNS = (
    "tree",
    "backend",
    "tier",
    "runs",
    "sr",
    "false_claims",
    "met_by_others",
    "timeouts",
    "cr",
    "rr",
    "rsr",
    "model_calls",
    "tokens",
    "clarifications",
    "guard_violations",
    "hazardous_steps",
    "seconds",
)
"""Columns of an aggregate row (means per run; false claims, runs met by others, timeouts,
violations and hazardous steps summed)."""

TOKEN_COLUMNS = (
    "backend",
    "gated_successes",
    "gated_calls_per_success",
    "gated_tokens_per_success",
    "react_successes",
    "react_calls_per_success",
    "react_tokens_per_success",
    "gated_over_react",
)
"""Columns of the tokens-per-successful-task table."""

ALL_TIERS = "all"
"""The tier name of an overall aggregate row."""


@dataclass
class BenchResults:
    """Every run of a bench, the notes to print with them, and the tables built from them."""

    results: list[ScenarioResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def run_rows(self) -> list[dict[str, Cell]]:
        """One row per scenario x tree x backend."""
        return [
            {
                "scenario": result.scenario,
                "tier": result.tier,
                "tree": result.tree,
                "backend": result.backend,
                "success": "yes" if result.success else "ERROR" if result.error else "no",
                "false_claims": len(result.false_claims),
                "met_by_others": "yes" if result.met_by_others else "no",
                "timeouts": result.timeouts,
                "cr": result.completion,
                "rr": result.redundancy,
                "rsr": result.robot_subtask_rate,
                "model_calls": result.model_calls,
                "prompt_tokens": result.prompt_tokens,
                "completion_tokens": result.completion_tokens,
                "clarifications": result.clarifications,
                "guard_violations": len(result.guard_violations),
                "hazardous_steps": len(result.hazardous_steps),
                "sim_ticks": result.sim_ticks,
                "seconds": result.wall_s,
            }
            for result in self.results
        ]

    def group_rows(self, *, by_tier: bool) -> list[dict[str, Cell]]:
        """Aggregates per tree and backend, and per tier when ``by_tier``."""
        rows: list[dict[str, Cell]] = []
        for (tree, backend, tier), runs in self._groups(by_tier=by_tier):
            rsr = [run.robot_subtask_rate for run in runs if run.robot_subtask_rate is not None]
            rows.append(
                {
                    "tree": tree,
                    "backend": backend,
                    "tier": tier,
                    "runs": len(runs),
                    "sr": fmean(run.success for run in runs),
                    "false_claims": sum(len(run.false_claims) for run in runs),
                    "met_by_others": sum(run.met_by_others for run in runs),
                    "timeouts": sum(run.timeouts for run in runs),
                    "cr": fmean(run.completion for run in runs),
                    "rr": fmean(run.redundancy for run in runs),
                    "rsr": fmean(rsr) if rsr else None,
                    "model_calls": fmean(run.model_calls for run in runs),
                    "tokens": fmean(run.tokens for run in runs),
                    "clarifications": fmean(run.clarifications for run in runs),
                    "guard_violations": sum(len(run.guard_violations) for run in runs),
                    "hazardous_steps": sum(len(run.hazardous_steps) for run in runs),
                    "seconds": fmean(run.wall_s for run in runs),
                }
            )
        return rows

    def token_rows(self) -> list[dict[str, Cell]]:
        """Per backend: calls and tokens per successful task, gated next to ReAct."""
        rows = []
        for backend in dict.fromkeys(result.backend for result in self.results):
            row: dict[str, Cell] = {"backend": backend}
            per_success: dict[str, float | None] = {}
            for tree in ("gated", "react"):
                runs = [r for r in self.results if r.backend == backend and r.tree == tree]
                wins = sum(run.success for run in runs)
                calls = sum(run.model_calls for run in runs)
                tokens = sum(run.tokens for run in runs)
                row[f"{tree}_successes"] = f"{wins}/{len(runs)}" if runs else None
                row[f"{tree}_calls_per_success"] = calls / wins if wins else None
                per_success[tree] = tokens / wins if wins else None
                row[f"{tree}_tokens_per_success"] = per_success[tree]
            gated, react = per_success["gated"], per_success["react"]
            row["gated_over_react"] = gated / react if gated is not None and react else None
            rows.append(row)
        return rows

    def to_markdown(self) -> str:
        """Overall, per-tier, tokens-per-success and per-run tables, then the notes."""
        parts = [
            "## Scenario bench",
            "",
            "### Overall (means per run; false claims, goals met by others, timeouts, guard "
            "violations and hazardous steps summed)",
            "",
            _table(GROUP_COLUMNS, self.group_rows(by_tier=False)),
            "",
            "### Per tier",
            "",
            _table(GROUP_COLUMNS, self.group_rows(by_tier=True)),
            "",
            "### Tokens per successful task (gated next to ReAct, same backend)",
            "",
            _table(TOKEN_COLUMNS, self.token_rows()),
            "",
            "### Per scenario",
            "",
            _table(RUN_COLUMNS, self.run_rows()),
        ]
        errors = [f"{r.scenario}/{r.tree}/{r.backend}: {r.error}" for r in self.results if r.error]
        claims = [
            f"{r.scenario}/{r.tree}/{r.backend}: {claim}"
            for r in self.results
            for claim in r.false_claims
        ]
        notes = [
            *self.notes,
            *(f"error: {error}" for error in errors),
            *(f"false claim: {claim}" for claim in claims),
        ]
        if notes:
            parts += ["", *(f"- {note}" for note in notes)]
        return "\n".join(parts) + "\n"

    def to_csv(self) -> str:
        """Every table's rows as CSV; a ``table`` column says which table a row is from."""
        tables = (
            ("run", self.run_rows()),
            ("tier", self.group_rows(by_tier=True)),
            ("overall", self.group_rows(by_tier=False)),
            ("tokens_per_success", self.token_rows()),
        )
        columns = ["table", *dict.fromkeys([*RUN_COLUMNS, *GROUP_COLUMNS, *TOKEN_COLUMNS])]
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for name, rows in tables:
            for row in rows:
                writer.writerow({"table": name, **{key: _raw(value) for key, value in row.items()}})
        return buffer.getvalue()

    def _groups(self, *, by_tier: bool) -> list[tuple[tuple[str, str, str], list[ScenarioResult]]]:
        groups: dict[tuple[str, str, str], list[ScenarioResult]] = {}
        for result in self.results:
            tier = result.tier if by_tier else ALL_TIERS
            groups.setdefault((result.tree, result.backend, tier), []).append(result)
        order = [ALL_TIERS, *get_args(Tier)]
        return sorted(groups.items(), key=lambda item: order.index(item[0][2]))


def run_bench(
    scenarios: Sequence[Scenario],
    trees: Sequence[TreeMode],
    backends: Sequence[str],
    progress: Progress | None = None,
    *,
    max_turns: int = 4,
    fault_seed: int = 0,
    judge: bool | None = None,
    experience: Path | None = None,
    config: LLMConfig | None = None,
) -> BenchResults:
    """Run every scenario with every tree on every backend that can run here.

    ``judge`` switches the validation gate's LLM judge on or off (None: as the manifest says).

    Unknown backends raise ValueError; unavailable ones (no Ollama, no GGUF) are skipped
    with a note. A run that crashes is reported as a failed row with its error.
    ``experience``: the SQLite file every run's explainer reads and learns in (None: the
    shipped seeds, nothing kept). ``config``: the manifest the model clients start from (None:
    the packaged one).
    """
    unknown = [backend for backend in backends if backend not in BACKENDS]
    if unknown:
        raise ValueError(f"unknown backend(s) {unknown}; use any of {', '.join(BACKENDS)}")
    bench = BenchResults()
    ready: list[tuple[str, LLMClient | None, str]] = []
    for backend in dict.fromkeys(backends):
        try:
            scripted = backend in ("oracle", "faults")
            client = None if scripted else client_for(backend, judge, config=config)
        except BackendUnavailable as error:
            bench.notes.append(f"{backend} skipped: {error}")
            continue
        label = backend_label(backend, client) if backend == "ollama" else backend
        bench.notes.append(f"{label}: {BACKEND_LABELS[backend]}")
        ready.append((backend, client, label))
    total = len(ready) * len(trees) * len(scenarios)
    done = 0
    try:
        for backend, shared, label in ready:
            for tree in trees:
                for scenario in scenarios:
                    if progress is not None:
                        progress(done, total, f"{label} {tree} {scenario.id}")
                    faults = _fault_plan(scenario, fault_seed) if backend == "faults" else None
                    with _client(scenario, tree, backend, shared, faults, judge) as client:
                        bench.results.append(
                            _run_one(
                                scenario,
                                tree,
                                client,
                                label,
                                RATE_HZ.get(backend, FAST_RATE_HZ),
                                max_turns,
                                experience,
                            )
                        )
                    done += 1
    finally:
        for _, shared, _ in ready:
            if shared is not None:
                shared.close()
    if progress is not None:
        progress(done, total, "done")
    return bench


def _fault_plan(scenario: Scenario, seed: int) -> FaultPlan:
    """The faults of one scenario: the bench's seed mixed with the scenario's id."""
    return FaultPlan(rate=FAULT_RATE, seed=seed ^ zlib.crc32(scenario.id.encode()))


@contextmanager
def _client(
    scenario: Scenario,
    tree: TreeMode,
    backend: str,
    shared: LLMClient | None,
    faults: FaultPlan | None,
    judge: bool | None,
) -> Iterator[LLMClient]:
    """The shared client of a model backend, or a fresh oracle client for this run."""
    if shared is not None:
        yield shared
        return
    with oracle_client(scenario, tree=tree, faults=faults, judge=judge) as client:
        yield client


def _run_one(
    scenario: Scenario,
    tree: TreeMode,
    client: LLMClient,
    label: str,
    rate_hz: float | None,
    max_turns: int,
    experience: Path | None = None,
) -> ScenarioResult:
    """One run; a crash becomes a failed row naming the error."""
    try:
        return run_scenario(
            scenario,
            tree=tree,
            llm=client,
            backend=label,
            rate_hz=rate_hz,
            max_turns=max_turns,
            experience=experience,
        )
    except Exception as error:  # one broken run must not end the bench
        log.warning("%s/%s/%s crashed: %s", scenario.id, tree, label, error, exc_info=True)
        return ScenarioResult(
            scenario=scenario.id,
            tier=scenario.tier,
            tree=tree,
            backend=label,
            success=False,
            completion=0.0,
            redundancy=0.0,
            robot_subtask_rate=None,
            model_calls=0,
            prompt_tokens=0,
            completion_tokens=0,
            clarifications=0,
            guard_violations=[],
            wall_s=0.0,
            sim_ticks=0,
            error=f"{type(error).__name__}: {error}",
        )


def _table(columns: Sequence[str], rows: Sequence[dict[str, Cell]]) -> str:
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "|".join("---" if _textual(rows, column) else "---:" for column in columns) + "|",
    ]
    lines += [
        "| " + " | ".join(_shown(row.get(column)) for column in columns) + " |" for row in rows
    ]
    return "\n".join(lines)


def _textual(rows: Sequence[dict[str, Cell]], column: str) -> bool:
    return any(isinstance(row.get(column), str) for row in rows)


def _shown(value: Cell) -> str:
    if value is None:
        return NOT_APPLICABLE
    if isinstance(value, float):
        return f"{value:.2f}" if abs(value) < 100 else f"{value:.0f}"
    return str(value)


def _raw(value: Cell) -> Cell:
    return "" if value is None else round(value, 4) if isinstance(value, float) else value
