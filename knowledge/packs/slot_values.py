"""Slot values as a pack's tasks take them: tidied text, and quantities in grams or kcal.

"200 g", "0.2 kg" and "about 7 oz" are masses; "500 kJ" and "300 calories" energies. A
numeric slot (its schema field is an int or a float) takes the number; any other slot keeps
the words, tidied (:func:`normalised`).
"""

from __future__ import annotations

import re
from typing import Any, get_args

SlotValue = str | float | bool | list[str] | None
"""A slot's value: words as said, a number, a yes/no, a list (a list slot) or nothing."""

GRAMS_PER_UNIT = {
    "mg": 0.001,
    "milligram": 0.001,
    "milligrams": 0.001,
    "g": 1.0,
    "gr": 1.0,
    "gram": 1.0,
    "grams": 1.0,
    "gramme": 1.0,
    "grammes": 1.0,
    "kg": 1000.0,
    "kilo": 1000.0,
    "kilos": 1000.0,
    "kilogram": 1000.0,
    "kilograms": 1000.0,
    "oz": 28.349523125,
    "ounce": 28.349523125,
    "ounces": 28.349523125,
    "lb": 453.59237,
    "lbs": 453.59237,
    "pound": 453.59237,
    "pounds": 453.59237,
}
"""Mass units, in grams."""

KCAL_PER_UNIT = {
    "kcal": 1.0,
    "cal": 1.0,
    "calorie": 1.0,
    "calories": 1.0,
    "kilocalorie": 1.0,
    "kilocalories": 1.0,
    "kj": 1 / 4.184,
    "kilojoule": 1 / 4.184,
    "kilojoules": 1 / 4.184,
}
"""Energy units, in kcal (a food "calorie" is a kilocalorie)."""

_QUANTITY = re.compile(
    r"^(?:about|around|roughly|approximately|~)?\s*(-?\d+(?:[.,]\d+)?)\s*([a-z]+)?\.?$"
)
_TRIM = " \t\n,.;:!?\"'"


def quantity(text: str) -> float | None:
    """``text`` as a number, masses in grams and energies in kcal; None if it is not one.

    ``"200 g"`` -> 200.0, ``"0.2 kg"`` -> 200.0, ``"1,5 kg"`` -> 1500.0, ``"2,000 kcal"`` ->
    2000.0, ``"500 kJ"`` ->
    119.5..., ``"about 300 calories"`` -> 300.0, ``"12"`` -> 12.0; ``"a lot"`` -> None.
    """
    match = _QUANTITY.match(" ".join(text.lower().split()))
    if match is None:
        return None
    digits = match.group(1)  # "2,000" is two thousand (a comma before three digits), "1,5" 1.5
    thousands = re.fullmatch(r"-?\d{1,3}(?:,\d{3})+", digits) is not None
    number = float(digits.replace(",", "" if thousands else "."))
    unit = match.group(2)
    if unit is None:
        return number
    factor = GRAMS_PER_UNIT.get(unit, KCAL_PER_UNIT.get(unit))
    return None if factor is None else round(number * factor, 6)


def is_number(annotation: Any) -> bool:
    """Whether a slot's type annotation is a number (int or float, not bool)."""
    kinds = set(get_args(annotation)) | {annotation}
    return bool(kinds & {float, int}) and bool not in kinds


def normalised(value: SlotValue, *, keep_case: bool, numeric: bool) -> SlotValue:
    """One slot value tidied, as PostProcess writes it back to the frame.

    Single spaces, no stray punctuation at the ends, lower case (unless ``keep_case``), and a
    number in grams or kcal when ``numeric`` and the text is a quantity.
    """
    if value is None or isinstance(value, bool | float):
        return value
    if isinstance(value, list):
        items = [normalised(item, keep_case=keep_case, numeric=False) for item in value]
        return [item for item in items if isinstance(item, str) and item]
    text = " ".join(str(value).split()).strip(_TRIM)
    if numeric:
        amount = quantity(text)
        if amount is not None:
            return amount
    return text if keep_case else text.lower()
