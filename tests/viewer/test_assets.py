"""py_trees_js assets, decoded from the installed py-trees-js without importing Qt."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from cogtree.trees.viewer import assets as assets_module
from cogtree.trees.viewer.assets import AssetsMissingError, decode_resource_tree, load_assets
from tests.viewer.viewer_extra import needs_viewer_extra


def rcc_tree() -> tuple[bytes, bytes, bytes]:
    """An rcc (format 1) tree: / -> js/ -> {a.js (stored), b.css (zlib)}."""

    def name(text: str) -> bytes:
        return len(text).to_bytes(2, "big") + b"\0\0\0\0" + text.encode("utf-16-be")

    names = name("js") + name("a.js") + name("b.css")
    a_name, b_name = len(name("js")), len(name("js")) + len(name("a.js"))
    plain, packed = b"var a = 1;", zlib.compress(b"body { }")
    data = (
        len(plain).to_bytes(4, "big")
        + plain
        + (4 + len(packed)).to_bytes(4, "big")
        + len(b"body { }").to_bytes(4, "big")
        + packed
    )

    def folder(name_at: int, count: int, first: int) -> bytes:
        return (
            name_at.to_bytes(4, "big")
            + (2).to_bytes(2, "big")
            + count.to_bytes(4, "big")
            + (first.to_bytes(4, "big"))
        )

    def file(name_at: int, flags: int, data_at: int) -> bytes:
        return (
            name_at.to_bytes(4, "big")
            + flags.to_bytes(2, "big")
            + b"\0\0\0\0"
            + (data_at.to_bytes(4, "big"))
        )

    struct = (
        folder(0, 1, 1)  # the root, nameless
        + folder(0, 2, 2)  # js/
        + file(a_name, 0, 0)  # a.js
        + file(b_name, 1, 4 + len(plain))  # b.css, compressed
    )
    return struct, names, data


def test_the_decoder_reads_folders_plain_and_compressed_files() -> None:
    assert decode_resource_tree(*rcc_tree()) == {"js/a.js": b"var a = 1;", "js/b.css": b"body { }"}


@needs_viewer_extra
def test_the_installed_package_yields_the_scripts_in_dependency_order() -> None:
    found = load_assets()
    stems = [path.rsplit("/", 1)[-1].split("-")[0] for path in found.scripts]
    assert stems == ["dagre", "graphlib", "jquery", "lodash", "backbone", "joint", "py_trees"]
    assert [path.rsplit("/", 1)[-1].split("-")[0] for path in found.styles] == [
        "joint",
        "py_trees",
    ]
    py_trees_js = found.files[found.scripts[-1]].decode("utf-8")
    assert "add_tree_to_cache" in py_trees_js and "var py_trees" in py_trees_js
    assert all(path.startswith("js/") for path in found.files)  # not the Qt demo page


@needs_viewer_extra
def test_loading_does_not_import_qt() -> None:
    code = "import sys; from cogtree.trees.viewer.assets import load_assets; load_assets(); "
    code += "print([name for name in sys.modules if name.startswith(('PyQt5', 'py_trees_js'))])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_missing_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(AssetsMissingError, match="pip install --no-deps 'py-trees-js"):
        load_assets()


def test_a_module_that_is_not_a_resource_module_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "resources.py"
    fake.write_text("qt_resource_data = b''\n")
    monkeypatch.setattr(assets_module, "resource_module_path", lambda: fake)
    with pytest.raises(AssetsMissingError, match="not a pyrcc5 resource module"):
        load_assets()
