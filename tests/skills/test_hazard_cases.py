"""The hazard set: every hazardous plan is refused or asked with its hazard named; the safe
look-alikes pass. No model is involved: the hazard check is part of the dry run."""

from __future__ import annotations

from typing import Any

import pytest

from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.skills.capabilities.calls import skill_call
from cogtree.skills.planning.plan_validation import ask_first_doubts, hazard_question, rehearse
from cogtree.skills.safety.hazard_check import step_graph, step_hazards
from tests.skills.hazard_kitchen import HazardCase, build_belief, load_cases

CASES = load_cases()
HAZARDOUS = [case for case in CASES if case.expect != "safe"]
SAFE = [case for case in CASES if case.expect == "safe"]


def hazard_codes(case: HazardCase, lifted: list[str] | None = None) -> list[str]:
    report = rehearse(case.plan, case.world, **case.heard, lifted=lifted or []).report
    return [p.code for p in report.problems if p.code.startswith(("hazard:", "ask_first:"))]


def test_the_set_is_large_and_covers_every_rule() -> None:
    assert len(HAZARDOUS) >= 60 and len(SAFE) >= 20
    assert {case.rule for case in HAZARDOUS} == {rule.id for rule in shipped_hazard_rules().rules}
    assert len({case.id for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", HAZARDOUS, ids=lambda case: case.id)
def test_a_hazardous_plan_is_refused_or_asked_with_the_hazard_named(case: HazardCase) -> None:
    report = rehearse(case.plan, case.world, **case.heard).report
    assert not report.ok
    named = [
        p
        for p in report.problems
        if p.code == f"{'hazard' if case.expect == 'forbidden' else 'ask_first'}:{case.rule}"
    ]
    assert named, report.diagnosis()
    assert named[0].reason in report.diagnosis() and named[0].reason.endswith(".")
    if case.expect == "ask_first":
        assert not any(code.startswith("hazard:") for code in hazard_codes(case))
        only_hazards = all(p.code.startswith("ask_first:") for p in report.problems)
        assert (hazard_question(report) is not None) == only_hazards


@pytest.mark.parametrize("case", SAFE, ids=lambda case: case.id)
def test_a_safe_look_alike_raises_no_hazard(case: HazardCase) -> None:
    assert hazard_codes(case) == []


@pytest.mark.parametrize(
    "case", [case for case in CASES if case.rule != "person_as_object"], ids=lambda c: c.id
)
def test_only_the_hazard_stops_a_plan_the_real_preconditions_accept(case: HazardCase) -> None:
    """Each case's belief satisfies every real precondition of its plan, so what stops a
    hazardous plan is the hazard (a person is never a valid object, so those cases are left
    out); a safe look-alike, or an ask-first case once the user said yes, passes the dry run."""
    report = rehearse(case.plan, case.world, **case.heard).report
    assert hazard_codes(case) == [p.code for p in report.problems], report.diagnosis()
    if case.expect != "forbidden":
        lifted = ask_first_doubts(report)
        assert rehearse(case.plan, case.world, **case.heard, lifted=lifted).report.ok


@pytest.mark.parametrize(
    "case", [case for case in HAZARDOUS if case.expect == "ask_first"], ids=lambda c: c.id
)
def test_only_the_users_yes_to_that_hazard_lifts_an_ask_first_hazard(case: HazardCase) -> None:
    report = rehearse(case.plan, case.world, **case.heard).report
    doubts = ask_first_doubts(report)
    assert doubts and hazard_codes(case, lifted=doubts) == []
    other = ["hazard some_rule: 'Something else entirely.'"]
    assert hazard_codes(case, lifted=other) == hazard_codes(case)


@pytest.mark.parametrize(
    "case", [case for case in HAZARDOUS if case.expect == "forbidden"], ids=lambda c: c.id
)
def test_no_yes_lifts_a_forbidden_hazard(case: HazardCase) -> None:
    report = rehearse(case.plan, case.world, **case.heard).report
    sentences = [p.reason for p in report.problems]
    lifted = [f"hazard {case.rule}: {sentence!r}" for sentence in sentences]
    assert f"hazard:{case.rule}" in hazard_codes(case, lifted=lifted)


def test_the_foil_tray_is_named_in_the_sentence() -> None:
    case = next(case for case in CASES if case.id == "foil_tray_by_reference")
    report = rehearse(case.plan, case.world, **case.heard).report
    assert report.problems[0].step == 3
    assert report.problems[0].reason == (
        "The foil tray is metal, and metal in a running microwave sparks and can start a fire."
    )


def _rules_of(case: dict[str, Any], **step: str) -> list[str]:
    """Every rule that finds a hazard in the PLACE ``step``, forbidding ones first."""
    belief = build_belief(case)
    found = step_hazards(shipped_hazard_rules(), belief, skill_call("PLACE", step))
    return [hazard.rule for hazard in found]


def test_microwaves_and_stoves_are_known_by_any_description_type_or_name() -> None:
    foil = {"id": "foil_tray", "material": "foil", "held": "right"}
    appliance = {"at": None, "room": "kitchen", "powered": True, "is_open": True}
    typed = {
        "set": {"microwave": {"type": "Cupboard", "powered": True}},
        "things": [foil, {"id": "heater_2", "kind": "container", "type": "Microwave", **appliance}],
    }
    into = {"object": "foil_tray", "hand": "right"}
    # metal forbids it; a foil tray may also have a lid nobody has seen (asked about)
    metal_and_lid = ["metal_in_microwave", "maybe_sealed_in_microwave"]
    assert _rules_of(typed, target="heater_2", **into) == metal_and_lid
    # typed a cupboard, but named a microwave: one description is enough for safety
    assert _rules_of(typed, target="microwave", **into) == metal_and_lid
    untyped = {"things": [foil, {"id": "old_microwave", "kind": "container", **appliance}]}
    assert _rules_of(untyped, target="old_microwave", **into) == metal_and_lid
    cloth = {"id": "tea_towel", "material": "fabric", "held": "right"}
    hob = {"id": "hot_plate_1", "kind": "surface", "type": "Hob", **appliance}
    on_hob = {"object": "tea_towel", "hand": "right", "target": "hot_plate_1"}
    assert _rules_of({"things": [cloth, hob]}, **on_hob) == ["flammable_on_heat"]


def test_a_things_graph_holds_its_type_and_the_taxonomys_broader_types() -> None:
    belief = build_belief({})
    graph = step_graph(belief, skill_call("SWITCH_ON", appliance="stove"))
    rows = graph.query(
        "SELECT ?type WHERE { <https://cogtree.dev/hazard/thing/stove> "
        "<https://cogtree.dev/hazard#type> ?type }"
    )
    types = {row["type"].value for row in rows}  # type: ignore[union-attr,index]
    assert {"Stove", "LargeAppliance"} <= types


def test_a_pour_onto_a_place_that_is_no_thing_is_a_spill() -> None:
    belief = build_belief({"things": [{"id": "jug_2", "liquid": "water", "held": "right"}]})
    pour = skill_call("POUR", source="jug_2", target="floor", hand="right")
    found = step_hazards(shipped_hazard_rules(), belief, pour)
    assert [hazard.rule for hazard in found] == ["liquid_spilled"]


def test_a_sentence_says_a_label_of_the_users_own_after_the_without_my() -> None:
    """Checked to fail before: 'the my wax jacket is flammable'."""
    case = next(case for case in CASES if case.id == "my_wax_jacket_hung_on_the_lit_stove")
    diagnosis = rehearse(case.plan, case.world, **case.heard).report.diagnosis()
    assert "the wax jacket is" in diagnosis.lower() and "the my " not in diagnosis.lower()
