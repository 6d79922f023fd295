"""What the explainer's experience did in a bench: attempts per run and the records used.

A bench run with an experience file (``cogtree bench --experience FILE``) learns in it: every
recovery that reached the goal is recorded, and later runs (the rest of this bench, the next
bench) retrieve it. :func:`experience_report` adds a Markdown section to the bench's tables:
per run, how many attempts of the recovery loop it took and which experience records the
explainer's suggestions came from (seed or learnt, and where it was learnt); then the total
attempts per tree and backend, the figure to compare between a first and a second bench.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from cogtree.evaluation.scenarios.scenario_run import ScenarioResult


def total_attempts(results: Sequence[ScenarioResult]) -> int:
    """Attempts of the recovery loop over ``results`` (a run without a plan counts 0)."""
    return sum(len(result.attempts) for result in results)


def experience_report(results: Sequence[ScenarioResult], store: Path) -> str:
    """The Markdown section: attempts and records used per run, then totals."""
    lines = [
        "",
        f"### Experience ({store})",
        "",
        "| scenario | tree | backend | success | attempts | records used |",
        "|---|---|---|---|---:|---|",
    ]
    totals: dict[tuple[str, str], list[ScenarioResult]] = defaultdict(list)
    for result in results:
        totals[(result.tree, result.backend)].append(result)
        used = "; ".join(result.experience_used) or "–"
        success = "yes" if result.success else "no"
        lines.append(
            f"| {result.scenario} | {result.tree} | {result.backend} | {success} | "
            f"{len(result.attempts)} | {used} |"
        )
    lines += ["", "| tree | backend | runs | attempts |", "|---|---|---:|---:|"]
    for (tree, backend), group in totals.items():
        lines.append(f"| {tree} | {backend} | {len(group)} | {total_attempts(group)} |")
    return "\n".join(lines) + "\n"
