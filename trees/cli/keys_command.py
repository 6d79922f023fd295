"""``cogtree keys``: the blackboard contract, with the node types that declare each key."""

from __future__ import annotations

import argparse

from cogtree.behaviours import keys
from cogtree.trees.bt_xml.node_registry import default_registry
from cogtree.trees.cli.commands import add_subcommand


def add_keys_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``keys`` to the ``cogtree`` subcommands."""
    add_subcommand(commands, "keys")


def run_keys(args: argparse.Namespace) -> int:
    """Print the catalogue of ``behaviours/keys.py`` as a Markdown table."""
    declared_by = {node.tag: keys.declared(node.cls) for node in default_registry()}
    print(keys.catalogue_markdown(declared_by))
    return 0
