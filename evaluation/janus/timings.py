"""Per-module latency and tokens (JANUS's Figure 6): ``cogtree eval modules --timings``.

For every module row of a run (and outer speech), over its items: the median and the spread
(25th to 75th percentile) of

- **item seconds**: the item's wall time, building and ticking its node(s) with the model calls
  (ticks are 20 ms apart, so a decision that needs a worker thread costs at least one period);
- **model seconds**: the summed latency of the item's model calls;
- **prompt and completion tokens** of those calls (the model's counts, or an estimate when
  the backend gives none: see :class:`~knowledge.llm.types.CallRecord`).

The model figures are over the items that called the model (``model_items``): an item its
fast path decided costs no model time, and would only pull the median to zero.
``failed_calls`` counts the calls that timed out or failed (no tokens, their latency the
time waited).

Beside each, the paper's median for the module it corresponds to (Figure 6's text: latency in
seconds, tokens per call). Modules the paper does not time (grounding, sufficiency, the
template query path) have no paper column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cogtree.evaluation.janus.outer_speech import OuterSpeechScore
from cogtree.evaluation.janus.report import Cell, Section
from cogtree.evaluation.janus.runner import WITHHELD, ModuleScore


@dataclass(frozen=True)
class PaperTiming:
    """A module's median latency and tokens in JANUS (Figure 6; Llama 4 Scout on Groq)."""

    module: str
    seconds: float
    tokens: int


PAPER_TIMINGS = {
    "scope": PaperTiming("Scope Detection", 0.37, 1477),
    "intent": PaperTiming("Intent Recognition", 0.26, 1705),
    "readiness": PaperTiming("Inner Speech", 0.81, 572),
    f"query ({WITHHELD})": PaperTiming("Query Generation", 0.74, 3986),
    "outer speech": PaperTiming("Outer Speech", 0.27, 772),
}
"""cogtree's row -> the JANUS module it stands for. Query generation is the run with the
templates withheld (every query model-written, as in the paper)."""


@dataclass(frozen=True)
class Cost:
    """What one item cost."""

    seconds: float
    model_seconds: float
    prompt_tokens: int
    completion_tokens: int
    model_calls: int
    failed_calls: int


TIMING_COLUMNS = (
    "backend",
    "module",
    "items",
    "model_items",
    "failed_calls",
    "item_seconds",
    "model_seconds",
    "prompt_tokens",
    "completion_tokens",
    "paper_module",
    "paper_seconds",
    "paper_tokens",
)
"""Columns of a timing row; each measured cell is ``median (p25–p75)``."""


def module_costs(score: ModuleScore) -> list[Cost]:
    """Each item's cost in a module row."""
    return [
        Cost(
            item.seconds,
            sum(call.latency_s for call in item.calls),
            sum(call.prompt_tokens for call in item.calls),
            sum(call.completion_tokens for call in item.calls),
            len(item.calls),
            sum(1 for call in item.calls if call.outcome != "ok"),
        )
        for item in score.items
    ]


def speech_costs(score: OuterSpeechScore) -> list[Cost]:
    """Each outer-speech item's cost."""
    return [
        Cost(
            r.seconds,
            r.model_seconds,
            r.prompt_tokens,
            r.completion_tokens,
            r.calls,
            r.failed_calls,
        )
        for r in score.results
    ]


def spread(values: Sequence[float], digits: int) -> str:
    """``median (p25–p75)`` of ``values``, rounded to ``digits``; ``–`` when empty."""
    if not values:
        return "–"
    low, median, high = np.percentile(np.asarray(values, dtype=float), [25, 50, 75])
    return f"{median:.{digits}f} ({low:.{digits}f}–{high:.{digits}f})"


def timing_row(backend: str, module: str, costs: Sequence[Cost]) -> dict[str, Cell]:
    """One module's timing row, with the paper's medians when the paper times the module."""
    paper = PAPER_TIMINGS.get(module)
    modelled = [cost for cost in costs if cost.model_calls]
    return {
        "backend": backend,
        "module": module,
        "items": len(costs),
        "model_items": len(modelled),
        "failed_calls": sum(cost.failed_calls for cost in costs),
        "item_seconds": spread([cost.seconds for cost in costs], 3),
        "model_seconds": spread([cost.model_seconds for cost in modelled], 3),
        "prompt_tokens": spread([float(cost.prompt_tokens) for cost in modelled], 0),
        "completion_tokens": spread([float(cost.completion_tokens) for cost in modelled], 0),
        "paper_module": paper.module if paper else None,
        "paper_seconds": paper.seconds if paper else None,
        "paper_tokens": paper.tokens if paper else None,
    }


def timing_section(modules: Sequence[ModuleScore], speech: Sequence[OuterSpeechScore]) -> Section:
    """The timings table of the report: every module row, then outer speech, per backend."""
    rows = [
        timing_row(score.label or score.backend, score.title, module_costs(score))
        for score in modules
    ]
    rows += [timing_row(score.backend, "outer speech", speech_costs(score)) for score in speech]
    return Section(
        "Per-module latency and tokens, median (p25–p75), beside JANUS's Figure 6 medians",
        TIMING_COLUMNS,
        rows,
    )
