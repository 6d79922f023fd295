"""Watching a run: ``--show-ticks [compact]`` in the terminal and ``--view [PORT]`` in a browser.

``cogtree tick``, ``run``, ``chat`` and ``ask`` share these options (see
:func:`add_watch_arguments`); :class:`TickWatch` turns them into the runner's ``on_tick``.

With ``--view`` a local web viewer (:mod:`trees.viewer`) shows the tree live while it runs;
its address is printed on stderr. When the run is over the viewer keeps serving until Enter
or Ctrl-C if stdin is a terminal, or until Ctrl-C with ``--view-wait``; otherwise (scripts,
CI: no terminal) it stops with the command, so nothing waits for a keypress nobody can give.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import TextIO

import py_trees

from knowledge.closing import Closeable
from trees.cli_types import positive_int
from trees.compact_ticks import CompactTicks
from trees.display import render_tick
from trees.ros_cli import signals_stop
from trees.tick_log import TickEntry
from trees.viewer.feed import DEFAULT_KEEP, TickFeed
from trees.viewer.server import ViewerServer, warn_if_exposed

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


class TickWatch(Closeable):
    """The ``on_tick`` for a run's watch options, and the viewer it may serve.

    Args:
        show_ticks: None, ``full`` (the py_trees status tree) or ``compact`` (one line).
        view_port: serve the viewer on this port (0: a free one); None for no viewer.
        view_host: the address the viewer listens on.
        view_keep: ticks the viewer keeps.
        tree_name: the tree's name in the viewer (the runner's; default the root's name).
        view_wait: keep serving after the run until Ctrl-C, terminal or not.
        out: where ticks and notices are printed (stdout and stderr by default).

    """

    def __init__(
        self,
        *,
        show_ticks: str | None = None,
        view_port: int | None = None,
        view_host: str = "127.0.0.1",
        view_keep: int = DEFAULT_KEEP,
        view_wait: bool = False,
        tree_name: str = "",
        out: TextIO | None = None,
        notices: TextIO | None = None,
    ) -> None:
        self.out = out or sys.stdout
        self.notices = notices or sys.stderr
        self.view_wait = view_wait
        self.compact = CompactTicks(self.out) if show_ticks == "compact" else None
        self.full = show_ticks == "full"
        self.feed: TickFeed | None = None
        self.server: ViewerServer | None = None
        if view_port is not None:
            warn_if_exposed(view_host, self.notices)
            self.feed = TickFeed(view_keep, tree_name=tree_name)
            self.server = ViewerServer(self.feed, host=view_host, port=view_port)
            print(f"viewer: {self.server.url} (live)", file=self.notices, flush=True)

    @classmethod
    def from_args(cls, args: argparse.Namespace, tree_name: str = "") -> TickWatch:
        """The watch that :func:`add_watch_arguments`' options ask for, for ``tree_name``."""
        return cls(
            show_ticks=args.show_ticks,
            view_port=args.view,
            view_host=args.view_host,
            view_keep=args.view_keep,
            view_wait=args.view_wait,
            tree_name=tree_name,
        )

    def on_tick(self, root: py_trees.behaviour.Behaviour, entry: TickEntry) -> None:
        """Show one tick everywhere asked for (a runner's ``on_tick``)."""
        if self.full:
            print(render_tick(root, entry), file=self.out)
        if self.compact is not None:
            self.compact(root, entry)
        if self.feed is not None:
            self.feed.on_tick(root, entry)

    def linger(self) -> None:
        """After the run: keep the viewer serving while someone can look (see the module)."""
        if self.compact is not None:
            self.compact.flush()
        if self.server is None or self.feed is None:
            return
        self.feed.finish()
        interactive = sys.stdin is not None and sys.stdin.isatty()
        if not (interactive or self.view_wait):
            return
        stop = "Enter or Ctrl-C stops it" if interactive else "Ctrl-C stops it"
        print(f"viewer: the run is over; still at {self.server.url} ({stop})", file=self.notices)
        try:
            if interactive:
                input()
            else:  # also stops when started with SIGINT ignored (a background job of a script)
                stopped = threading.Event()
                with signals_stop(stopped):
                    stopped.wait()
        except (EOFError, KeyboardInterrupt):
            pass
        print(file=self.notices)

    def close(self) -> None:
        """Print what is pending and stop the viewer."""
        if self.compact is not None:
            self.compact.flush()
        if self.server is not None:
            self.server.close()


def port_number(text: str) -> int:
    """A TCP port, 0..65535 (0 picks a free one); argparse reports anything else."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0 picks a free one), not {port}")
    return port
