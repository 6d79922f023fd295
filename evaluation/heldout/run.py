"""Run held-out cases through the assistant with no model, and tabulate the scores.

:func:`run_case` translates the case's world (:func:`~evaluation.heldout.world_map.case_scenario`),
opens a session over it as a scenario run does
(:func:`~evaluation.scenarios.scenario_run.scenario_session`: the simulator, a fresh memory,
the shipped packs), says the dialogue's user turns in order (the robot's own lines cannot be
put in its mouth: it answers them itself), then the tested utterance, and scores what it said
and did (:mod:`evaluation.heldout.score`). :class:`HeldoutReport` prints a Markdown table per
set, by category, with totals, and the translation's losses.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import py_trees

from cogtree.evaluation.heldout.cases import SET_NAMES, Case, HeldoutError, SetName, load_set
from cogtree.evaluation.heldout.score import Outcome, Score, done_from_call, score
from cogtree.evaluation.heldout.world_map import WorldMapping, case_scenario
from cogtree.evaluation.scenarios.hazard_set import named_rules
from cogtree.evaluation.scenarios.scenario_run import TurnRecord, scenario_session
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules


@dataclass
class CaseResult:
    """One case's translation, what the run observed, its score and how long it took."""

    mapping: WorldMapping | None
    outcome: Outcome
    score: Score
    wall_s: float

    def as_json(self) -> dict[str, Any]:
        """The result as plain JSON (for ``--json``)."""
        s, o, m = self.score, self.outcome, self.mapping
        return {
            "id": s.case.id,
            "category": s.case.category,
            "variant": s.case.variant,
            "expected": s.case.expected.decision,
            "observed": s.observed,
            "passed": s.passed,
            "decision_ok": s.decision_ok,
            "steps_held": s.steps_held,
            "unheld": s.unheld,
            "wrong_object": s.wrong_object,
            "must_not_violations": s.violations,
            "mentions_ok": s.mentions_ok,
            "hazard_named": s.hazard_named,
            "lookalike_done": s.lookalike_done,
            "reply": o.reply,
            "replies": o.replies,
            "control": o.control,
            "ran": [str(d) for d in o.tested],
            "ran_in_dialogue": [str(d) for d in o.earlier],
            "delegations": o.delegations,
            "error": o.error,
            "unmapped_kinds": m.unmapped_kinds if m else [],
            "lost": m.lost if m else [],
            "approximations": m.approximations if m else [],
            "wall_s": self.wall_s,
        }


def no_model() -> LLMClient:
    """The ``--llm none`` client: fast paths and each node's safe decision only."""
    return LLMClient(LLMConfig.load().with_backend("none"))


def run_case(case: Case) -> CaseResult:
    """Run ``case`` with no model; a crash is recorded as the outcome's ``error``."""
    started = time.perf_counter()
    mapping: WorldMapping | None = None
    try:
        mapping = case_scenario(case)
        outcome = _observe(case, mapping)
    except Exception as error:  # a crash is a result of the run: reported, not raised
        outcome = Outcome(reply="", control=None, finished=False, error=repr(error))
    wall = round(time.perf_counter() - started, 2)
    return CaseResult(mapping, outcome, score(case, outcome), wall)


def _observe(case: Case, mapping: WorldMapping) -> Outcome:
    record = TurnRecord()
    py_trees.blackboard.Blackboard.clear()
    with scenario_session(mapping.scenario, llm=no_model()) as (session, simulator):
        for text in case.user_turns():
            record.add(session.turn(text))
        earlier, delegated = len(record.calls), len(simulator.world.state.tasks_done)
        last = session.turn(case.utterance)
        record.add(last)
        end = simulator.world.state.model_dump(mode="json")
        tasks = simulator.world.state.tasks_done[delegated:]
    py_trees.blackboard.Blackboard.clear()
    tested = record.turns[-1]
    return Outcome(
        reply=tested.reply,
        control=tested.control,
        finished=last.status != "RUNNING",
        earlier=[done_from_call(call) for call in record.calls[:earlier]],
        tested=[done_from_call(call) for call in record.calls[earlier:]],
        delegations=[f"{task.person}: {task.ability}" for task in tasks],
        named_rules=named_rules([tested.reply], shipped_hazard_rules()),
        end=end,
        replies=[turn.reply for turn in record.turns],
    )


Progress = Callable[[int, int, CaseResult], None]


def run_cases(cases: Sequence[Case], progress: Progress | None = None) -> list[CaseResult]:
    """Run every case in order (``progress(done, total, result)`` after each)."""
    results = []
    for done, case in enumerate(cases, start=1):
        results.append(run_case(case))
        if progress is not None:
            progress(done, len(cases), results[-1])
    return results


def _share(hits: int, total: int) -> str:
    return f"{hits}/{total}" if total else "-"


@dataclass
class HeldoutReport:
    """The results of one or both sets, tabulated per set and category."""

    results: list[CaseResult] = field(default_factory=list)

    def rows(self, set_name: str) -> list[dict[str, str]]:
        """One row per category of ``set_name``, then the total."""
        mine = [r for r in self.results if r.score.case.set_name == set_name]
        categories = list(dict.fromkeys(r.score.case.category for r in mine))
        rows = [
            _row(category, [r for r in mine if r.score.case.category == category], set_name)
            for category in categories
        ]
        if mine:
            rows.append(_row("**total**", mine, set_name))
        return rows

    def mapping_lines(self) -> list[str]:
        """What the world translation could not express, counted over the cases run."""
        maps = [r.mapping for r in self.results if r.mapping is not None]
        things = sum(m.things for m in maps)
        unmapped = sum(len(m.unmapped_kinds) for m in maps)
        nulls = sum(
            1
            for m in maps
            for t in m.case.world.things
            if t.kind is None and t.id in m.unmapped_kinds
        )
        robot_last = sum(
            1
            for r in self.results
            if r.score.case.dialogue and "robot" in r.score.case.dialogue[-1]
        )
        people = [p for r in self.results for p in r.score.case.world.people]
        errors = sum(bool(r.outcome.error) for r in self.results)
        return [
            f"- things: {things}; kind not known to the robot's taxonomy: {unmapped} "
            f"({nulls} of them `kind: null` on purpose), run as type `UnclassifiedThing`",
            f"- state facts and person fields with no place in the world format: "
            f"{sum(len(m.lost) for m in maps)} (in {sum(bool(m.lost) for m in maps)} cases)",
            f"- layout approximations (nesting, furniture on furniture, next_to, defaults): "
            f"{sum(len(m.approximations) for m in maps)}",
            f"- people who are not adults (their age group is kept): "
            f"{sum(p.age_group != 'adult' for p in people)} of {len(people)}",
            f"- dialogues ending on a robot line the robot did not say itself: {robot_last}",
            f"- errors (the case could not run): {errors}",
        ]

    def markdown(self) -> str:
        """A table per set (by category, with totals) and the translation's losses."""
        lines: list[str] = []
        for set_name in ("everyday", "hazards"):
            rows = self.rows(set_name)
            if not rows:
                continue
            lines += [f"### {set_name}", "", *_table(rows), ""]
        lines += ["### What the world translation could not express", "", *self.mapping_lines()]
        wall = sum(r.wall_s for r in self.results)
        lines += ["", f"{len(self.results)} cases, {wall:.0f} s of runs, no model (`--llm none`)."]
        return "\n".join(lines) + "\n"

    def write_json(self, path: Path) -> None:
        """Every case's result as a JSON list."""
        data = [result.as_json() for result in self.results]
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _row(category: str, results: list[CaseResult], set_name: str) -> dict[str, str]:
    scores = [r.score for r in results]
    row = {
        "category": category,
        "cases": str(len(scores)),
        "passed": _share(sum(s.passed for s in scores), len(scores)),
        "decision": _share(sum(s.decision_ok for s in scores), len(scores)),
        "steps held": _share(
            sum(s.steps_held for s in scores if s.case.expected.steps),
            sum(bool(s.case.expected.steps) for s in scores),
        ),
        "wrong object": str(sum(bool(s.wrong_object) for s in scores)),
        "must_not run": str(sum(bool(s.violations) for s in scores)),
    }
    if set_name == "everyday":
        mention = [s for s in scores if s.mentions_ok is not None]
        row["mentions"] = _share(sum(bool(s.mentions_ok) for s in mention), len(mention))
        row["asked (act cases)"] = str(
            sum(s.observed == "ask" for s in scores if s.case.expected.decision == "act")
        )
    else:
        risky = [s for s in scores if s.case.variant in ("hazard", "unknown")]
        row["declined"] = _share(sum(s.declined for s in risky), len(risky))
        row["hazard named"] = _share(sum(bool(s.hazard_named) for s in risky), len(risky))
        safe = [s for s in scores if s.case.variant == "lookalike_safe"]
        row["look-alikes done"] = _share(sum(bool(s.lookalike_done) for s in safe), len(safe))
    return row


def _table(rows: Sequence[dict[str, str]]) -> list[str]:
    header = list(rows[0])
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row[key] for key in header) + " |" for row in rows]


def spread(cases: Sequence[Case], limit: int | None) -> list[Case]:
    """At most ``limit`` cases spread evenly over ``cases`` (all of them when None)."""
    if limit is None or limit >= len(cases):
        return list(cases)
    return [cases[i * len(cases) // limit] for i in range(limit)]


def run_heldout_command(args: argparse.Namespace) -> int:
    """``cogtree eval heldout``: run the sets, print the tables; 2 when a set is invalid.

    ``args``: ``heldout_set`` (everyday, hazards or all), ``file`` (a file of the same schema
    run instead, such as a development set), ``limit`` (cases per set, spread over it) and
    ``json`` (a file for every case's result). A progress line per case goes to stderr.
    """
    names = SET_NAMES if args.heldout_set == "all" else (args.heldout_set,)
    sources: Sequence[SetName | Path] = names if args.file is None else (args.file,)
    try:
        cases = [case for source in sources for case in spread(load_set(source), args.limit)]
    except HeldoutError as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2

    def progress(done: int, total: int, result: CaseResult) -> None:
        s = result.score
        verdict = "pass" if s.passed else "FAIL"
        print(
            f"[{done}/{total}] {s.case.id} {s.case.category}: expected {s.case.expected.decision}"
            f", got {s.observed}: {verdict} ({result.wall_s:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    report = HeldoutReport(run_cases(cases, progress))
    sys.stdout.write(report.markdown())
    if args.json is not None:
        report.write_json(args.json)
    return 0
