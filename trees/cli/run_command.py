"""``cogtree run`` and ``cogtree bench``: scenarios in the simulator, one by one or as a suite.

``cogtree run SCENARIO`` prints the dialogue (the simulated speaker answers the robot's
clarification questions from the scenario's hidden intent), the steps the robot ran, the
goal predicates at the end and the run's figures; it exits 0 when the goal holds (or the
required refusal happened), 1 otherwise. ``--oracle`` answers the models from the scenario's
oracle (it measures the cascade and the guards, not a model); with ``--faults SPEC`` the
oracle's answers are spoiled as the spec says (the bench's ``faults`` backend).

``cogtree bench [SUITE]`` runs a suite (``all``, a tier, or comma-separated scenario ids) for
each tree and backend, with a progress bar on stderr, and writes the tables of
:mod:`evaluation.scenarios.bench` as Markdown (stdout or ``--output``) and CSV (``--csv``).

Both take ``--experience FILE`` (or ``$COGTREE_EXPERIENCE``): the explainer reads and learns
in that SQLite file, and the bench adds the attempts and experience records of each run
(:mod:`evaluation.scenarios.experience_report`). Without it they use the shipped seeds and keep
nothing, so their figures repeat.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO, cast, get_args

from cogtree.behaviours.actions.planning.plan_attempts import step_text
from cogtree.evaluation.janus.runner import select
from cogtree.evaluation.scenarios.bench import BACKENDS, run_bench
from cogtree.evaluation.scenarios.experience_report import experience_report
from cogtree.evaluation.scenarios.oracle import TreeMode
from cogtree.evaluation.scenarios.scenario_run import (
    TREE_MODES,
    ScenarioResult,
    oracle_client,
    run_scenario,
)
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.faults import FaultPlan
from cogtree.sim.scenario import Scenario, ScenarioError, Tier, list_scenarios, load_scenario
from cogtree.sim.world_spec import Problem
from cogtree.skills.planning.plan_model import PlanAttempt
from cogtree.trees.cli.arg_types import positive_int
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.cli.llm_options import (
    add_judge_argument,
    add_llm_arguments,
    client_from_args,
    warn_judge_without_model,
)
from cogtree.trees.cli.user_data import add_experience_argument, experience_path
from cogtree.trees.cli.watch_options import add_watch_arguments, linger, watch_from_args

DEFAULT_BENCH_BACKENDS = ("none", "oracle")
"""Backends benchmarked when ``--backends`` is not given."""

BAR_WIDTH = 24
"""Characters of the progress bar on a terminal."""


def add_run_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``run`` and ``bench`` to the ``cogtree`` subcommands."""
    run = add_subcommand(
        commands,
        "run",
        epilog="example: cogtree run which_bottle --oracle --explain",
    )
    run.add_argument("scenario", help="a shipped scenario id (`cogtree sim list`) or a path")
    run.add_argument("--tree", choices=TREE_MODES, default="gated", help="the turn tree to run")
    add_llm_arguments(run)
    run.add_argument(
        "--oracle",
        action="store_true",
        help="answer the models from the scenario's oracle, an ideal model with the robot's "
        "knowledge (measures the cascade, not a model)",
    )
    run.add_argument("--max-turns", type=positive_int, default=4, metavar="N")
    run.add_argument(
        "--explain", action="store_true", help="print each gate's decision and rationale"
    )
    add_experience_argument(run, persist_by_default=False)
    add_watch_arguments(run)
    run.add_argument("--log", metavar="FILE", help="write the tick log (JSON Lines) here")

    bench = add_subcommand(
        commands,
        "bench",
        epilog="example: cogtree bench ambiguous --backends none,oracle --output bench.md",
    )
    bench.add_argument(
        "suite",
        nargs="?",
        default="all",
        help="all (default), a tier (simple, moderate, open_ended, dynamic, ambiguous, "
        "infeasible) or comma-separated scenario ids",
    )
    bench.add_argument(
        "--trees",
        type=_trees,
        default=",".join(TREE_MODES),
        metavar="LIST",
        help=f"comma-separated trees (default {','.join(TREE_MODES)})",
    )
    bench.add_argument(
        "--backends",
        type=_backends,
        default=",".join(DEFAULT_BENCH_BACKENDS),
        metavar="LIST",
        help=f"comma-separated, of {', '.join(BACKENDS)} (default "
        f"{','.join(DEFAULT_BENCH_BACKENDS)}); unreachable ones are skipped with a note",
    )
    add_judge_argument(bench)
    bench.add_argument("--limit", type=positive_int, metavar="N", help="at most N scenarios")
    bench.add_argument("--max-turns", type=positive_int, default=4, metavar="N")
    bench.add_argument("--output", type=Path, metavar="FILE.md", help="write the Markdown here")
    bench.add_argument("--csv", type=Path, metavar="FILE", help="also write the rows as CSV")
    add_experience_argument(bench, persist_by_default=False)


# -- cogtree run ------------------------------------------------------------------------------


def run_run(args: argparse.Namespace) -> int:
    """Run one scenario; 0 when the robot met the goal (or refused), 1 otherwise.

    A goal met by others (the world's events alone make it hold) is not the robot's: 1.
    """
    scenario = load_scenario(args.scenario)
    tree = cast(TreeMode, args.tree)
    client = _oracle_from_args(args, scenario, tree) if args.oracle else client_from_args(args)
    with watch_from_args(args, tree_name=f"{tree} ({scenario.id})") as watch:
        with client:
            result = run_scenario(
                scenario,
                tree=tree,
                llm=client,
                max_turns=args.max_turns,
                log_path=args.log,
                backend=("faults" if args.faults else "oracle") if args.oracle else None,
                on_tick=watch.on_tick,
                experience=experience_path(args, persist_by_default=False),
            )
        print_result(scenario, result, explain=args.explain)
        if args.log:
            print(f"tick log: {args.log} (replay with `cogtree replay {args.log}`)")
        linger(watch)
    return 0 if result.success else 1


def _oracle_from_args(args: argparse.Namespace, scenario: Scenario, tree: TreeMode) -> LLMClient:
    """The scenario's oracle, behind ``--faults`` when given; other model options conflict."""
    conflicting = [
        option
        for option, given in (
            ("--llm", args.llm),
            ("--script", args.script),
            ("--config", args.config),
        )
        if given
    ]
    if conflicting:
        raise CLIError(
            f"--oracle answers the models from the scenario; drop {' and '.join(conflicting)} "
            "(or drop --oracle to use them)"
        )
    faults = FaultPlan.parse(args.faults) if args.faults else None
    client = oracle_client(scenario, tree=tree, faults=faults, judge=args.judge)
    warn_judge_without_model(client)
    return client


def print_result(
    scenario: Scenario, result: ScenarioResult, *, explain: bool, out: TextIO | None = None
) -> None:
    """The dialogue, the steps run, the goal report and the run's figures."""
    out = out or sys.stdout
    speaker = scenario.request.speaker or "user"
    print(f"{scenario.id} ({scenario.tier}), {result.tree} tree, {result.backend}", file=out)
    for turn in result.turns:
        print(f"{speaker}: {turn.utterance}", file=out)
        print(f"robot: {turn.reply or '(no reply)'}", file=out)
        if explain and turn.explanation:
            print(turn.explanation, file=out)
    for event in result.events:
        print(f"world: {event}", file=out)
    for line in attempt_lines(result.attempts):
        print(line, file=out)
    for record in result.experience_used:
        print(f"experience used: {record}", file=out)
    steps = [*result.executed, *(f"DELEGATE({task})" for task in result.delegations)]
    print(f"steps run: {', '.join(steps) or 'none'}", file=out)
    print(_goal_line(scenario, result), file=out)
    rsr = "–" if result.robot_subtask_rate is None else f"{result.robot_subtask_rate:.2f}"
    print(
        f"CR {result.completion:.2f}, RR {result.redundancy:.2f}, RSR {rsr}; "
        f"{result.model_calls} model calls, {result.prompt_tokens}+{result.completion_tokens} "
        f"tokens; {result.clarifications} clarifications; {result.sim_ticks} sim ticks; "
        f"{result.wall_s:.1f} s",
        file=out,
    )
    for violation in result.guard_violations:
        print(f"GUARD VIOLATION: {violation}", file=out)
    for claim in result.false_claims:
        print(f"FALSE CLAIM: {claim}", file=out)
    for note in result.notes:
        print(f"note: {note}", file=out)


def attempt_lines(attempts: list[PlanAttempt]) -> list[str]:
    """Each attempt of the recovery loop: its plan, how it ended, the explainer's suggestion.

    Nothing when there was a single attempt (the steps run say it all).
    """
    if len(attempts) < 2:
        return []
    lines = []
    for attempt in attempts:
        plan = ", ".join(map(step_text, attempt.plan.steps)) or "no plan"
        ended = attempt.outcome + (f": {attempt.failure}" if attempt.failure else "")
        lines.append(f"attempt {attempt.number} ({attempt.plan.source}): {plan} -> {ended}")
        if attempt.suggestion:
            source = f" ({', '.join(attempt.experience)})" if attempt.experience else ""
            lines.append(f"  explainer{source}: {attempt.suggestion}")
    return lines


def _goal_line(scenario: Scenario, result: ScenarioResult) -> str:
    verdict = result.verdict
    goal = scenario.goal
    if goal.expect == "refuse":
        what = "refused" if result.refused else "did not refuse"
        broken = f"; forbidden now true: {', '.join(result.unmet)}" if result.unmet else ""
        return f"goal {verdict}: refuse ({goal.reason}); the robot {what}{broken}"
    wanted = ", ".join(map(str, goal.all))
    unmet = f"; unmet: {', '.join(result.unmet)}" if result.unmet else ""
    asked = "; it had to ask first" if goal.must_clarify else ""
    by = ""
    if result.met_by_others:
        by = " (the world's events alone make it hold: not the robot's success)"
    elif result.credit == "already":
        by = " (it already held at the start: not the robot's success)"
    return f"goal {verdict}: {wanted}{unmet}{asked}{by}"


# -- cogtree bench ----------------------------------------------------------------------------


def run_bench_command(args: argparse.Namespace) -> int:
    """Run the suite; write the tables; 0 when every run ran (failures are results too)."""
    scenarios = suite(args.suite)
    if args.limit is not None:
        scenarios = [scenario for _, scenario in select(scenarios, args.limit)]
    experience = experience_path(args, persist_by_default=False)
    results = run_bench(
        scenarios,
        args.trees,
        args.backends,
        ProgressBar(sys.stderr),
        max_turns=args.max_turns,
        judge=args.judge,
        experience=experience,
    )
    markdown = results.to_markdown()
    if experience is not None:
        markdown += experience_report(results.results, experience)
    if args.output is None:
        sys.stdout.write(markdown)
    else:
        args.output.write_text(markdown, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    if args.csv is not None:
        args.csv.write_text(results.to_csv(), encoding="utf-8")
        print(f"wrote {args.csv}", file=sys.stderr)
    return 1 if any(result.error for result in results.results) else 0


def suite(name: str) -> list[Scenario]:
    """The scenarios of a suite: ``all``, a tier, or comma-separated ids (ScenarioError)."""
    if name == "all" or name in get_args(Tier):
        shipped = [load_scenario(path) for path in list_scenarios()]
        return [scenario for scenario in shipped if name in ("all", scenario.tier)]
    ids = [part.strip() for part in name.split(",") if part.strip()]
    if not ids:
        tiers = ", ".join(get_args(Tier))
        raise ScenarioError(name, [Problem("", f"name a suite: all, a tier ({tiers}) or ids")])
    return [load_scenario(scenario_id) for scenario_id in ids]


def _listed(text: str, known: tuple[str, ...]) -> list[str]:
    chosen = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    wrong = [item for item in chosen if item not in known]
    if wrong or not chosen:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a comma-separated list of {', '.join(known)}"
        )
    return chosen


def _trees(text: str) -> list[TreeMode]:
    return [cast(TreeMode, tree) for tree in _listed(text, TREE_MODES)]


def _backends(text: str) -> list[str]:
    return _listed(text, BACKENDS)


class ProgressBar:
    """Bench progress on a stream: a live bar on a terminal, a line per tenth in a log."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()

    def __call__(self, done: int, total: int, what: str) -> None:
        """Show that ``done`` of ``total`` runs are finished and ``what`` runs now."""
        if self.live:
            filled = BAR_WIDTH * done // max(total, 1)
            bar = "#" * filled + "." * (BAR_WIDTH - filled)
            end = "\n" if done == total else ""
            self.stream.write(f"\r\x1b[K[{bar}] {done}/{total} {what}{end}")
        elif done == total or done * 10 // max(total, 1) != (done - 1) * 10 // max(total, 1):
            self.stream.write(f"bench {done}/{total}: {what}\n")
        self.stream.flush()
