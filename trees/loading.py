"""Find a tree factory from a ``module:function`` (or ``path/to/file.py:function``) string."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import py_trees

MOVED_MODULES: dict[str, str] = {
    "trees.cli_llm": "trees.cli.llm_options",
    "trees.cli_types": "trees.cli.arg_types",
    "trees.conversation_command": "trees.cli.conversation_command",
    "trees.eval_command": "trees.cli.eval_command",
    "trees.run_command": "trees.cli.run_command",
    "trees.catalogue_command": "trees.cli.catalogue_command",
    "trees.ros_command": "trees.cli.ros_command",
    "trees.sim_ros_command": "trees.cli.sim_ros_command",
    "trees.doctor": "trees.cli.doctor",
    "trees.viewer.command": "trees.cli.view_command",
    "trees.xml_loader": "trees.bt_xml.loader",
    "trees.xml_checks": "trees.bt_xml.checks",
    "trees.xml_values": "trees.bt_xml.values",
    "trees.xml_document": "trees.bt_xml.document",
    "trees.node_registry": "trees.bt_xml.node_registry",
    "trees.node_catalogue": "trees.bt_xml.node_catalogue",
    "trees.node_notes": "trees.bt_xml.node_notes",
    "trees.node_types": "trees.bt_xml.node_types",
    "trees.tree_twins": "trees.bt_xml.tree_twins",
    "trees.behaviour_reading": "trees.bt_xml.behaviour_reading",
    "trees.tick_log": "trees.recording.tick_log",
    "trees.display": "trees.recording.display",
    "trees.compact_ticks": "trees.recording.compact_ticks",
    "trees.replay": "trees.recording.replay",
    "trees.snapshot_stream": "trees.recording.snapshot_stream",
    "trees.viewer.snapshot": "trees.recording.snapshot",
    "trees.tick_watch": "trees.viewer.tick_watch",
    "trees.ros_host": "trees.ros.host",
    "trees.ros_cli": "trees.ros.cli_support",
    "trees.tick_gate": "trees.ros.tick_gate",
    "trees.viewer.ros_source": "trees.ros.snapshot_source",
    "trees.bench": "trees.evaluation.bench",
    "trees.oracle": "trees.evaluation.oracle",
    "trees.scenario_run": "trees.evaluation.scenario_run",
    "trees.sim_wiring": "trees.evaluation.sim_wiring",
    "skills.ros_belief": "skills.ros.belief",
    "skills.ros_executor": "skills.ros.executor",
    "skills.ros_people": "skills.ros.people",
    "skills.ros_protocol": "skills.ros.protocol",
    "skills.ros_routes": "skills.ros.routes",
}
"""Modules that moved when ``trees/`` was split into wings (cogtree 0.2): old path to new.

No alias keeps the old paths importable; a tree or XML file that names one is told the new one.
"""


class TreeLoadError(ValueError):
    """The tree reference could not be turned into a tree; the message says why and how."""


def load_tree(reference: str) -> py_trees.behaviour.Behaviour:
    """Import the factory named by ``reference``, call it, and return the root it builds."""
    factory = load_factory(reference)
    root = factory()
    if not isinstance(root, py_trees.behaviour.Behaviour):
        raise TreeLoadError(
            f"{reference} returned {type(root).__name__}, not a py_trees behaviour; "
            "a tree factory returns the root of the tree"
        )
    return root


def load_factory(reference: str) -> Callable[[], object]:
    """The callable named by ``module:function`` or ``file.py:function``."""
    module_name, sep, attribute = reference.rpartition(":")
    if not sep or not module_name or not attribute:
        raise TreeLoadError(
            f"tree {reference!r} must be MODULE:FUNCTION, "
            "e.g. trees.examples.ask_before_acting:create_root"
        )
    module = _import(module_name)
    factory = getattr(module, attribute, None)
    if not callable(factory):
        candidates = sorted(
            name
            for name, value in vars(module).items()
            if inspect.isfunction(value) and name.startswith("create")
        )
        hint = f"; factories in it: {', '.join(candidates)}" if candidates else ""
        raise TreeLoadError(f"{module_name} has no callable {attribute!r}{hint}")
    return factory  # type: ignore[no-any-return]


def import_module(module_name: str) -> ModuleType:
    """Import ``module_name``; a module that moved is named in the ModuleNotFoundError."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        for old, new in MOVED_MODULES.items():
            if module_name == old or module_name.startswith(old + "."):
                moved = new + module_name[len(old) :]
                raise ModuleNotFoundError(
                    f"{module_name} moved to {moved}: write {moved!r} instead",
                    name=module_name,
                ) from error
        raise


def _import(module_name: str) -> ModuleType:
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise TreeLoadError(f"tree file {path} does not exist")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise TreeLoadError(f"cannot import {path} as a Python module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    try:
        return import_module(module_name)
    except ModuleNotFoundError as error:
        raise TreeLoadError(
            f"cannot import {module_name!r}: {error}; is the package installed, "
            "or did you mean a file path ending in .py?"
        ) from error
