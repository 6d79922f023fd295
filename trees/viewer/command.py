"""``cogtree view LOG``: replay a tick log in the web viewer, scrubbing back and forth.

The viewer serves on localhost (``--port``, default a free one) until Ctrl-C, prints its
address, and opens a browser when the machine has a display (not over SSH, not with
``--no-browser``). On a robot, forward the port instead: ``ssh -L 8765:localhost:8765 robot``
then ``cogtree view LOG --port 8765`` there and open http://localhost:8765/ here.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import webbrowser

from trees.tick_watch import port_number
from trees.viewer.feed import TickFeed
from trees.viewer.server import ViewerServer, is_loopback


def add_view_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``view`` to the ``cogtree`` subcommands."""
    view = commands.add_parser(
        "view",
        help="replay a tick log in the web viewer (tree, timeline, why each gate decided)",
        epilog="example: cogtree view run.jsonl --port 8765 --no-browser",
    )
    view.add_argument("log", help="a tick log written with --log")
    view.add_argument(
        "--port", type=port_number, default=0, help="port to serve on (default: a free one)"
    )
    view.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; anything else exposes the log to the "
        "network, without authentication)",
    )
    view.add_argument(
        "--no-browser", action="store_true", help="only print the address, open no browser"
    )


def run_view(args: argparse.Namespace) -> int:
    """Serve the log until Ctrl-C; 0 when stopped, 2 (via main) when the log is unreadable."""
    feed = TickFeed.from_log(args.log)
    if not is_loopback(args.host):
        print(
            f"cogtree: warning: the viewer listens on {args.host}: anyone who can reach it "
            "sees the log (there is no login)",
            file=sys.stderr,
        )
    with ViewerServer(feed, host=args.host, port=args.port) as server:
        index = feed.index(limit=0)
        held = f"ticks {index.first}..{index.last}" if index.last is not None else "no ticks"
        print(f"viewer: {server.url} ({args.log}: {feed.tree}, {held}); Ctrl-C stops it")
        sys.stdout.flush()
        if not args.no_browser and has_display():
            webbrowser.open(server.url)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("viewer: stopped")
    return 0


def has_display() -> bool:
    """True when a graphical browser can open here (a desktop session, not SSH alone)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
