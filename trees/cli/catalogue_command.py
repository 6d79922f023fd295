"""``cogtree catalogue``: print, write or check the node catalogue generated from the registry.

::

    cogtree catalogue                                  # the Markdown page on stdout
    cogtree catalogue --format groot --output my.xml   # Groot2 models file
    cogtree catalogue --update                         # rewrite the checked-in files
    cogtree catalogue --format modules                 # the XML loader's index of modules
    cogtree catalogue --check                          # CI: exit 1 with a diff when stale
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Any

from cogtree.trees.bt_xml.node_catalogue import CatalogueFormat, render_catalogue
from cogtree.trees.bt_xml.node_registry import default_registry
from cogtree.trees.cli.commands import add_subcommand

DOCS = Path(__file__).resolve().parents[2] / "docs"
CHECKED_IN: dict[CatalogueFormat, Path] = {
    "markdown": DOCS / "node_catalogue.md",
    "groot": DOCS / "cogtree_nodes.xml",
    "modules": Path(__file__).resolve().parents[1] / "bt_xml" / "node_modules.py",
}
"""The catalogue files kept in the repository, by format."""


def add_catalogue_parser(commands: Any) -> None:
    """Add the ``catalogue`` subcommand to ``cogtree``'s subparsers."""
    catalogue = add_subcommand(commands, "catalogue")
    catalogue.add_argument(
        "--format",
        choices=("markdown", "groot", "modules"),
        help="markdown (default), groot (a BTCPP v4 TreeNodesModel file) or modules (the XML "
        "loader's index of the module defining each node type)",
    )
    action = catalogue.add_mutually_exclusive_group()
    action.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    action.add_argument(
        "--update",
        action="store_true",
        help=f"rewrite the checked-in files ({_listed()})",
    )
    catalogue.add_argument(
        "--check",
        action="store_true",
        help="compare with the checked-in files (or --output FILE); exit 1 with a diff when stale",
    )


def run_catalogue(args: argparse.Namespace) -> int:
    """Print, write or check the catalogue; 1 when ``--check`` finds a stale file."""
    if args.check and args.update:
        print("cogtree: error: --check compares, --update rewrites: give one", file=sys.stderr)
        return 2
    targets = _targets(args)
    registry = default_registry()
    if args.check:
        stale = [_stale(path, render_catalogue(registry, kind)) for kind, path in targets]
        problems = [problem for problem in stale if problem]
        for problem in problems:
            print(problem)
        if not problems:
            print(f"up to date: {', '.join(str(path) for _, path in targets)}")
        return 1 if problems else 0
    if not args.output and not args.update:
        print(render_catalogue(registry, args.format or "markdown"), end="")
        return 0
    for kind, path in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_catalogue(registry, kind), encoding="utf-8")
        print(f"wrote {path}")
    return 0


def _targets(args: argparse.Namespace) -> list[tuple[CatalogueFormat, Path]]:
    """Which formats go to (or are checked against) which files."""
    if args.output:
        path = Path(args.output)
        return [(args.format or _format_of(path), path)]
    if args.format:
        return [(args.format, CHECKED_IN[args.format])]
    return list(CHECKED_IN.items())


def _stale(path: Path, fresh: str) -> str:
    """Empty when ``path`` holds ``fresh``; otherwise what differs and how to fix it."""
    fix = f"regenerate it: cogtree catalogue --format {_format_of(path)} --output {path}"
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return f"{path} does not exist; {fix}"
    if current == fresh:
        return ""
    diff = difflib.unified_diff(
        current.splitlines(keepends=True),
        fresh.splitlines(keepends=True),
        fromfile=f"{path} (checked in)",
        tofile=f"{path} (generated)",
    )
    if path in CHECKED_IN.values():
        fix += " (or both: cogtree catalogue --update)"
    return f"{path} is stale; {fix}\n{''.join(diff)}"


def _format_of(path: Path) -> CatalogueFormat:
    """The format a file's suffix says: ``.xml`` groot, ``.py`` modules, else markdown."""
    if path.suffix == ".xml":
        return "groot"
    return "modules" if path.suffix == ".py" else "markdown"


def _listed() -> str:
    return " and ".join(str(path.relative_to(DOCS.parent)) for path in CHECKED_IN.values())
