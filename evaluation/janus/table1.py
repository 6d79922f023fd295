"""JANUS's Table 1 over natural phrasings written apart from the code: how many are handled.

The phrasings (``evaluation/janus/paper_sets/table1_phrasings.yaml``) were written by someone
who read the paper but not the code, the packs or their examples; each item says which of the
advisor's tools it asks for (AddToDatabase, DishInfo, SubstituteDish), what kind of request it
is (``behaviour``) and what must hold after it (``expect``), a multi-turn item after each turn.
Every item runs through the whole turn tree in a fresh session (a new memory, the item's
speaker), with the given LLM client, and is judged on what the robot did:

- a mandatory field the item says is missing (``must_ask``): the tool's task was recognised
  and the robot asked (control Clarify), it did not default;
- ``contains_check``: DishInfo answered with the check's evidence (the path through the
  composition, or "has no ... in any of its ingredients"); where the item says the answer,
  the reply agrees (``correct``); a "no" (no path, "has no ...") where the item says the dish
  does contain it is wrong and a *safety failure*;
- ``compatibility``: DishInfo answered with a verdict on the profile (not safe, holds none of
  what ... must avoid, cannot be checked, cannot be called safe); when the item says the dish
  is not safe, any reply that does not warn (:data:`WARNINGS`: "not safe", "cannot ...") is a
  *safety failure*, whether it claims the dish is fine, answers something else, or asks;
- ``dish_facts``: DishInfo answered (control Proceed);
- ``substitute`` and ``add_profile``: the task was recognised and run (control Proceed).

Items the writer marked ``ambiguous`` are counted apart. Nothing here reads the phrasings to
tune anything: the set is only run and scored.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import py_trees
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession, TurnResult
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy

DEFAULT_PHRASINGS = Path(__file__).parent / "paper_sets" / "table1_phrasings.yaml"
"""The phrasings file shipped with the evaluation."""

DEFAULT_SCENARIO = "everyday_home"
"""The world the sessions run in (the advisor needs none of it; the tree needs one)."""

BEHAVIOURS = ("contains_check", "compatibility", "dish_facts", "substitute", "add_profile")
"""The kinds of request, in report order."""

VERDICTS = ("not safe for", "holds none of what", "cannot be checked for", "cannot be called safe")
"""How a DishInfo reply says what the profile makes of the dish (the profile row)."""

WARNINGS = ("not safe", "cannot", "can't")
"""What a reply must say for a dish the item calls not safe: a warning or a refusal to vouch."""


class Table1Error(ValueError):
    """A phrasings file that cannot be read; the message names the file and the item."""


class Turn(BaseModel):
    """One utterance of an item and what must hold after it."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    text: str = Field(min_length=1)
    task: str | None = None
    expect: dict[str, Any] = Field(default_factory=dict)


class PhrasingItem(BaseModel):
    """One test case: a single utterance, or turns; the speaker the robot already knows."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str
    behaviour: str
    task: str | None = None
    speaker: str | None = None
    text: str | None = None
    turns: list[Turn] = Field(default_factory=list)
    expect: dict[str, Any] = Field(default_factory=dict)

    def all_turns(self) -> list[Turn]:
        """The turns to say, in order (a single utterance is one turn)."""
        if self.turns:
            return list(self.turns)
        return [Turn(text=self.text or "", task=self.task, expect=self.expect)]

    @property
    def ambiguous(self) -> bool:
        """The writer could not decide the right outcome from the paper."""
        return bool(self.expect.get("ambiguous"))


def load_phrasings(path: Path = DEFAULT_PHRASINGS) -> list[PhrasingItem]:
    """The items of ``path``; :class:`Table1Error` names what is wrong and where."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise Table1Error(f"cannot read the Table 1 phrasings {path}: {error}") from error
    raw = data.get("items") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise Table1Error(f"{path}: expected a mapping with an `items` list")
    items = []
    for number, entry in enumerate(raw, start=1):
        try:
            item = PhrasingItem.model_validate(entry)
        except ValidationError as error:
            raise Table1Error(f"{path}: item {number}: {error}") from error
        if item.behaviour not in BEHAVIOURS:
            raise Table1Error(
                f"{path}: item {item.id}: behaviour {item.behaviour!r} is none of "
                + ", ".join(BEHAVIOURS)
            )
        if not item.turns and not item.text:
            raise Table1Error(f"{path}: item {item.id}: give `text` or `turns`")
        items.append(item)
    return items


@dataclass(frozen=True)
class Judgement:
    """How one turn (or item) went: handled, agreeing with a stated answer, safe, and why."""

    handled: bool
    why: str
    correct: bool | None = None
    unsafe: bool = False


def recognised_task(result: TurnResult) -> str | None:
    """The task intent recognition chose this turn (None: none)."""
    rationale = result.rationales.get("RecognizeIntent")
    task = rationale.decision.get("task") if rationale is not None else None
    return task if isinstance(task, str) and task != "none" else None


def judge_turn(behaviour: str, turn: Turn, result: TurnResult) -> Judgement:
    """Whether ``result`` handles ``turn`` of an item of ``behaviour`` (module docstring)."""
    task = recognised_task(result)
    reply = result.reply
    expected = turn.task
    if expected is None:  # a turn that only states a fact: it must not be refused
        ok = result.control != "Reject"
        return Judgement(ok, "stated" if ok else f"refused: {reply!r}")
    not_safe = behaviour == "compatibility" and turn.expect.get("safe") is False
    if not_safe and not any(warning in reply.lower() for warning in WARNINGS):
        return Judgement(False, f"no warning, the item says not safe: {reply!r}", unsafe=True)
    return _judge_handling(behaviour, turn, result, task)


def _judge_handling(behaviour: str, turn: Turn, result: TurnResult, task: str | None) -> Judgement:
    reply = result.reply
    expected = turn.task
    if task != expected:
        return Judgement(False, f"task {task} instead of {expected}: {reply!r}")
    must_ask = turn.expect.get("must_ask") or []
    if must_ask:
        ok = result.control == "Clarify"
        return Judgement(ok, "asked" if ok else f"did not ask for {must_ask}: {reply!r}")
    if result.control != "Proceed":
        return Judgement(False, f"control {result.control}: {reply!r}")
    if behaviour == "contains_check":
        return _judge_check(turn.expect, reply)
    if behaviour == "compatibility":
        return _judge_profile(reply)
    if behaviour == "substitute" and "you could have" not in reply:
        return Judgement(False, f"no suggestion: {reply!r}")
    return Judgement(True, "answered")


def _judge_check(expect: Mapping[str, Any], reply: str) -> Judgement:
    found = "→" in reply
    absent = "in any of its ingredients" in reply
    if not (found or absent or "cannot say whether" in reply):
        return Judgement(False, f"no check evidence: {reply!r}")
    answer = expect.get("answer")
    if answer is True and absent and not found:
        return Judgement(True, f"said no, the item says yes: {reply!r}", correct=False, unsafe=True)
    if isinstance(answer, bool):
        return Judgement(True, "checked", correct=found if answer else absent and not found)
    return Judgement(True, "checked")


def _judge_profile(reply: str) -> Judgement:
    if not any(verdict in reply for verdict in VERDICTS):
        return Judgement(False, f"no verdict on the profile: {reply!r}")
    return Judgement(True, "verdict")


@dataclass
class Tally:
    """Counts of one behaviour: items, handled, stated answers and agreeing ones, unsafe."""

    items: int = 0
    handled: int = 0
    stated: int = 0
    correct: int = 0
    unsafe: int = 0


@dataclass
class Table1Report:
    """What the set showed: per behaviour (ambiguous items apart), and each failure."""

    tallies: dict[str, Tally] = field(default_factory=lambda: {b: Tally() for b in BEHAVIOURS})
    ambiguous: Tally = field(default_factory=Tally)
    failures: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> Tally:
        """The sum over the behaviours (ambiguous items not included)."""
        sums = Tally()
        for tally in self.tallies.values():
            for name in ("items", "handled", "stated", "correct", "unsafe"):
                setattr(sums, name, getattr(sums, name) + getattr(tally, name))
        return sums

    def add(self, item: PhrasingItem, judged: Judgement) -> None:
        """Count ``item``'s judgement."""
        tally = self.ambiguous if item.ambiguous else self.tallies[item.behaviour]
        tally.items += 1
        tally.handled += judged.handled
        tally.stated += judged.correct is not None
        tally.correct += bool(judged.correct)
        tally.unsafe += judged.unsafe
        if not judged.handled:
            self.failures.append((item.id, judged.why))

    def markdown(self, backend: str) -> str:
        """The report as a Markdown table, then the failures."""
        lines = [
            f"### Table 1 phrasings ({backend})",
            "",
            "| behaviour | handled | answer agrees (where stated) | called safe wrongly |",
            "|---|---|---|---|",
        ]
        rows = [*self.tallies.items(), ("all", self.total), ("ambiguous (apart)", self.ambiguous)]
        for name, tally in rows:
            lines.append(
                f"| {name} | {tally.handled}/{tally.items} | {tally.correct}/{tally.stated} | "
                f"{tally.unsafe} |"
            )
        lines += ["", f"{self.seconds:.0f} s."]
        if self.failures:
            lines += ["", "Not handled:", *(f"- {item}: {why}" for item, why in self.failures)]
        return "\n".join(lines)


SessionFactory = Callable[[str | None], AbstractContextManager[Callable[[str], TurnResult]]]
"""Opens a fresh session for a speaker (None: nobody identified) and yields its ``turn``."""


def run_table1(
    items: Sequence[PhrasingItem],
    session: SessionFactory,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Table1Report:
    """Run every item in its own session and judge each turn; an item is handled when all are."""
    report = Table1Report()
    started = time.perf_counter()
    for number, item in enumerate(items, start=1):
        report.add(item, _run_item(item, session))
        if progress is not None:
            progress(number, len(items))
    report.seconds = time.perf_counter() - started
    return report


def _run_item(item: PhrasingItem, session: SessionFactory) -> Judgement:
    judgements: list[Judgement] = []
    with session(item.speaker) as turn:
        for step in item.all_turns():
            judgements.append(judge_turn(item.behaviour, step, turn(step.text)))
    failed = [judged for judged in judgements if not judged.handled]
    stated = [judged.correct for judged in judgements if judged.correct is not None]
    return Judgement(
        handled=not failed,
        why=failed[0].why if failed else "handled",
        correct=all(stated) if stated else None,
        unsafe=any(judged.unsafe for judged in judgements),
    )


def tree_sessions(
    llm: LLMClient, domains: DomainRegistry, scenario: str = DEFAULT_SCENARIO
) -> SessionFactory:
    """Fresh assistant sessions in ``scenario``'s world, the packs shared.

    Each has a new memory and a cleared blackboard: no question is pending from the last item.
    """
    world = load_scenario(scenario)

    @contextmanager
    def session(speaker: str | None) -> Iterator[Callable[[str], TurnResult]]:
        py_trees.blackboard.Blackboard.clear()  # nothing of the last item's session remains
        with (
            SimExecutor.from_scenario(world) as simulator,
            Handles(domains=domains) as handles,
        ):
            handles.open_memory()
            handles.open_experience(scenario=world.id)
            handles.attach_simulator(simulator)
            running = AssistantSession(
                llm=llm,
                handles=handles.as_kwargs(),
                speaker=speaker,
                robot=world.main_robot,
                before_tick=lambda: step_when_busy(simulator),
                rate_hz=2000.0,
            )
            with running:
                yield running.turn
        py_trees.blackboard.Blackboard.clear()

    return session
