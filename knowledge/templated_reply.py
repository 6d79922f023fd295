"""The templated answer: what the robot says from a turn's evidence when a template fits.

- query rows of the task's template: the task's ``reply`` template, ``{column}`` fields filled
  from the rows (values joined: "flour, eggs and sugar"; a slot's ``every``: each row said in
  turn), ``{slot}`` fields from the task, labels not ids (a ``<column>_label`` column, ...);
- an empty result: "I could not find anything for ..." naming what was asked;
- memory-write evidence: "Noted: ..."; plan evidence: the task's ``reply`` template when the
  robot or its delegates made every goal fact hold and no slot names something the outcome
  does not let it claim (:func:`claimable`), for a request of several tasks each task's in
  turn ("I poured the orange juice into the glass. I brought you the glass."), else the
  outcome read from the belief;
- no query evidence for a knowledge task: "I could not look that up (...)".

Functions of a :class:`ReplyTurn` alone (no blackboard, no node), so ``Respond`` composes
and checks its answer on a worker.
"""

from __future__ import annotations

import re
import string
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import groupby

from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_pack import Grounding
from cogtree.knowledge.understanding.evidence_needs import TurnTask
from cogtree.knowledge.understanding.faithfulness import LexiconNames, parse_number
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    EvidenceItem,
    IntentFrame,
    SlotResolution,
)
from cogtree.knowledge.wording import capitalised, clauses, joined, looks_plural, with_the

NOT_GROUNDED: Mapping[Grounding, str] = {
    "knowledge_query": "I could not look that up",
    "physical": "I could not do that",
    "memory_write": "I could not note that",
    "memory_query": "I could not recall that",
}
"""What the robot says when the task's grounding left no evidence at all."""


GENERIC_ROWS = 5
"""At most this many rows are listed by the generic templated answer."""


_ID = re.compile(r"(?:[A-Za-z][\w.-]*:|https?://\S+[#/]|urn:\S+:)([A-Za-z_][\w.-]*)")


@dataclass(frozen=True)
class Templated:
    """The templated answer for the evidence, and whether a template really fits it."""

    text: str
    fits: bool


@dataclass
class ReplyTurn:
    """What one turn gives the robot to speak from: the request, its task, the evidence."""

    utterance: str = ""
    task: TurnTask | None = None
    intent: IntentFrame | None = None
    evidence: EvidenceBundle | None = None
    working: WorkingContext | None = None
    slots: dict[str, object] = field(default_factory=dict)
    resolved: dict[str, SlotResolution] = field(default_factory=dict)
    lexicons: Mapping[str, Lexicon] = field(default_factory=dict)
    names: LexiconNames = field(default_factory=lambda: LexiconNames(()))
    speaker: str | None = None
    people: frozenset[str] = frozenset()
    steps: list[tuple[TurnTask, dict[str, object]]] = field(default_factory=list)
    """For a request of several tasks: each task and its slot values, in order."""
    labels: dict[str, str] = field(default_factory=dict)
    """Scene ids the steps name -> their labels (two plates alike: one lexicon form, one id)."""


def templated_answer(turn: ReplyTurn) -> Templated:
    """The templated answer for the turn's evidence (text "" when nothing can be said)."""
    items = turn.evidence.items if turn.evidence is not None else []
    parts: list[str] = []
    fits = True
    for item in items:
        text, item_fits = _speak(turn, item)
        fits = fits and item_fits
        if text:
            parts.append(capitalised(text))
    if parts:
        return Templated(" ".join(parts), fits=fits)
    if turn.task is None:
        return Templated("", fits=True)
    failed = NOT_GROUNDED[turn.task.spec.grounding]
    return Templated(f"{failed} ({asked(turn)}).", fits=True)


def _speak(turn: ReplyTurn, item: EvidenceItem) -> tuple[str, bool]:
    """One evidence item in words, and whether a template fits it."""
    if item.source == "memory":
        text = item.text.strip().rstrip(".")
        task = turn.task
        if task is not None and task.spec.grounding == "memory_write" and task.spec.reply:
            rendered = _render(turn, task.spec.reply, [{"text": text}])
            if rendered is not None:
                return rendered, True
        return (f"Noted: {text}." if text else "Noted."), True
    task = turn.task
    if item.source == "plan":
        if item.ok and task is not None and task.spec.reply and claimable(turn.slots, item):
            rendered = _render(turn, task.spec.reply, [])
            if rendered is not None:
                return rendered, True
        if item.ok and (said := _each_step(turn, item)):
            return said, True
        return item.text.strip() or f"{NOT_GROUNDED['physical']} ({asked(turn)}).", True
    if not item.rows:
        if item.text:
            return item.text.strip(), True
        return f"I could not find anything for {asked(turn)}.", True
    if not any(value is not None for row in item.rows for value in row.values()):
        return f"I could not find anything for {asked(turn)}.", True
    if task is not None and task.spec.reply and item.source == task.spec.answer_source:
        rendered = _render(turn, task.spec.reply, item.rows)
        if rendered is not None:
            return rendered, True
    return _generic(turn, item.rows), False


def _each_step(turn: ReplyTurn, item: EvidenceItem) -> str:
    """Each task of a request of several in its ``reply`` template, in order; "" unless all.

    Only when every step's slots may be claimed as done (:func:`claimable`). A sentence said
    of things alike in a row is said once, with how many ("... to the table (2 of them).").
    """
    said: list[str] = []
    for task, slots in turn.steps:
        if not task.spec.reply or not claimable(slots, item):
            return ""
        rendered = _render(replace(turn, task=task, slots=slots), task.spec.reply, [])
        if rendered is None:
            return ""
        said.append(capitalised(rendered))
    runs = [(sentence, len(list(run))) for sentence, run in groupby(said)]
    return " ".join(s if n == 1 else f"{s.rstrip('.')} ({n} of them)." for s, n in runs)


def claimable(slots: Mapping[str, object], item: EvidenceItem) -> bool:
    """Whether the task's reply template may be said for the plan evidence ``item``.

    Not when a slot names something the outcome does not let the robot claim as done
    (``item.unclaimed``: "signed by lena" when Carlos signed, "I brought the bottle" when
    someone else carried it), nor when nothing needed doing (``item.nothing_needed``).
    """
    if item.nothing_needed:
        return False
    named = {str(value) for slot in slots.values() for value in as_list(slot)}
    return not named & set(item.unclaimed)


def _render(turn: ReplyTurn, template: str, rows: Sequence[Mapping[str, str | None]]) -> str | None:
    """``template`` with its fields filled from the rows and the slots; None if one is missing."""
    if len(rows) > 1 and turn.task and any(s.every for s in turn.task.spec.slots.values()):
        each = [_render(turn, template, [row]) for row in rows[:GENERIC_ROWS]]
        return " ".join(text for text in each if text is not None) if all(each) else None
    values: dict[str, str] = {}
    plural: set[str] = set()
    try:
        fields = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    except ValueError:
        return None
    for name in fields:
        column = _column_values(turn, rows, name)
        if len(column) > 1 or (column and looks_plural(column[0])):
            plural.add(name)
        if column:
            values[name] = clauses(column)
        elif turn.slots.get(name) not in (None, [], ""):
            values[name] = slot_said(turn, name, turn.slots[name])
            if looks_plural(values[name]):
                plural.add(name)
        else:
            return None
    try:
        return _agreeing(template, plural).format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


_FIELD_THEN_IS = re.compile(r"\{(\w+)\} is\b")
"""A field a template follows with "is" ("The {label} is {where}")."""


def _agreeing(template: str, plural: Container[str]) -> str:
    """``template`` with "is" after a field made "are" when the field's value is ``plural``.

    "The {label} is" says "The reading glasses are" (a plural label), and "The mug and the
    cup are" (two values of the column).
    """

    def verb(match: re.Match[str]) -> str:
        return f"{{{match[1]}}} are" if match[1] in plural else match[0]

    return _FIELD_THEN_IS.sub(verb, template)


def _generic(turn: ReplyTurn, rows: Sequence[Mapping[str, str | None]]) -> str:
    """Rows listed as "column value" pairs, labels instead of ids."""
    listed = []
    for row in rows[:GENERIC_ROWS]:
        pairs = [
            f"{column.replace('_', ' ')} {_cell(turn, row, column)}"
            for column, value in row.items()
            if value is not None and not _labels_another(column, row)
        ]
        if pairs:
            listed.append(", ".join(pairs))
    more = "; and others" if len(rows) > GENERIC_ROWS else ""
    return f"Here is what I found: {'; '.join(listed)}{more}."


def _labels_another(column: str, row: Mapping[str, str | None]) -> bool:
    """Whether ``column`` is the ``_label`` column of another column of the row."""
    return column.endswith("_label") and row.get(column.removesuffix("_label")) is not None


def _column_values(
    turn: ReplyTurn, rows: Sequence[Mapping[str, str | None]], name: str
) -> list[str]:
    """The distinct labelled values of column ``name`` across rows, in order."""
    found: list[str] = []
    for row in rows:
        if row.get(name) is None:
            continue
        value = _cell(turn, row, name)
        if value not in found:
            found.append(value)
    return found


def _cell(turn: ReplyTurn, row: Mapping[str, str | None], column: str) -> str:
    """A cell as said: its ``<column>_label``, else the value's label or number."""
    label = row.get(f"{column}_label")
    if label:
        return label
    return value_said(turn, str(row[column]))


def value_said(turn: ReplyTurn, value: str) -> str:
    """An id's label (lexicon, else its local name in words); a number rounded sensibly."""
    number = parse_number(value, signed=True)
    if number is not None:
        return _spoken_number(number)
    match = _ID.fullmatch(value.strip())
    if match is None:
        return value
    local = match.group(1)
    for lexicon in turn.lexicons.values():
        if local in lexicon:
            return lexicon.label(local)
    return local.replace("_", " ")


def slot_said(turn: ReplyTurn, slot: str, value: object) -> str:
    """A slot value as said: lexicon labels of its ids, joined naturally.

    Things of the scene get "the" ("the white mug"); people are named; the speaker is "you".
    """
    task = turn.task
    spec = task.spec.slots.get(slot) if task is not None else None
    lexicon = turn.lexicons.get(spec.lexicon) if spec is not None and spec.lexicon else None
    labels = []
    for item in as_list(value):
        text = str(item)
        if text in turn.labels:
            label = turn.labels[text]
        elif lexicon is not None and text in lexicon:
            label = lexicon.label(text)
        else:
            label = value_said(turn, text).replace("_", " ")
        if spec is not None and spec.resolve == "scene":
            if text == turn.speaker:
                label = "you"
            elif text not in turn.people:
                label = with_the(label)
        labels.append(label)
    return joined(labels)


def asked(turn: ReplyTurn) -> str:
    """What was asked, from the slots: "dish: tiramisu, aspect: carbohydrate" (no flags)."""
    said = [
        f"{slot.replace('_', ' ')}: {slot_said(turn, slot, value)}"
        for slot, value in turn.slots.items()
        if value not in (None, [], "") and not isinstance(value, bool)
    ]
    return ", ".join(said) if said else "that request"


def _spoken_number(number: Decimal) -> str:
    """One decimal from 10 up, two below; trailing zeros dropped: 41.2345 -> 41.2."""
    places = Decimal("0.1") if abs(number) >= 10 else Decimal("0.01")
    try:
        text = format(number.quantize(places), "f")
    except ArithmeticError:
        return format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def literal_text(template: str) -> list[str]:
    """The fixed words of a reply template (the pack author's, so safe to say)."""
    try:
        return [literal for literal, _, _, _ in string.Formatter().parse(template) if literal]
    except ValueError:
        return []


def local_ids(value: str) -> list[str]:
    """The local names of the ids in a cell ("adv:tiramisu" -> "tiramisu"), and the cell."""
    match = _ID.fullmatch(value.strip())
    return [match.group(1), value] if match else [value]


def as_list(value: object) -> list[object]:
    """A slot value as a list of its items (none for None)."""
    if value is None:
        return []
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    return [value]
