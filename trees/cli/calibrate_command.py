"""``cogtree calibrate FILE.jsonl``: the conformal threshold of the calibrated readiness gate.

Runs one no-model turn per item, scores the readiness gate's candidate readings with the
backend (``none``: the fast path's match scores), keeps every counted item's nonconformity
score (:mod:`evaluation.clarify.calibrated`) and writes, with ``--epsilon``, the threshold file the
``inner_speech`` module's ``calibration`` setting points to (docs/calibrated_gate.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cogtree.evaluation.clarify.calibrated import counted, read_turns, scored_with, threshold_for
from cogtree.evaluation.clarify.clarify import BACKENDS
from cogtree.evaluation.clarify.clarify_data import ClarifyDataError, load_items
from cogtree.evaluation.janus.runner import BackendUnavailable
from cogtree.knowledge.safety.conformal import CalibrationError
from cogtree.trees.cli.arg_types import error_rate
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.eval_clarify_command import progress_line

SCORING_BACKENDS = tuple(backend for backend in BACKENDS if backend != "oracle")
"""Backends that can score the readings (the oracle knows labels, it has no scores)."""


def add_calibrate_parser(commands: Any) -> None:
    """Add ``calibrate`` to ``cogtree``'s subcommands."""
    calibrate = add_subcommand(
        commands,
        "calibrate",
        description="Scores the readiness gate's candidate readings of each item (schema: "
        "docs/evaluation.md) with --backend and writes their nonconformity scores with "
        "--epsilon as JSON (split conformal prediction, KnowNo, ties broken per option); point "
        "the inner_speech module's "
        "`calibration` setting at that file (docs/calibrated_gate.md).",
    )
    calibrate.add_argument("file", type=Path, metavar="FILE.jsonl", help="calibration items")
    calibrate.add_argument(
        "--epsilon",
        type=error_rate,
        default=0.15,
        help="target error rate: the set holds the intended reading for at least 1 - epsilon "
        "of requests (default 0.15)",
    )
    calibrate.add_argument(
        "--backend", choices=SCORING_BACKENDS, default="none", help="the scorer (default none)"
    )
    calibrate.add_argument(
        "--output",
        type=Path,
        metavar="FILE.json",
        help="where to write the threshold (default: conformal_<backend>_<epsilon>.json)",
    )


def run_calibrate(args: argparse.Namespace) -> int:
    """Compute and write the threshold; the exit code (2: unusable data or backend)."""
    try:
        items = load_items(args.file)
    except ClarifyDataError as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    turns = read_turns(items, progress_line("turns"))
    try:
        scored = scored_with(items, turns, args.backend)
        threshold = threshold_for(scored, args.epsilon, [args.file])
    except (BackendUnavailable, CalibrationError) as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    output = args.output or Path(f"conformal_{args.backend}_{args.epsilon:g}.json")
    threshold.save(output)
    sizes = ", ".join(f"{size}: {count}" for size, count in threshold.set_sizes.items())
    print(
        f"q_hat = {threshold.q_hat:.4f} for epsilon {threshold.epsilon:g} on "
        f"{len(counted(scored))} of {len(scored)} items ({threshold.backend}, {threshold.model}); "
        f"set sizes {sizes}\nwrote {output}\n"
        f"use it: in a --config file, modules: inner_speech: calibration: {output.resolve()}"
    )
    return 0
