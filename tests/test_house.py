"""The house's shape: a tree author finds few modules in trees/, the rest lives in wings."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.ros.ros_extra import ROS_EXTRA
from trees.loading import MOVED_MODULES, TreeLoadError, import_module, load_factory

TREES = Path(__file__).resolve().parents[1] / "trees"


def test_trees_keeps_at_most_fifteen_modules_of_its_own() -> None:
    modules = sorted(path.name for path in TREES.glob("*.py"))
    assert len(modules) <= 15, modules


def test_every_wing_is_a_package() -> None:
    for wing in ("cli", "bt_xml", "recording", "viewer", "ros", "evaluation", "examples"):
        assert (TREES / wing / "__init__.py").is_file(), wing


@pytest.mark.parametrize("old", ["trees.xml_loader", "trees.tick_log", "skills.ros_executor"])
def test_a_moved_module_is_named_in_the_error(old: str) -> None:
    new = MOVED_MODULES[old]
    with pytest.raises(ModuleNotFoundError, match=f"{old} moved to {new}"):
        import_module(old)
    if new.startswith("skills.ros") and importlib.util.find_spec("rclpy") is None:
        pytest.skip(f"importing {new}: {ROS_EXTRA}")
    assert import_module(new).__name__ == new


def test_a_tree_reference_to_a_moved_module_names_the_new_one() -> None:
    with pytest.raises(TreeLoadError, match="trees.bt_xml.loader"):
        load_factory("trees.xml_loader:load_xml_tree")


def test_a_missing_module_that_never_moved_is_reported_as_missing() -> None:
    with pytest.raises(ModuleNotFoundError) as error:
        import_module("trees.no_such_module")
    assert "moved" not in str(error.value)


def test_an_xml_reference_to_a_moved_module_names_the_new_one() -> None:
    from trees.bt_xml.values import import_reference

    with pytest.raises(ValueError, match="trees.oracle moved to trees.evaluation.oracle"):
        import_reference("trees.oracle:ScenarioOracle")
