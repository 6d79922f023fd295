"""The viewer's HTTP server: page, assets, JSON API, long poll, localhost only."""

from __future__ import annotations

import gzip
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from cogtree.trees.viewer.errors import ViewerError
from cogtree.trees.viewer.feed import TickFeed
from cogtree.trees.viewer.server import ViewerServer, is_loopback
from tests.viewer.small_run import small_header, small_tick
from tests.viewer.viewer_extra import needs_viewer_extra

pytestmark = needs_viewer_extra


@pytest.fixture
def feed() -> TickFeed:
    made = TickFeed(keep=50)
    made.push(small_header())
    made.push(small_tick(1, "RUNNING"))
    made.push(small_tick(2, "SUCCESS", "SUCCESS"))
    return made


@pytest.fixture
def server(feed: TickFeed) -> Iterator[ViewerServer]:
    with ViewerServer(feed) as serving:
        yield serving


def get(
    server: ViewerServer, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(server.url + path.lstrip("/"), headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def get_json(server: ViewerServer, path: str) -> tuple[int, Any]:
    status, _, body = get(server, path)
    return status, json.loads(body)


def test_it_binds_to_localhost_on_a_free_port(server: ViewerServer) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    assert not server.url.endswith(":0/")


def test_the_page_loads_py_trees_js_from_this_server_only(server: ViewerServer) -> None:
    status, headers, body = get(server, "/")
    page = body.decode("utf-8")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    sources = [part.split('"')[0] for part in page.split('src="')[1:]]
    sources += [part.split('"')[0] for part in page.split('href="')[1:]]
    assert sources and all(source.startswith("/") for source in sources)
    assert sources.index("/py_trees_js/js/py_trees-0.6.js") < sources.index("/static/viewer.js")
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    for source in sources:
        assert get(server, source)[0] == 200, source


def test_info_describes_the_feed(server: ViewerServer) -> None:
    status, info = get_json(server, "/api/info")
    assert status == 200
    assert info == {
        "tree": "small",
        "source": "live",
        "live": True,
        "keep": 50,
        "finished": False,
        "first": 1,
        "last": 2,
    }


def test_ticks_after_a_cursor_and_snapshots_by_number(server: ViewerServer) -> None:
    status, index = get_json(server, "/api/ticks?since=1")
    assert status == 200 and [tick["tick"] for tick in index["ticks"]] == [2]
    status, snapshot = get_json(server, "/api/snapshot?tick=1")
    assert status == 200 and snapshot["behaviours"]["gate"]["status"] == "RUNNING"
    assert get_json(server, "/api/snapshot")[1]["cogtree"]["tick"] == 2


def test_the_story_of_the_ticks_held(server: ViewerServer) -> None:
    status, story = get_json(server, "/api/story")
    assert status == 200 and story["tree"] == "small"
    assert [(entry["kind"], entry["tick"]) for entry in story["entries"]] == [("turn", 1)]
    assert story["entries"][0]["headline"] == "turn 1"


def test_a_long_poll_answers_when_the_next_tick_arrives(
    server: ViewerServer, feed: TickFeed
) -> None:
    answers: list[Any] = []
    poll = threading.Thread(
        target=lambda: answers.append(get_json(server, "/api/ticks?since=2&wait=30"))
    )
    poll.start()
    feed.push(small_tick(3, "SUCCESS", "SUCCESS"))
    poll.join(timeout=30)
    assert [tick["tick"] for tick in answers[0][1]["ticks"]] == [3]


def test_errors_are_json_with_the_reason(server: ViewerServer) -> None:
    status, body = get_json(server, "/api/snapshot?tick=9")
    assert status == 404 and "tick 9 is not held" in body["error"]
    status, body = get_json(server, "/api/ticks?since=soon")
    assert status == 400 and "since='soon': expected a whole number" in body["error"]
    status, body = get_json(server, "/nothing")
    assert status == 404 and "no such page" in body["error"]


def test_only_its_own_files_are_served(server: ViewerServer) -> None:
    for path in ("/static/../server.py", "/static/index.html.bak", "/py_trees_js/index.html"):
        assert get(server, path)[0] == 404, path


def test_requests_for_other_hosts_are_refused(server: ViewerServer) -> None:
    port = server.url.rsplit(":", 1)[1].strip("/")
    assert get(server, "/api/info", {"Host": "attacker.example"})[0] == 403
    assert get(server, "/api/info", {"Host": f"localhost:{port}"})[0] == 200


def test_large_answers_are_gzipped_when_the_browser_accepts_it(
    server: ViewerServer, feed: TickFeed
) -> None:
    feed.push(small_tick(3, "RUNNING", feedback="waiting for the model " * 200))
    _, headers, body = get(server, "/api/snapshot?tick=3", {"Accept-Encoding": "gzip"})
    _, plain_headers, plain = get(server, "/api/snapshot?tick=3")
    assert headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain_headers
    assert gzip.decompress(body) == plain and len(body) < len(plain) / 5


def test_a_taken_port_is_reported_with_the_fix(server: ViewerServer, feed: TickFeed) -> None:
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    with pytest.raises(ViewerError, match=r"cannot serve the viewer on 127.0.0.1:\d+ .*0 picks"):
        ViewerServer(feed, port=port)


def test_the_end_of_the_run_releases_waiting_requests(server: ViewerServer, feed: TickFeed) -> None:
    answers: list[Any] = []
    poll = threading.Thread(
        target=lambda: answers.append(get_json(server, "/api/ticks?since=2&wait=30"))
    )
    poll.start()
    feed.finish()
    poll.join(timeout=30)
    assert answers[0][1]["finished"] and answers[0][1]["ticks"] == []


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("127.0.1.1", True),
        ("0.0.0.0", False),
        ("192.168.1.10", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
