"""``cogtree eval table1``: the Table 1 phrasings are run through the tree and judged.

The items here are written for this test (the shipped phrasings are data nobody tunes to).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.evaluation.janus.table1 import Table1Error, load_phrasings
from cogtree.trees.cli.main import main

OWN = """
items:
  - id: own-check
    task: DishInfo
    behaviour: contains_check
    text: "Is there any milk in the tiramisu?"
    expect: {dish: tiramisu, ingredients: [milk], answer: true}
  - id: own-safe
    task: DishInfo
    behaviour: compatibility
    speaker: null
    turns:
      - {text: "I am allergic to peanuts.", task: null, expect: {}}
      - {text: "Could I have the pad thai?", task: DishInfo, expect: {safe: false}}
  - id: own-targets
    task: AddToDatabase
    behaviour: add_profile
    text: "My daily targets: 1900 kcal and 80 g of protein."
    expect: {must_ask: [carbs_g, fat_g]}
"""


def test_the_phrasings_are_run_and_counted_per_behaviour(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "own.yaml"
    path.write_text(OWN, encoding="utf-8")
    assert main(["eval", "table1", "--file", str(path)]) == 0
    table = capsys.readouterr().out
    assert "| contains_check | 1/1 | 1/1 | 0 |" in table
    assert "| add_profile | 1/1 | 0/0 | 0 |" in table  # asked for the missing targets
    assert "| all |" in table


def test_a_file_that_is_not_a_phrasing_set_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("items:\n  - {id: x, behaviour: dancing, text: hi}\n", encoding="utf-8")
    with pytest.raises(Table1Error, match="behaviour 'dancing' is none of"):
        load_phrasings(path)


def test_the_shipped_set_loads() -> None:
    items = load_phrasings()
    assert len(items) >= 60 and {item.behaviour for item in items} >= {"substitute"}
