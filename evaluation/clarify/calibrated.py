"""``cogtree calibrate`` and ``cogtree eval clarify --calibrated``: the conformal gate measured.

For each item the assistant tree runs one turn with no model (the fast paths read the
request and resolve its referents, :class:`~evaluation.clarify.clarify.ClarifyRunner`); the
candidate readings the readiness gate would offer are built from that turn's intent frame and
resolutions (:func:`knowledge.safety.candidate_readings.candidate_readings`) and scored by the
backend under test: ``none`` with the fast path's match scores, a model by its next-token
letter probabilities (the same prompt the gate sends).

The intended option of an item:

- KnowNo-style items (``intent_object``): every reading whose things are the intended
  object(s) and, for the rest, the intended location (``pick-up``: the user) — several
  acceptable options for a multi-label item;
- AmbiK-style items (no ``intent_object``): the reading of the item's exact-wording twin
  (``<id>-clear``) when that wording resolves to exactly one reading, compared by the things
  it names;
- when no offered reading is the intended one, "none of these" is the intended option.

Items with no readings (a skill the robot lacks, no thing named, a referent that matches
nothing, several steps) or whose intention cannot be told (no intent object and no twin that
resolves to one reading) are not counted; the report says how many. Calibration and test
halves are split by a hash of the item's id (twins stay together).
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any

import py_trees

from cogtree.behaviours import keys
from cogtree.evaluation.clarify.clarify import ClarifyRunner, Progress
from cogtree.evaluation.clarify.clarify_data import ClarifyItem
from cogtree.evaluation.clarify.clarify_world import ROBOT, USER, object_id, object_names
from cogtree.evaluation.janus.runner import client_for
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import LLMError
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.safety.candidate_readings import Readings, candidate_readings, option_prompt
from cogtree.knowledge.safety.conformal import (
    CalibrationError,
    conformal_quantile,
    nonconformity,
    prediction_set,
)
from cogtree.knowledge.safety.conformal_threshold import ConformalThreshold, files_sha256, utc_now
from cogtree.knowledge.safety.match_scores import NO_MODEL
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution

log = logging.getLogger(__name__)

REPEATED_SPLITS = 200
"""Seeded random half splits whose mean the report gives beside the hash split."""

READINESS_MODULE = "inner_speech"
"""The module whose model scores the readings (the readiness gate's)."""

BINS = {"recycling": "recycling_bin", "landfill": "landfill_bin", "compost": "compost_bin"}
"""An item's ``intent_location`` bin word -> the bin's id in the built kitchen."""


@dataclass
class ScoredItem:
    """One item's options as scored by one backend, and which of them were meant."""

    id: str
    source: str
    group: str
    letters: list[str]
    none_letter: str
    intended: list[str]
    probabilities: dict[str, float] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    """Letter -> the option's description (for reading the item-level output)."""
    tie_breaks: dict[str, float] = field(default_factory=dict)
    """Letter -> the option's conformal tie-break (the gate's, from the request and option)."""
    backend: str = ""
    model: str = ""
    excluded: str = ""
    """Why the item is not counted (empty: counted)."""
    scoring_failed: str = ""
    """Why the scorer gave nothing (counted all the same, with every option equally likely:
    the gate asks on a failed scoring, so leaving the item out would flatter the help rate)."""

    @property
    def split_key(self) -> str:
        """The id shared by an item and its twins (``12-clear`` -> ``12``)."""
        return f"{self.source.split('-')[0]}:{self.id.split('-')[0]}"

    @property
    def calibration_half(self) -> bool:
        """Whether the item is in the calibration half (else the test half), by its id's hash."""
        return hashlib.sha256(self.split_key.encode()).digest()[0] % 2 == 0


# -- the turns and the readings ------------------------------------------------------------------


@dataclass(frozen=True)
class TurnReadings:
    """What the no-model turn of an item left for the gate: its readings (None: none)."""

    readings: Readings | None


def read_turns(
    items: Sequence[ClarifyItem], progress: Progress | None = None
) -> dict[str, TurnReadings]:
    """Run one no-model turn per item; each item's candidate readings, by :func:`item_key`."""
    found: dict[str, TurnReadings] = {}

    def after_turn(item: ClarifyItem) -> None:
        storage = py_trees.blackboard.Blackboard.storage
        frame = storage.get(keys.INTENT.name)
        resolved = storage.get(keys.RESOLVED.name) or {}
        frame = frame if isinstance(frame, IntentFrame) else None
        resolved = {k: v for k, v in resolved.items() if isinstance(v, SlotResolution)}
        found[item_key(item)] = TurnReadings(candidate_readings(frame, resolved))

    runner = ClarifyRunner("none", domains=DomainRegistry.discover(), after_turn=after_turn)
    try:
        runner.run(items, progress)
    finally:
        runner.close()
    return found


def intended_letters(
    item: ClarifyItem, readings: Readings, twin: Readings | None
) -> list[str] | None:
    """The letters of the intended options (see the module docs); None when unknown."""
    if item.intended:
        names = object_names(item)
        by_name = {name.lower(): ident for ident, name in names.items()}
        wanted = {by_name[name.lower()] for name in item.intended if name.lower() in by_name}
        place = _location_ids(item, by_name)
        letters = [
            option.letter
            for option in readings.readings
            if _names_the_intention(_things(option.ids, readings), wanted, place)
        ]
    else:
        if twin is None or len(twin.readings) != 1:
            return None
        meant = _things(twin.readings[0].ids, twin)
        letters = [o.letter for o in readings.readings if _things(o.ids, readings) == meant]
    return letters or [readings.none_letter]


def _things(ids: Mapping[str, str], readings: Readings) -> set[str]:
    """The things of the scene a reading names (a relation or a pack's value is not one)."""
    return {ident for slot, ident in ids.items() if readings.resolved[slot].kind == "scene"}


def _location_ids(item: ClarifyItem, by_name: Mapping[str, str]) -> set[str]:
    place = (item.intent_location or "").strip().lower()
    if not place:
        return set()
    if place == "pick-up":
        return {USER}
    if place in by_name:
        return {by_name[place]}
    return {BINS.get(place) or object_id(place, set())}


def _names_the_intention(things: set[str], wanted: set[str], place: set[str]) -> bool:
    """The reading names an intended object, and nothing else but the intended place."""
    return bool(things & wanted) and things - wanted <= place | {USER, ROBOT}


def item_key(item: ClarifyItem, ident: str | None = None) -> str:
    """An item's key across files: its source and id (or ``ident``, another id of its set)."""
    return f"{item.source}:{item.id if ident is None else ident}"


def twin_key(item: ClarifyItem) -> str:
    """The key of an item's exact-wording twin (``12``, ``12-indirect`` -> ``12-clear``)."""
    return item_key(item, f"{item.id.split('-')[0]}-clear")


# -- scoring --------------------------------------------------------------------------------------


Scorer = Callable[[ClarifyItem, Readings], tuple[dict[str, float], str]]
"""Probabilities of an item's options and the model that gave them; raises LLMError."""


def score_items(
    items: Sequence[ClarifyItem], turns: Mapping[str, TurnReadings], backend: str, scorer: Scorer
) -> list[ScoredItem]:
    """Every item's options scored by ``scorer`` (uncounted items say why)."""
    scored = []
    for item in items:
        turn = turns.get(item_key(item))
        readings = turn.readings if turn is not None else None
        entry = ScoredItem(
            id=item.id,
            source=item.source,
            group=item.group,
            backend=backend,
            letters=[],
            none_letter="",
            intended=[],
        )
        if readings is None:
            entry.excluded = "no readings"
            scored.append(entry)
            continue
        if not item.intended and twin_key(item) == item_key(item):
            entry.excluded = "labels its twins"  # its reading is what its twins are held to
            scored.append(entry)
            continue
        twin = turns.get(twin_key(item))
        intended = intended_letters(item, readings, twin.readings if twin else None)
        entry.letters, entry.none_letter = list(readings.letters), readings.none_letter
        entry.options = {option.letter: option.description for option in readings.options}
        entry.tie_breaks = readings.tie_breaks(item.task)
        entry.intended = intended or []
        if intended is None:
            entry.excluded = "intention unknown"
        else:
            try:
                entry.probabilities, entry.model = scorer(item, readings)
            except LLMError as error:
                entry.scoring_failed = str(error)
                entry.probabilities = {
                    letter: 1 / len(readings.letters) for letter in readings.letters
                }
        scored.append(entry)
    return scored


def match_scorer(item: ClarifyItem, readings: Readings) -> tuple[dict[str, float], str]:
    """The no-model scorer: the fast path's match scores (:mod:`knowledge.safety.match_scores`)."""
    return readings.match_probabilities(), NO_MODEL


def model_scorer(client: LLMClient) -> Scorer:
    """A model's scorer: its letter probabilities for the gate's own prompt (blocking)."""

    def score(item: ClarifyItem, readings: Readings) -> tuple[dict[str, float], str]:
        scores = client.score_options(READINESS_MODULE, option_prompt(item.task, readings))
        return scores.probabilities, scores.model

    return score


def scored_with(
    items: Sequence[ClarifyItem],
    turns: Mapping[str, TurnReadings],
    backend: str,
    config: LLMConfig | None = None,
) -> list[ScoredItem]:
    """Score every item with ``backend`` (raises BackendUnavailable when it cannot run).

    ``config``: the manifest the model's client starts from (None: the packaged one).
    """
    if backend == "none":
        return score_items(items, turns, backend, match_scorer)
    client = client_for(backend, config=config)
    assert client is not None
    try:
        return score_items(items, turns, backend, model_scorer(client))
    finally:
        client.close()


# -- calibration and its measures ---------------------------------------------------------------


def counted(scored: Sequence[ScoredItem]) -> list[ScoredItem]:
    """The items that count (scored, with a known intention)."""
    return [item for item in scored if not item.excluded]


def threshold_for(
    scored: Sequence[ScoredItem], epsilon: float, data_files: Sequence[Path]
) -> ConformalThreshold:
    """The conformal threshold of ``scored`` (counted items only) for ``epsilon``."""
    items = counted(scored)
    if not items:
        backend = scored[0].backend if scored else "?"
        raise CalibrationError(f"nothing to calibrate on: {exclusions(backend, scored)}")
    scores = calibration_scores(items)
    sizes = Counter(len(item_set(item, scores, epsilon)) for item in items)
    models = Counter(item.model for item in items)
    return ConformalThreshold(
        backend=items[0].backend if items else "",
        model=models.most_common(1)[0][0] if models else "",
        epsilon=epsilon,
        scores=scores,
        set_sizes={str(size): count for size, count in sorted(sizes.items())},
        data_file=", ".join(str(path) for path in data_files),
        data_sha256=files_sha256(data_files),
        created=utc_now(),
    )


def calibration_scores(items: Sequence[ScoredItem]) -> list[float]:
    """The nonconformity scores of ``items`` (a threshold keeps them sorted)."""
    return [nonconformity(item.probabilities, item.intended) for item in items]


def item_set(item: ScoredItem, scores: Sequence[float], epsilon: float) -> list[str]:
    """The prediction set of ``item`` against calibration ``scores``, as the gate makes it."""
    return prediction_set(item.probabilities, scores, epsilon, item.tie_breaks)


def measures(
    items: Sequence[ScoredItem], scores: Sequence[float], epsilon: float
) -> dict[str, Any]:
    """Success, help and exact-set rates and the mean set size of ``items``' sets.

    The sets are calibrated on ``scores`` for ``epsilon`` (:func:`item_set`).

    Success: an intended option is in the set. Help (the gate asks): the set is not exactly
    one reading (several options, empty, or "none of these" in it). Exact set: the set is
    exactly the intended options.
    """
    if not items:
        return {"items": 0, "success": None, "help": None, "exact_set": None, "set_size": None}
    sets = [item_set(item, scores, epsilon) for item in items]
    return {
        "items": len(items),
        "success": fmean(bool(set(s) & set(i.intended)) for s, i in zip(sets, items, strict=True)),
        "help": fmean(
            not (len(s) == 1 and s[0] != i.none_letter) for s, i in zip(sets, items, strict=True)
        ),
        "exact_set": fmean(set(s) == set(i.intended) for s, i in zip(sets, items, strict=True)),
        "set_size": fmean(len(s) for s in sets),
    }


@dataclass
class CalibratedRow:
    """One line of the table: a backend, an epsilon, a group of test items."""

    backend: str
    epsilon: float
    q_hat: float
    calibration_n: int
    group: str
    items: int
    success: float | None
    help: float | None
    exact_set: float | None
    set_size: float | None


@dataclass
class CalibratedReport:
    """The calibrated evaluation of one file: rows per backend, epsilon and group; notes."""

    name: str
    rows: list[CalibratedRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    scored: list[ScoredItem] = field(default_factory=list)

    def markdown(self) -> str:
        """The table, then the notes."""
        head = (
            "| backend | ε | target | q̂ | calib n | group | test items | success | help | "
            "exact set | mean set size |"
        )
        lines = [f"## Calibrated ask or act: {self.name}", "", head, "|" + "---|" * 2 + "---:|" * 9]
        for row in self.rows:
            cells = [
                row.backend,
                f"{row.epsilon:g}",
                f"{1 - row.epsilon:.2f}",
                f"{row.q_hat:.3f}",
                str(row.calibration_n),
                row.group,
                str(row.items),
                *(_cell(v) for v in (row.success, row.help, row.exact_set, row.set_size)),
            ]
            lines.append("| " + " | ".join(cells) + " |")
        if self.notes:
            lines += ["", *(f"- {note}" for note in self.notes)]
        return "\n".join(lines) + "\n"

    def jsonl(self) -> str:
        """Every scored item as one JSON object per line."""
        return "".join(json.dumps(asdict(item)) + "\n" for item in self.scored)


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def evaluate_calibrated(
    name: str,
    items: Sequence[ClarifyItem],
    backends: Sequence[str],
    epsilons: Sequence[float],
    data_files: Sequence[Path],
    progress: Progress | None = None,
    turns: Mapping[str, TurnReadings] | None = None,
) -> CalibratedReport:
    """Calibrate on one half of ``items``, measure on the other, per backend and epsilon.

    ``turns``: the items' readings when already read (:func:`read_turns`), else read here.
    """
    from cogtree.evaluation.janus.runner import BackendUnavailable

    report = CalibratedReport(name)
    if turns is None:
        turns = read_turns(items, progress)
    for backend in dict.fromkeys(backends):
        try:
            scored = scored_with(items, turns, backend)
        except BackendUnavailable as error:
            report.notes.append(f"{backend} skipped: {error}")
            continue
        report.scored += scored
        report.notes.append(exclusions(backend, scored))
        calibration = [item for item in scored if item.calibration_half]
        test = counted([item for item in scored if not item.calibration_half])
        if not counted(calibration) or not test:
            report.notes.append(f"{backend}: too few counted items to calibrate and test")
            continue
        for epsilon in epsilons:
            threshold = threshold_for(calibration, epsilon, data_files)
            report.rows.append(repeated_splits(backend, counted(scored), epsilon))
            for group, members in _groups(test):
                report.rows.append(
                    CalibratedRow(
                        backend=backend,
                        epsilon=epsilon,
                        q_hat=threshold.q_hat,
                        calibration_n=threshold.n,
                        group=group,
                        **measures(members, threshold.scores, epsilon),
                    )
                )
    return report


def repeated_splits(
    backend: str, items: Sequence[ScoredItem], epsilon: float, repeats: int = REPEATED_SPLITS
) -> CalibratedRow:
    """The measures averaged over ``repeats`` seeded random half splits (twins kept together).

    The guarantee is an expectation over calibration sets; one split of a few dozen items
    can land well above or below it, the mean over many shows where it lies.
    """
    keys = sorted({item.split_key for item in items})
    rows: list[dict[str, Any]] = []
    q_hats: list[float] = []
    for seed in range(repeats):
        order = list(keys)
        random.Random(seed).shuffle(order)
        half = set(order[: len(order) // 2])
        calibration = [item for item in items if item.split_key in half]
        test = [item for item in items if item.split_key not in half]
        scores = calibration_scores(calibration)
        q_hats.append(conformal_quantile(scores, epsilon))
        rows.append(measures(test, scores, epsilon))
    return CalibratedRow(
        backend=backend,
        epsilon=epsilon,
        q_hat=fmean(q_hats),
        calibration_n=len(items) // 2,
        group=f"all, mean of {repeats} random splits",
        items=round(fmean(row["items"] for row in rows)),
        **{name: fmean(row[name] for row in rows) for name in MEASURES},
    )


MEASURES = ("success", "help", "exact_set", "set_size")
"""The rates :func:`measures` gives."""


def _groups(test: Sequence[ScoredItem]) -> list[tuple[str, list[ScoredItem]]]:
    groups = [("all", list(test))]
    intended_none = [item for item in test if item.intended == [item.none_letter]]
    groups.append(("intended: none of these", intended_none))
    for source in sorted({item.source for item in test}):
        groups.append((f"source {source}", [item for item in test if item.source == source]))
    for group in sorted({item.group for item in test}):
        groups.append((group, [item for item in test if item.group == group]))
    return groups


def exclusions(backend: str, scored: Sequence[ScoredItem]) -> str:
    """How many items count, and why the others do not."""
    reasons = Counter(item.excluded.split(":")[0] for item in scored if item.excluded)
    shown = ", ".join(f"{reason} {count}" for reason, count in reasons.most_common()) or "none"
    failed = sum(1 for item in counted(scored) if item.scoring_failed)
    return (
        f"{backend}: {len(counted(scored))} of {len(scored)} items counted ({failed} whose "
        f"scoring failed, counted with every option equally likely); not counted: {shown}"
    )
