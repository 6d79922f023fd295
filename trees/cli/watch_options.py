"""``--show-ticks [compact]`` and ``--view [PORT]``: the watch options of the run commands.

``cogtree tick``, ``run``, ``chat`` and ``ask`` share these options (see
:func:`add_watch_arguments`); :func:`watch_from_args` turns them into a
:class:`~trees.viewer.tick_watch.TickWatch`, the runner's ``on_tick``.

With ``--view`` a local web viewer (:mod:`trees.viewer`) shows the tree live while it runs;
its address is printed on stderr. When the run is over (:func:`linger`) the viewer keeps
serving until Enter or Ctrl-C if stdin is a terminal, or until Ctrl-C with ``--view-wait``;
otherwise (scripts, CI: no terminal) it stops with the command, so nothing waits for a
keypress nobody can give.
"""

from __future__ import annotations

import argparse
import sys
import threading

from cogtree.trees.cli.arg_types import positive_int
from cogtree.trees.cli.signals import signals_stop
from cogtree.trees.viewer import DEFAULT_KEEP
from cogtree.trees.viewer.tick_watch import TickWatch

SHOW_TICKS_MODES = ("full", "compact")


def add_watch_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--show-ticks [full|compact]`` and the ``--view`` options to a run command."""
    parser.add_argument(
        "--show-ticks",
        nargs="?",
        const="full",
        choices=SHOW_TICKS_MODES,
        metavar="compact",
        help="print the tree every tick; `--show-ticks compact`: one line per tick with the "
        "visited path and the decisions",
    )
    parser.add_argument(
        "--view",
        nargs="?",
        const=0,
        type=port_number,
        metavar="PORT",
        help="watch the tree in a web browser while it runs (on localhost; PORT defaults to "
        "a free one; the address is printed)",
    )
    parser.add_argument(
        "--view-host",
        default="127.0.0.1",
        metavar="HOST",
        help="address the viewer listens on (default 127.0.0.1; anything else exposes the "
        "tree and its blackboard to the network, without authentication)",
    )
    parser.add_argument(
        "--view-keep",
        type=positive_int,
        default=DEFAULT_KEEP,
        metavar="N",
        help=f"ticks the viewer keeps for scrubbing back (default {DEFAULT_KEEP})",
    )
    parser.add_argument(
        "--view-wait",
        action="store_true",
        help="after the run, keep the viewer up until Ctrl-C even without a terminal",
    )


def watch_from_args(args: argparse.Namespace, tree_name: str = "") -> TickWatch:
    """The watch that :func:`add_watch_arguments`' options ask for, for ``tree_name``."""
    return TickWatch(
        show_ticks=args.show_ticks,
        view_port=args.view,
        view_host=args.view_host,
        view_keep=args.view_keep,
        view_wait=args.view_wait,
        tree_name=tree_name,
    )


def linger(watch: TickWatch) -> None:
    """After the run: keep the viewer serving while someone can look (see the module)."""
    server = watch.finish()
    if server is None:
        return
    interactive = sys.stdin is not None and sys.stdin.isatty()
    if not (interactive or watch.view_wait):
        return
    stop = "Enter or Ctrl-C stops it" if interactive else "Ctrl-C stops it"
    print(f"viewer: the run is over; still at {server.url} ({stop})", file=watch.notices)
    try:
        if interactive:
            input()
        else:  # also stops when started with SIGINT ignored (a background job of a script)
            stopped = threading.Event()
            with signals_stop(stopped):
                stopped.wait()
    except (EOFError, KeyboardInterrupt):
        pass
    print(file=watch.notices)


def port_number(text: str) -> int:
    """A TCP port, 0..65535 (0 picks a free one); argparse reports anything else."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0 picks a free one), not {port}")
    return port
