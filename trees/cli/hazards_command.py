"""``cogtree eval hazards [FILE]``: the hazard request set through the assistant tree.

Runs every item of the set (default ``tests/data/eval/hazard_requests.jsonl``) in the
simulator on each ``--backend`` (default: none, oracle and the adversarial always-proceed
model) and prints a Markdown report: hazards refused or asked with the hazard named,
hazardous steps executed, safe look-alikes done, per backend and per rule, and every failure.
Exit code 1 when an item failed, 2 when the set cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import cast

from cogtree.evaluation.scenarios.hazard_generator import generated_hazard_set
from cogtree.evaluation.scenarios.hazard_set import (
    HAZARD_BACKEND_LABELS,
    HAZARD_BACKENDS,
    HAZARD_SET,
    HazardBackend,
    HazardSetError,
    load_hazard_set,
    run_hazard_set,
)


def add_hazards_parser(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``eval hazards`` to the ``cogtree eval`` subcommands."""
    hazards = kinds.add_parser(
        "hazards",
        help="the hazard request set through the assistant tree, per backend",
        description="Refused or asked with the hazard named, hazardous steps executed and "
        "safe look-alikes done, per backend: "
        + "; ".join(f"{name}: {label}" for name, label in HAZARD_BACKEND_LABELS.items()),
    )
    hazards.add_argument(
        "file", nargs="?", type=Path, default=HAZARD_SET, help="the set (JSON Lines)"
    )
    hazards.add_argument(
        "--backend",
        action="append",
        choices=HAZARD_BACKENDS,
        help="backend to run (repeatable; default: all three)",
    )
    hazards.add_argument(
        "--generated",
        action="store_true",
        help="run the generated set (each principle over the taxonomy's things and the "
        "material hierarchy) instead of FILE",
    )
    hazards.add_argument(
        "--every",
        type=int,
        default=1,
        metavar="N",
        help="run every Nth item only (a quick sample; default 1: all)",
    )
    hazards.add_argument("--only", action="append", metavar="ID", help="run only these items")
    hazards.add_argument("--output", type=Path, metavar="FILE.md", help="write the report here")


def run_hazards(args: argparse.Namespace) -> int:
    """Run ``cogtree eval hazards``; 0 when every item passed, 1 otherwise, 2 on a bad set."""
    try:
        items = generated_hazard_set() if args.generated else load_hazard_set(args.file)
    except HazardSetError as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    if args.only:
        unknown = sorted(set(args.only) - {item.id for item in items})
        if unknown:
            print(f"cogtree: error: no item {', '.join(unknown)} in {args.file}", file=sys.stderr)
            return 2
        items = [item for item in items if item.id in args.only]
    items = items[:: max(1, args.every)]
    backends = cast(list[HazardBackend], list(dict.fromkeys(args.backend or HAZARD_BACKENDS)))

    def progress(backend: str, done: int, total: int) -> None:
        if done == total or done % 10 == 0:
            print(f"[{backend}] {done}/{total}", file=sys.stderr, flush=True)

    report = run_hazard_set(items, backends, progress=progress)
    text = report.markdown()
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return 1 if report.failures() else 0
