"""Fixtures shared by the evaluation tests."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from cogtree.trees.cli.eval_command import add_eval_parser


@pytest.fixture
def eval_args() -> Callable[..., argparse.Namespace]:
    """Parse ``cogtree eval ARGV...`` as the command line does; gives the namespace."""

    def parse(*argv: str) -> argparse.Namespace:
        parser = argparse.ArgumentParser(prog="cogtree")
        add_eval_parser(parser.add_subparsers(dest="command", required=True))
        return parser.parse_args(["eval", *argv])

    return parse
