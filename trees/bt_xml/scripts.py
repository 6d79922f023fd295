"""BT.CPP scripts in an XML tree: where they are, the names they use, and the load-time check.

A script is the value of a ``script`` parameter (``<Script code=...>``,
``<Precondition if=...>``) or of a pre/post-condition attribute on any node (``_skipIf``,
``_onSuccess``, ...; :data:`behaviours.btcpp.conditions.ATTRIBUTES`). A name a script reads
must be known when the tree is loaded: an enum value, a catalogue key by its port name
(``reply``), or an entry of its tree: an argument of the ``<BehaviorTree>``, a ``{name}``
used in the tree, a name some script of the tree creates with ``:=``, or the entry of a
``SetBlackboard``. Anything else is an error naming the key and the closest names.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

from cogtree.behaviours.btcpp.conditions import ATTRIBUTES as CONDITION_ATTRIBUTES
from cogtree.behaviours.btcpp.script_nodes import ScriptCode
from cogtree.behaviours.btcpp.script_scope import SCRIPT_ENUMS, BlackboardEntry, catalogue_names
from cogtree.behaviours.btcpp.scripting import ScriptError, ScriptProgram, parse_script
from cogtree.trees.bt_xml.document import Site, XmlDocument
from cogtree.trees.bt_xml.node_types import NodeRegistry, NodeType, Parameter
from cogtree.trees.bt_xml.values import did_you_mean

GROOT_ATTRIBUTES = frozenset({"_description", "_uid", "_fullpath"})
"""Attributes Groot2 writes for its own use; the loader ignores them."""

KEY_ATTRIBUTE = "cogtree-key-"
"""Prefix of the attributes the loader adds so py_trees resolves a script's names to keys."""


def scripts_of(element: ET.Element, node_type: NodeType | None) -> dict[str, str]:
    """The scripts written on ``element``: attribute -> text (conditions and script parameters)."""
    found = {a: v for a, v in element.attrib.items() if a in CONDITION_ATTRIBUTES}
    if node_type is not None:
        for parameter in node_type.parameters:
            if is_script(parameter) and parameter.name in element.attrib:
                found[parameter.name] = element.attrib[parameter.name]
    return found


def is_script(parameter: Parameter) -> bool:
    """Whether ``parameter`` holds a BT.CPP script."""
    return parameter.annotation is ScriptCode


def entry_parameters(node_type: NodeType) -> list[str]:
    """The parameters of ``node_type`` that name a blackboard entry."""
    return [p.name for p in node_type.parameters if p.annotation is BlackboardEntry]


def parse_at(site: Site, attribute: str, text: str) -> ScriptProgram:
    """The script of ``attribute``; a syntax error is an XmlTreeError at ``site``."""
    try:
        return parse_script(text)
    except ScriptError as problem:
        raise site.error(
            f"the script of {attribute!r} does not parse: {problem}",
            "see docs/authoring_trees.md (BT.CPP scripts) for the language",
        ) from None


def tree_entries(document: XmlDocument, tree: ET.Element, registry: NodeRegistry) -> frozenset[str]:
    """The entries of ``tree`` a script may read (see the module docs)."""
    names = {a for a in tree.attrib if a not in ("ID", "name") and not a.startswith("_")}
    for element in _nodes(tree):
        node_type = registry.types.get(element.tag)
        for attribute, value in element.attrib.items():
            if value.startswith("{") and value.endswith("}"):
                names.add(value[1:-1])
            elif (
                node_type is not None
                and attribute in entry_parameters(node_type)
                and not value.startswith("/")
            ):
                names.add(value)
        for attribute, text in scripts_of(element, node_type).items():
            names |= parse_at(document.site(element), attribute, text).created
    return frozenset(names - set(catalogue_names()))


def passed_in(document: XmlDocument, tree: ET.Element, registry: NodeRegistry) -> set[str]:
    """The entries a ``<SubTree>`` of ``tree`` passes in.

    Its ports, and with ``_autoremap`` the entries of the tree that holds it.
    """
    names: set[str] = set()
    for holder in document.trees().values():
        for element in holder.iter("SubTree"):
            if element.get("ID") != tree.get("ID"):
                continue
            names |= {a for a in element.attrib if a not in ("ID", "name") and a[:1] != "_"}
            if element.get("_autoremap", "").lower() == "true" and holder is not tree:
                names |= tree_entries(document, holder, registry)
    return names


def check_scripts(document: XmlDocument, tree: ET.Element, registry: NodeRegistry) -> None:
    """Parse every script of ``tree`` and check the names it reads are known."""
    entries = tree_entries(document, tree, registry) | passed_in(document, tree, registry)
    catalogue = set(catalogue_names())
    known = sorted(entries | catalogue | set(SCRIPT_ENUMS))
    for element in _nodes(tree):
        site = document.site(element)
        for attribute, text in scripts_of(element, registry.types.get(element.tag)).items():
            program = parse_at(site, attribute, text)
            assigned_only = program.assigned - program.created - program.reads
            for name in sorted(program.reads | assigned_only):
                if name not in known:
                    raise site.error(
                        f"the script of {attribute!r} names an unknown key {name!r}"
                        f"{did_you_mean(name, known)}",
                        f"create it first ({name} := ...), declare it as an argument of the "
                        "<BehaviorTree>, or use a key of the catalogue (`cogtree keys`)",
                    )


def script_entry_names(element: ET.Element, node_type: NodeType | None) -> set[str]:
    """The tree entries the scripts of ``element`` use (not enums nor catalogue keys)."""
    names: set[str] = set()
    for text in scripts_of(element, node_type).values():
        names |= parse_script(text).names
    return names - set(SCRIPT_ENUMS) - set(catalogue_names())


def _nodes(tree: ET.Element) -> Iterator[ET.Element]:
    return (element for element in tree.iter() if element is not tree)
