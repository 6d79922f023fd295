"""The house's shape: the rules that keep the project readable, checked on every run.

Sizes are capped (modules, node classes, folders); a module over its cap today is listed with
its size now in the ``*_SHRINKING`` tables and may only shrink (the table entry goes once it
fits). Every module under ``behaviours/`` defines a node, but for the pieces nodes are built
from; one node parses the request. The import rules live in ``pyproject.toml``
(import-linter); names from before the ``cogtree`` namespace are told the new one.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import py_trees
import pytest

import cogtree.behaviours
from cogtree.trees.loading import TreeLoadError, import_module, load_factory

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("trees", "behaviours", "skills", "knowledge", "sim")
"""The five folders the robot runs (the evaluation wing is apart)."""

MODULE_LINES = 600
NODE_CLASS_LINES = 300
FOLDER_MODULES = 15

MODULES_SHRINKING = {
    "behaviours/gates/intent.py": 642,
    "behaviours/gates/task_readiness.py": 781,
    "behaviours/keys.py": 655,
    "knowledge/language/request_frame.py": 736,
    "knowledge/llm/llama_cpp_backend.py": 609,
    "knowledge/memory/experience.py": 717,
    "knowledge/scene/scene_graph.py": 641,
    "sim/world.py": 1059,
    "sim/world_spec.py": 627,
    "trees/ros/host.py": 660,
}
"""Modules over :data:`MODULE_LINES` today, with their size now: they may only shrink, and an
entry follows its module down (a module that shrank gets its new size here)."""

NODE_CLASSES_SHRINKING = {
    "behaviours/actions/grounding/query_generation.py::GenerateQuery": 386,
    "behaviours/actions/planning/plan_task.py::PlanTask": 399,
    "behaviours/gates/intent.py::RecognizeIntent": 454,
    "behaviours/gates/task_readiness.py::TaskReadinessGate": 633,
    "behaviours/llm_behaviour.py::LLMBehaviour": 346,
}
"""Node classes over :data:`NODE_CLASS_LINES` today, with their size now: they may only shrink."""

FOLDERS_SHRINKING = {"trees/cli": 26}
"""Folders over :data:`FOLDER_MODULES` modules today, with their count now."""

NODE_PARTS = {
    "cogtree.behaviours.keys",
    "cogtree.behaviours.setup_handles",
    "cogtree.behaviours.staged_children",
    "cogtree.behaviours.btcpp.scripting",
    "cogtree.behaviours.btcpp.script_scope",
}
"""The modules of ``behaviours/`` that nodes are built from: the blackboard contract, the
setup handles, run-time children, and BehaviorTree.CPP's script language."""


def product_modules() -> list[Path]:
    found = sorted(path for folder in PRODUCT for path in (ROOT / folder).rglob("*.py"))
    assert len(found) > 200, "the walk found too few modules: is ROOT right?"
    return found


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_its_cap() -> None:
    over = {}
    for path in product_modules():
        name = path.relative_to(ROOT).as_posix()
        cap = MODULES_SHRINKING.get(name, MODULE_LINES)
        if lines(path) > cap:
            over[name] = (lines(path), cap)
    assert not over, f"modules over their cap (lines, cap): {over}; split them by concept"


def node_class_sizes() -> dict[str, int]:
    """``path::Class`` -> lines, for every class of ``behaviours/``."""
    sizes = {}
    for path in sorted((ROOT / "behaviours").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                name = f"{path.relative_to(ROOT).as_posix()}::{node.name}"
                sizes[name] = node.end_lineno - node.lineno + 1
    assert len(sizes) > 50, "the walk found too few classes: is ROOT right?"
    return sizes


def test_no_node_class_is_over_its_cap() -> None:
    over = {
        name: (size, NODE_CLASSES_SHRINKING.get(name, NODE_CLASS_LINES))
        for name, size in node_class_sizes().items()
        if size > NODE_CLASSES_SHRINKING.get(name, NODE_CLASS_LINES)
    }
    assert not over, f"node classes over their cap (lines, cap): {over}; move logic to deciders"


def test_no_folder_holds_more_modules_than_its_cap() -> None:
    over = {}
    for top in (*PRODUCT, "evaluation"):
        for folder in [ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir())]:
            modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
            name = folder.relative_to(ROOT).as_posix()
            cap = FOLDERS_SHRINKING.get(name, FOLDER_MODULES)
            if len(modules) > cap:
                over[name] = (len(modules), cap)
    assert not over, f"folders over their cap (modules, cap): {over}; group them by concern"


def test_the_shrinking_tables_follow_what_shrank() -> None:
    for name, cap in MODULES_SHRINKING.items():
        size = lines(ROOT / name)
        assert size > MODULE_LINES, f"{name} fits now: remove its entry"
        assert size >= cap, f"{name} shrank to {size} lines: lower its entry to {size}"
    sizes = node_class_sizes()
    for name, cap in NODE_CLASSES_SHRINKING.items():
        assert sizes.get(name, 0) > NODE_CLASS_LINES, f"{name} fits now: remove its entry"
        assert sizes[name] >= cap, f"{name} shrank to {sizes[name]} lines: lower its entry"
    for name, cap in FOLDERS_SHRINKING.items():
        count = len([p for p in (ROOT / name).glob("*.py") if p.name != "__init__.py"])
        assert count > FOLDER_MODULES, f"{name} fits now: remove its entry"
        assert count >= cap, f"{name} holds {count} modules now: lower its entry to {count}"


def test_every_behaviours_module_defines_a_node() -> None:
    without = []
    for info in pkgutil.walk_packages(cogtree.behaviours.__path__, "cogtree.behaviours."):
        if info.ispkg or info.name in NODE_PARTS:
            continue
        module = importlib.import_module(info.name)
        if not any(
            inspect.isclass(value)
            and issubclass(value, py_trees.behaviour.Behaviour)
            and value.__module__ == module.__name__
            for value in vars(module).values()
        ):
            without.append(info.name)
    assert not without, f"modules of behaviours/ that define no node: {without}"


PARSER_USERS = {
    "behaviours/actions/dialogue/parse_request.py",  # the one parse of the turn
    "knowledge/understanding/scope_matching.py",  # the packs' example requests, at load
    "trees/voice/confirmation.py",  # echo before the turn; the parse is cached per text
    "evaluation/clarify/clarify.py",  # which items have a missing step, read apart from the turn
}
"""The modules that may import the request parser (``parse_request``)."""


def test_only_parse_request_parses_the_request() -> None:
    importers = set()
    for folder in (*PRODUCT, "evaluation"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                named = isinstance(node, ast.ImportFrom) and any(
                    alias.name == "parse_request" for alias in node.names
                )
                whole = isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                    alias.name.endswith("request_frame") for alias in node.names
                )
                if named or whole:
                    importers.add(path.relative_to(ROOT).as_posix())
    assert importers == PARSER_USERS


def test_every_wing_of_trees_is_a_package() -> None:
    for wing in ("cli", "bt_xml", "recording", "viewer", "ros", "examples"):
        assert (ROOT / "trees" / wing / "__init__.py").is_file(), wing


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
