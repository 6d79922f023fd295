"""``cogtree view LOG`` and ``--view`` on run commands: serve, then stop without hanging."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any

import pytest

from trees.cli import main

EXAMPLE = "trees.examples.ask_before_acting:create_root"


def cogtree() -> str:
    return shutil.which("cogtree") or str(Path(sys.executable).with_name("cogtree"))


def read_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def line_with(stream: IO[str], text: str) -> str:
    """The first line of ``stream`` holding ``text`` (the process prints it early)."""
    for line in stream:
        if text in line:
            return line
    raise AssertionError(f"the command never printed {text!r}")


def url_in(line: str) -> str:
    return next(word for word in line.split() if word.startswith("http://"))


def stop(process: subprocess.Popen[str]) -> tuple[int, str]:
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    return process.returncode, out


def test_view_serves_a_log_until_ctrl_c(assistant_log: Path) -> None:
    process = subprocess.Popen(
        [cogtree(), "view", str(assistant_log), "--no-browser"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "DISPLAY": ""},
    )
    try:
        assert process.stdout is not None
        line = line_with(process.stdout, "viewer: http://127.0.0.1:")
        assert "trees.assistant:create_root, ticks 1.." in line
        info = read_json(url_in(line) + "api/info")
        assert info["finished"] and not info["live"] and info["source"] == str(assistant_log)
    finally:
        code, out = stop(process)
    assert code == 0 and "viewer: stopped" in out


def test_view_of_a_missing_log_names_the_file(capsys, tmp_path) -> None:
    assert main(["view", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read tick log" in capsys.readouterr().err


def test_a_bad_port_is_refused_by_the_parser(capsys) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["tick", EXAMPLE, "--view", "70000"])
    assert raised.value.code == 2
    assert "a port is 0..65535" in capsys.readouterr().err


def test_tick_with_view_serves_while_running_and_stops_after_without_a_terminal(
    blackboard, capsys
) -> None:
    argv = ["tick", EXAMPLE, "--llm", "none", "--say", "bring the cup to the kitchen"]
    assert main([*argv, "--view", "--rate", "0"]) == 0
    err = capsys.readouterr().err
    line = line_with(iter(err.splitlines()), "viewer: http://127.0.0.1:")
    with pytest.raises(urllib.error.URLError):
        read_json(url_in(line) + "api/info")  # stdin is no terminal: it did not wait


def test_view_wait_keeps_the_finished_run_up_until_ctrl_c() -> None:
    process = subprocess.Popen(
        [
            cogtree(),
            "tick",
            EXAMPLE,
            "--llm",
            "none",
            "--say",
            "bring the cup to the kitchen",
            "--view",
            "0",
            "--view-wait",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        url = url_in(line_with(process.stderr, "viewer: http://127.0.0.1:"))
        line_with(process.stderr, "the run is over")
        info = read_json(url + "api/info")
        assert info["finished"] and info["last"] == 1 and info["live"]
        snapshot = read_json(url + "api/snapshot")
        names = {node["name"] for node in snapshot["cogtree"]["nodes"].values()}
        assert "ReadinessGate" in names
    finally:
        code, out = stop(process)
    assert code == 0 and "robot says: I will bring the cup to the kitchen." in out


def test_ask_with_view(blackboard, capsys, tmp_path) -> None:
    code = main(
        [
            "ask",
            "How many carbohydrates are in tiramisu?",
            "--llm",
            "none",
            "--memory",
            str(tmp_path / "memory.sqlite"),
            "--view",
            "--show-ticks",
            "compact",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and "32.7 g" in out
    assert "viewer: http://127.0.0.1:" in err
    assert "DetectScope: domain=advisor" in out
