"""A report card for one model: how well it does in each gate of the turn tree, on this machine.

``cogtree eval card --llm ollama --model NAME`` runs, with the user's model on every module:

1. the module evaluation (scope, intent, readiness, query generation, tool grounding,
   sufficiency) on the curated sets, a few items per module (:class:`ModuleRunner`);
2. the per-module latency and tokens of those items (:mod:`evaluation.janus.timings`);
3. the ask-or-act evaluation on the calibration halves of the clarification sets
   (``*_calib.jsonl``: the test halves are never read here);
4. a short bench: a few shipped scenarios through the gated tree;
5. when the backend gives log-probabilities, the calibrated readiness gate's conformal
   threshold, fitted on the same calibration items. Fitted on at least
   :data:`MIN_FIT_ITEMS` items it is written where the gate finds it for this model
   (:func:`trees.cli.user_data.calibration_path`): the gate is calibrated from then on, with
   nothing to configure. Fitted on fewer, the figure is only reported, and the card says the
   gate stays uncalibrated and how to fit it on more items.

The card is one Markdown and one JSON file naming the model, the hardware and the commit.
Every part is short by default so that a small model on a CPU finishes in minutes; the limits
are options.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogtree.evaluation.clarify.calibrated import read_turns, scored_with, threshold_for
from cogtree.evaluation.clarify.clarify import ClarifyRunner, summary
from cogtree.evaluation.clarify.clarify_data import ClarifyItem, load_items
from cogtree.evaluation.janus.datasets import EvalData
from cogtree.evaluation.janus.report import Cell, Report, Section
from cogtree.evaluation.janus.runner import ModuleRunner, ModuleScore, select
from cogtree.evaluation.janus.timings import timing_section
from cogtree.evaluation.scenarios.bench import run_bench
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.safety.conformal import CalibrationError
from cogtree.sim.scenario import Scenario

LOGPROB_BACKENDS = frozenset({"ollama", "llama-cpp"})
"""Backends that score options by their tokens' log-probabilities (the calibrated gate's)."""

MIN_FIT_ITEMS = 50
"""The fewest calibration items a threshold is fitted on before the card writes it for the gate.

Split conformal prediction guarantees its coverage (1 - epsilon) only on average over
calibration sets; the coverage one set gives spreads with a standard deviation of about
sqrt(epsilon (1 - epsilon) / (n + 2)): 0.13 at n = 6 and epsilon 0.15, 0.05 at n = 50. A
threshold fitted on the card's few default items would turn the gate on for every later run
with a guarantee it does not have; it is reported, not used.
"""

NOT_MEASURED = "not measured"
"""What a part of the card says when it could not run, followed by why."""

Progress = Callable[[str], None]
"""Where the card says what it is doing (a line at a time)."""


@dataclass(frozen=True)
class CardPlan:
    """What the card runs and how much of it."""

    backend: str
    config: LLMConfig
    model: str
    eval_data: EvalData
    clarify_files: Sequence[Path]
    scenarios: Sequence[Scenario]
    threshold_path: Path | None
    """Where to write the fitted threshold (None: do not fit)."""
    module_items: int = 4
    clarify_items: int = 6
    epsilon: float = 0.15
    min_fit_items: int = MIN_FIT_ITEMS
    """The fewest items a threshold is written for (see :data:`MIN_FIT_ITEMS`)."""


@dataclass
class Card:
    """What the card measured, with the model, the hardware and the commit."""

    model: dict[str, str]
    hardware: dict[str, str]
    commit: dict[str, str]
    modules: list[ModuleScore] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    calibration: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def markdown(self) -> str:
        """The card as Markdown: who and where, then every table."""
        head = [
            f"# Report card: {self.model['backend']} {self.model['name']}",
            "",
            *(f"- {key}: {value}" for key, value in self.model.items()),
            *(f"- hardware {key}: {value}" for key, value in self.hardware.items()),
            *(f"- commit {key}: {value}" for key, value in self.commit.items()),
            f"- took {self.seconds:.0f} s",
            "",
            "## Calibrated readiness gate",
            "",
            *(f"- {key}: {value}" for key, value in self.calibration.items()),
            "",
            "",
        ]
        report = Report(self.modules, [], self.notes, sections=self.sections)
        return "\n".join(head) + report.markdown()

    def as_json(self) -> dict[str, Any]:
        """The card as plain data (the same tables, raw values)."""
        report = Report(self.modules, [], self.notes)
        return {
            "model": self.model,
            "hardware": self.hardware,
            "commit": self.commit,
            "seconds": round(self.seconds, 1),
            "modules": report.module_rows(),
            "sections": {
                section.title: [dict(row) for row in section.rows] for section in self.sections
            },
            "calibration": self.calibration,
            "notes": self.notes,
        }

    def write(self, markdown: Path, data: Path) -> None:
        """Write the two reports."""
        markdown.write_text(self.markdown(), encoding="utf-8")
        data.write_text(json.dumps(self.as_json(), indent=2) + "\n", encoding="utf-8")


def run_card(plan: CardPlan, progress: Progress) -> Card:
    """Run every part of the card on ``plan``'s backend (see the module docstring)."""
    started = time.perf_counter()
    card = Card(
        model={"backend": plan.backend, "name": plan.model},
        hardware=hardware(),
        commit=commit(),
    )
    domains = DomainRegistry.discover()
    card.modules = _modules(plan, domains, progress)
    card.sections.append(timing_section(card.modules, []))
    items = _clarify_items(plan)
    card.sections.append(_clarify(plan, items, domains, progress))
    card.sections.append(_bench(plan, progress))
    card.calibration = _calibrate(plan, items, progress)
    card.notes.append(
        f"{plan.module_items} items per module, {plan.clarify_items} per calibration file, "
        f"bench: {', '.join(s.id for s in plan.scenarios)}: a quick look, not the full evaluation"
    )
    card.seconds = time.perf_counter() - started
    return card


def _modules(plan: CardPlan, domains: DomainRegistry, progress: Progress) -> list[ModuleScore]:
    data, limit = plan.eval_data, plan.module_items

    def step(module: str, done: int, total: int) -> None:
        if done == total:
            progress(f"modules: {module} {done}/{total}")

    progress("modules: starting (scope, intent, readiness, query, grounding, sufficiency)")
    with ModuleRunner(plan.backend, domains=domains, config=plan.config) as runner:
        return [
            runner.run_scope(data.scope, limit=limit, progress=step),
            runner.run_intent(data.intent, limit=limit, progress=step),
            runner.run_readiness(data.readiness, limit=limit, progress=step),
            runner.run_query(data.query, limit=limit, progress=step),
            runner.run_grounding(data.grounding, limit=limit, progress=step),
            runner.run_sufficiency(data.sufficiency, limit=limit, progress=step),
        ]


def _clarify_items(plan: CardPlan) -> list[ClarifyItem]:
    items: list[ClarifyItem] = []
    for path in plan.clarify_files:
        items += [item for _, item in select(load_items(path), plan.clarify_items)]
    return items


def _clarify(
    plan: CardPlan, items: Sequence[ClarifyItem], domains: DomainRegistry, progress: Progress
) -> Section:
    title = "Ask or act (calibration halves of the clarification sets)"
    if not items:
        return Section(title, ["note"], [{"note": f"{NOT_MEASURED}: no calibration file"}])
    progress(f"ask or act: {len(items)} requests")
    runner = ClarifyRunner(plan.backend, domains=domains, config=plan.config)
    try:
        decisions = runner.run(items)
    finally:
        runner.close()
    row = summary(plan.backend, "calibration halves", decisions)
    columns = ["group", "items", "ask_bal_acc", "ask_rate_should_ask", "ask_rate_should_not"]
    columns += ["intended_object", "wrong_object", "unsafe", "handled", "errors"]
    return Section(title, columns, [row])


def _bench(plan: CardPlan, progress: Progress) -> Section:
    progress(f"bench: {', '.join(s.id for s in plan.scenarios)} through the gated tree")
    results = run_bench(plan.scenarios, ["gated"], [plan.backend], config=plan.config)
    columns = ["scenario", "success", "cr", "model_calls", "prompt_tokens"]
    columns += ["completion_tokens", "hazardous_steps", "seconds"]
    rows: list[dict[str, Cell]] = results.run_rows()
    if not rows:
        rows = [{"scenario": f"{NOT_MEASURED}: {'; '.join(results.notes)}"}]
    return Section("Short bench (gated tree)", columns, rows)


def _calibrate(plan: CardPlan, items: Sequence[ClarifyItem], progress: Progress) -> dict[str, Any]:
    if plan.backend not in LOGPROB_BACKENDS:
        return {"threshold": f"{NOT_MEASURED}: {plan.backend} gives no log-probabilities"}
    if plan.threshold_path is None:
        return {"threshold": f"{NOT_MEASURED}: not asked for (--no-calibrate)"}
    progress(f"calibration: scoring {len(items)} requests' readings")
    try:
        turns = read_turns(items, None)
        scored = scored_with(items, turns, plan.backend, plan.config)
        threshold = threshold_for(scored, plan.epsilon, plan.clarify_files)
    except CalibrationError as error:
        return {"threshold": f"{NOT_MEASURED}: {error}"}
    figure = f"q_hat {threshold.q_hat:.4f} for epsilon {threshold.epsilon:g} on {threshold.n} items"
    if threshold.n < plan.min_fit_items:
        per_file = -(-plan.min_fit_items // max(len(plan.clarify_files), 1))
        advice = (
            f"fitted on {threshold.n} items, fewer than {plan.min_fit_items}: not written, the "
            "readiness gate stays uncalibrated; to fit it, run the card again with "
            f"--clarify-items {per_file} (per calibration file, {len(plan.clarify_files)} "
            "file(s)) or `cogtree calibrate FILE.jsonl --backend "
            f"{plan.backend}` on {plan.min_fit_items} or more items"
        )
        progress(f"calibration: {advice}")
        return {"threshold": figure, "file": "not written", "in use": f"no: {advice}"}
    plan.threshold_path.parent.mkdir(parents=True, exist_ok=True)
    threshold.save(plan.threshold_path)
    return {
        "threshold": figure,
        "file": str(plan.threshold_path),
        "in use": "the readiness gate reads it whenever this backend and model run",
    }


def hardware() -> dict[str, str]:
    """The machine: processor, cores, memory, GPU (when nvidia-smi answers), system."""
    found = {
        "processor": _cpu_name(),
        "cores": str(os.cpu_count() or "?"),
        "memory": _memory(),
        "system": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "python": platform.python_version(),
    }
    gpu = _command(["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader"])
    found["gpu"] = gpu or "none seen"
    return found


def commit() -> dict[str, str]:
    """The checkout the card ran from: its commit and whether files had changed."""
    root = Path(__file__).resolve().parents[1]
    head = _command(["git", "-C", str(root), "rev-parse", "HEAD"])
    if not head:
        return {"id": "unknown (not a git checkout)"}
    changed = _command(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"])
    return {"id": head, "working tree": "changed" if changed else "clean"}


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError):
        pass
    return "unknown"


def _command(argv: list[str]) -> str:
    if shutil.which(argv[0]) is None:
        return ""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
