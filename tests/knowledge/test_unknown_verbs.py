"""A verb no skill or task serves is a skill the robot lacks; a clause saying when is no verb."""

from __future__ import annotations

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.language.unknown_verbs import UNKNOWN_VERB, with_unknown_verbs


def _lacking(said: str) -> list[str]:
    frame = with_unknown_verbs(parse_request(said), frozenset)
    return [step.missing_skill for step in frame.steps if step.unsupported.startswith(UNKNOWN_VERB)]


def test_an_unknown_verb_on_a_thing_is_a_missing_skill_said_with_its_thing() -> None:
    assert _lacking("juggle the plum") == ["juggle the plum"]


def test_a_clause_that_says_when_is_no_missing_skill() -> None:
    # the reply must not say "I can't once the butter and soft yet"
    for said in (
        "once the butter is soft, put the egg on the plate",
        "while the kettle is hot, put the mug on the tray",
    ):
        assert _lacking(said) == [], said


def test_a_light_verbs_noun_of_action_is_the_skill_asked_for() -> None:
    """Checked to fail before: "give" is a verb the robot knows, so "give the spider plant a
    good drench" was no missing skill and was read as bringing the plant."""
    frame = with_unknown_verbs(
        parse_request("give the spider plant a good drench"), lambda: frozenset({"give"})
    )
    assert [step.missing_skill for step in frame.steps] == ["drench the spider plant"]
