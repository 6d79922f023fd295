"""Check an XML tree against the node registry before py_trees' parser builds it.

py_trees' parser reports problems without a line, and some (an unknown attribute, a value
of the wrong type) not at all. These checks run first, on the line-aware document, so every
mistake is reported with its file, line, node and attribute, and how to fix it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping

from cogtree.behaviours.btcpp.conditions import ATTRIBUTES as CONDITION_ATTRIBUTES
from cogtree.trees.bt_xml.document import MAX_DEPTH, Site, XmlDocument
from cogtree.trees.bt_xml.node_types import NodeRegistry, NodeType
from cogtree.trees.bt_xml.scripts import (
    GROOT_ATTRIBUTES,
    check_scripts,
    is_script,
    script_entry_names,
)
from cogtree.trees.bt_xml.values import did_you_mean, parse_value

SUBTREE = "SubTree"
REFERENCE = re.compile(r"^\{(?P<key>[^{}]+)\}$")
"""``{key}``: a blackboard entry of the tree, remapped through subtrees."""

TOP_LEVEL = ("BehaviorTree", "TreeNodesModel")
"""What ``<root>`` may hold (includes are already inlined; Groot's models are ignored)."""

BTCPP_NAMES = {"SubTreePlus": "SubTree"}
"""BehaviorTree.CPP tags and the cogtree tag that does the same (error hints only)."""


def check_document(
    document: XmlDocument,
    registry: NodeRegistry,
    main_tree_id: str | None = None,
    arguments: Mapping[str, str] | None = None,
) -> str:
    """Raise :class:`XmlTreeError` at the first problem; return the ID of the tree to build."""
    root_site = document.site(document.root)
    if document.root.tag != "root":
        raise root_site.error(
            "an XML tree file starts with <root>", 'wrap the trees in <root BTCPP_format="4">'
        )
    for element in document.root:
        if element.tag not in TOP_LEVEL:
            raise document.site(element).error(
                f"unexpected <{element.tag}> at the top level",
                "the top level holds <BehaviorTree ID=...> and <include path=...> elements",
            )
    trees = document.trees()
    chosen = document.main_tree_id(main_tree_id)
    for tree in trees.values():
        _check_tree(document, tree, registry, trees)
    _check_arguments(document, trees[chosen], arguments or {})
    _check_nesting(document, trees, chosen, ("", 1), {})
    return chosen


def is_reference(value: str) -> bool:
    """Whether ``value`` is a ``{key}`` reference (malformed braces are an error elsewhere)."""
    return REFERENCE.match(value) is not None


def _check_tree(
    document: XmlDocument,
    tree: ET.Element,
    registry: NodeRegistry,
    trees: Mapping[str, ET.Element],
) -> None:
    site = document.site(tree)
    for attribute, value in tree.attrib.items():
        if attribute not in ("ID", "name"):
            _check_braces(site, attribute, value)
    children = list(tree)
    if len(children) != 1:
        raise site.error(
            f"a BehaviorTree holds exactly one root node, not {len(children)}",
            "wrap its nodes in a <Sequence> or <Selector>",
        )
    _check_node(document, children[0], registry, trees)
    check_scripts(document, tree, registry)


def _check_node(
    document: XmlDocument,
    element: ET.Element,
    registry: NodeRegistry,
    trees: Mapping[str, ET.Element],
) -> None:
    site = document.site(element)
    if element.tag == SUBTREE:
        _check_subtree(document, element, trees, registry)
        return
    if element.tag not in registry:
        hint = (
            f"; cogtree calls it {BTCPP_NAMES[element.tag]}"
            if element.tag in BTCPP_NAMES
            else registry.suggest(element.tag)
        )
        raise site.error(
            f"unknown node type {element.tag!r}{hint}",
            "see docs/node_catalogue.md (`cogtree catalogue`) for every node type",
        )
    node_type = registry[element.tag]
    for attribute, value in element.attrib.items():
        if attribute.startswith("_"):
            _check_reserved(site, attribute, CONDITION_ATTRIBUTES)
        elif attribute != "name":
            _check_attribute(site, node_type, attribute, value)
    missing = [p.name for p in node_type.parameters if p.required and p.name not in element.attrib]
    if missing:
        takes = "; ".join(_takes(node_type, name) for name in missing)
        raise site.error(f"missing required port {', '.join(missing)}", f"add it: {takes}")
    _check_children(site, node_type, list(element))
    _check_sibling_names(document, list(element))
    for child in element:
        _check_node(document, child, registry, trees)


def _check_attribute(site: Site, node_type: NodeType, attribute: str, value: str) -> None:
    parameter = node_type.parameter(attribute)
    port = node_type.port(attribute)
    if parameter is None and port is None:
        known = list(node_type.attributes)
        listed = ", ".join(known) or "none besides name"
        raise site.error(
            f"unknown port {attribute!r}{did_you_mean(attribute, known)}",
            f"{node_type.tag} takes: {listed}",
        )
    _check_braces(site, attribute, value)
    if is_reference(value):
        return  # resolved when the tree is built: a subtree port, or a blackboard key
    if parameter is not None and is_script(parameter):
        return  # parsed and checked with the tree's entries by check_scripts
    if parameter is not None:
        try:
            parse_value(value, parameter.annotation)
        except ValueError as problem:
            raise site.error(
                f"port {attribute!r} has the wrong type: {problem}",
                _takes(node_type, attribute),
            ) from None
    elif not value.startswith("/"):
        raise site.error(
            f"port {attribute!r} is a blackboard key, not a value: got {value!r}",
            f'write {attribute}="{{name}}" for an entry of this tree, or an absolute key '
            f'such as {attribute}="{port.spec.name if port else "/turn/utterance"}"',
        )


def _check_reserved(site: Site, attribute: str, allowed: Iterable[str]) -> None:
    """A BT.CPP attribute (``_skipIf``) or one Groot2 adds (``_uid``); others are errors."""
    if attribute in GROOT_ATTRIBUTES or attribute in allowed:
        return
    known = sorted(set(allowed) | GROOT_ATTRIBUTES)
    raise site.error(
        f"unknown attribute {attribute!r}{did_you_mean(attribute, known)}",
        f"attributes starting with _ are BT.CPP's: {', '.join(known)}",
    )


def _takes(node_type: NodeType, name: str) -> str:
    """``robot takes str``: how the value of a parameter is written."""
    parameter = node_type.parameter(name)
    return f"{name} takes {parameter.form if parameter else 'a blackboard key'}"


def _check_braces(site: Site, attribute: str, value: str) -> None:
    if ("{" in value or "}" in value) and not is_reference(value):
        raise site.error(
            f"port {attribute!r}: malformed key reference {value!r}",
            "a reference is the whole value in braces, e.g. {target}",
        )


def _check_children(site: Site, node_type: NodeType, children: list[ET.Element]) -> None:
    if node_type.kind == "decorator" and len(children) != 1:
        raise site.error(
            f"a decorator takes exactly one child, not {len(children)}",
            "wrap several children in a <Sequence>",
        )
    if node_type.kind == "leaf" and children:
        raise site.error(
            f"{node_type.tag} is a leaf and takes no children",
            "put the children in a <Sequence> or <Selector> next to it",
        )


def _check_sibling_names(document: XmlDocument, children: list[ET.Element]) -> None:
    seen: dict[str, Site] = {}
    for child in children:
        site = document.site(child)
        if site.name is None:
            continue
        if site.name in seen:
            first = seen[site.name]
            raise site.error(
                f"a sibling at line {first.line} has the same name {site.name!r}",
                "give each child of a node its own name",
            )
        seen[site.name] = site


def _check_subtree(
    document: XmlDocument,
    element: ET.Element,
    trees: Mapping[str, ET.Element],
    registry: NodeRegistry,
) -> None:
    site = document.site(element)
    subtree_id = element.get("ID")
    if not subtree_id:
        raise site.error("a SubTree needs the ID of the tree it runs", '<SubTree ID="MyTree"/>')
    if subtree_id not in trees:
        raise site.error(
            f"unknown subtree {subtree_id!r}{did_you_mean(subtree_id, list(trees))}",
            f"define <BehaviorTree ID={subtree_id!r}> or include the file that does",
        )
    if len(element):
        raise site.error("a SubTree takes no children", "its nodes are in its BehaviorTree")
    declared = subtree_ports(trees[subtree_id], registry)
    for attribute, value in element.attrib.items():
        if attribute in ("ID", "name"):
            continue
        if attribute.startswith("_"):
            _check_reserved(site, attribute, ("_autoremap",))
            continue
        if attribute not in declared:
            raise site.error(
                f"unknown port {attribute!r} of subtree {subtree_id}"
                f"{did_you_mean(attribute, sorted(declared))}",
                f"its ports: {', '.join(sorted(declared)) or 'none'} (declare one as an "
                f"attribute of <BehaviorTree ID={subtree_id!r}> or use it as {{{attribute}}})",
            )
        _check_braces(site, attribute, value)


def subtree_ports(tree: ET.Element, registry: NodeRegistry) -> set[str]:
    """The ports of a subtree: its tree's attributes, ``{keys}`` and the names of its scripts."""
    ports = {name for name in tree.attrib if name not in ("ID", "name") and name[:1] != "_"}
    for element in tree.iter():
        if element is tree:
            continue
        ports |= script_entry_names(element, registry.types.get(element.tag))
        for value in element.attrib.values():
            found = REFERENCE.match(value)
            if found:
                ports.add(found.group("key"))
    return ports


def _check_arguments(document: XmlDocument, tree: ET.Element, arguments: Mapping[str, str]) -> None:
    declared = sorted(n for n in tree.attrib if n not in ("ID", "name") and n[:1] != "_")
    for name in arguments:
        if name not in declared:
            raise document.site(tree).error(
                f"the tree has no argument {name!r}{did_you_mean(name, declared)}",
                f"its arguments are the attributes of its BehaviorTree: {', '.join(declared)}"
                if declared
                else 'declare it as an attribute with its default, e.g. robot="robot1"',
            )


def _check_nesting(
    document: XmlDocument,
    trees: Mapping[str, ET.Element],
    tree_id: str,
    above: tuple[str, int],
    heights: dict[str, int],
) -> int:
    """The height of ``tree_id`` with its subtrees inlined; raise on a cycle or past MAX_DEPTH.

    ``above`` is the chain of trees that include this one (joined by " -> ") and how deep
    it is included; ``heights`` remembers the trees already measured, so a tree used many
    times is walked once, and the recursion stops :data:`~trees.bt_xml.document.MAX_DEPTH`
    levels down at the latest.
    """
    chain, depth_above = above
    if tree_id in heights:
        return heights[tree_id]
    path = [*chain.split(" -> "), tree_id] if chain else [tree_id]
    height = 0
    stack = [(trees[tree_id], 1)]
    while stack:
        element, depth = stack.pop()
        if element.tag == SUBTREE:
            target = element.get("ID", "")
            route = " -> ".join([*path, target])
            if target in path:
                raise document.site(element).error(
                    f"subtree {target} includes itself ({route})", "a tree cannot contain itself"
                )
            if depth_above + depth > MAX_DEPTH:
                raise document.site(element).error(
                    f"with its subtrees inlined the tree nests more than {MAX_DEPTH} deep "
                    f"({route})",
                    "flatten the chain of subtrees",
                )
            depth += _check_nesting(
                document, trees, target, (" -> ".join(path), depth_above + depth), heights
            )
        height = max(height, depth)
        stack.extend((child, depth + 1) for child in element)
    heights[tree_id] = height
    if depth_above + height > MAX_DEPTH:
        raise document.site(trees[tree_id]).error(
            f"with its subtrees inlined the tree nests more than {MAX_DEPTH} deep",
            "flatten the chain of subtrees",
        )
    return height
