"""The node catalogue, generated from the registry: a Groot2 models file and a Markdown page.

Both list every node type an XML tree may use with its ports (parameters and blackboard
keys: direction, type, default, meaning); the Markdown page adds what each node means, what
its statuses mean and the handles its ``setup`` needs. A third output is for the XML loader:
the module defining each node type (:mod:`trees.bt_xml.node_modules`), so that loading a tree
imports only the behaviour modules it names. Never edit the outputs by hand:
``cogtree catalogue --update`` rewrites them and ``cogtree catalogue --check`` (CI) fails
when they are stale.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Literal

from cogtree.trees.bt_xml.node_notes import PY_TREES_NODES
from cogtree.trees.bt_xml.node_types import Handle, NodeRegistry, NodeType, Parameter, Port
from cogtree.trees.bt_xml.values import format_default, type_label

CatalogueFormat = Literal["markdown", "groot", "modules"]

CATEGORY_ORDER = ("Action", "Condition", "Decorator", "Control")
CATEGORY_TITLES = {
    "Action": "Actions",
    "Condition": "Conditions",
    "Decorator": "Decorators",
    "Control": "Controls (composites)",
}
BTCPP_BUILTINS = frozenset(
    {
        *("Sequence", "ReactiveSequence", "SequenceWithMemory", "Fallback", "ReactiveFallback"),
        *("Parallel", "ParallelAll", "IfThenElse", "WhileDoElse"),
        *(f"Switch{cases}" for cases in range(2, 7)),
        *("Inverter", "ForceSuccess", "ForceFailure", "Repeat", "RetryUntilSuccessful"),
        *("KeepRunningUntilFailure", "Delay", "Timeout", "RunOnce", "Precondition"),
        *("AlwaysSuccess", "AlwaysFailure", "Sleep", "SetBlackboard", "Script"),
        *("ScriptCondition", "SubTree"),
    }
)
"""BehaviorTree.CPP v4's built-in node IDs: every Groot2 palette has them."""

GENERATED_BY = (
    "Generated from the node registry (trees/bt_xml/node_registry.py) by cogtree catalogue"
)

_ROLE = re.compile(r":(?:class|func|attr|meth|mod):`~?(?:[\w.]*\.)?(?P<name>[\w]+)`")


def render_catalogue(registry: NodeRegistry, kind: CatalogueFormat) -> str:
    """The catalogue in ``kind``: ``markdown``, ``groot`` or ``modules``."""
    if kind == "modules":
        return module_index(registry)
    return groot_models(registry) if kind == "groot" else markdown_catalogue(registry)


def module_index(registry: NodeRegistry) -> str:
    """The Python source of :mod:`trees.bt_xml.node_modules`: each node type's module.

    Every node type but the noted py_trees classes (the registry always has those), by tag.
    """
    noted = {note.cls for note in PY_TREES_NODES}
    entries = sorted((t.tag, t.cls.__module__) for t in registry if t.cls not in noted)
    lines = [
        '"""The module defining each node type of the registry, by tag: the XML loader\'s index.',
        "",
        f"{GENERATED_BY}",
        "(format modules); do not edit: ``cogtree catalogue --update`` rewrites it and",
        "``cogtree catalogue --check`` (CI) fails when it is stale. With it, loading a tree",
        "imports only the modules of the node types the tree names",
        "(:func:`~trees.bt_xml.node_registry.registry_for`), not every behaviour module.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "NODE_MODULES: dict[str, str] = {",
        *(f'    "{tag}": "{module}",' for tag, module in entries),
        "}",
        '"""Tag -> the module of its class, for every node type but the noted py_trees ones."""',
    ]
    return "\n".join(lines) + "\n"


def ordered(registry: NodeRegistry) -> list[NodeType]:
    """Node types by category (actions, conditions, decorators, controls), then by tag."""
    return sorted(registry, key=lambda t: (CATEGORY_ORDER.index(t.category), t.tag))


def groot_models(registry: NodeRegistry) -> str:
    """A Groot2 / BehaviorTree.CPP v4 models file: ``<root><TreeNodesModel>...``.

    Every node type, the BT.CPP built-ins included (as BT.CPP's ``include_builtin`` does).
    """
    root = ET.Element("root", BTCPP_format="4")
    root.append(ET.Comment(f" {GENERATED_BY} (format groot); do not edit. "))
    root.append(tree_nodes_model(ordered(registry)))
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def tree_nodes_model(node_types: Iterable[NodeType]) -> ET.Element:
    """Groot2's ``<TreeNodesModel>`` of ``node_types``: category, ID and ports of each."""
    model = ET.Element("TreeNodesModel")
    for node_type in node_types:
        element = ET.SubElement(model, node_type.category, ID=node_type.tag)
        for parameter in node_type.parameters:
            _groot_port(element, "input_port", parameter.name, parameter.form, parameter)
        for port in node_type.ports:
            _groot_port(element, f"{port.direction}_port", port.name, "", port)
    return model


def _groot_port(
    element: ET.Element, tag: str, name: str, form: str, item: Parameter | Port
) -> None:
    if isinstance(item, Port):
        attributes = {"name": name, "type": type_label(item.spec.type), "default": item.spec.name}
        text = item.spec.meaning
    else:
        attributes = {"name": name, "type": form}
        if not item.required:
            attributes["default"] = format_default(item.default)
        text = item.meaning
    port = ET.SubElement(element, tag, attributes)
    port.text = plain(text)


def markdown_catalogue(registry: NodeRegistry) -> str:
    """The catalogue as a Markdown page: one section per node type."""
    lines = [
        "# Node catalogue",
        "",
        f"<!-- {GENERATED_BY} (format markdown); do not edit: CI checks it is current. -->",
        "",
        "Every node type an XML tree may use (see [Author a tree](authoring_trees.md)). A "
        "tag's attributes are its ports:",
        "",
        "- **parameter**: a constructor argument, a constant fixed when the tree is loaded "
        '(`robot="robot2"`, or `{robot}` for a tree argument or subtree port);',
        "- **input**, **output**, **inout**: a blackboard key the node reads, writes or both. "
        "Left out, it is the key of the blackboard contract (`behaviours/keys.py`, "
        '`cogtree keys`); `port="{name}"` remaps it to an entry of the tree, `port="/a/key"` '
        "to that key.",
        "",
        "*Handles* are not ports: they are given to `setup()` (`TreeRunner(handles=...)`).",
        "The models file for Groot2 is [cogtree_nodes.xml](cogtree_nodes.xml).",
        "",
    ]
    for category in CATEGORY_ORDER:
        members = [t for t in ordered(registry) if t.category == category]
        links = ", ".join(f"[{t.tag}](#{t.tag.lower()})" for t in members)
        lines.append(f"**{CATEGORY_TITLES[category]}**: {links}")
        lines.append("")
    for category in CATEGORY_ORDER:
        lines.extend([f"## {CATEGORY_TITLES[category]}", ""])
        for node_type in (t for t in ordered(registry) if t.category == category):
            lines.extend(_markdown_node(node_type))
    lines.extend(_markdown_unavailable(registry))
    return "\n".join(lines).rstrip() + "\n"


def _markdown_node(node_type: NodeType) -> list[str]:
    needs = ", ".join(_handle(h) for h in node_type.handles) or "none"
    lines = [
        f"### {node_type.tag}",
        "",
        f"`{node_type.class_path}` · {node_type.kind} · needs handles: {needs}",
        "",
        markdown(node_type.summary),
        "",
    ]
    lines.extend(f"- {markdown(sentence)}" for sentence in node_type.statuses)
    if node_type.statuses:
        lines.append("")
    rows = [_parameter_row(p) for p in node_type.parameters]
    rows.extend(_port_row(p) for p in node_type.ports)
    if rows:
        lines.extend(
            ["| port | direction | type | default | description |", "|---|---|---|---|---|"]
        )
        lines.extend(rows)
        lines.append("")
    if node_type.not_in_xml:
        kept = ", ".join(f"`{name}`" for name in node_type.not_in_xml)
        lines.extend([f"Not settable from XML (they keep their defaults): {kept}.", ""])
    return lines


def _parameter_row(parameter: Parameter) -> str:
    default = "*required*" if parameter.required else _code(format_default(parameter.default))
    return _row(
        f"`{parameter.name}`",
        "parameter",
        _code(parameter.form),
        default,
        markdown(parameter.meaning),
    )


def _port_row(port: Port) -> str:
    return _row(
        f"`{port.name}`",
        port.direction,
        _code(type_label(port.spec.type)),
        _code(port.spec.name),
        markdown(port.spec.meaning),
    )


def _markdown_unavailable(registry: NodeRegistry) -> list[str]:
    if not registry.unavailable:
        return []
    lines = [
        "## Not available in XML",
        "",
        "Behaviour classes no tag builds (Python trees can still use them):",
        "",
        "| class | why |",
        "|---|---|",
    ]
    lines.extend(
        _row(f"`{u.cls.__module__}.{u.cls.__qualname__}`", markdown(u.reason))
        for u in registry.unavailable
    )
    lines.append("")
    return lines


def _handle(handle: Handle) -> str:
    detail = "optional" if not handle.required else ""
    if handle.note:
        detail = f"{detail}: {handle.note}" if detail else handle.note
    return f"`{handle.name}`" + (f" ({detail})" if detail else "")


def _row(*cells: str) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _code(text: str) -> str:
    return f"`{text}`" if text else "(empty)"


def markdown(text: str) -> str:
    """Docstring reST made Markdown: ````x```` -> `` `x` ``, ``:class:`~a.B``` -> `` `B` ``."""
    return _ROLE.sub(lambda m: f"`{m.group('name')}`", text).replace("``", "`")


def plain(text: str) -> str:
    """Docstring reST made plain text (for Groot's port descriptions)."""
    return _ROLE.sub(lambda m: m.group("name"), text).replace("``", "")
