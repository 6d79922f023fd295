"""The ``cogtree`` command line as the tests drive it: the example tree's runs, the console script.

``tick_argv`` and ``clarify_script`` build in-process runs of the example tree; ``running``
starts the installed console script with its output on pipes, ``interrupt`` stops it as Ctrl+C
does, and ``line_with``, ``url_in`` and ``read_json`` read what it prints and serves.
``interruptible_children`` lets a child take SIGINT even when the test run ignores it.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

EXAMPLE = "cogtree.trees.examples.ask_before_acting:create_root"
BRING_THE_CUP = "bring the cup to the kitchen"
"""A request the example's fast path takes without any model."""

TAKE_IT = "take it to the kitchen"
"""A request that names no item: the example asks its model whether to go on."""

CLARIFY = {"control": "Clarify", "slots": {}, "missing": ["item"], "rationale": "which one?"}
"""The model's decision on :data:`TAKE_IT`: ask which item."""

STOP_TIMEOUT_S = 30.0


def tick_argv(*options: str, say: str = BRING_THE_CUP) -> list[str]:
    """``cogtree tick EXAMPLE --say SAY OPTIONS...`` as arguments of ``main``."""
    return ["tick", EXAMPLE, "--say", say, *options]


def clarify_script(folder: Path) -> Path:
    """Write a model script whose readiness gate answers :data:`CLARIFY` once; its path."""
    script = folder / "script.yaml"
    script.write_text(yaml.safe_dump({"by_module": {"inner_speech": [{"answer": CLARIFY}]}}))
    return script


def cogtree_script() -> str:
    """The installed ``cogtree`` console script."""
    return shutil.which("cogtree") or str(Path(sys.executable).with_name("cogtree"))


@contextmanager
def interruptible_children() -> Iterator[None]:
    """Children started in this block take Ctrl-C (SIGINT) as a terminal's programs do.

    A test run started in the background (``pytest ... &`` from a script, some CI runners)
    ignores SIGINT, and an ignored signal stays ignored across ``exec``: a Python child then
    never raises KeyboardInterrupt. A handled signal is reset to its default action by
    ``exec``, so SIGINT is handled here while the children start. Call it on the main thread.
    """
    if signal.getsignal(signal.SIGINT) != signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def running(*args: str, env: Mapping[str, str] | None = None) -> Iterator[subprocess.Popen[str]]:
    """Run ``cogtree ARGS...`` (no stdin; stdout and stderr as text pipes); killed if still up.

    The process takes SIGINT as Ctrl-C however the tests were started (see
    :func:`interruptible_children`).
    """
    with interruptible_children():
        process = subprocess.Popen(
            [cogtree_script(), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def interrupt(
    process: subprocess.Popen[str], timeout_s: float = STOP_TIMEOUT_S
) -> tuple[int, str, str]:
    """Send SIGINT (Ctrl+C) and wait: the exit code and the rest of stdout and stderr."""
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=timeout_s)
    return process.returncode, out, err


def line_with(lines: Iterable[str] | None, text: str) -> str:
    """The first of ``lines`` (a process's output: printed early) holding ``text``."""
    assert lines is not None, "the process's output is not a pipe"
    for line in lines:
        if text in line:
            return line
    raise AssertionError(f"the command never printed {text!r}")


def url_in(line: str) -> str:
    """The ``http://`` address in ``line``."""
    return next(word for word in line.split() if word.startswith("http://"))


def read_json(url: str) -> Any:
    """GET ``url`` and parse the JSON it answers."""
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())
