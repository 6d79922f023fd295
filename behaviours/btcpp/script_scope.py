"""Where a BT.CPP script's names live: blackboard keys of cogtree's catalogue, tree entries, enums.

A name in a script is, in this order: an enum value (the values of the catalogue's ``Literal``
types, e.g. ``Clarify`` for ``/turn/control``, and the names of its ``Enum`` types); a key of
the catalogue by its port name (``control`` is ``/turn/control``, ``reply`` is
``/turn/reply``); otherwise an entry of the tree (``/name`` in the main tree; the XML loader
passes the key it resolved in a subtree's namespace). :class:`ScriptScope` registers the keys
with a blackboard client (read for the names read, write for the names assigned) and checks
a value written to a catalogue key against its type.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Iterable, Mapping
from typing import Any, Literal, NewType, get_args, get_origin

import py_trees
from py_trees.common import Access

from cogtree.behaviours import keys
from cogtree.behaviours.btcpp.scripting import ScriptError, ScriptProgram, Value

BlackboardEntry = NewType("BlackboardEntry", str)
"""A node parameter naming a blackboard entry: ``{name}``, a catalogue port name or ``/a/key``."""


def _enum_values() -> dict[str, Value]:
    found: dict[str, Value] = {}
    for spec in keys.CATALOGUE:
        for kind in (spec.type, *get_args(spec.type)):
            if get_origin(kind) is Literal:
                found.update({str(v): v for v in get_args(kind) if isinstance(v, str)})
            elif inspect.isclass(kind) and issubclass(kind, enum.Enum):
                found.update({member.name: member.name for member in kind})
    return found


SCRIPT_ENUMS: Mapping[str, Value] = _enum_values()
"""Enum names a script may use, and their values (strings: what the blackboard holds)."""


def catalogue_names() -> dict[str, keys.KeySpec]:
    """Script name -> catalogue entry, for the keys without a ``{node}`` placeholder."""
    return {name: spec for name, spec in keys.by_port_name().items() if keys.NODE not in spec.name}


def default_key(name: str) -> str:
    """The key of ``name`` in the main tree: its catalogue key, else the entry ``/name``."""
    spec = catalogue_names().get(name)
    return spec.name if spec is not None else f"/{name}"


class ScriptScope:
    """The blackboard as one node's scripts see it (an :class:`Environment`).

    ``keys`` maps the names the scripts use to blackboard keys; a name left out gets
    :func:`default_key`. Registers a client on ``owner`` named after it.
    """

    def __init__(
        self,
        owner: py_trees.behaviour.Behaviour,
        programs: Iterable[ScriptProgram],
        keys_by_name: Mapping[str, str] | None = None,
    ) -> None:
        chosen = dict(keys_by_name or {})
        programs = list(programs)
        reads = {n for p in programs for n in p.reads if n not in SCRIPT_ENUMS}
        writes = {n for p in programs for n in p.assigned}
        self.keys = {name: chosen.get(name, default_key(name)) for name in sorted(reads | writes)}
        self.client = owner.attach_blackboard_client(name=owner.name)
        for name, key in self.keys.items():
            if name in reads:
                self.client.register_key(key, access=Access.READ)
            if name in writes:
                self.client.register_key(key, access=Access.WRITE)

    def enum(self, name: str) -> Value | None:
        """The value of enum ``name`` (see :data:`SCRIPT_ENUMS`)."""
        return SCRIPT_ENUMS.get(name)

    def get(self, name: str) -> Any:
        """The value at ``name``'s key; ScriptError when it is not set."""
        key = self._key(name)
        if not self.client.exists(key):
            raise ScriptError(f"{name} ({key}) is not set")
        return self.client.get(key)

    def set(self, name: str, value: Any, *, create: bool) -> None:
        """Write ``value`` at ``name``'s key, checked against the catalogue type of the key."""
        key = self._key(name)
        if not create and not self.client.exists(key):
            raise ScriptError(f"{name} ({key}) does not exist yet; create it with {name} := ...")
        try:
            value = keys.spec_for(key).validate(value)
        except KeyError:
            pass  # a tree entry: any value
        except ValueError as problem:
            raise ScriptError(str(problem)) from None
        self.client.set(key, value)

    def _key(self, name: str) -> str:
        try:
            return self.keys[name]
        except KeyError:
            raise ScriptError(f"{name} is not a name this node's scripts declared") from None
