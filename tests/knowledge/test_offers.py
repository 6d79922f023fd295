"""The offer after an answer, and the yes that takes it (understanding/pending_question.py).

Every phrase here was written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_models import Candidate, ThingKind
from cogtree.knowledge.understanding.pending_question import accepts, bringing_task, offer_after

ANSWER = "The remote is on the sofa in the living room."


def found(
    kind: ThingKind = "object", label: str = "remote", type_: str | None = None
) -> list[Candidate]:
    return [Candidate(id="remote_1", label=label, kind=kind, type=type_, reasons=["'remote': it"])]


def test_the_household_pack_brings_with_fetch(shipped_domains: DomainRegistry) -> None:
    task = bringing_task(shipped_domains.get("household"))
    assert task is not None and task[0].name == "Fetch" and task[1] == "object"


def test_one_thing_found_by_a_question_is_offered(shipped_domains: DomainRegistry) -> None:
    pack = shipped_domains.get("household")
    offer = offer_after(pack, "WhereIs", found(), ANSWER, "where's the remote?")
    assert offer is not None and offer.offered and offer.task == "Fetch"
    assert offer.question == "I can bring the remote to you, if you like."
    assert offer.slots == offer.proposed == {"object": "remote"}
    assert offer.said == ["where's the remote?"] and offer.asks_to_confirm


@pytest.mark.parametrize(
    ("task", "things", "reply"),
    [
        ("WhereIs", found(kind="surface"), ANSWER),  # furniture is not carried over
        ("WhereIs", found() * 2, ANSWER),  # two things: which one is not known
        ("WhereIs", [], "I have not seen the remote."),
        ("WhereIs", found(), "Which remote do you mean?"),  # the answer asks itself
        ("Fetch", found(), "I brought you the remote."),  # not a question's answer
        ("WhereIs", found(label="bread knife", type_="Knife"), ANSWER),  # sharp: never unasked
        ("WhereIs", found(label="bleach", type_="Bleach"), ANSWER),
    ],
)
def test_no_offer_unless_one_thing_to_carry_was_found(
    shipped_domains: DomainRegistry, task: str, things: list[Candidate], reply: str
) -> None:
    assert offer_after(shipped_domains.get("household"), task, things, reply, "x") is None


@pytest.mark.parametrize(
    "said", ["yes", "yes please", "oh yes please, you're a gem", "go on then", "sure, why not"]
)
def test_a_yes_opening_the_turn_takes_the_offer(said: str) -> None:
    assert accepts(said, parse_request(said))


@pytest.mark.parametrize(
    "said",
    [
        "no thanks",
        "nah, best not",
        "thanks",
        "where is my phone?",
        "yes, and bring the mug too",
        "yes - no wait",
        "yes, after lunch",
        "",
    ],
)
def test_anything_else_does_not(said: str) -> None:
    assert not accepts(said, parse_request(said))
