"""Hazard rule files: the shipped one loads; a file with an error is refused with the file,
the rule and the fix."""

from __future__ import annotations

import pytest

from cogtree.knowledge.safety.hazard_rules import (
    HazardRuleError,
    load_hazard_rules,
    shipped_hazard_rules,
)

PREFIX = "@prefix haz: <https://cogtree.dev/hazard#> .\n"

GOOD = '''
haz:hot_pan a haz:Rule ;
    haz:severity "ask_first" ;
    haz:catches "a hot pan handed over" ;
    haz:says "The {thing} is hot." ;
    haz:query """SELECT ?thing WHERE { ?step haz:object ?thing . ?thing haz:hot true }""" .
'''


def load(text: str) -> None:
    load_hazard_rules("my_rules.ttl", text=PREFIX + text)


def test_the_shipped_rules_load_with_their_severities_and_sentences() -> None:
    rules = shipped_hazard_rules()
    assert len(rules.rules) >= 14
    assert {rule.severity for rule in rules.rules} == {"forbidden", "ask_first"}
    assert all(rule.says.endswith(".") and rule.placeholders for rule in rules.rules)
    assert rules.manners_of(["Run the knife over to me"]) == {"hurried"}
    assert rules.manners_of(["Throw the bottle away"]) == frozenset()
    assert rules.manners_of(["throw me the ball"]) == {"thrown"}
    assert rules.manners_of(["just throw the wine glass over to me"]) == {"thrown"}
    assert rules.manners_of(["throw the empty can in the bin"]) == frozenset()


def test_a_good_rule_file_loads() -> None:
    rules = load_hazard_rules("my_rules.ttl", text=PREFIX + GOOD)
    assert [(rule.id, rule.severity, rule.placeholders) for rule in rules.rules] == [
        ("hot_pan", "ask_first", ("thing",))
    ]


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (
            GOOD.replace(" ;\n    haz:catches", " \n    haz:catches"),
            r"my_rules\.ttl line \d+: malformed Turtle.*fix the Turtle",
        ),
        (
            GOOD.replace('"ask_first"', '"maybe"'),
            r"my_rules\.ttl: rule hot_pan has the unknown severity 'maybe'; "
            r"use one of forbidden, ask_first",
        ),
        (
            GOOD.replace('    haz:severity "ask_first" ;\n', ""),
            r"rule hot_pan has no haz:severity; add",
        ),
        (
            GOOD.replace('    haz:says "The {thing} is hot." ;\n', ""),
            r"rule hot_pan has no haz:says; add the sentence",
        ),
        (
            GOOD.replace("{thing} is hot", "{pan} is hot"),
            r"rule hot_pan: its sentence uses \{pan\}, which the query does not select "
            r"\(it selects thing\); select \?pan",
        ),
        (
            GOOD.replace("SELECT ?thing WHERE", "SELEKT ?thing WHERE"),
            r"rule hot_pan: its query does not parse .*; fix the SPARQL",
        ),
        (GOOD.replace("SELECT ?thing WHERE", "ASK"), r"rule hot_pan: its query is not a SELECT"),
        (
            GOOD.replace("{thing} is hot", "{thing is hot"),
            r"rule hot_pan: its sentence .* is malformed",
        ),
        (
            GOOD.replace('haz:severity "ask_first" ;', 'haz:severity "ask_first", "forbidden" ;'),
            r"rule hot_pan has 2 haz:severity values; keep one",
        ),
        ("", r"my_rules\.ttl: no haz:Rule in the file"),
        (
            GOOD.replace("haz:catches", 'haz:appliesTo "FLY" ;\n    haz:catches'),
            r"rule hot_pan: haz:appliesTo names 'FLY', not a skill",
        ),
    ],
)
def test_a_rule_file_with_an_error_is_refused_naming_file_rule_and_fix(
    broken: str, message: str
) -> None:
    with pytest.raises(HazardRuleError, match=message):
        load(broken)


def test_a_missing_file_is_refused_naming_it(tmp_path) -> None:
    with pytest.raises(HazardRuleError, match=r"cannot read Turtle file .*nowhere\.ttl"):
        load_hazard_rules(tmp_path / "nowhere.ttl")


def test_a_rule_file_with_an_error_makes_the_rules_unreadable_until_it_is_fixed(tmp_path) -> None:
    """Checked to fail before: the error stopped the robot at start (an exception)."""
    path = tmp_path / "rules.ttl"
    path.write_text(PREFIX + GOOD.replace('"ask_first"', '"ask_first'), encoding="utf-8")
    broken = shipped_hazard_rules(path)
    assert broken.rules == () and broken.unreadable is not None
    assert "rules.ttl" in broken.unreadable and "line" in broken.unreadable
    assert shipped_hazard_rules(path) is broken  # the same version of the file: from memory
    path.write_text(PREFIX + GOOD + "\n", encoding="utf-8")
    fixed = shipped_hazard_rules(path)
    assert fixed.unreadable is None and [rule.id for rule in fixed.rules] == ["hot_pan"]
    missing = shipped_hazard_rules(tmp_path / "nowhere.ttl")
    assert missing.unreadable is not None and "nowhere.ttl" in missing.unreadable
