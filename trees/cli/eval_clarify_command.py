"""``cogtree eval clarify FILE.jsonl`` and ``cogtree eval everyday``: ask or act, per backend.

Both run one turn of the assistant tree per item (:mod:`evaluation.clarify.clarify`) and print
a Markdown table per backend and group; ``--out`` writes the item-level decisions as JSONL.
``everyday`` is ``clarify`` on the shipped everyday-requests set
(:data:`EVERYDAY_SET`). A progress line goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from cogtree.evaluation.clarify.calibrated import CalibratedReport, evaluate_calibrated
from cogtree.evaluation.clarify.clarify import BACKENDS, ClarifyReport, evaluate, write_decisions
from cogtree.evaluation.clarify.clarify_data import ClarifyDataError, ClarifyItem, load_items
from cogtree.evaluation.janus.datasets import DEFAULT_DATA
from cogtree.trees.cli.arg_types import error_rate, positive_int

EVERYDAY_SET = DEFAULT_DATA / "everyday_requests.jsonl"
"""The everyday-requests set: requests over objects and words no shipped scene or pack uses."""

DEFAULT_BACKENDS = ("none",)
"""Backends evaluated when no ``--backend`` is given."""

CALIBRATED_EPSILONS = (0.15, 0.3)
"""Target error rates of ``--calibrated`` when no ``--epsilon`` is given."""


def add_clarify_parsers(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``eval clarify`` and ``eval everyday`` to the ``eval`` subcommands."""
    clarify = kinds.add_parser(
        "clarify",
        help="ask-or-act decisions on a JSONL set of requests in kitchens (one turn each)",
        description="Builds a kitchen from each item's scene_objects (or loads its scene), runs "
        "one turn of the assistant tree with its task, and reports ask-decision balanced "
        "accuracy, ask rates, out-of-scope rate, object choice and unsafe executions per group "
        "and backend. The item schema is in docs/evaluation.md.",
    )
    clarify.add_argument(
        "file",
        type=Path,
        nargs="+",
        metavar="FILE.jsonl",
        help="the items (several files only with --calibrated: calibrated on their pooled halves)",
    )
    _common(clarify)
    clarify.add_argument(
        "--calibrated",
        action="store_true",
        help="the calibrated gate (conformal prediction): calibrate on one half of the items, "
        "report success, help and exact-set rates on the other half, per backend and epsilon",
    )
    clarify.add_argument(
        "--epsilon",
        type=error_rate,
        action="append",
        help="with --calibrated: target error rate (repeatable; default 0.15 and 0.3)",
    )
    everyday = kinds.add_parser(
        "everyday",
        help="the everyday-requests set: share acted correctly or asked the right question",
        description=f"cogtree eval clarify on {EVERYDAY_SET.name} (tests/data/eval).",
    )
    everyday.add_argument(
        "--file", type=Path, default=EVERYDAY_SET, metavar="FILE.jsonl", help="another set"
    )
    _common(everyday)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        action="append",
        choices=BACKENDS,
        help="LLM backend (repeatable; default: none). oracle tells the readiness gate each "
        "item's label: an upper bound of the cascade, not a model",
    )
    parser.add_argument(
        "--limit", type=positive_int, default=None, metavar="N", help="the first N items only"
    )
    parser.add_argument("--out", type=Path, metavar="ITEMS.jsonl", help="item-level decisions")
    parser.add_argument("--output", type=Path, metavar="FILE.md", help="write the table here")


def run_clarify(args: argparse.Namespace) -> int:
    """Run ``cogtree eval clarify`` / ``everyday``; the exit code (2 on unusable data)."""
    files: list[Path] = args.file if isinstance(args.file, list) else [args.file]
    calibrated = getattr(args, "calibrated", False)
    if len(files) > 1 and not calibrated:
        print(
            "cogtree: error: give one FILE.jsonl (several only with --calibrated)", file=sys.stderr
        )
        return 2
    try:
        items = [item for path in files for item in load_items(path)]
    except ClarifyDataError as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    if args.limit is not None:
        items = items[: args.limit]
    backends = list(dict.fromkeys(args.backend or DEFAULT_BACKENDS))
    if calibrated:
        return _run_calibrated(args, files, items, backends)
    report = evaluate(files[0].name, items, backends, progress=progress_line)
    _write_table(args, items, report)
    if args.out is not None:
        write_decisions(report, args.out)
    return 0


def _run_calibrated(
    args: argparse.Namespace, files: list[Path], items: list[ClarifyItem], backends: list[str]
) -> int:
    """``eval clarify --calibrated``: the conformal gate's table (evaluation.clarify.calibrated)."""
    if "oracle" in backends:
        print("cogtree: error: --calibrated needs scores; the oracle has none", file=sys.stderr)
        return 2
    epsilons = list(dict.fromkeys(args.epsilon or CALIBRATED_EPSILONS))
    name = " + ".join(path.name for path in files)
    report = evaluate_calibrated(name, items, backends, epsilons, files, progress_line("turns"))
    _write_table(args, items, report)
    if args.out is not None:
        args.out.write_text(report.jsonl(), encoding="utf-8")
    return 0


def _write_table(
    args: argparse.Namespace, items: list[ClarifyItem], report: ClarifyReport | CalibratedReport
) -> None:
    """The table (with a note on ``--limit``) to stdout or ``--output``."""
    if args.limit is not None:
        report.notes.append(f"--limit {args.limit}: the first {len(items)} items only")
    if args.output is None:
        sys.stdout.write(report.markdown())
    else:
        args.output.write_text(report.markdown(), encoding="utf-8")


def progress_line(backend: str) -> Callable[[int, int, str], None]:
    """Progress on stderr: a line at every tenth of the items (every item on a terminal)."""
    live = sys.stderr.isatty()

    def show(done: int, total: int, what: str) -> None:
        step = max(total // 10, 1)
        if live or done == total or done % step == 0:
            end = "\n" if not live or done == total else ""
            sys.stderr.write(f"\r[{backend}] {done}/{total} {what}{end}")
            sys.stderr.flush()

    return show
