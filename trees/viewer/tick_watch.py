"""Watching a run: the tree printed each tick (full or compact) and a live web viewer.

:class:`TickWatch` is a runner's ``on_tick`` for those; the command line's options for it are
in :mod:`trees.cli.watch_options`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

import py_trees

from cogtree.knowledge.closing import Closeable
from cogtree.trees.recording.display import render_tick
from cogtree.trees.recording.tick_log import TickEntry
from cogtree.trees.viewer import DEFAULT_KEEP

if TYPE_CHECKING:
    from cogtree.trees.recording.compact_ticks import CompactTicks
    from cogtree.trees.viewer.feed import TickFeed
    from cogtree.trees.viewer.server import ViewerServer


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
        self.compact: CompactTicks | None = None
        if show_ticks == "compact":
            # the compact lines (they read the tick's snapshot) are imported when asked for
            from cogtree.trees.recording.compact_ticks import CompactTicks

            self.compact = CompactTicks(self.out)
        self.full = show_ticks == "full"
        self.feed: TickFeed | None = None
        self.server: ViewerServer | None = None
        if view_port is not None:
            # the viewer (its models, its web server) is imported only when a run asks for it
            from cogtree.trees.viewer.feed import TickFeed
            from cogtree.trees.viewer.server import ViewerServer, warn_if_exposed

            warn_if_exposed(view_host, self.notices)
            self.feed = TickFeed(view_keep, tree_name=tree_name)
            self.server = ViewerServer(self.feed, host=view_host, port=view_port)
            print(f"viewer: {self.server.url} (live)", file=self.notices, flush=True)

    def on_tick(self, root: py_trees.behaviour.Behaviour, entry: TickEntry) -> None:
        """Show one tick everywhere asked for (a runner's ``on_tick``)."""
        if self.full:
            print(render_tick(root, entry), file=self.out)
        if self.compact is not None:
            self.compact(root, entry)
        if self.feed is not None:
            self.feed.on_tick(root, entry)

    def finish(self) -> ViewerServer | None:
        """The run is over: print what is pending, mark the feed finished; the server if any."""
        if self.compact is not None:
            self.compact.flush()
        if self.server is None or self.feed is None:
            return None
        self.feed.finish()
        return self.server

    def close(self) -> None:
        """Print what is pending and stop the viewer."""
        if self.compact is not None:
            self.compact.flush()
        if self.server is not None:
            self.server.close()
