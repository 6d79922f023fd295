"""The house's shape: a tree author finds few modules in trees/, the rest lives in wings."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.trees.loading import TreeLoadError, import_module, load_factory

TREES = Path(__file__).resolve().parents[1] / "trees"


def test_trees_keeps_at_most_fifteen_modules_of_its_own() -> None:
    modules = sorted(path.name for path in TREES.glob("*.py"))
    assert len(modules) <= 15, modules


def test_every_wing_is_a_package() -> None:
    for wing in ("cli", "bt_xml", "recording", "viewer", "ros", "evaluation", "examples"):
        assert (TREES / wing / "__init__.py").is_file(), wing


@pytest.mark.parametrize("old", ["trees.bt_xml.loader", "knowledge.scene.scene_graph", "sim"])
def test_a_name_from_before_the_namespace_is_told_the_new_one(old: str) -> None:
    new = f"cogtree.{old}"
    with pytest.raises(ModuleNotFoundError, match=f"{old} is now {new}"):
        import_module(old)
    assert import_module(new).__name__ == new


def test_a_tree_reference_to_an_old_name_names_the_new_one() -> None:
    with pytest.raises(TreeLoadError, match="cogtree.trees.bt_xml.loader"):
        load_factory("trees.bt_xml.loader:load_xml_tree")


def test_a_missing_module_that_never_moved_is_reported_as_missing() -> None:
    with pytest.raises(ModuleNotFoundError) as error:
        import_module("cogtree.trees.no_such_module")
    assert "is now" not in str(error.value)


def test_an_xml_reference_to_an_old_name_names_the_new_one() -> None:
    from cogtree.trees.bt_xml.values import import_reference

    with pytest.raises(ValueError, match="trees.assistant is now cogtree.trees.assistant"):
        import_reference("trees.assistant:apologise")
