"""Find a tree factory from a ``module:function`` (or ``path/to/file.py:function``) string."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import py_trees

PROJECT_FOLDERS = frozenset({"trees", "behaviours", "skills", "knowledge", "sim", "evaluation"})
"""The project's top-level folders; they are importable only as ``cogtree.<folder>``."""


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
            "e.g. cogtree.trees.examples.ask_before_acting:create_root"
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
    """Import ``module_name``; a name from before the ``cogtree`` namespace is told the new one.

    ``trees.assistant`` (the folder's name) is not importable: the folders install as
    ``cogtree.trees``, ``cogtree.skills`` and so on, and the error says which name to write.
    """
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if module_name.split(".")[0] in PROJECT_FOLDERS:
            new = f"cogtree.{module_name}"
            raise ModuleNotFoundError(
                f"{module_name} is now {new}: the project's folders are imported under the "
                f"cogtree namespace; write {new!r} instead",
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
