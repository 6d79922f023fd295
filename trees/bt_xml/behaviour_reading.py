"""Read what a behaviour class says about itself: docstring sentences and setup handles.

The summary is the docstring's first line; status meanings are its sentences naming SUCCESS,
FAILURE or RUNNING; a parameter's meaning is the first sentence quoting it; the handles are
read from the source of ``setup`` (``require_handle``/``optional_handle`` calls, ``kwargs``
lookups, helpers that are handed ``kwargs``).
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import typing
from collections.abc import Callable
from typing import Any

from cogtree.trees.bt_xml.node_notes import HANDLES_PASSED_ON, PARAMETER_MEANINGS
from cogtree.trees.bt_xml.node_types import Handle

STATUS_WORDS = re.compile(r"\b(SUCCESS|FAILURE|RUNNING)\b")


def sentences(doc: str | None) -> list[str]:
    """The sentences of a docstring, each on one line."""
    text = inspect.cleandoc(doc or "")
    found: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        joined = " ".join(line.strip() for line in paragraph.splitlines()).strip()
        found.extend(s for s in re.split(r"(?<=\.)\s+(?=[A-Z`\"(])", joined) if s)
    return found


def docstring_summary(cls: type) -> str:
    """The first line of a class's docstring."""
    return inspect.cleandoc(cls.__doc__ or "").split("\n", 1)[0].strip()


def status_sentences(cls: type) -> tuple[str, ...]:
    """The sentences of the class docstring that say what SUCCESS, FAILURE, RUNNING mean."""
    return tuple(s for s in sentences(cls.__doc__) if STATUS_WORDS.search(s))


def parameter_meaning(cls: type, name: str) -> str:
    """What a constructor parameter means: hand-written for this class, else the docstring.

    The docstring sentence is the first one quoting the parameter (````name```` or
    ````name=...````); the generic hand-written meaning of the name comes last.
    """
    specific = PARAMETER_MEANINGS.get(f"{cls.__name__}.{name}")
    if specific:
        return specific
    quoted = re.compile(rf"``{re.escape(name)}(=[^`]*)?``")
    for doc in (cls.__doc__, constructor(cls).__doc__):
        for sentence in sentences(doc):
            if quoted.search(sentence):
                return sentence
    return PARAMETER_MEANINGS.get(name, "")


def handles_of(cls: type) -> tuple[Handle, ...]:
    """The handles ``cls.setup`` takes, read from its source (and its bases' ``setup``).

    ``require_handle(self, kwargs, "x", ...)`` and ``kwargs["x"]`` are required;
    ``optional_handle(...)`` and ``kwargs.get("x")`` optional; a helper called with
    ``kwargs`` is read too.
    """
    found: dict[str, bool] = {}
    for klass in cls.__mro__:
        setup = klass.__dict__.get("setup")
        if setup is not None and klass.__module__.split(".")[0] == "cogtree":
            _scan_handles(setup, found, seen=set())
    ordered = sorted(found.items(), key=lambda item: not item[1])
    passed_on = HANDLES_PASSED_ON.get(cls.__name__, ())
    return tuple(Handle(name, required) for name, required in ordered) + passed_on


def _scan_handles(function: Callable[..., Any], found: dict[str, bool], seen: set[Any]) -> None:
    if function in seen:
        return
    seen.add(function)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return
    scope = getattr(function, "__globals__", {})
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_kwargs(node.value):
            _note(found, node.slice, required=True)
        if not isinstance(node, ast.Call):
            continue
        callee = _callee_name(node.func)
        if callee in ("require_handle", "optional_handle") and len(node.args) >= 3:
            _note(found, node.args[2], required=callee == "require_handle")
        elif callee == "get" and isinstance(node.func, ast.Attribute):
            if _is_kwargs(node.func.value) and node.args:
                _note(found, node.args[0], required=False)
        elif any(_is_kwargs(argument) for argument in node.args):
            helper = scope.get(callee) if callee else None
            if inspect.isfunction(helper):
                _scan_handles(helper, found, seen)


def _callee_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_kwargs(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "kwargs"


def _note(found: dict[str, bool], node: ast.expr, *, required: bool) -> None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        found[node.value] = found.get(node.value, False) or required


def constructor(cls: type) -> Callable[..., Any]:
    """The ``__init__`` of ``cls`` (its own or inherited)."""
    init: Callable[..., Any] = typing.cast(Any, cls).__init__
    return init
