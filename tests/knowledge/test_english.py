"""Other languages are told the robot only understands English; English with accents is not."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.english import looks_english


@pytest.mark.parametrize(
    "text",
    [
        "¿Dónde está mi taza?",
        "wo ist meine Brille",
        "où est mon téléphone s'il vous plaît",
        "где мои очки",
        "我的眼镜在哪里",
    ],
)
def test_other_languages_are_not_english(text: str) -> None:
    assert not looks_english(text)


@pytest.mark.parametrize(
    "text", ["crème brûlée please", "How many calories are in tiramisu?", "Zoë", "ok", "", "42"]
)
def test_english_with_names_and_dishes_is_english(text: str) -> None:
    assert looks_english(text)
