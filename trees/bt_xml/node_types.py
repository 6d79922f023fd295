"""The node types an XML tree may use: tag, class, parameters, blackboard ports, handles.

A *parameter* is a constructor argument, a constant fixed when the tree is loaded. A *port*
is a blackboard key the node reads (input), writes (output) or both (inout); in XML it
defaults to the key of the blackboard contract (``behaviours/keys.py``) and can be remapped
(``utterance="{heard}"``). A *handle* is what ``setup(**handles)`` takes (a model client, the
scene graph): not a port. :mod:`trees.bt_xml.node_registry` reads all of it from the code.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from py_trees.behaviour import Behaviour

from cogtree.behaviours import keys
from cogtree.trees.bt_xml.values import did_you_mean, value_form

NodeKind = Literal["leaf", "decorator", "composite"]
NodeCategory = Literal["Action", "Condition", "Decorator", "Control"]
PortDirection = Literal["input", "output", "inout"]

REQUIRED: Any = inspect.Parameter.empty
"""The default of a parameter the XML must give."""


@dataclass(frozen=True)
class Parameter:
    """A constructor argument given as an XML attribute: a constant fixed at load time."""

    name: str
    annotation: Any
    default: Any
    meaning: str
    argument: str = ""
    """The constructor's name for it when the XML name is a Python keyword (``if``)."""

    @property
    def required(self) -> bool:
        """Whether the XML must give it (the constructor has no default)."""
        return self.default is REQUIRED

    @property
    def form(self) -> str:
        """How its value is written in XML (see :func:`trees.bt_xml.values.value_form`)."""
        return value_form(self.annotation) or "?"


@dataclass(frozen=True)
class Port:
    """A blackboard key the node registers, named after its catalogue constant."""

    name: str
    direction: PortDirection
    spec: keys.KeySpec


@dataclass(frozen=True)
class Handle:
    """Something ``setup(**handles)`` takes: a model client, the scene graph, a store."""

    name: str
    required: bool
    note: str = ""


@dataclass(frozen=True)
class NodeType:
    """One XML tag: the class it builds, what it means and what it takes."""

    tag: str
    cls: type[Behaviour]
    kind: NodeKind
    summary: str
    statuses: tuple[str, ...]
    parameters: tuple[Parameter, ...]
    ports: tuple[Port, ...]
    name_required: bool
    not_in_xml: tuple[str, ...] = ()
    read_handles: Callable[[], tuple[Handle, ...]] = field(default=tuple, compare=False)
    """Reads :attr:`handles` (from the class's source: costly, so only when asked)."""

    @cached_property
    def handles(self) -> tuple[Handle, ...]:
        """What ``setup`` takes (the catalogue lists them; building a tree needs none)."""
        return self.read_handles()

    @property
    def category(self) -> NodeCategory:
        """Groot's node category: Action, Condition, Decorator or Control."""
        if self.kind == "composite":
            return "Control"
        if self.kind == "decorator":
            return "Decorator"
        return "Condition" if self.summary.startswith("Condition") else "Action"

    @property
    def class_path(self) -> str:
        """``module.Class`` of the Python class."""
        return f"{self.cls.__module__}.{self.cls.__qualname__}"

    def parameter(self, name: str) -> Parameter | None:
        """The parameter called ``name``, if any."""
        return next((p for p in self.parameters if p.name == name), None)

    def port(self, name: str) -> Port | None:
        """The port called ``name``, if any."""
        return next((p for p in self.ports if p.name == name), None)

    @property
    def attributes(self) -> tuple[str, ...]:
        """Every attribute the tag accepts besides ``name``: parameters, then ports."""
        return tuple(p.name for p in self.parameters) + tuple(p.name for p in self.ports)

    def build(
        self,
        name: str | None,
        arguments: Mapping[str, Any],
        children: Sequence[Behaviour] = (),
        **settings: Any,
    ) -> Behaviour:
        """Construct the node: ``arguments`` by parameter name, defaults for the rest.

        ``settings`` are constructor arguments XML cannot write (the ``keys`` of a script).
        """
        kwargs: dict[str, Any] = {
            p.argument or p.name: arguments.get(p.name, p.default)
            for p in self.parameters
            if p.name in arguments or not p.required
        }
        kwargs.update(settings)
        if name is not None or self.name_required:
            kwargs["name"] = name if name is not None else self.tag
        if self.kind == "decorator":
            kwargs["child"] = children[0]
        elif self.kind == "composite":
            kwargs["children"] = list(children)
        return self.cls(**kwargs)


@dataclass(frozen=True)
class Unavailable:
    """A behaviour class that no XML tag builds, and why."""

    cls: type[Behaviour]
    reason: str


@dataclass(frozen=True)
class NodeRegistry:
    """Every node type by tag, and the behaviour classes left out of XML."""

    types: Mapping[str, NodeType]
    unavailable: tuple[Unavailable, ...] = ()

    def __contains__(self, tag: object) -> bool:
        return tag in self.types

    def __getitem__(self, tag: str) -> NodeType:
        return self.types[tag]

    def __iter__(self) -> Iterator[NodeType]:
        return iter(self.types.values())

    def suggest(self, tag: str) -> str:
        """``"; did you mean ..."`` for an unknown tag (empty when nothing is close)."""
        return did_you_mean(tag, list(self.types))
