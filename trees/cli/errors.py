"""The command line's user error: printed as ``cogtree: error: ...`` with exit code 2."""

from __future__ import annotations


class CLIError(Exception):
    """A user error: printed as ``cogtree: error: ...`` with exit code 2."""
