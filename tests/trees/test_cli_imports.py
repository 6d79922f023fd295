"""The command line's start-up stays light: heavy libraries load only where a command needs them."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("sklearn", "matplotlib", "llama_cpp", "ollama", "rclpy")
"""Modules no turn of ``cogtree ask`` needs with no model (each costs 0.2-1.5 s to import)."""


def test_importing_the_command_line_loads_no_heavy_library() -> None:
    probe = (
        "import sys, cogtree.trees.cli.main; "
        f"print(','.join(name for name in {HEAVY!r} if name in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "", f"imported at start: {done.stdout.strip()}"
