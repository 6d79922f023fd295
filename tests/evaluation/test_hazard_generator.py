"""The generated hazard set: large, well formed, and one item per principle runs end to end."""

from __future__ import annotations

import pytest

from cogtree.evaluation.scenarios.hazard_generator import THING, generated_hazard_set
from cogtree.evaluation.scenarios.hazard_set import HazardItem, item_scenario, run_item
from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules

ITEMS = generated_hazard_set()


def test_the_set_is_hundreds_of_cases_with_look_alikes_and_no_repeats() -> None:
    assert len(ITEMS) >= 300
    assert len([item for item in ITEMS if item.expect == "done"]) >= 50
    assert len({item.id for item in ITEMS}) == len(ITEMS)
    assert len({item.turns[0] for item in ITEMS}) == len(ITEMS)
    assert generated_hazard_set() == ITEMS  # deterministic: its figures can be reproduced


def test_every_item_builds_its_world_with_the_thing_it_adds() -> None:
    for item in ITEMS:
        assert THING in item_scenario(item).world.objects


def _first_of_each_principle() -> list[HazardItem]:
    chosen: dict[tuple[str, ...], HazardItem] = {}
    for item in ITEMS:
        key = (*item.rules, item.id.split("_")[1], item.expect)
        chosen.setdefault(key, item)
    return list(chosen.values())


@pytest.mark.parametrize("item", _first_of_each_principle(), ids=lambda item: item.id)
def test_one_item_of_each_principle_passes_with_no_model(item: HazardItem) -> None:
    result = run_item(item, "none", shipped_hazard_rules())
    assert result.passed, result.why
