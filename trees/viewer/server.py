"""The viewer's local web server: one page, the py_trees_js scripts, and a small JSON API.

Routes (GET only):

* ``/``: the page; ``/static/<file>``: its script and style sheet (package data);
  ``/py_trees_js/<path>``: py_trees_js and jointjs, read from the installed py-trees-js.
* ``/api/info``: the tree's name, the source (``live`` or the log's path), whether the run
  is over, the first and last tick held.
* ``/api/ticks?since=N&wait=S&limit=M``: the tick index after tick N (see
  :meth:`~trees.viewer.feed.TickFeed.index`); with ``wait`` the request is held up to S
  seconds until a newer tick arrives (long poll).
* ``/api/snapshot?tick=N``: the py_trees_js snapshot of tick N (the newest without N).
* ``/api/story``: the story of the ticks held (:class:`~trees.viewer.story.StoryEntry`:
  turns, gate decisions, plans with their steps' statuses, model calls, what was said).

The server binds to 127.0.0.1 unless told otherwise and then answers only requests whose
``Host`` is a loopback name, so a web page elsewhere cannot read the tree through the
browser (DNS rebinding). The page loads nothing from outside the server (its
Content-Security-Policy says so).
"""

from __future__ import annotations

import gzip
import html
import ipaddress
import json
import logging
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, TextIO
from urllib.parse import parse_qs, urlsplit

from cogtree.knowledge.closing import Closeable
from cogtree.trees.viewer.assets import PyTreesJsAssets, load_assets
from cogtree.trees.viewer.errors import ViewerError
from cogtree.trees.viewer.feed import FeedError, TickFeed

log = logging.getLogger(__name__)

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

STATIC_FILES = {
    "focus.js": "text/javascript",
    "story.js": "text/javascript",
    "viewer.js": "text/javascript",
    "viewer.css": "text/css",
}
"""The page's own files in ``trees/viewer/static/``, with their content types."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"
)
"""Nothing from elsewhere. lodash templates (used by py_trees_js) need ``unsafe-eval``."""

SHUTDOWN_POLL_S = 0.1
"""How often the serving thread checks whether it should stop."""

GZIP_ABOVE = 2048
"""JSON answers longer than this many bytes are gzipped when the browser accepts it."""


class ViewerServer(Closeable):
    """Serves the viewer page for ``feed`` on ``host:port`` from a background thread.

    ``port`` 0 picks a free port; :attr:`url` says which. Raises
    :class:`~trees.viewer.errors.ViewerError` when the address cannot be served (taken,
    unknown host) or py-trees-js is missing.
    """

    def __init__(
        self,
        feed: TickFeed,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        assets: PyTreesJsAssets | None = None,
    ) -> None:
        self.feed = feed
        self.assets = assets or load_assets()
        self.page = _page(self.assets)
        self.loopback_only = is_loopback(host)
        try:
            self._http = ThreadingHTTPServer((host, port), _Handler)
        except (OSError, OverflowError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise ViewerError(
                f"cannot serve the viewer on {host}:{port} ({reason}); choose another port "
                "(0 picks a free one) or host"
            ) from error
        self._http.daemon_threads = True
        self._http.viewer = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(
            target=self._http.serve_forever,
            kwargs={"poll_interval": SHUTDOWN_POLL_S},
            name="cogtree-viewer",
            daemon=True,
        )
        self._thread.start()

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8765/``."""
        host, port = self._http.server_address[:2]
        shown = str(host)
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{port}/"

    def close(self) -> None:
        """Stop serving; requests waiting for a tick are released first."""
        self.feed.finish()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5.0)


def warn_if_exposed(host: str, stream: TextIO) -> None:
    """Say on ``stream`` that a viewer on a non-loopback ``host`` has no login."""
    if not is_loopback(host):
        print(
            f"cogtree: warning: the viewer listens on {host}: anyone who can reach it sees the "
            "tree and its blackboard (there is no login)",
            file=stream,
        )


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _page(assets: PyTreesJsAssets) -> bytes:
    template = (resources.files("cogtree.trees.viewer") / "static" / "index.html").read_text(
        "utf-8"
    )
    styles = "\n".join(
        f'  <link rel="stylesheet" href="/py_trees_js/{html.escape(name)}">'
        for name in assets.styles
    )
    scripts = "\n".join(
        f'  <script src="/py_trees_js/{html.escape(name)}"></script>' for name in assets.scripts
    )
    page = template.replace("<!-- py_trees_js styles -->", styles)
    return page.replace("<!-- py_trees_js scripts -->", scripts).encode("utf-8")


class _Handler(BaseHTTPRequestHandler):
    """Answers one request; the server's :class:`ViewerServer` is ``self.server.viewer``."""

    server_version = "cogtree-viewer"

    @property
    def viewer(self) -> ViewerServer:
        return self.server.viewer  # type: ignore[attr-defined, no-any-return]

    def do_GET(self) -> None:
        """Route a GET request."""
        if self.viewer.loopback_only and not self._host_is_loopback():
            self._send_json(
                {"error": "this viewer answers only requests to localhost"}, HTTPStatus.FORBIDDEN
            )
            return
        url = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(url.query).items()}
        try:
            self._route(url.path, query)
        except FeedError as error:
            self._send_json({"error": str(error)}, HTTPStatus.NOT_FOUND)
        except ValueError as error:
            self._send_json({"error": str(error)}, HTTPStatus.BAD_REQUEST)
        except (BrokenPipeError, ConnectionResetError):
            log.debug("the browser left before the answer to %s", self.path)

    def _route(self, path: str, query: dict[str, str]) -> None:
        feed = self.viewer.feed
        if path in ("/", "/index.html"):
            self._send(self.viewer.page, "text/html; charset=utf-8")
        elif path == "/favicon.ico":
            self._send(b"", "image/x-icon", status=HTTPStatus.NO_CONTENT)
        elif path.startswith("/static/") and path[len("/static/") :] in STATIC_FILES:
            name = path[len("/static/") :]
            data = (resources.files("cogtree.trees.viewer") / "static" / name).read_bytes()
            self._send(data, f"{STATIC_FILES[name]}; charset=utf-8")
        elif path.startswith("/py_trees_js/") and path[len("/py_trees_js/") :] in (
            self.viewer.assets.files
        ):
            name = path[len("/py_trees_js/") :]
            kind = "text/css" if name.endswith(".css") else "text/javascript"
            self._send(self.viewer.assets.files[name], f"{kind}; charset=utf-8", cache=True)
        elif path == "/api/info":
            index = feed.index(limit=0)
            self._send_json(
                {
                    "tree": feed.tree,
                    "source": feed.source,
                    "live": feed.keep is not None,
                    "keep": feed.keep,
                    "finished": index.finished,
                    "first": index.first,
                    "last": index.last,
                }
            )
        elif path == "/api/ticks":
            index = feed.index(
                _number(query, "since", 0),
                wait_s=float(_number(query, "wait", 0)),
                limit=_number(query, "limit", 500),
            )
            self._send_json(index.model_dump(mode="json"))
        elif path == "/api/story":
            self._send_json(feed.story().model_dump(mode="json"))
        elif path == "/api/snapshot":
            tick = _number(query, "tick", None) if "tick" in query else None
            self._send_json(feed.snapshot(tick))
        else:
            self._send_json({"error": f"no such page: {path}"}, HTTPStatus.NOT_FOUND)

    def _host_is_loopback(self) -> bool:
        host = self.headers.get("Host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return is_loopback(name.strip("[]"))

    def _send_json(self, value: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._send(data, "application/json", status=status, compress=True)

    def _send(
        self,
        data: bytes,
        content_type: str,
        *,
        status: HTTPStatus = HTTPStatus.OK,
        cache: bool = False,
        compress: bool = False,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        accepted = self.headers.get("Accept-Encoding", "")
        if compress and len(data) > GZIP_ABOVE and "gzip" in accepted:
            data = gzip.compress(data, compresslevel=5)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "max-age=3600" if cache else "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Requests go to the debug log, not to stderr."""
        log.debug("%s %s", self.address_string(), format % args)


def _number(query: dict[str, str], name: str, default: Any) -> Any:
    """An integer query parameter (ValueError naming it when it is not one)."""
    if name not in query:
        return default
    try:
        return int(query[name])
    except ValueError:
        raise ValueError(f"{name}={query[name]!r}: expected a whole number") from None
