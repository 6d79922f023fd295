"""JANUS's module metrics (Table 4) as pure functions over predictions and references.

- **Accuracy** (domain selection, task selection, readiness): the share of items whose
  prediction equals the reference.
- **Parameter precision / recall / F1** (intent recognition), micro-averaged over items: every
  slot an item predicts (a value that is not None, empty text or an empty list) is one
  prediction; it is *correct* when the reference has the same slot and the two values are equal
  after :func:`normalise_slot` (lists compared as sets). Summed over all items,
  precision = correct / predicted and recall = correct / reference slots;
  F1 is their harmonic mean.
- **Validity rate** (query generation): the share of generated queries that the read-only
  runner accepted and ran.
- **Result overlap** (query generation), per item: ``|predicted rows ∩ reference rows| /
  |predicted rows ∪ reference rows|`` over rows as sets of normalised cell values (numbers
  rounded), 1.0 when both are empty; averaged over items. See :func:`result_overlap`.

Every aggregate returns ``None`` when there is nothing to average, so a report can say "n/a"
instead of inventing a 0 or a 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from cogtree.knowledge.understanding.turn_state import SlotValue
from cogtree.knowledge.wording import DETERMINERS, singular

ROUND_DIGITS = 1
"""Numeric cells are rounded to this many decimals before rows are compared."""

_PUNCTUATION = re.compile(r"[^\w\s'-]+")
_SPACES = re.compile(r"\s+")
_IRI_LOCAL = re.compile(r"^(?:[A-Za-z][\w.-]*:(?!//)|\w+://\S*[/#])(?P<local>[^/#:]+)$")

NormalisedSlot = str | frozenset[str]
"""A slot value ready to compare: one text, or a set of texts for list slots."""


def normalise_text(value: str) -> str:
    """``value`` casefolded, punctuation and leading determiners dropped, each word singular.

    ``"The  Blue bottle!"`` and ``"blue bottle"`` are equal, so are ``"carbohydrates"`` and
    ``"carbohydrate"``; ``"Dr. Weber"`` is ``"dr weber"``. Determiners are
    :data:`~knowledge.wording.DETERMINERS`; the singular is :func:`~knowledge.wording.singular`
    (a best guess, but applied to both sides of every comparison).
    """
    words = _SPACES.sub(" ", _PUNCTUATION.sub(" ", value.casefold())).strip().split(" ")
    while len(words) > 1 and words[0] in DETERMINERS:
        words = words[1:]
    return " ".join(singular(word) for word in words if word)


def _number_text(value: float) -> str:
    rounded = round(value, ROUND_DIGITS)
    if rounded == 0:
        rounded = 0.0  # no "-0"
    return f"{rounded:.{ROUND_DIGITS}f}".rstrip("0").rstrip(".")


def normalise_slot(value: SlotValue) -> NormalisedSlot | None:
    """A slot value as compared: text normalised, numbers rounded, lists as sets.

    Returns None for "no value" (None, empty or wordless text, an empty list).
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _number_text(float(value)) if math.isfinite(value) else str(value)
    if isinstance(value, list):
        items = frozenset(text for text in (normalise_text(str(item)) for item in value) if text)
        return items or None
    text = normalise_text(value)
    return text or None


@dataclass(frozen=True)
class SlotCounts:
    """Counts behind parameter precision and recall; add them up to micro-average."""

    correct: int = 0
    predicted: int = 0
    reference: int = 0

    def __add__(self, other: SlotCounts) -> SlotCounts:
        return SlotCounts(
            self.correct + other.correct,
            self.predicted + other.predicted,
            self.reference + other.reference,
        )

    @property
    def precision(self) -> float | None:
        """Share of predicted slots that are correct; None when nothing was predicted."""
        return self.correct / self.predicted if self.predicted else None

    @property
    def recall(self) -> float | None:
        """Share of reference slots predicted correctly; None when the references hold no slot."""
        return self.correct / self.reference if self.reference else None

    @property
    def f1(self) -> float | None:
        """Harmonic mean of precision and recall (0 when both are 0; None when undefined)."""
        precision, recall = self.precision, self.recall
        if precision is None or recall is None:
            return None
        if precision + recall == 0:
            return 0.0
        return 2 * precision * recall / (precision + recall)


def slot_counts(
    predicted: Mapping[str, SlotValue], reference: Mapping[str, SlotValue]
) -> SlotCounts:
    """The :class:`SlotCounts` of one item (see the module docstring for "correct")."""
    wanted = {slot: normalise_slot(value) for slot, value in reference.items()}
    wanted = {slot: value for slot, value in wanted.items() if value is not None}
    said = {slot: normalise_slot(value) for slot, value in predicted.items()}
    said = {slot: value for slot, value in said.items() if value is not None}
    correct = sum(1 for slot, value in said.items() if wanted.get(slot) == value)
    return SlotCounts(correct=correct, predicted=len(said), reference=len(wanted))


def parameter_scores(
    pairs: Iterable[tuple[Mapping[str, SlotValue], Mapping[str, SlotValue]]],
) -> SlotCounts:
    """Micro-averaged counts over ``(predicted, reference)`` slot maps, one pair per item."""
    total = SlotCounts()
    for predicted, reference in pairs:
        total += slot_counts(predicted, reference)
    return total


def accuracy(predicted: Sequence[object], reference: Sequence[object]) -> float | None:
    """Share of positions where ``predicted`` equals ``reference``; None for no items."""
    if len(predicted) != len(reference):
        raise ValueError(
            f"accuracy needs one prediction per reference: got {len(predicted)} predictions "
            f"for {len(reference)} references"
        )
    if not reference:
        return None
    return sum(1 for got, want in zip(predicted, reference, strict=True) if got == want) / len(
        reference
    )


def rate(flags: Sequence[bool]) -> float | None:
    """Share of True flags (e.g. validity: queries the read-only runner ran); None if empty."""
    return sum(1 for flag in flags if flag) / len(flags) if flags else None


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean; None for no values."""
    return sum(values) / len(values) if values else None


def normalise_cell(value: str | None) -> str | None:
    """One result cell as compared: numbers rounded, IRIs by local name, text normalised.

    ``"adv:tiramisu"`` and ``"https://cogtree.dev/advisor#tiramisu"`` both become
    ``"tiramisu"``; ``"37.04"`` becomes ``"37"`` (one decimal: ``ROUND_DIGITS``). None (an
    unbound variable) stays None.
    """
    if value is None:
        return None
    text = value.strip()
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None and math.isfinite(number):
        return _number_text(number)
    iri = _IRI_LOCAL.match(text)
    if iri is not None and " " not in text:
        text = iri.group("local")
    return _canonical_list(_SPACES.sub(" ", text.casefold().replace("_", " ")).strip())


def _canonical_list(text: str) -> str:
    """A cell listing items (``"b, a; c (in y, x)"``) with its items sorted, at every depth.

    Aggregated cells (``GROUP_CONCAT``) come in no fixed order; sorting makes them comparable.
    Items are split at commas and semicolons outside parentheses; a parenthesis (a nested
    list such as "in butter, cream") becomes the sorted set of its words.
    """
    items: list[str] = []
    depth, start, inner_start = 0, 0, 0
    parts: list[str] = []
    for index, char in enumerate(text):
        if char == "(":
            if depth == 0:
                parts.append(text[start:index])
                inner_start = index + 1
            depth += 1
        elif char == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                words = sorted(set(re.findall(r"[^\W_]+", text[inner_start:index])))
                parts.append(f"({' '.join(words)})")
                start = index + 1
        elif char in ",;" and depth == 0:
            parts.append(text[start:index])
            items.append("".join(parts).strip())
            parts, start = [], index + 1
    if depth > 0:  # unbalanced: keep the rest as it is
        parts.append(text[inner_start - 1 :])
    else:
        parts.append(text[start:])
    items.append("".join(parts).strip())
    return ", ".join(sorted(item for item in items if item))


def row_key(row: Mapping[str, str | None]) -> frozenset[str]:
    """A result row as the set of its normalised, bound cell values (column names ignored)."""
    cells = (normalise_cell(value) for value in row.values())
    return frozenset(cell for cell in cells if cell is not None)


def result_overlap(
    predicted: Sequence[Mapping[str, str | None]], reference: Sequence[Mapping[str, str | None]]
) -> float:
    """JANUS's result overlap of one query: the Jaccard similarity of the two results' rows.

    Each row becomes the set of its normalised cell values (:func:`row_key`: numbers rounded
    to ``ROUND_DIGITS`` decimals, IRIs by local name, aggregated lists sorted, text
    casefolded; column names and unbound cells ignored); each result becomes the set of its
    rows, and the overlap is ``|predicted ∩ reference| / |predicted ∪ reference|``: 1.0 when
    both are empty (the query rightly found nothing), 0.0 for a failed or refused query
    against a non-empty reference.

    The reference rows hold only the columns that carry the answer (``topic``, ``value``,
    ``unit``; a template also returns labels and a sentence for the reply). When the
    prediction has any of those columns, its rows are first cut down to them; otherwise whole
    rows are compared.
    """
    columns = {column for row in reference for column in row}
    if any(column in row for row in predicted for column in columns):
        predicted = [{column: row.get(column) for column in columns} for row in predicted]
    got = {row_key(row) for row in predicted}
    want = {row_key(row) for row in reference}
    union = got | want
    if not union:
        return 1.0
    return len(got & want) / len(union)
