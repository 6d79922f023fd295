"""The registry of node types, read from the code.

Every behaviour class of the ``behaviours`` package and of the example trees
(:mod:`trees.examples`, e.g. its ``ReadinessGate``) is a node type under its class name, with
the py_trees composites and decorators of :mod:`trees.bt_xml.node_notes`. Its parameters are its
constructor's signature (those whose type has an XML form, see :mod:`trees.bt_xml.values`); its
ports are the blackboard keys its class declares (``reads`` and ``writes``, entries of the
catalogue in ``behaviours/keys.py``); its meaning, statuses and handles come from
:mod:`trees.bt_xml.behaviour_reading`. A class built of nodes of its own declares their classes
in ``parts`` (``ReActStep``: its decision gate and its action node) and has their ports and
handles too.
A class that cannot be a node type (abstract,
or a required argument with no XML form) is listed as unavailable, with the reason.

:func:`default_registry` imports every behaviour module to find the classes;
:func:`registry_for`, what the XML loader uses, imports only the modules of the tags a tree
names, read from the generated index :mod:`trees.bt_xml.node_modules`.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import logging
import pkgutil
import types
import typing
from collections.abc import Iterable
from functools import partial
from typing import Any

from py_trees.behaviour import Behaviour

import cogtree.behaviours as behaviours
import cogtree.trees.examples as tree_examples
from cogtree.behaviours import keys
from cogtree.trees.bt_xml.behaviour_reading import (
    constructor,
    docstring_summary,
    handles_of,
    parameter_meaning,
    status_sentences,
)
from cogtree.trees.bt_xml.node_modules import NODE_MODULES
from cogtree.trees.bt_xml.node_notes import PY_TREES_NODES, BuiltinNote
from cogtree.trees.bt_xml.node_types import (
    REQUIRED,
    Handle,
    NodeKind,
    NodeRegistry,
    NodeType,
    Parameter,
    Port,
    PortDirection,
    Unavailable,
)
from cogtree.trees.bt_xml.values import key_port_names, type_label, value_form

log = logging.getLogger(__name__)

_STRUCTURE = ("self", "name", "child", "children")


def _signature(cls: type) -> tuple[list[inspect.Parameter], dict[str, Any]]:
    parameters = list(inspect.signature(constructor(cls)).parameters.values())
    try:
        hints = typing.get_type_hints(constructor(cls))
    except (NameError, TypeError):
        hints = {}
    return parameters, hints


def _kind(parameters: list[inspect.Parameter]) -> NodeKind:
    names = {p.name for p in parameters}
    if "child" in names:
        return "decorator"
    if "children" in names:
        return "composite"
    return "leaf"


def _members(cls: type[Behaviour]) -> tuple[type[Behaviour], ...]:
    """``cls`` and the classes of the nodes it is built of (its ``parts``)."""
    parts: tuple[type[Behaviour], ...] = getattr(cls, "parts", ())
    return (cls, *parts)


def _ports_of(cls: type[Behaviour]) -> tuple[Port, ...]:
    """The ports of ``cls``: the keys its class declares, named after their catalogue constants.

    The declarations are the ``reads``/``writes`` of :class:`~behaviours.keys.DeclaredKeys`,
    of ``cls`` and of its parts.
    """
    by_port = key_port_names()
    names = {spec: name for name, spec in by_port.items()}
    contracts = [keys.declared(member) for member in _members(cls)]
    reads = {keys.catalogue_entry(spec) for contract in contracts for spec in contract.reads}
    writes = {keys.catalogue_entry(spec) for contract in contracts for spec in contract.writes}

    def direction(spec: keys.KeySpec) -> PortDirection:
        if spec in reads and spec in writes:
            return "inout"
        return "input" if spec in reads else "output"

    ports = (Port(names[spec], direction(spec), spec) for spec in reads | writes)
    return tuple(sorted(ports, key=lambda port: port.name))


def _handles_of(cls: type[Behaviour]) -> tuple[Handle, ...]:
    """The handles of ``cls`` and of its parts, required ones first."""
    found: dict[str, Handle] = {}
    for member in _members(cls):
        for handle in handles_of(member):
            known = found.get(handle.name)
            if known is None or (handle.required and not known.required):
                found[handle.name] = handle
    return tuple(sorted(found.values(), key=lambda handle: not handle.required))


def node_type_for(cls: type[Behaviour], note: BuiltinNote | None = None) -> NodeType:
    """The node type of ``cls``; TypeError says why it cannot be one."""
    if inspect.isabstract(cls):
        raise TypeError("it is an abstract base class")
    signature, hints = _signature(cls)
    kind = _kind(signature)
    name_parameter = next((p for p in signature if p.name == "name"), None)
    name_required = name_parameter is not None and name_parameter.default is REQUIRED
    parameters: list[Parameter] = []
    not_in_xml: list[str] = []
    xml_names: dict[str, str] = getattr(cls, "xml_names", {})
    for item in signature:
        if item.name in _STRUCTURE or item.kind in (item.VAR_POSITIONAL, item.VAR_KEYWORD):
            continue
        annotation = hints.get(item.name, Any)
        default = (note.defaults if note else {}).get(item.name, item.default)
        if value_form(annotation) is None:
            if default is REQUIRED:
                raise TypeError(f"parameter {item.name} ({type_label(annotation)}) has no XML form")
            not_in_xml.append(item.name)
            continue
        xml_name = xml_names.get(item.name, item.name)
        meaning = (note.meanings if note else {}).get(item.name) or parameter_meaning(cls, xml_name)
        argument = item.name if xml_name != item.name else ""
        parameters.append(Parameter(xml_name, annotation, default, meaning, argument))
    ports = () if note else _ports_of(cls)
    clash = sorted({p.name for p in parameters} & {p.name for p in ports})
    if clash:
        raise TypeError(f"parameter {clash[0]} has the name of one of its blackboard ports")
    return NodeType(
        tag=cls.__name__,
        cls=cls,
        kind=kind,
        summary=note.summary if note else docstring_summary(cls),
        statuses=note.statuses if note else status_sentences(cls),
        parameters=tuple(parameters),
        ports=ports,
        name_required=name_required,
        not_in_xml=tuple(not_in_xml),
        read_handles=tuple if note else partial(_handles_of, cls),
    )


def behaviour_classes(modules: Iterable[types.ModuleType]) -> list[type[Behaviour]]:
    """The public behaviour classes defined in ``modules`` (not the ones they import)."""
    found = []
    for module in modules:
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, Behaviour)
                and value.__module__ == module.__name__
                and not value.__name__.startswith("_")
            ):
                found.append(value)
    return found


def build_registry(
    classes: Iterable[type[Behaviour]], notes: Iterable[BuiltinNote] = PY_TREES_NODES
) -> NodeRegistry:
    """A registry of ``classes`` and the noted py_trees classes; tags must be unique."""
    node_types: dict[str, NodeType] = {}
    unavailable: list[Unavailable] = []
    entries: list[tuple[type[Behaviour], BuiltinNote | None]] = [(n.cls, n) for n in notes]
    entries.extend((cls, None) for cls in classes)
    for cls, note in entries:
        try:
            node_type = node_type_for(cls, note)
        except TypeError as why:
            unavailable.append(Unavailable(cls, str(why)))
            continue
        clash = node_types.get(node_type.tag)
        if clash is not None:
            raise ValueError(
                f"two node types are called {node_type.tag}: {clash.class_path} and "
                f"{node_type.class_path}; rename one of the classes"
            )
        node_types[node_type.tag] = node_type
    return NodeRegistry(
        types=types.MappingProxyType(node_types),
        unavailable=tuple(sorted(unavailable, key=lambda u: u.cls.__name__)),
    )


def behaviour_modules() -> list[types.ModuleType]:
    """Every module of the ``behaviours`` package, then of the example trees' package."""
    return [
        importlib.import_module(info.name)
        for package in (behaviours, tree_examples)
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    ]


@functools.cache
def default_registry() -> NodeRegistry:
    """The registry of every cogtree behaviour and the py_trees nodes the shipped trees use."""
    return build_registry(behaviour_classes(behaviour_modules()))


def registry_for(tags: Iterable[str]) -> NodeRegistry:
    """The registry of the node types ``tags`` name, importing only the modules defining them.

    The modules are read from :data:`~trees.bt_xml.node_modules.NODE_MODULES`. A tag that the
    index and the noted py_trees nodes do not know (a misspelt one) gives
    :func:`default_registry`, so an unknown node type is reported against every node type; so
    does an index that no longer matches the code (a node moved since ``cogtree catalogue
    --update`` last wrote it), with a warning that names that command.
    """
    return _registry_of(frozenset(tags))


@functools.cache
def _registry_of(tags: frozenset[str]) -> NodeRegistry:
    noted = {note.cls.__name__ for note in PY_TREES_NODES}
    if not tags <= noted | NODE_MODULES.keys():
        return default_registry()
    named = sorted(tags - noted)
    try:
        return build_registry(getattr(importlib.import_module(NODE_MODULES[t]), t) for t in named)
    except (ImportError, AttributeError) as error:
        log.warning(
            "the node index trees/bt_xml/node_modules.py is stale (%s): every behaviour module "
            "is imported instead; run `cogtree catalogue --update` to rewrite it",
            error,
        )
        return default_registry()
