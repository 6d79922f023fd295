"""Load a tree written in BehaviorTree.CPP XML, on py_trees' own XML parser.

py_trees' parser (``py_trees.parsers.behaviour_tree_xml``) does the tree work: it picks the
main tree, instantiates ``<SubTree>`` elements with their own namespace, resolves ``{key}``
remappings through subtree ports and tells ports from constructor arguments. It builds
:class:`~py_trees.ports.PortsMixin` nodes, which cogtree behaviours are not, so each node
type of the registry is given to it as a *stand-in*: a PortsMixin class declaring the type's
parameters and blackboard ports. The stand-in tree is then turned into the real one: each
stand-in becomes its class built with the constants its parameters resolved to, and each
port given in the XML is remapped to the key it resolved to.

What the wrapper adds: file, line, node and port in every error (checked first, see
:mod:`trees.bt_xml.checks`); cogtree node names as written (py_trees prefixes its parents'
names); parameters as typed constants, also through subtree ports; remapping of the keys a
cogtree behaviour registers; a check that ports sharing a key carry the same type.

Semantics: a port left out reads or writes its catalogue key (``/turn/utterance``);
``port="{name}"`` is the tree's entry ``name`` (``/name`` in the main tree, ``/<SubTree
name>/name`` inside a subtree unless the ``<SubTree>`` tag passes it in); ``port="/a/key"``
is that key. A parameter is a constant: written in place, or ``{name}`` for a subtree port
or a tree argument (an attribute of ``<BehaviorTree>``, its default).
"""

from __future__ import annotations

import tempfile
import types
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

import py_trees
from py_trees.behaviour import Behaviour
from py_trees.common import Access, Status
from py_trees.parsers.behaviour_tree_xml import parse_behaviour_tree_xml
from py_trees.ports import CONST_PREFIX, PortInformation, PortsMixin, decode_const_value
from py_trees.ports_utils import PortsLogger

from cogtree.behaviours import keys
from cogtree.behaviours.btcpp.conditions import ATTRIBUTES as CONDITION_ATTRIBUTES
from cogtree.behaviours.btcpp.conditions import PrePostConditions
from cogtree.behaviours.btcpp.script_scope import BlackboardEntry, catalogue_names
from cogtree.trees.bt_xml.checks import SUBTREE, check_document, subtree_ports
from cogtree.trees.bt_xml.document import Site, XmlDocument, XmlTreeError, read_document
from cogtree.trees.bt_xml.node_registry import registry_for
from cogtree.trees.bt_xml.node_types import NodeRegistry, NodeType, Port
from cogtree.trees.bt_xml.scripts import (
    KEY_ATTRIBUTE,
    entry_parameters,
    script_entry_names,
)
from cogtree.trees.bt_xml.values import format_default, parse_value, type_label
from cogtree.trees.loading import load_tree

SITE_ATTRIBUTE = "cogtree-site"
"""Attribute added to each element handed to py_trees: the index of its :class:`Site`."""


def load_xml_tree(
    source: str | Path,
    main_tree_id: str | None = None,
    *,
    arguments: Mapping[str, Any] | None = None,
    registry: NodeRegistry | None = None,
) -> Behaviour:
    """Build the tree of an XML file (a path) or of XML text (a string starting with ``<``).

    ``main_tree_id`` picks the tree (default: ``main_tree_to_execute``, or the only tree).
    ``arguments`` override the main tree's arguments, the attributes of its
    ``<BehaviorTree>`` (``{"robot": "robot2"}``). Raises :class:`XmlTreeError`.
    """
    document = read_document(source)
    registry = registry or registry_for(_node_tags(document))
    mappings = {name: format_default(value) for name, value in (arguments or {}).items()}
    tree_id = check_document(document, registry, main_tree_id, mappings)
    sites = _mark_sites(document, registry)
    _prepare_for_py_trees(document, registry)
    stand_in = _parse_with_py_trees(document, tree_id, registry, mappings)
    return _Builder(registry, sites).build(stand_in)


def _node_tags(document: XmlDocument) -> set[str]:
    """The tags of the nodes in the document's trees: what the registry must hold."""
    trees = document.root.findall("BehaviorTree")
    return {node.tag for tree in trees for node in tree.iter() if node is not tree} - {SUBTREE}


def load_tree_reference(reference: str) -> Behaviour:
    """The tree of ``FILE.xml``, ``FILE.xml:TREE_ID``, or a ``MODULE:FUNCTION`` factory."""
    path, sep, tree_id = reference.rpartition(":")
    if sep and path.endswith(".xml") and tree_id:
        return load_xml_tree(Path(path), tree_id)
    if reference.endswith(".xml"):
        return load_xml_tree(Path(reference))
    return load_tree(reference)


class _Recorder(PortsMixin):
    """What a stand-in keeps for the real node: its XML attributes, its resolved ports."""

    xml_attributes: dict[str, str]
    resolved: dict[str, str]

    def record(self, attributes: dict[str, str]) -> None:
        """Keep the XML attributes py_trees passed on (the site number among them)."""
        self.xml_attributes = attributes
        self.resolved = {}

    def setup_ports(
        self,
        port_remappings: dict[str, str] | None = None,
        subtree_namespace: str = "/",
        logger: PortsLogger | None = None,
    ) -> None:
        """Record each port's resolved key instead of registering it."""
        self.resolved = dict(port_remappings or {})


class _StandIn(_Recorder, py_trees.behaviour.Behaviour):
    """A leaf for py_trees' parser; never ticked: the stand-in tree is rebuilt first."""

    def __init__(self, name: str, behaviour_class_name: str | None = None, **kwargs: str):
        super().__init__(name=name, behaviour_class_name=behaviour_class_name)
        self.record(kwargs)

    def update(self) -> Status:
        """Never ticked."""
        return Status.INVALID


class _DecoratorStandIn(_Recorder, py_trees.decorators.PassThrough):
    """A decorator for py_trees' parser (see :class:`_StandIn`)."""

    def __init__(
        self, name: str, child: Behaviour, behaviour_class_name: str | None = None, **kwargs: str
    ):
        super().__init__(name=name, child=child, behaviour_class_name=behaviour_class_name)
        self.record(kwargs)


class _CompositeStandIn(_Recorder, py_trees.composites.Sequence):
    """A composite for py_trees' parser (see :class:`_StandIn`)."""

    def __init__(
        self,
        name: str,
        children: list[Behaviour],
        behaviour_class_name: str | None = None,
        **kwargs: str,
    ):
        super().__init__(
            name=name, memory=True, children=children, behaviour_class_name=behaviour_class_name
        )
        self.record(kwargs)


_STAND_IN_BASES: dict[str, type[_Recorder]] = {
    "leaf": _StandIn,
    "decorator": _DecoratorStandIn,
    "composite": _CompositeStandIn,
}


def _stand_in_class(node_type: NodeType, script_keys: tuple[str, ...] = ()) -> type[_Recorder]:
    """A PortsMixin class declaring the type's parameters and ports (not registered).

    ``script_keys`` are the attributes the loader added for the names its scripts use.
    """
    names = [p.name for p in node_type.parameters] + list(script_keys)
    inputs = {name: PortInformation(data_type=object, required=False) for name in names}
    inputs.update(
        {
            p.name: PortInformation(data_type=object, required=False)
            for p in node_type.ports
            if p.direction != "output"
        }
    )
    outputs = {
        p.name: PortInformation(data_type=object, required=False)
        for p in node_type.ports
        if p.direction == "output"
    }

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(INPUT_PORTS=inputs, OUTPUT_PORTS=outputs)

    base = _STAND_IN_BASES[node_type.kind]
    made: type[_Recorder] = types.new_class(node_type.tag, (base,), {"register": False}, body)
    return made


def _prepare_for_py_trees(document: XmlDocument, registry: NodeRegistry) -> None:
    """Make the checked document one py_trees' parser reads the way BT.CPP means it.

    A ``<SubTree _autoremap="true">`` passes each of its ports an entry of the same name; an
    entry parameter given as a name becomes its catalogue key or ``{name}``; each tree entry
    a node's scripts use becomes an attribute ``cogtree-key-NAME="{NAME}"``, so py_trees
    resolves it in the subtree's namespace; BT.CPP's and Groot2's ``_`` attributes are
    removed (the builder reads the conditions from the sites).
    """
    trees = document.trees()
    for element, site in document.sites.items():
        if element.tag == SUBTREE and site.attributes.get("_autoremap", "").lower() == "true":
            for port in sorted(subtree_ports(trees[element.get("ID", "")], registry)):
                element.attrib.setdefault(port, f"{{{port}}}")
        node_type = registry.types.get(element.tag)
        if node_type is not None:
            for name in entry_parameters(node_type):
                value = element.get(name)
                if value and not value.startswith(("/", "{")):
                    spec = catalogue_names().get(value)
                    element.set(name, spec.name if spec is not None else f"{{{value}}}")
            for name in sorted(script_entry_names(element, node_type)):
                element.set(f"{KEY_ATTRIBUTE}{name}", f"{{{name}}}")
        for attribute in [a for a in element.attrib if a.startswith("_")]:
            del element.attrib[attribute]


def _mark_sites(document: XmlDocument, registry: NodeRegistry) -> list[Site]:
    """Number the sites of registry nodes, and note the number on each element."""
    sites: list[Site] = []
    for element, site in document.sites.items():
        if element.tag in registry:
            element.set(SITE_ATTRIBUTE, str(len(sites)))
            sites.append(site)
    return sites


def _parse_with_py_trees(
    document: XmlDocument,
    tree_id: str,
    registry: NodeRegistry,
    arguments: Mapping[str, str],
) -> Behaviour:
    used = {element.tag for element in document.sites}
    stand_ins = {tag: _stand_in_class(registry[tag]) for tag in used if tag in registry}
    for element in document.sites:
        script_keys = tuple(sorted(a for a in element.attrib if a.startswith(KEY_ATTRIBUTE)))
        if script_keys and element.tag in registry:
            own_tag = f"{element.tag}.{element.get(SITE_ATTRIBUTE)}"
            stand_ins[own_tag] = _stand_in_class(registry[element.tag], script_keys)
            element.tag = own_tag
    with tempfile.TemporaryDirectory(prefix="cogtree-xml-") as folder:
        merged = Path(folder) / "tree.xml"
        ET.ElementTree(document.root).write(merged, encoding="utf-8")
        try:
            return parse_behaviour_tree_xml(
                str(merged),
                main_tree_id=tree_id,
                # as partials: py_trees reads a class's type hints from every base's __init__ (an
                # inspect.signature each), a partial's from the one it calls, the stand-in's: the
                # same hints for what reaches it (a child, the site number), in half the time
                node_registry={tag: partial(stand_in) for tag, stand_in in stand_ins.items()},
                input_mappings=dict(arguments) or None,
            )
        except Exception as error:  # py_trees raises many kinds; name the file
            raise XmlTreeError(
                f"{document.file}: py_trees' XML parser refused tree {tree_id}: {error}"
            ) from error


class _Builder:
    """Turns the stand-in tree into the real one."""

    def __init__(self, registry: NodeRegistry, sites: list[Site]) -> None:
        self.registry = registry
        self.sites = sites
        self.connections: dict[str, tuple[Site, Port]] = {}

    def build(self, stand_in: Behaviour) -> Behaviour:
        assert isinstance(stand_in, _Recorder), "every tag of the registry has a stand-in"
        children = [self.build(child) for child in stand_in.children]
        site = self.sites[int(stand_in.xml_attributes[SITE_ATTRIBUTE])]
        node_type = self.registry[site.tag]
        resolved = stand_in.resolved
        arguments = {
            name: self._argument(site, node_type, name, key)
            for name, key in resolved.items()
            if node_type.parameter(name) is not None
        }
        script_keys = {
            name.removeprefix(KEY_ATTRIBUTE): key
            for name, key in resolved.items()
            if name.startswith(KEY_ATTRIBUTE)
        }
        settings = {"keys": script_keys} if "keys" in node_type.not_in_xml else {}
        conditions = {
            CONDITION_ATTRIBUTES[attribute]: text
            for attribute, text in site.attributes.items()
            if attribute in CONDITION_ATTRIBUTES
        }
        try:
            node = node_type.build(site.name, arguments, children, **settings)
        except Exception as error:  # a constructor's refusal, with its site
            raise site.error(f"{node_type.tag} could not be built: {error}") from error
        for name, key in resolved.items():
            port = node_type.port(name)
            if port is not None:
                self._remap(node, site, port, self._port_target(site, port, key))
        if conditions:
            name = f"{node.name} (conditions)"
            return PrePostConditions(node, name=name, keys=script_keys, **conditions)
        return node

    def _argument(self, site: Site, node_type: NodeType, name: str, key: str) -> Any:
        """A parameter's value: a constant, or for an entry parameter the key it resolved to."""
        parameter = node_type.parameter(name)
        if parameter is not None and parameter.annotation is BlackboardEntry:
            return decode_const_value(key) if CONST_PREFIX in key else key
        return self._constant(site, node_type, name, key)

    def _constant(self, site: Site, node_type: NodeType, name: str, key: str) -> Any:
        parameter = node_type.parameter(name)
        assert parameter is not None
        written = site.attributes.get(name, "")
        if CONST_PREFIX not in key:
            raise site.error(
                f"port {name!r} is a constant, but {written} is the blackboard key {key}, "
                "which has no value until the tree runs",
                f"give a value, or declare {written} on the <BehaviorTree> with a default "
                "or pass it in the <SubTree> tag",
            )
        value = decode_const_value(key)
        try:
            return parse_value(value, parameter.annotation)
        except ValueError as problem:
            via = f" (from {written})" if written != value else ""
            raise site.error(
                f"port {name!r} has the wrong type{via}: {problem}",
                f"{name} takes {parameter.form}",
            ) from None

    def _port_target(self, site: Site, port: Port, key: str) -> str:
        if CONST_PREFIX not in key:
            return key
        value = decode_const_value(key)
        if not value.startswith("/"):
            raise site.error(
                f"port {port.name!r} is a blackboard key, but it was given the value {value!r}",
                f"pass a key reference such as {{name}}, or an absolute key like "
                f'"{port.spec.name}"',
            )
        return value

    def _remap(self, node: Behaviour, site: Site, port: Port, target: str) -> None:
        self._check_type(site, port, target)
        for client in node.blackboards:
            for key in sorted(client.read | client.write | client.exclusive):
                if _spec_of(key) == port.spec:
                    _remap_key(client, key, target)

    def _check_type(self, site: Site, port: Port, target: str) -> None:
        catalogued = _spec_of(target)
        if catalogued is not None and catalogued.type != port.spec.type:
            raise site.error(
                f"port {port.name!r} has the wrong type: it carries "
                f"{type_label(port.spec.type)}, but {target} holds {type_label(catalogued.type)} "
                "(behaviours/keys.py)",
                "connect it to a key of the same type",
            )
        earlier = self.connections.setdefault(target, (site, port))
        if earlier[1].spec.type != port.spec.type:
            other_site, other = earlier
            raise site.error(
                f"port {port.name!r} has the wrong type: it carries {type_label(port.spec.type)}, "
                f"but {target} is also port {other.name!r} of {other_site.describe()} at "
                f"{other_site.file}:{other_site.line}, which carries {type_label(other.spec.type)}",
                "connect ports of the same type",
            )


def _spec_of(key: str) -> keys.KeySpec | None:
    try:
        return keys.spec_for(key)
    except KeyError:
        return None


def _remap_key(client: py_trees.blackboard.Client, key: str, target: str) -> None:
    """Point ``client``'s ``key`` at ``target``, keeping its access and required flag."""
    modes = [
        access
        for access, held in (
            (Access.READ, key in client.read),
            (Access.WRITE, key in client.write),
            (Access.EXCLUSIVE_WRITE, key in client.exclusive),
        )
        if held
    ]
    required = key in client.required
    client.unregister_key(key, clear=False)
    for access in modes:
        client.register_key(key, access, required=required, remap_to=target)
