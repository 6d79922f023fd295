"""``--packs DIR`` and ``--domain NAME``: the domain packs a run loads besides the shipped ones.

``cogtree tick``, ``chat`` and ``ask`` share them: :func:`domains_from_args` loads the shipped
packs and those under each ``--packs`` folder (:meth:`DomainRegistry.discover
<knowledge.packs.domain_registry.DomainRegistry.discover>`), says on stderr which were skipped
and why, and the registry becomes the tree's ``domains`` handle.
"""

from __future__ import annotations

import argparse
import sys

from cogtree.knowledge.packs.domain_registry import DomainRegistry


def add_domain_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--packs DIR`` (repeatable) and ``--domain NAME``."""
    parser.add_argument(
        "--packs",
        action="append",
        default=[],
        metavar="DIR",
        help="also load the domain packs in DIR (repeatable)",
    )
    parser.add_argument("--domain", metavar="NAME", help="the pack active at the start")


def domains_from_args(args: argparse.Namespace) -> DomainRegistry:
    """The shipped packs and those ``--packs`` names, ``--domain`` active; skips on stderr."""
    domains = DomainRegistry.discover(args.packs, active=args.domain)
    for problem in domains.problems:
        print(f"cogtree: warning: skipped a domain pack: {problem}", file=sys.stderr)
    return domains
