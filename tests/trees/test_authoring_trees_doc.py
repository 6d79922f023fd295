"""The walkthrough of docs/authoring_trees.md, extracted from the doc, runs end to end."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from cogtree.trees.cli.main import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "authoring_trees.md"
BLOCK = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)


def _blocks() -> list[tuple[str, str]]:
    return [(m.group("info").strip(), m.group("body")) for m in BLOCK.finditer(DOC.read_text())]


@pytest.fixture
def walkthrough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The doc's files written to ``tmp_path`` (the working directory of the test)."""
    for info, body in _blocks():
        found = re.search(r"\bfile=(\S+)", info)
        if found:
            target = tmp_path / found.group(1)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_doc_holds_every_file_of_the_walkthrough(walkthrough: Path) -> None:
    files = sorted(str(p.relative_to(walkthrough)) for p in walkthrough.rglob("*") if p.is_file())
    assert files == [
        "garden/garden.ttl",
        "garden/garden_helper.xml",
        "garden/pack.yaml",
        "garden/queries/care.rq",
        "garden/queries/plants.rq",
        "garden/tasks.py",
        "groot/tidy_up.xml",
    ]


def test_the_console_sessions_print_what_the_doc_shows(
    walkthrough: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions = [body for info, body in _blocks() if info == "console run"]
    assert sessions
    for session in sessions:
        command, *shown = session.rstrip("\n").split("\n")
        assert command.startswith("$ cogtree ")
        capsys.readouterr()
        assert main(shlex.split(command)[2:]) == 0
        printed = capsys.readouterr().out.rstrip("\n").split("\n")
        assert printed == shown


def test_the_python_steps_run_in_order(walkthrough: Path) -> None:
    steps = [body for info, body in _blocks() if info == "python run"]
    assert len(steps) >= 4
    namespace: dict[str, object] = {}
    for step in steps:
        exec(compile(step, str(DOC), "exec"), namespace)
