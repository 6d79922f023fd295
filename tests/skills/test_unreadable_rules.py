"""A hazard rule file with an error: the robot keeps running and refuses every plan step.

Checked to fail before: a broken file raised at start (the robot did not run), and there was
no way for rules to be unreadable.
"""

from __future__ import annotations

from pathlib import Path

from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.skills.planning.plan_validation import rehearse
from cogtree.skills.safety.hazard_check import RULES_UNREADABLE
from tests.skills.hazard_kitchen import load_cases


def test_every_step_of_a_safe_plan_is_refused_naming_the_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "rules.ttl"
    broken.write_text("@prefix haz: <https://cogtree.dev/hazard#> .\nhaz:x a haz:Rule ;\n")
    rules = shipped_hazard_rules(broken)
    safe = next(case for case in load_cases() if case.expect == "safe")
    assert rehearse(safe.plan, safe.world, said=safe.said).report.ok  # with readable rules
    report = rehearse(safe.plan, safe.world, said=safe.said, rules=rules).report
    refused = [p for p in report.problems if p.code == f"hazard:{RULES_UNREADABLE}"]
    assert not report.ok and len(refused) >= 1
    assert "rules.ttl" in refused[0].reason and "line" in refused[0].reason
