"""``cogtree view LOG`` and ``--view`` on run commands: serve, then stop without hanging."""

from __future__ import annotations

import os
import urllib.error
from pathlib import Path

import pytest

from cogtree.trees.cli.main import main
from tests.cogtree_cli import EXAMPLE, interrupt, line_with, read_json, running, tick_argv, url_in
from tests.viewer.small_run import TIRAMISU
from tests.viewer.viewer_extra import needs_viewer_extra


@needs_viewer_extra
def test_view_serves_a_log_until_ctrl_c(assistant_log: Path) -> None:
    env = {**os.environ, "DISPLAY": ""}
    with running("view", str(assistant_log), "--no-browser", env=env) as process:
        line = line_with(process.stdout, "viewer: http://127.0.0.1:")
        assert "cogtree.trees.assistant:create_root, ticks 1.." in line
        info = read_json(url_in(line) + "api/info")
        assert info["finished"] and not info["live"] and info["source"] == str(assistant_log)
        code, out, _ = interrupt(process)
    assert code == 0 and "viewer: stopped" in out


def test_view_of_a_missing_log_names_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["view", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read tick log" in capsys.readouterr().err


def test_a_bad_port_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["tick", EXAMPLE, "--view", "70000"])
    assert raised.value.code == 2
    assert "a port is 0..65535" in capsys.readouterr().err


@pytest.mark.usefixtures("blackboard")
@needs_viewer_extra
def test_tick_with_view_serves_while_running_and_stops_after_without_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(tick_argv("--llm", "none", "--view", "--rate", "0")) == 0
    err = capsys.readouterr().err
    line = line_with(err.splitlines(), "viewer: http://127.0.0.1:")
    with pytest.raises(urllib.error.URLError):
        read_json(url_in(line) + "api/info")  # stdin is no terminal: it did not wait


@needs_viewer_extra
def test_view_wait_keeps_the_finished_run_up_until_ctrl_c() -> None:
    with running(*tick_argv("--llm", "none", "--view", "0", "--view-wait")) as process:
        url = url_in(line_with(process.stderr, "viewer: http://127.0.0.1:"))
        line_with(process.stderr, "the run is over")
        info = read_json(url + "api/info")
        assert info["finished"] and info["last"] == 1 and info["live"]
        snapshot = read_json(url + "api/snapshot")
        names = {node["name"] for node in snapshot["cogtree"]["nodes"].values()}
        assert "ReadinessGate" in names
        code, out, _ = interrupt(process)
    assert code == 0 and "robot says: I will bring the cup to the kitchen." in out


@pytest.mark.usefixtures("blackboard")
@needs_viewer_extra
def test_ask_with_view(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    memory = str(tmp_path / "memory.sqlite")
    code = main(
        [
            *("ask", TIRAMISU, "--llm", "none"),
            *("--memory", memory, "--view", "--show-ticks", "compact"),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and "32.7 g" in out
    assert "viewer: http://127.0.0.1:" in err
    assert "DetectScope: domain=advisor" in out
