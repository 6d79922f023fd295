"""DishInfo's post-processing: each nutrient row says its share of the user's daily target.

The ``dish_info`` rows give a nutrient per serving (``value``, ``unit``, ``topic_label``:
"879.5", "kcal", "energy"); the working context binds the user's own daily targets as
``daily_target`` (``energy=2000``). A row with a target gets a ``share`` column (a whole
percent of the amount said, so the user can check it) and its statement says it: "has 879.5
kcal of energy per serving, 44% of your 2000 kcal a day". Evidence, never a verdict: nothing
is called too much. Declared in ``pack.yaml`` (``post_process``, see
:mod:`knowledge.packs.rows_hook`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogtree.knowledge.packs.rows_hook import Row

TARGETS = "daily_target"
"""The context entry with the user's daily targets, ``nutrient=amount``."""


def target_shares(rows: Sequence[Row], context: Mapping[str, Sequence[str]]) -> list[Row]:
    """``rows`` with the share of the user's daily target on each nutrient row that has one.

    Pure and idempotent: a row that already has its share is kept as it is.
    """
    targets = dict(item.split("=", 1) for item in context.get(TARGETS, ()) if "=" in item)
    return [_with_share(row, targets.get(row.get("topic_label") or "")) for row in rows]


def _with_share(row: Row, target: str | None) -> Row:
    value, unit, statement = row.get("value"), row.get("unit"), row.get("statement")
    if target is None or unit is None or value is None or row.get("share") is not None:
        return dict(row)
    try:
        amount, daily = float(value), float(target)
    except ValueError:
        return dict(row)
    if daily <= 0:
        return dict(row)
    share = str(round(100 * amount / daily))
    said = f"{statement}, {share}% of your {daily:g} {unit} a day" if statement else statement
    return {**row, "share": share, "statement": said}
