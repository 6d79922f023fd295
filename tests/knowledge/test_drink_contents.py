"""A container of a drink asked for is poured, then brought; one already there is fetched."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.understanding.contents import with_contents


def test_a_new_glass_of_a_cold_drink_is_poured_then_brought() -> None:
    pour, bring = with_contents(parse_request("could you fetch me a glass of orange juice")).steps
    assert pour.action == "pour" and pour.source is not None and pour.landmark is not None
    assert (pour.source.text, pour.landmark.text) == ("orange juice", "a glass")
    assert bring.action == "bring" and [p.text for p in bring.objects] == ["it"]


@pytest.mark.parametrize(
    "said",
    [
        "fetch me the glass of orange juice",  # a glass that holds it already
        "bring me a mug of tea",  # hot: the mug would not be known to be hot
        "hand me a cup of coffee",
        "bring me a bag of pretzels",  # no drink: the bag is the thing
    ],
)
def test_what_is_not_poured(said: str) -> None:
    assert [step.action for step in with_contents(parse_request(said)).steps] == ["bring"]
