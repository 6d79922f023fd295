"""How node parameters and blackboard keys are written in an XML tree, and read back.

An XML attribute is text. A parameter's Python type says which texts it takes (its *form*):
``int``, ``float``, ``bool`` (``true``/``false``), ``str``, one of a ``Literal``'s values,
``MODULE:ATTRIBUTE`` for a class or a function, a blackboard key of the catalogue by its port
name (``target_room``) or its key (``/perception/target_room``). Scalars are converted by
py_trees' own converter, so XML trees read values the way py_trees' parser does.
"""

from __future__ import annotations

import difflib
import enum
import inspect
import re
import types
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union, get_args, get_origin

from py_trees.ports_utils import convert_str_to_type

from cogtree.behaviours import keys
from cogtree.behaviours.btcpp.script_nodes import ScriptCode
from cogtree.behaviours.btcpp.script_scope import BlackboardEntry
from cogtree.behaviours.btcpp.scripting import parse_script
from cogtree.trees.loading import import_module

REFERENCE = re.compile(r"^(?P<module>[A-Za-z_][\w.]*):(?P<attribute>[A-Za-z_][\w.]*)$")
"""``MODULE:ATTRIBUTE``, e.g. ``cogtree.trees.assistant:APOLOGY`` or ``mypack.tasks:Fetch``."""

SCALARS = (str, int, float, bool)
_MODULE_PREFIX = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])")


def key_port_names() -> Mapping[str, keys.KeySpec]:
    """Port name -> catalogue entry (:func:`behaviours.keys.by_port_name`)."""
    return keys.by_port_name()


def type_label(annotation: Any) -> str:
    """A short readable name of a type: ``list[Candidate]``, ``int | None``."""
    if annotation is type(None):
        return "None"
    if get_origin(annotation) is None and isinstance(annotation, type):
        return annotation.__name__
    return _MODULE_PREFIX.sub("", str(annotation))


def value_form(annotation: Any) -> str | None:
    """How a value of ``annotation`` is written in XML; None when it cannot be."""
    origin = get_origin(annotation)
    arguments = get_args(annotation)
    if annotation is ScriptCode:
        return "script"
    if annotation is BlackboardEntry:
        return "entry"
    if annotation in SCALARS:
        return str(annotation.__name__)
    if inspect.isclass(annotation) and issubclass(annotation, enum.Enum):
        return " | ".join(member.name for member in annotation)
    if annotation is keys.KeySpec:
        return "key"
    if origin is Literal:
        return " | ".join(f'"{option}"' for option in arguments)
    if origin is Union or origin is types.UnionType:
        forms = [value_form(member) for member in arguments if member is not type(None)]
        if any(form is None for form in forms):
            return None
        optional = [" | None"] if type(None) in arguments else []
        return " | ".join(str(form) for form in forms) + "".join(optional)
    if origin is type:
        return f"MODULE:CLASS ({type_label(annotation)})"
    if origin is Callable:
        return f"MODULE:FUNCTION ({type_label(annotation)})"
    if origin in (Mapping, dict) and arguments == (str, keys.KeySpec):
        return "NAME=key, ..."
    return None


def parse_value(text: str, annotation: Any) -> Any:
    """The value ``text`` stands for as a ``annotation``; ValueError says the expected form."""
    origin = get_origin(annotation)
    if annotation is ScriptCode:
        return parse_script(text).text
    if annotation is BlackboardEntry:
        return _parse_entry(text)
    if origin is Union or origin is types.UnionType:
        return _parse_union(text, get_args(annotation))
    if origin is Literal:
        return _parse_choice(text, get_args(annotation))
    if inspect.isclass(annotation) and issubclass(annotation, enum.Enum):
        return _parse_choice(text, tuple(annotation), by_name=True)
    if annotation is keys.KeySpec:
        return catalogue_key(text)
    if origin in (Mapping, dict) and get_args(annotation) == (str, keys.KeySpec):
        return _parse_key_mapping(text)
    if origin is type:
        return _parse_class(text, get_args(annotation)[0])
    if origin is Callable:
        found = import_reference(text)
        if not callable(found):
            raise ValueError(f"{text} is a {type(found).__name__}, not a function")
        return found
    if annotation in SCALARS:
        return _parse_scalar(text, annotation)
    raise ValueError(f"a {type_label(annotation)} cannot be written in XML")


def format_default(value: Any) -> str:
    """A default value written the way an XML attribute would give it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, keys.KeySpec):
        return value.name
    if inspect.isclass(value) or inspect.isfunction(value):
        return f"{value.__module__}:{value.__qualname__}"
    return str(value)


def catalogue_key(text: str) -> keys.KeySpec:
    """The catalogue entry named by its port name (``target_room``) or its key."""
    wanted = text.strip()
    by_port = key_port_names()
    if wanted in by_port:
        return by_port[wanted]
    try:
        return keys.spec_for(wanted)
    except KeyError:
        pass
    hint = did_you_mean(wanted, list(by_port))
    raise ValueError(f"{text!r} is not a key of the catalogue (behaviours/keys.py){hint}")


def import_reference(text: str) -> Any:
    """The object a ``MODULE:ATTRIBUTE`` reference names; ValueError says what went wrong."""
    found = REFERENCE.match(text.strip())
    if found is None:
        raise ValueError(
            f"expected MODULE:ATTRIBUTE (e.g. cogtree.trees.assistant:APOLOGY), got {text!r}"
        )
    module_name, attribute = found.group("module"), found.group("attribute")
    try:
        value: Any = import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r}: {error}") from error
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise ValueError(f"{module_name} has no attribute {attribute!r}")
        value = getattr(value, part)
    return value


def did_you_mean(wanted: str, known: list[str]) -> str:
    """``"; did you mean 'x'?"`` for close matches of ``wanted``, else the empty string."""
    close = difflib.get_close_matches(wanted, known, n=3, cutoff=0.6)
    if not close:
        lowered = {name.lower(): name for name in known}
        close = [lowered[wanted.lower()]] if wanted.lower() in lowered else []
    return f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else ""


def _parse_entry(text: str) -> str:
    """An entry: ``{name}``, ``/a/key`` or a name (a catalogue port name, else the tree's)."""
    wanted = text.strip()
    if wanted.startswith("/") or re.fullmatch(r"\{[A-Za-z_][\w.]*\}|[A-Za-z_]\w*", wanted):
        return wanted
    raise ValueError(f"expected an entry ({{name}}, a name or /a/key), got {text!r}")


def _parse_union(text: str, members: tuple[Any, ...]) -> Any:
    if type(None) in members and text.strip().lower() in ("", "none", "null"):
        return None
    problems = []
    # text fits a str member always: try the others first (``str | KeySpec`` takes a key name)
    for member in sorted(members, key=lambda member: member is str):
        if member is type(None):
            continue
        try:
            return parse_value(text, member)
        except ValueError as problem:
            problems.append(str(problem))
    raise ValueError(" or ".join(problems))


def _parse_choice(text: str, options: tuple[Any, ...], *, by_name: bool = False) -> Any:
    names = [option.name if by_name else str(option) for option in options]
    wanted = text.strip()
    if wanted in names:
        return options[names.index(wanted)]
    listed = ", ".join(names)
    raise ValueError(f"expected one of {listed}, got {text!r}{did_you_mean(wanted, names)}")


def _parse_scalar(text: str, kind: type) -> Any:
    try:
        converted, value = convert_str_to_type(text, kind)
    except ValueError:
        converted, value = False, text
    if not converted:
        spelled = " (true or false)" if kind is bool else ""
        raise ValueError(f"expected {kind.__name__}{spelled}, got {text!r}")
    return value


def _parse_class(text: str, bound: Any) -> type:
    found = import_reference(text)
    if not inspect.isclass(found):
        raise ValueError(f"{text} is a {type(found).__name__}, not a class")
    if inspect.isclass(bound) and not issubclass(found, bound):
        raise ValueError(f"{text} is not a subclass of {bound.__name__}")
    return found


def _parse_key_mapping(text: str) -> dict[str, keys.KeySpec]:
    mapping: dict[str, keys.KeySpec] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        short, sep, key = item.partition("=")
        mapping[short.strip()] = catalogue_key(key if sep else short)
    return mapping
