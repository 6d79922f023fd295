"""Where cogtree keeps what it learns about its user: one data directory, several files.

The directory is ``$XDG_DATA_HOME/cogtree``, else ``~/.local/share/cogtree``. It holds the
dialogue memory (``memory.sqlite``) and, next to it, the failure experience the explainer
learns (``experience.sqlite``). ``COGTREE_EXPERIENCE`` names another experience file for
every command; ``--experience FILE`` names one for a single run. The calibrated readiness
gate's thresholds live in ``calibration/<backend>/<model>.json`` (``cogtree eval card`` writes
them; every command that ticks uses the one of the model it runs).
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

EXPERIENCE_ENV = "COGTREE_EXPERIENCE"
"""The environment variable that names the experience file."""


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/cogtree``, else ``~/.local/share/cogtree``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cogtree"


def default_memory_path() -> Path:
    """``memory.sqlite`` in the user's data directory."""
    return user_data_dir() / "memory.sqlite"


def calibration_path(backend: str, model: str) -> Path:
    """The calibrated gate's threshold file for ``model`` served by ``backend``.

    ``calibration/<backend>/<model>.json`` in the user's data directory; characters other than
    letters, digits, ``.``, ``_`` and ``-`` in the model's name become ``_`` (``qwen2.5:3b`` ->
    ``qwen2.5_3b.json``).
    """
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", model) or "default"
    return user_data_dir() / "calibration" / backend / f"{safe}.json"


def default_experience_path() -> Path:
    """``$COGTREE_EXPERIENCE``, else ``experience.sqlite`` next to the memory."""
    named = os.environ.get(EXPERIENCE_ENV)
    return Path(named) if named else user_data_dir() / "experience.sqlite"


def add_experience_argument(parser: argparse.ArgumentParser, *, persist_by_default: bool) -> None:
    """``--experience FILE``: the SQLite file learnt recoveries persist in.

    ``persist_by_default``: without the option, use :func:`default_experience_path` (the
    assistant's commands); otherwise only ``$COGTREE_EXPERIENCE``, else the seeds alone in
    memory (simulator runs and benches, so their figures repeat).
    """
    if persist_by_default:
        where = f"default ${EXPERIENCE_ENV}, else {user_data_dir() / 'experience.sqlite'}"
    else:
        where = f"default ${EXPERIENCE_ENV}; without either, nothing learnt is kept"
    parser.add_argument(
        "--experience",
        metavar="FILE",
        type=Path,
        help=f"failure-experience file: the explainer reads and learns there ({where})",
    )


def experience_path(args: argparse.Namespace, *, persist_by_default: bool) -> Path | None:
    """The experience file the options name (see :func:`add_experience_argument`)."""
    given: Path | None = getattr(args, "experience", None)
    if given is not None:
        return given
    if persist_by_default:
        return default_experience_path()
    named = os.environ.get(EXPERIENCE_ENV)
    return Path(named) if named else None
