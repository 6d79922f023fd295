"""``cogtree render TREE``: print a tree as text, Graphviz dot or BehaviorTree.CPP v4 XML."""

from __future__ import annotations

import argparse
from pathlib import Path

from cogtree.trees.bt_xml.export import export_tree
from cogtree.trees.bt_xml.loader import load_tree_reference
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.recording.display import render_dot, render_text

TREE_HELP = "MODULE:FUNCTION, FILE.py:FUNCTION, or an XML tree FILE.xml[:TREE_ID]"
"""What a tree argument may be (``render`` and ``tick``)."""


def add_render_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``render`` to the ``cogtree`` subcommands."""
    render = add_subcommand(commands, "render")
    render.add_argument("tree", help=TREE_HELP)
    render.add_argument(
        "--format",
        choices=("text", "dot", "xml"),
        default="text",
        help="xml: BehaviorTree.CPP v4 with its Groot2 models, checked to rebuild the same tree",
    )
    render.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")


def run_render(args: argparse.Namespace) -> int:
    """Print (or write) the tree in the format asked for."""
    root = load_tree_reference(args.tree)
    renderers = {"dot": render_dot, "text": render_text, "xml": export_tree}
    text = renderers[args.format](root).rstrip("\n")
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.output}")
    else:
        print(text)
    return 0
