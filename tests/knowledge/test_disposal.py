"""The disposal table (data) and the unsupported-skill list."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.knowledge.language.unsupported_skills import unsupported_skill, unsupported_skills
from cogtree.knowledge.scene.disposal import DisposalTableError, disposal_table, load_disposal_table


@pytest.mark.parametrize(
    ("material", "empty", "bin_kind"),
    [
        ("aluminium", True, "recycling"),
        ("glass", True, "recycling"),
        ("plastic", False, "landfill"),
        ("organic", True, "compost"),
        ("Organic", False, "compost"),
        ("ceramic", True, "landfill"),
    ],
)
def test_the_shipped_table_decides_by_material_and_emptiness(
    material: str, empty: bool, bin_kind: str
) -> None:
    decision = disposal_table().decide("thing", {material}, empty)
    assert decision.bin == bin_kind and not decision.cautious
    assert bin_kind in decision.reason


@pytest.mark.parametrize("material", [None, "unobtainium"])
def test_an_unknown_material_goes_to_the_cautious_bin_and_says_so(material: str | None) -> None:
    decision = disposal_table().decide("toy", set(), True, material)
    assert decision.cautious and decision.bin == "landfill"
    assert decision.reason.startswith("I don't know how to recycle toy")


def test_a_broken_rule_names_the_file_the_rule_and_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "disposal.yaml"
    path.write_text(
        "bins: [recycling, landfill]\ncautious_bin: landfill\ncautious_note: x\n"
        "rules:\n  - {material: glass, bin: recycling}\n  - {material: tin, bin: scrapyard}\n"
    )
    with pytest.raises(DisposalTableError) as raised:
        load_disposal_table(path)
    message = str(raised.value)
    assert str(path) in message and "rule 1" in message and "{material: glass" in message


def test_a_bin_used_but_not_listed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "disposal.yaml"
    path.write_text(
        "bins: [landfill]\ncautious_bin: landfill\ncautious_note: x\n"
        "rules:\n  - {material: glass, bin: recycling}\n"
    )
    with pytest.raises(DisposalTableError, match="recycling"):
        load_disposal_table(path)


def test_unreadable_yaml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "disposal.yaml"
    path.write_text("rules: [\n")
    with pytest.raises(DisposalTableError, match="cannot read"):
        load_disposal_table(path)


@pytest.mark.parametrize(
    ("request_text", "name", "say"),
    [
        ("could you slice the bread", "cut", "I can't cut things yet."),
        ("please do the dishes", "wash_up", "I can't wash up yet."),
        ("boil the pasta", "cook", "I can't cook yet."),
    ],
)
def test_unsupported_skills_are_named(request_text: str, name: str, say: str) -> None:
    found = unsupported_skill(request_text)
    assert found is not None and (found.name, found.say) == (name, say)


@pytest.mark.parametrize(
    "request_text", ["put the cup next to the plate", "wipe the counter", "turn on the kettle"]
)
def test_supported_requests_name_no_unsupported_skill(request_text: str) -> None:
    assert unsupported_skill(request_text) is None


def test_every_unsupported_skill_has_verbs_and_a_sentence() -> None:
    skills = unsupported_skills()
    assert len(skills) >= 5 and all(skill.verbs and skill.say.endswith(".") for skill in skills)
