"""``cogtree eval modules``: JANUS's Table 4 module metrics per LLM backend.

Runs scope detection, intent recognition, readiness, query generation, tool grounding (ρ)
and information sufficiency on the curated sets in ``tests/data/eval``, scope over the 11
domain profiles and outer speech when their sets are there (:mod:`evaluation.janus.janus_sets`),
and scope detection on CLINC150, for each ``--backend`` (default: ``none`` and ``scripted``),
and prints Markdown tables (``--output`` writes them to a file, ``--csv`` the same rows as CSV;
``--timings`` adds each module's latency and tokens, :mod:`evaluation.janus.timings`).
A progress line goes to stderr.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from cogtree.evaluation.janus.clinc import (
    DEFAULT_CLINC,
    ClincData,
    ClincError,
    ClincResult,
    evaluate_clinc,
    load_clinc,
)
from cogtree.evaluation.janus.datasets import DEFAULT_DATA, DatasetError, EvalData
from cogtree.evaluation.janus.janus_sets import JanusSets, run_janus_sets, speech_section
from cogtree.evaluation.janus.outer_speech import OuterSpeechScore
from cogtree.evaluation.janus.report import Report
from cogtree.evaluation.janus.runner import (
    BACKEND_LABELS,
    BACKENDS,
    BackendUnavailable,
    ModuleRunner,
    ModuleScore,
)
from cogtree.evaluation.janus.timings import timing_section
from cogtree.knowledge.packs.domain_profile import ProfileError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.trees.cli.arg_types import positive_int
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.eval_clarify_command import add_clarify_parsers, run_clarify
from cogtree.trees.cli.hazards_command import add_hazards_parser, run_hazards
from cogtree.trees.cli.scope_similarity_command import (
    add_scope_similarity_parser,
    run_scope_similarity,
)

log = logging.getLogger(__name__)

DEFAULT_BACKENDS = ("none", "scripted")
"""Backends evaluated when no ``--backend`` is given."""

MODEL_BACKENDS = frozenset({"llama-cpp", "ollama"})
"""Backends that run a real model: CLINC150 is sampled for them."""


def add_eval_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``eval`` modules, clarify, everyday, hazards, scope-similarity and heldout."""
    evaluate = add_subcommand(commands, "eval")
    kinds = evaluate.add_subparsers(dest="eval_command", required=True, metavar="EVAL_COMMAND")
    modules = kinds.add_parser(
        "modules",
        help="JANUS's module metrics (scope, intent, readiness, query, grounding, sufficiency) "
        "per LLM backend",
        description="Domain and task accuracy, parameter precision/recall/F1, readiness "
        "accuracy, query validity and result overlap, ρ (tool grounding) accuracy and "
        "sufficiency accuracy, on the curated sets and CLINC150.",
    )
    modules.add_argument(
        "--backend",
        action="append",
        choices=BACKENDS,
        help="LLM backend to evaluate (repeatable; default: none and scripted). scripted is "
        "an oracle answering with the reference: it measures the cascade, not a model",
    )
    modules.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, metavar="DIR", help="the evaluation sets"
    )
    modules.add_argument(
        "--clinc",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"CLINC150 directory (default: {DEFAULT_CLINC}, skipped when absent)",
    )
    modules.add_argument(
        "--no-clinc", action="store_true", help="skip the CLINC150 scope evaluation"
    )
    modules.add_argument(
        "--clinc-sample",
        type=positive_int,
        default=200,
        metavar="N",
        help="CLINC150 items evaluated with a real model (seeded sample; default 200)",
    )
    modules.add_argument(
        "--limit",
        type=positive_int,
        default=None,
        metavar="N",
        help="evaluate at most N items per module (spread over the set)",
    )
    modules.add_argument(
        "--timings",
        action="store_true",
        help="also report each module's latency and tokens (median and p25-p75) beside the "
        "medians of JANUS's Figure 6",
    )
    modules.add_argument("--output", type=Path, metavar="FILE.md", help="write the Markdown here")
    modules.add_argument("--csv", type=Path, metavar="FILE", help="also write the rows as CSV")
    add_clarify_parsers(kinds)
    add_hazards_parser(kinds)
    add_scope_similarity_parser(kinds)
    add_heldout_parser(kinds)


def add_heldout_parser(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``eval heldout``: the held-out sets through the assistant, with no model."""
    heldout = kinds.add_parser(
        "heldout",
        help="the held-out sets (tests/data/heldout) through the assistant with no model",
        description="Decision match, steps held, wrong-object actions, must_not steps run, "
        "answers' mentions, hazards named and look-alikes done, per category and in total.",
    )
    heldout.add_argument(
        "--set", dest="heldout_set", choices=("everyday", "hazards", "all"), default="all"
    )
    heldout.add_argument(
        "--limit", type=positive_int, metavar="N", help="at most N cases per set, spread over it"
    )
    heldout.add_argument("--json", type=Path, metavar="FILE", help="every case's result as JSON")


def run_eval(args: argparse.Namespace) -> int:
    """Run an ``eval`` subcommand (modules, clarify, everyday, hazards, scope-similarity).

    Returns the exit code (2: bad data).
    """
    if args.eval_command == "heldout":
        from cogtree.evaluation.heldout.run import run_heldout_command

        return run_heldout_command(args)
    if args.eval_command == "hazards":
        return run_hazards(args)
    if args.eval_command == "scope-similarity":
        return run_scope_similarity(args)
    if args.eval_command != "modules":
        return run_clarify(args)
    try:
        data = EvalData.load(args.data)
        janus = JanusSets.load(args.data, DomainRegistry.discover())
        clinc = None if args.no_clinc else _clinc_data(args.clinc)
    except (DatasetError, ClincError, ProfileError) as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    backends = list(dict.fromkeys(args.backend or DEFAULT_BACKENDS))
    progress = _Progress(sys.stderr)
    scores: list[ModuleScore] = []
    clinc_results: list[ClincResult] = []
    speech: list[OuterSpeechScore] = []
    notes = _notes(backends, args.limit, clinc is None and not args.no_clinc) + janus.notes()
    for backend in backends:
        started = time.perf_counter()
        try:
            runner = ModuleRunner(backend)
        except BackendUnavailable as error:
            notes.append(f"{backend} skipped: {error}")
            progress.say(f"[{backend}] skipped: {error}")
            continue
        with runner:
            progress.backend = backend
            scores.append(runner.run_scope(data.scope, limit=args.limit, progress=progress))
            scores.append(runner.run_intent(data.intent, limit=args.limit, progress=progress))
            scores.append(runner.run_readiness(data.readiness, limit=args.limit, progress=progress))
            scores.append(runner.run_query(data.query, limit=args.limit, progress=progress))
            scores.append(
                runner.run_query(data.query, limit=args.limit, progress=progress, templates=False)
            )
            scores.append(runner.run_grounding(data.grounding, limit=args.limit, progress=progress))
            scores.append(
                runner.run_sufficiency(data.sufficiency, limit=args.limit, progress=progress)
            )
            janus_scope, janus_speech = run_janus_sets(
                runner, janus, limit=args.limit, progress=progress
            )
            scores += janus_scope
            speech += janus_speech
            if clinc is not None:
                clinc_results.append(
                    evaluate_clinc(
                        clinc,
                        llm=runner.client if backend in MODEL_BACKENDS else None,
                        oracle=backend == "scripted",
                        backend=runner.label,
                        sample=args.clinc_sample if backend in MODEL_BACKENDS else None,
                        progress=lambda done, total: progress("clinc150", done, total),
                    )
                )
        notes.append(f"{backend}: {time.perf_counter() - started:.0f} s in all")
    sections = [speech_section(speech)]
    sections += [timing_section(scores, speech)] if args.timings else []
    report = Report(scores, clinc_results, notes, sections=sections)
    _write(report.markdown(), args.output)
    if args.csv is not None:
        args.csv.write_text(report.csv(), encoding="utf-8")
    return 0


def _clinc_data(directory: Path | None) -> ClincData | None:
    """CLINC150 from ``directory``; from the default place when None, or None if it is absent."""
    if directory is None:
        if not (DEFAULT_CLINC / "clinc150_dev.json").is_file():
            return None
        directory = DEFAULT_CLINC
    return load_clinc(directory)


def _notes(backends: Sequence[str], limit: int | None, clinc_missing: bool) -> list[str]:
    notes = [f"{name}: {BACKEND_LABELS[name]}" for name in backends]
    if limit is not None:
        notes.append(f"--limit {limit}: at most {limit} items per module, spread over each set")
    if clinc_missing:
        notes.append(f"CLINC150 skipped: {DEFAULT_CLINC} not found (pass --clinc DIR)")
    return notes


def _write(text: str, path: Path | None) -> None:
    if path is None:
        sys.stdout.write(text)
    else:
        path.write_text(text, encoding="utf-8")


class _Progress:
    """Progress on a stream: ``[backend] module done/total``.

    On a terminal one line is rewritten in place; in a log file a line is written at every
    tenth of the work, so logs stay short.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.backend = ""
        self.live = stream.isatty()

    def __call__(self, module: str, done: int, total: int) -> None:
        if self.live:
            end = "\n" if done == total else ""
            self.stream.write(f"\r[{self.backend}] {module} {done}/{total}{end}")
        elif done == total or done * 10 // max(total, 1) != (done - 1) * 10 // max(total, 1):
            self.stream.write(f"[{self.backend}] {module} {done}/{total}\n")
        self.stream.flush()

    def say(self, line: str) -> None:
        self.stream.write(line + "\n")
