"""The domain registry: discovery, broken packs skipped, duplicates, ``only``, switching."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.knowledge.packs.domain_pack import PackError
from cogtree.knowledge.packs.domain_registry import SHIPPED_PACKS, DomainRegistry, pack_directories
from tests.knowledge.test_domain_pack import write_pack


@pytest.fixture
def packs(tmp_path: Path) -> Path:
    """Three user packs: alpha and beta work, gamma's schema file fails to import."""
    write_pack(tmp_path / "alpha", "alpha")
    write_pack(tmp_path / "beta", "beta")
    gamma = write_pack(tmp_path / "gamma", "gamma")
    (gamma / "tasks.py").write_text("raise RuntimeError('broken on purpose')\n")
    (tmp_path / "notes").mkdir()  # not a pack: no pack.yaml
    return tmp_path


def test_pack_directories(packs: Path) -> None:
    assert [p.name for p in pack_directories(packs)] == ["alpha", "beta", "gamma"]
    assert pack_directories(packs / "alpha") == [packs / "alpha"]
    with pytest.raises(PackError, match="is not a directory holding domain packs"):
        pack_directories(packs / "missing")


def test_broken_packs_are_skipped_and_kept_in_problems(packs: Path) -> None:
    registry = DomainRegistry.discover(extra=[packs], shipped=False)
    assert registry.names == ["alpha", "beta"]
    (problem,) = registry.problems
    assert "gamma" in str(problem) and "RuntimeError: broken on purpose" in str(problem)
    assert "gamma" not in registry and "alpha" in registry


def test_shipped_packs_come_first(packs: Path) -> None:
    registry = DomainRegistry.discover(extra=[packs / "beta"], only=["office", "beta", "household"])
    assert registry.names == ["household", "office", "beta"]
    assert registry.active.name == "household"
    assert registry.get("office").directory == SHIPPED_PACKS / "office"


def test_a_duplicate_name_is_skipped_with_a_fix(packs: Path, tmp_path: Path) -> None:
    other = write_pack(tmp_path / "more" / "alpha_again", "alpha")
    registry = DomainRegistry.discover(extra=[packs, other], shipped=False)
    assert registry.names == ["alpha", "beta"]
    assert registry.get("alpha").directory == packs / "alpha"
    duplicate = [p for p in registry.problems if "already used" in str(p)]
    assert len(duplicate) == 1
    assert str(other) in str(duplicate[0]) and "rename one of them" in str(duplicate[0])


def test_only_keeps_the_named_packs_and_reports_unknown_names(packs: Path) -> None:
    registry = DomainRegistry.discover(extra=[packs], shipped=False, only=["beta", "delta"])
    assert registry.names == ["beta"]
    assert any("no domain pack called 'delta'" in str(p) for p in registry.problems)


def test_switching(packs: Path) -> None:
    registry = DomainRegistry.discover(extra=[packs], shipped=False, active="beta")
    assert registry.active.name == "beta"
    assert registry.switch("alpha") == "beta"
    assert registry.active.name == "alpha"
    assert registry.switch("alpha") == "alpha"
    with pytest.raises(KeyError, match="loaded packs: alpha, beta"):
        registry.switch("gamma")
    assert registry.active.name == "alpha"


def test_no_pack_at_all_says_why(packs: Path) -> None:
    with pytest.raises(PackError, match="no domain pack could be loaded; .*broken on purpose"):
        DomainRegistry.discover(extra=[packs / "gamma"], shipped=False)
    with pytest.raises(PackError, match="not a directory holding domain packs"):
        DomainRegistry.discover(extra=[packs / "missing"], shipped=False)


def test_the_shipped_household_and_office_packs_load() -> None:
    registry = DomainRegistry.discover(only=["household", "office"])
    assert registry.names == ["household", "office"]
    assert not [p for p in registry.problems if "household" in str(p) or "office" in str(p)]
