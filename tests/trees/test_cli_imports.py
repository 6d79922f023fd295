"""The command line's start-up stays light: heavy libraries load only where a command needs them."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("sklearn", "scipy", "matplotlib", "llama_cpp", "ollama", "rclpy")
"""Modules no turn of ``cogtree ask`` needs with no model (each costs 0.2-1.5 s to import)."""

NOT_FOR_HELP = (
    "py_trees",
    "rdflib",
    "pydantic",
    "numpy",
    "yaml",
    "cogtree.behaviours",
    "cogtree.knowledge",
    "cogtree.skills",
    "cogtree.evaluation",
    "cogtree.sim",
)
"""What listing the subcommands needs none of: the table names them without importing them."""


def imported_by(statement: str, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that a fresh interpreter has imported after running ``statement``."""
    probe = (
        "import contextlib, io, sys\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    {statement}\n"
        f"print(','.join(name for name in {names!r} if name in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return [name for name in done.stdout.strip().split(",") if name]


def test_importing_the_command_line_loads_no_heavy_library() -> None:
    assert imported_by("import cogtree.trees.cli.main", (*HEAVY, *NOT_FOR_HELP)) == []


def test_help_imports_no_subcommand() -> None:
    main = "from cogtree.trees.cli.main import main; "
    assert imported_by(main + "main(['--help'])", NOT_FOR_HELP) == []
    assert imported_by(main + "main(['-v', '--help'])", NOT_FOR_HELP) == []


def test_a_subcommand_imports_only_its_own_wing() -> None:
    """``ask`` builds the assistant session: never the evaluation wing nor a model's library."""
    loaded = imported_by(
        "from cogtree.trees.cli.main import main; main(['ask', '--help'])",
        (*HEAVY, "cogtree.evaluation", "py_trees"),
    )
    assert loaded == ["py_trees"]
