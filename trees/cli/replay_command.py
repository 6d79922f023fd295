"""``cogtree replay LOG``: re-render a tick log, one compact line per tick or tick by tick."""

from __future__ import annotations

import argparse
import sys

from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.errors import CLIError
from cogtree.trees.recording.compact_ticks import CompactTicks
from cogtree.trees.recording.replay import Replay


def add_replay_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``replay`` to the ``cogtree`` subcommands."""
    replay = add_subcommand(commands, "replay")
    replay.add_argument("log", help="a tick log written by `cogtree tick --log`")
    replay.add_argument("--tick", type=int, metavar="N", help="show only tick N (the full tree)")
    replay.add_argument(
        "--full",
        action="store_true",
        help="print the whole tree at every tick (default: one compact line per tick, "
        "identical waiting ticks folded)",
    )


def run_replay(args: argparse.Namespace) -> int:
    """Print the log's ticks: one (``--tick``), all in full (``--full``) or compact."""
    replay = Replay(args.log)
    if not replay.ticks:
        raise CLIError(f"{args.log} holds a header but no ticks")
    if args.tick is not None:
        if not 1 <= args.tick <= len(replay.ticks):
            raise CLIError(f"--tick {args.tick}: the log has ticks 1..{len(replay.ticks)}")
        print(replay.render(args.tick - 1))
        return 0
    print(f"replaying {args.log}: tree {replay.header.tree}, {len(replay.ticks)} ticks")
    if args.full:
        for frame in replay:
            print(frame)
        return 0
    compact = CompactTicks(sys.stdout)
    for index in range(len(replay.ticks)):
        entry = replay.at(index)  # may rebuild the tree: read the root after it
        compact(replay.root, entry)
    compact.flush()
    return 0
