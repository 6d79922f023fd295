"""``cogtree eval modules``: JANUS's Table 4 module metrics per LLM backend.

Runs scope detection, intent recognition, readiness, query generation, tool grounding (ρ)
and information sufficiency on the curated sets in ``tests/data/eval``, scope over the 11
domain profiles and outer speech when their sets are there (:mod:`evaluation.janus.janus_sets`),
and scope detection on CLINC150, for each ``--backend`` (default: ``none`` and ``scripted``),
and prints Markdown tables (``--output`` writes them to a file, ``--csv`` the same rows as CSV;
``--timings`` adds each module's latency and tokens, :mod:`evaluation.janus.timings`).
A progress line goes to stderr.

``cogtree eval card --llm ollama --model NAME``: the report card of one model
(:mod:`evaluation.card`): a Markdown and a JSON report, and the calibrated gate's
threshold for that model. ``cogtree eval table1``: the advisor's Table 1 over phrasings written
apart from the code (:mod:`evaluation.janus.table1`).
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from cogtree.evaluation.card import MIN_FIT_ITEMS, CardPlan, run_card
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
from cogtree.evaluation.janus.table1 import (
    DEFAULT_PHRASINGS,
    Table1Error,
    load_phrasings,
    run_table1,
    tree_sessions,
)
from cogtree.evaluation.janus.timings import timing_section
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.packs.domain_profile import ProfileError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.scenario import ScenarioError
from cogtree.trees.cli.arg_types import error_rate, positive_int
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.cli.eval_clarify_command import add_clarify_parsers, run_clarify
from cogtree.trees.cli.hazards_command import add_hazards_parser, run_hazards
from cogtree.trees.cli.llm_options import (
    backend_summary,
    check_named_backends,
    use_default_calibration,
)
from cogtree.trees.cli.run_command import suite
from cogtree.trees.cli.scope_similarity_command import (
    add_scope_similarity_parser,
    run_scope_similarity,
)
from cogtree.trees.cli.user_data import calibration_path

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
    add_card_parser(kinds)
    add_table1_parser(kinds)


CARD_BACKENDS = ("ollama", "llama-cpp", "none")
"""Backends a report card is made for (none: the fast paths alone, as a baseline)."""

SHARED_CLARIFY = Path("../shared/data/clarify")
"""Where the clarification sets' calibration halves are looked for by default."""


def add_card_parser(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``eval card``: one model's report card (evaluation.card)."""
    card = kinds.add_parser(
        "card",
        help="a report card for one model: every gate's figures, timings, a short bench, and "
        "the calibrated gate's threshold for it",
        description="Runs the module evaluation, the ask-or-act evaluation on calibration "
        "halves, a short bench and the per-module timings with the model on every module, "
        "fits the calibrated readiness gate's threshold when the backend gives "
        "log-probabilities (written where the gate finds it for this model only when fitted "
        "on --min-fit-items items or more), and writes card_<backend>_<model>.md and .json.",
    )
    card.add_argument("--llm", choices=CARD_BACKENDS, default="ollama", help="the backend")
    card.add_argument("--model", help="the model (Ollama tag; default: the manifest's)")
    card.add_argument(
        "--config", action="append", default=[], metavar="FILE", help="LLM manifest layers"
    )
    card.add_argument(
        "--output-dir", type=Path, default=Path("."), metavar="DIR", help="where the reports go"
    )
    card.add_argument(
        "--clarify",
        type=Path,
        action="append",
        metavar="FILE.jsonl",
        help=f"calibration items (default: {SHARED_CLARIFY}/*_calib.jsonl when present)",
    )
    card.add_argument(
        "--module-items", type=positive_int, default=4, metavar="N", help="items per module (4)"
    )
    card.add_argument(
        "--clarify-items",
        type=positive_int,
        default=6,
        metavar="N",
        help="requests per calibration file, for ask-or-act and the threshold (6)",
    )
    card.add_argument(
        "--scenarios",
        default="goto_kitchen",
        help="the short bench's scenario ids, comma-separated",
    )
    card.add_argument(
        "--epsilon", type=error_rate, default=0.15, help="the threshold's target error rate"
    )
    card.add_argument(
        "--no-calibrate", action="store_true", help="do not fit or write the gate's threshold"
    )
    card.add_argument(
        "--min-fit-items",
        type=positive_int,
        default=MIN_FIT_ITEMS,
        metavar="N",
        help=f"write the threshold for the gate only when fitted on N items or more "
        f"({MIN_FIT_ITEMS}; below it the figure is only reported)",
    )


def add_table1_parser(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``eval table1``: the advisor's Table 1 over phrasings written apart from the code."""
    table1 = kinds.add_parser(
        "table1",
        help="how many of the Table 1 phrasings (written without reading the code) are handled",
        description="Runs each phrasing through the whole turn tree in a fresh session and "
        "reports, per kind of request, how many are handled (evaluation.janus.table1).",
    )
    table1.add_argument("--file", type=Path, default=DEFAULT_PHRASINGS, metavar="FILE.yaml")
    table1.add_argument("--llm", choices=CARD_BACKENDS, default="none", help="the backend")
    table1.add_argument("--model", help="the model (Ollama tag; default: the manifest's)")
    table1.add_argument("--config", action="append", default=[], metavar="FILE")
    table1.add_argument("--limit", type=positive_int, metavar="N", help="the first N items")


def run_card_command(args: argparse.Namespace) -> int:
    """Make the report card; the exit code (2: unusable data or backend)."""
    config = LLMConfig.load(*args.config)
    if args.model:
        config = config.with_model(args.model)
    try:
        with _client(args.llm, config) as client:
            backend = client.backend_for("intent")
            model = backend.model_name(client.settings_for("intent"))
        clarify = args.clarify or sorted(SHARED_CLARIFY.glob("*_calib.jsonl"))
        plan = CardPlan(
            backend=args.llm,
            config=config,
            model=model,
            eval_data=EvalData.load(DEFAULT_DATA),
            clarify_files=clarify,
            scenarios=suite(args.scenarios),
            threshold_path=None if args.no_calibrate else calibration_path(args.llm, model),
            module_items=args.module_items,
            clarify_items=args.clarify_items,
            epsilon=args.epsilon,
            min_fit_items=args.min_fit_items,
        )
        card = run_card(plan, lambda line: print(f"[card] {line}", file=sys.stderr, flush=True))
    except (DatasetError, BackendUnavailable, CLIError, ScenarioError) as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", f"card_{args.llm}_{model}")
    args.output_dir.mkdir(parents=True, exist_ok=True)
    markdown, data = args.output_dir / f"{stem}.md", args.output_dir / f"{stem}.json"
    card.write(markdown, data)
    print(f"wrote {markdown} and {data} ({card.seconds:.0f} s)", file=sys.stderr)
    return 0


def run_table1_command(args: argparse.Namespace) -> int:
    """Run the Table 1 phrasings and print the table; the exit code (2: unusable data)."""
    config = LLMConfig.load(*args.config)
    if args.model:
        config = config.with_model(args.model)
    try:
        items = load_phrasings(args.file)[: args.limit]
        with _client(args.llm, config) as client:
            calibrated = use_default_calibration(client)
            if calibrated is not None:
                print(f"cogtree: calibrated readiness gate: {calibrated}", file=sys.stderr)
            sessions = tree_sessions(client, DomainRegistry.discover())
            report = run_table1(
                items,
                sessions,
                progress=lambda done, total: print(
                    f"\r[table1] {done}/{total}",
                    end="\n" if done == total else "",
                    file=sys.stderr,
                    flush=True,
                ),
            )
    except (Table1Error, CLIError) as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    print(report.markdown(args.llm))
    return 0


def _client(backend: str, config: LLMConfig) -> LLMClient:
    """A client of ``config`` on ``backend``; CLIError (exit 2) when it cannot serve here."""
    client = LLMClient(config.with_backend(backend))
    try:
        check_named_backends(client)
    except CLIError:
        client.close()
        raise
    print(f"cogtree: {backend_summary(client)}", file=sys.stderr)
    return client


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
    heldout.add_argument(
        "--file",
        type=Path,
        metavar="FILE.yaml",
        help="run this file of the held-out schema instead of the held-out sets (a development "
        "set)",
    )


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
    if args.eval_command == "card":
        return run_card_command(args)
    if args.eval_command == "table1":
        return run_table1_command(args)
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
