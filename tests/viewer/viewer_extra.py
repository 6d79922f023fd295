"""The skip of viewer tests that need py-trees-js, naming the extra that provides it."""

from __future__ import annotations

import importlib.util

import pytest

needs_viewer_extra = pytest.mark.skipif(
    importlib.util.find_spec("py_trees_js") is None,
    reason="needs the viewer extra (py-trees-js): pip install 'cogtree[viewer]'",
)
"""Skips a test (or, as ``pytestmark``, a module) when the viewer extra is not installed."""
