"""``cogtree view LOG`` / ``cogtree view --ros [TOPIC]``: the web viewer of a tick log or a robot.

With LOG it replays a tick log, scrubbing back and forth. With ``--ros`` it attaches to a
running ``cogtree ros`` over ROS 2: it subscribes to the host's latched snapshot topic
(default ``/cogtree/tree/snapshot``, on ``--domain-id`` or ``$ROS_DOMAIN_ID``) and shows the
tree live (:class:`~trees.ros.snapshot_source.RosSnapshotSource`; needs the ``ros`` extra,
imported only then).

The viewer serves on localhost (``--port``, default a free one) until Ctrl-C or SIGTERM,
prints its address, and opens a browser when the machine has a display (not over SSH, not
with ``--no-browser``). On a robot, forward the port instead: ``ssh -L 8765:localhost:8765
robot`` then ``cogtree view --ros --port 8765`` there and open http://localhost:8765/ here.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import webbrowser

from cogtree.skills.ros.protocol import DEFAULT_SNAPSHOT_TOPIC
from cogtree.trees.cli.commands import add_subcommand
from cogtree.trees.cli.signals import signals_stop
from cogtree.trees.cli.watch_options import port_number
from cogtree.trees.ros.cli_support import INSTALL_HINT, add_ros_args_option, domain_id
from cogtree.trees.viewer.errors import ViewerError
from cogtree.trees.viewer.feed import TickFeed
from cogtree.trees.viewer.server import ViewerServer, warn_if_exposed

POLL_S = 0.2
"""How often the main loop looks up from waiting to see whether it must stop."""


def add_view_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``view`` to the ``cogtree`` subcommands."""
    view = add_subcommand(
        commands,
        "view",
        description="Replay a tick log (LOG), or follow the tree of a running `cogtree ros` "
        "live over ROS 2 (--ros): the tree, the timeline, and why each gate decided. Give "
        "exactly one of LOG and --ros.",
        epilog="examples: cogtree view run.jsonl --port 8765 --no-browser; "
        "cogtree view --ros --domain-id 42",
    )
    view.add_argument("log", nargs="?", help="a tick log written with --log")
    view.add_argument(
        "--ros",
        nargs="?",
        const=DEFAULT_SNAPSHOT_TOPIC,
        metavar="TOPIC",
        help=f"follow a running `cogtree ros` on its snapshot topic (default "
        f"{DEFAULT_SNAPSHOT_TOPIC}; a host started with --namespace NS publishes on "
        "NS/tree/snapshot); needs the ros extra",
    )
    view.add_argument(
        "--domain-id",
        type=domain_id,
        metavar="N",
        help="with --ros: the ROS_DOMAIN_ID to join (default: $ROS_DOMAIN_ID, else 0); the "
        "host must use the same one",
    )
    view.add_argument(
        "--port", type=port_number, default=0, help="port to serve on (default: a free one)"
    )
    view.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; anything else exposes the tree and its "
        "blackboard to the network, without authentication)",
    )
    view.add_argument(
        "--no-browser", action="store_true", help="only print the address, open no browser"
    )
    add_ros_args_option(
        view, "with --ros: everything after this goes to ROS, e.g. --ros-args --log-level debug"
    )


def run_view(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C or SIGTERM; 0 when stopped, 2 (via main) on a usage error."""
    _check_source(args)
    warn_if_exposed(args.host, sys.stderr)
    stop = threading.Event()
    with signals_stop(stop):
        if args.ros is None:
            _serve_log(args, stop)
        else:
            _serve_ros(args, stop)
    print("viewer: stopped", flush=True)
    return 0


def _check_source(args: argparse.Namespace) -> None:
    """Exactly one of LOG and --ros; the ROS options only with --ros (ViewerError if not)."""
    if args.log is None and args.ros is None:
        raise ViewerError(
            "nothing to show: give a tick log (cogtree view run.jsonl) or --ros [TOPIC] to "
            "follow a running `cogtree ros`"
        )
    if args.log is not None and args.ros is not None:
        raise ViewerError(
            f"give either the tick log {args.log!r} or --ros {args.ros}, not both: the viewer "
            "shows one source"
        )
    if args.ros is None and (args.domain_id is not None or args.ros_args):
        raise ViewerError(
            "--domain-id and --ros-args only apply with --ros; add --ros or drop them"
        )


def _serve_log(args: argparse.Namespace, stop: threading.Event) -> None:
    feed = TickFeed.from_log(args.log)
    with ViewerServer(feed, host=args.host, port=args.port) as server:
        index = feed.index(limit=0)
        held = f"ticks {index.first}..{index.last}" if index.last is not None else "no ticks"
        print(f"viewer: {server.url} ({args.log}: {feed.tree}, {held}); Ctrl-C stops it")
        _open_browser(args, server.url)
        stop.wait()


def _serve_ros(args: argparse.Namespace, stop: threading.Event) -> None:
    try:
        import rclpy  # noqa: F401  (the ros extra, only now)
        import std_msgs.msg  # noqa: F401
    except ImportError as error:
        raise ViewerError(
            f"--ros needs ROS 2's Python client ({error.name} is missing): {INSTALL_HINT}"
        ) from error
    from cogtree.trees.ros.snapshot_source import RosSnapshotSource

    feed = TickFeed(source=f"ROS 2 topic {args.ros}")
    with (
        ViewerServer(feed, host=args.host, port=args.port) as server,
        RosSnapshotSource(
            feed, args.ros, domain_id=args.domain_id, ros_args=args.ros_args
        ) as source,
    ):
        feed.source = f"ROS 2 topic {source.topic}"
        print(f"viewer: {server.url} (live from {source.topic}); Ctrl-C stops it")
        print(
            f"viewer: waiting for the first snapshot on {source.topic} (is `cogtree ros` "
            f"running on domain {source.domain_id}?)",
            flush=True,
        )
        _open_browser(args, server.url)
        while not stop.is_set():
            if source.wait_for_snapshot(POLL_S):
                print(f"viewer: showing {feed.tree} from {source.topic}", flush=True)
                break
        stop.wait()


def _open_browser(args: argparse.Namespace, url: str) -> None:
    sys.stdout.flush()
    if not args.no_browser and has_display():
        webbrowser.open(url)


def has_display() -> bool:
    """True when a graphical browser can open here (a desktop session, not SSH alone)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
