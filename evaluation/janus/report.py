"""The module-evaluation report: one Markdown table per data set, and the same rows as CSV.

Rows are per backend and module: accuracy, parameter precision / recall / F1, query validity
and result overlap (each only where it applies), the share of items the node under test
decided by its fast path, by the model or by its safe default, model calls, tokens and time.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from cogtree.evaluation.janus.clinc import ClincResult
from cogtree.evaluation.janus.runner import BACKEND_LABELS, ModuleScore

NOT_APPLICABLE = "–"
"""What a cell shows when the metric does not apply (or there was nothing to average)."""

MODULE_COLUMNS = (
    "backend",
    "module",
    "items",
    "accuracy",
    "precision",
    "recall",
    "f1",
    "validity",
    "overlap",
    "fast_path",
    "model",
    "safe_default",
    "errors",
    "model_calls",
    "prompt_tokens",
    "completion_tokens",
    "seconds",
)
"""Columns of a module row, in table order."""

CLINC_COLUMNS = (
    "backend",
    "items",
    "in_scope_accuracy",
    "oos_recall",
    "oos_precision",
    "fast_path",
    "model",
    "safe_default",
    "model_calls",
    "prompt_tokens",
    "completion_tokens",
    "seconds",
)
"""Columns of a CLINC150 row, in table order."""

Cell = str | int | float | None


@dataclass(frozen=True)
class Section:
    """A table of its own in the report: a title, its columns, and rows of raw values."""

    title: str
    columns: Sequence[str]
    rows: Sequence[dict[str, Cell]]


@dataclass(frozen=True)
class Report:
    """Everything one ``cogtree eval modules`` run measured, and notes to print with it.

    ``sections``: further tables (outer speech), printed after CLINC150.
    """

    modules: Sequence[ModuleScore]
    clinc: Sequence[ClincResult]
    notes: Sequence[str] = ()
    sections: Sequence[Section] = ()

    def module_rows(self) -> list[dict[str, Cell]]:
        """One row per backend and module (raw numbers, None where not applicable)."""
        rows: list[dict[str, Cell]] = []
        for score in self.modules:
            counts = score.slot_counts
            calls = score.calls
            rows.append(
                {
                    "backend": score.label or BACKEND_LABELS.get(score.backend, score.backend),
                    "module": score.title,
                    "items": len(score.items),
                    "accuracy": score.accuracy,
                    "precision": counts.precision if counts else None,
                    "recall": counts.recall if counts else None,
                    "f1": counts.f1 if counts else None,
                    "validity": score.validity,
                    "overlap": score.overlap,
                    "fast_path": score.share("fast_path"),
                    "model": score.share("model"),
                    "safe_default": score.share("safe_default"),
                    "errors": len(score.errors),
                    "model_calls": len(calls),
                    "prompt_tokens": sum(call.prompt_tokens for call in calls),
                    "completion_tokens": sum(call.completion_tokens for call in calls),
                    "seconds": score.elapsed_s,
                }
            )
        return rows

    def clinc_rows(self) -> list[dict[str, Cell]]:
        """One row per backend of the CLINC150 scope evaluation."""
        return [
            {
                "backend": BACKEND_LABELS.get(result.backend, result.backend)
                + (" (sample)" if result.sampled else ""),
                "items": result.items,
                "in_scope_accuracy": result.in_scope_accuracy,
                "oos_recall": result.oos_recall,
                "oos_precision": result.oos_precision,
                "fast_path": result.share("fast_path"),
                "model": result.share("model"),
                "safe_default": result.share("safe_default"),
                "model_calls": result.model_calls,
                "prompt_tokens": result.prompt_tokens,
                "completion_tokens": result.completion_tokens,
                "seconds": result.elapsed_s,
            }
            for result in self.clinc
        ]

    def markdown(self) -> str:
        """The report as Markdown: the module table, the CLINC150 table, the notes."""
        parts = ["## Module evaluation (curated sets, tests/data/eval)", ""]
        parts.append(_table(MODULE_COLUMNS, self.module_rows()))
        if self.clinc:
            parts += ["", "## Scope detection on CLINC150 (val + oos_val)", ""]
            parts.append(_table(CLINC_COLUMNS, self.clinc_rows()))
        for section in self.sections:
            if section.rows:
                parts += ["", f"## {section.title}", "", _table(section.columns, section.rows)]
        if self.notes:
            parts += ["", *(f"- {note}" for note in self.notes)]
        return "\n".join(parts) + "\n"

    def csv(self) -> str:
        """Module, CLINC150 and section rows as CSV (a ``table`` column says which)."""
        buffer = io.StringIO()
        extra = [column for section in self.sections for column in section.columns]
        columns = ["table", *dict.fromkeys([*MODULE_COLUMNS, *CLINC_COLUMNS, *extra])]
        writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        tables = [("modules", self.module_rows()), ("clinc150", self.clinc_rows())]
        tables += [(section.title, list(section.rows)) for section in self.sections]
        for table, rows in tables:
            for row in rows:
                writer.writerow(
                    {"table": table, **{key: _raw(value) for key, value in row.items()}}
                )
        return buffer.getvalue()


def _table(columns: Sequence[str], rows: Sequence[dict[str, Cell]]) -> str:
    lines = [
        "| " + " | ".join(columns) + " |",
        "|"
        + "|".join("---" if column in ("backend", "module") else "---:" for column in columns)
        + "|",
    ]
    for row in rows:
        lines.append("| " + " | ".join(_shown(row.get(column)) for column in columns) + " |")
    return "\n".join(lines)


def _shown(value: Cell) -> str:
    if value is None:
        return NOT_APPLICABLE
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _raw(value: Cell) -> Cell:
    return "" if value is None else round(value, 4) if isinstance(value, float) else value
