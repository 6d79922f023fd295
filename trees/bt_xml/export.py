"""Write a tree back as BehaviorTree.CPP v4 XML that Groot2 opens, and prove it reloads.

Each node becomes the tag of its class in the node registry, with its name, the parameters
that differ from their defaults (read from the node's attributes) and its remapped ports (as
absolute keys); a :class:`~behaviours.btcpp.conditions.PrePostConditions` decorator becomes
the ``_skipIf``/``_onSuccess``/... attributes of its child. The file ends with the
``<TreeNodesModel>`` of the cogtree nodes it uses (Groot2 knows BT.CPP's built-ins). Subtrees
are written inline, in one ``<BehaviorTree>``.

:func:`export_tree` reloads what it wrote and compares it with the tree
(:func:`~trees.bt_xml.tree_twins.tree_differences`): a tree XML cannot say exactly is an
:class:`ExportError` naming the difference, never a file that builds another tree.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from py_trees.behaviour import Behaviour

from cogtree.behaviours.btcpp.conditions import ATTRIBUTES as CONDITION_ATTRIBUTES
from cogtree.behaviours.btcpp.conditions import PrePostConditions
from cogtree.trees.bt_xml.loader import load_xml_tree
from cogtree.trees.bt_xml.node_catalogue import BTCPP_BUILTINS, tree_nodes_model
from cogtree.trees.bt_xml.node_notes import EXPORT_ATTRIBUTES
from cogtree.trees.bt_xml.node_registry import default_registry
from cogtree.trees.bt_xml.node_types import NodeRegistry, NodeType
from cogtree.trees.bt_xml.tree_twins import tree_differences
from cogtree.trees.bt_xml.values import format_default, key_port_names, parse_value
from cogtree.trees.loading import TreeLoadError

_MISSING = object()


class ExportError(TreeLoadError):
    """A tree that BT.CPP XML cannot write exactly; the message names the node and why."""


def export_tree(
    root: Behaviour, tree_id: str = "Main", registry: NodeRegistry | None = None
) -> str:
    """``root`` as BT.CPP v4 XML (with its Groot2 models), checked to rebuild the same tree."""
    registry = registry or default_registry()
    by_class = {node_type.cls: node_type for node_type in registry}
    used: dict[str, NodeType] = {}
    document = ET.Element("root", BTCPP_format="4", main_tree_to_execute=tree_id)
    tree = ET.SubElement(document, "BehaviorTree", ID=tree_id)
    tree.append(_element(root, by_class, used))
    cogtree_nodes = [used[tag] for tag in sorted(used) if tag not in BTCPP_BUILTINS]
    document.append(tree_nodes_model(cogtree_nodes))
    ET.indent(document, space="  ")
    text = '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(document, "unicode") + "\n"
    differences = tree_differences(root, load_xml_tree(text, registry=registry))
    if differences:
        raise ExportError(
            f"the XML of {root.name} would build another tree: {differences[0]}"
            + (f" (and {len(differences) - 1} more)" if len(differences) > 1 else "")
        )
    return text


def _element(
    node: Behaviour, by_class: dict[type[Behaviour], NodeType], used: dict[str, NodeType]
) -> ET.Element:
    if isinstance(node, PrePostConditions):
        element = _element(node.decorated, by_class, used)
        for attribute, setting in CONDITION_ATTRIBUTES.items():
            if setting in node.scripts:
                element.set(attribute, node.scripts[setting])
        return element
    node_type = by_class.get(type(node))
    if node_type is None:
        raise ExportError(
            f"{node.name}: no XML tag builds {type(node).__module__}.{type(node).__qualname__}"
        )
    used[node_type.tag] = node_type
    element = ET.Element(node_type.tag, name=node.name)
    for parameter in node_type.parameters:
        value = _parameter_value(node, node_type, parameter.name, parameter.argument)
        if value is not _MISSING and not _writable(value, parameter.annotation):
            value = _MISSING  # the attribute holds something else: the default, if verified
        if value is _MISSING:
            if parameter.required:
                raise ExportError(
                    f"{node.name}: the value of {node_type.tag}'s parameter {parameter.name} "
                    "cannot be read from the node"
                )
            continue
        if parameter.required or value != parameter.default:
            element.set(parameter.name, format_default(value))
    for port_name, target in _remapped_ports(node):
        element.set(port_name, target)
    for child in node.children:
        element.append(_element(child, by_class, used))
    return element


def _parameter_value(node: Behaviour, node_type: NodeType, name: str, argument: str) -> Any:
    attribute = EXPORT_ATTRIBUTES.get(f"{node_type.tag}.{name}", argument or name)
    return getattr(node, attribute, _MISSING)


def _writable(value: Any, annotation: Any) -> bool:
    """Whether ``value`` written as XML reads back as itself."""
    try:
        return bool(parse_value(format_default(value), annotation) == value)
    except ValueError:
        return False


def _remapped_ports(node: Behaviour) -> list[tuple[str, str]]:
    """(port, key) for each catalogue key the node reads or writes somewhere else."""
    names = {spec: name for name, spec in key_port_names().items()}
    found = []
    for client in node.blackboards:
        for key, target in sorted(client.remappings.items()):
            spec = next((s for s in names if s.matches(key)), None)
            if spec is not None and target != key:
                found.append((names[spec], target))
    return sorted(set(found))
