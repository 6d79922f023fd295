"""The fast path's match scores of the candidate readings: the scorer when there is no model.

PostProcess gives one reason per word or phrase of the description a candidate matched
(``'the red mug' -> mug_2: 'red' is its colour; 'mug' is its type``). A candidate's match
strength is the number of those matches (1 when the resolution gives none, e.g. a lexicon
id). A slot's share of a candidate is its strength over the sum of the strengths of the
slot's candidates; a reading's score is the product of its slots' shares, so the scores of
every combination sum to 1. The offered readings keep their scores and "none of these" gets
what the readings left out (cut at six) would have had: 0 when every reading is offered, since
the fast path has no evidence that the user meant something else, and never a share inflated
by leaving readings out.
"""

from __future__ import annotations

from collections.abc import Mapping

from cogtree.knowledge.understanding.turn_state import SlotResolution

NO_MODEL = "match scores"
"""The model name a threshold computed with the fast path's scores records (backend none)."""


def match_strength(resolution: SlotResolution, ident: str) -> int:
    """How many words of the description ``ident`` matched (at least 1)."""
    marker = f"-> {ident}:"
    parts = [
        part
        for reason in resolution.reasons
        if marker in reason
        for part in reason.split(marker, 1)[1].split(";")
        if part.strip()
    ]
    return max(len(parts), 1)


def slot_share(resolution: SlotResolution, ident: str) -> float:
    """``ident``'s share of the slot's match strength."""
    total = sum(match_strength(resolution, other) for other in dict.fromkeys(resolution.ids))
    return match_strength(resolution, ident) / total if total else 0.0


def reading_strength(ids: Mapping[str, str], slots: Mapping[str, SlotResolution]) -> float:
    """The product of the shares of a reading's ids in their slots."""
    score = 1.0
    for slot, ident in ids.items():
        score *= slot_share(slots[slot], ident)
    return score


def match_probabilities(
    readings: Mapping[str, Mapping[str, str]],
    none_letter: str,
    slots: Mapping[str, SlotResolution],
) -> dict[str, float]:
    """Letter -> probability of each reading (letter -> slot -> id) and of ``none_letter``.

    See the module docs: ``none_letter`` gets the share of the readings not offered.
    """
    probabilities = {letter: reading_strength(ids, slots) for letter, ids in readings.items()}
    probabilities[none_letter] = max(0.0, 1.0 - sum(probabilities.values()))
    return probabilities
