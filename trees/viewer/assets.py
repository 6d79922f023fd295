"""The py_trees_js scripts and styles, read at run time from the installed ``py-trees-js``.

py-trees-js ships its JavaScript (py_trees_js, jointjs and its dependencies) compiled into a
Qt resource module (``py_trees_js/resources.py``, written by ``pyrcc5``). Importing that
module would load Qt, so the module's byte strings are parsed instead and the resource
tree is decoded here (the rcc format: a tree of 14-byte entries, names in UTF-16, data
blobs optionally zlib-compressed). Nothing is copied into the repository or cached on disk.

Qt itself is never needed: py-trees-js declares PyQt5 and PyQtWebEngine as dependencies (for
its own demo app), but ``pip install --no-deps py-trees-js`` is enough for this viewer. Every
py-trees-js release on PyPI (0.6.1 to 0.7.0) declares them, and py_trees.js itself is on no
other registry (npm has jointjs, dagre, graphlib, jquery, lodash and backbone, not it).
"""

from __future__ import annotations

import ast
import importlib.util
import zlib
from dataclasses import dataclass
from pathlib import Path

from cogtree.trees.viewer.errors import ViewerError

PACKAGE = "py_trees_js"
RESOURCE_MODULE = "resources.py"
ASSET_PREFIX = "js/"
"""Only resources under this folder are served (the rcc module also holds an index page)."""

SCRIPT_ORDER = ("dagre", "graphlib", "jquery", "lodash", "backbone", "joint", "py_trees")
"""The scripts a page loads, in dependency order, by the start of their file names."""

STYLES = ("joint", "py_trees")
"""The style sheets a page loads, by the start of their file names."""

_DIRECTORY = 0x02
_ZLIB = 0x01
_ZSTD = 0x04
_ENTRY_SIZE = 14  # rcc format version 1: name offset, flags, then two 32-bit fields


class AssetsMissingError(ViewerError):
    """The py_trees_js scripts could not be found or read; the message says how to fix it."""


@dataclass(frozen=True)
class PyTreesJsAssets:
    """The decoded files by resource path, and the scripts and styles a page loads, in order."""

    files: dict[str, bytes]
    scripts: tuple[str, ...]
    styles: tuple[str, ...]


def load_assets() -> PyTreesJsAssets:
    """The py_trees_js assets of the installed py-trees-js (``js/py_trees-0.6.js`` ...).

    Raises :class:`AssetsMissingError` when py-trees-js is not installed or its resource
    module cannot be decoded.
    """
    path = resource_module_path()
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as error:
        raise AssetsMissingError(f"cannot read {path}: {error.strerror}") from error
    blobs = _byte_literals(source, path)
    assets = {
        name: data
        for name, data in decode_resource_tree(
            blobs["qt_resource_struct_v1"], blobs["qt_resource_name"], blobs["qt_resource_data"]
        ).items()
        if name.startswith(ASSET_PREFIX)
    }
    return PyTreesJsAssets(
        files=assets,
        scripts=tuple(_find(assets, stem, ".js", path) for stem in SCRIPT_ORDER),
        styles=tuple(_find(assets, stem, ".css", path) for stem in STYLES),
    )


def _find(assets: dict[str, bytes], stem: str, suffix: str, path: Path) -> str:
    """The one asset whose file name starts with ``stem`` and ends with ``suffix``."""
    for name in sorted(assets):
        file_name = name.rsplit("/", 1)[-1]
        if file_name.startswith(f"{stem}-") and file_name.endswith(suffix):
            return name
    raise AssetsMissingError(
        f"{path} holds no {stem}*{suffix}; the viewer is written for py-trees-js 0.7 "
        "(`pip install 'py-trees-js>=0.7,<0.8'`)"
    )


def resource_module_path() -> Path:
    """Where the installed ``py_trees_js/resources.py`` is (without importing Qt)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise AssetsMissingError(
            "the viewer draws trees with py_trees_js, which is not installed: "
            "`pip install --no-deps 'py-trees-js>=0.7,<0.8'` (2.5 MB; the viewer reads its "
            "files without Qt) or `pip install 'cogtree[viewer]'` (also installs PyQt5, "
            "about 350 MB)"
        )
    return Path(next(iter(spec.submodule_search_locations))) / RESOURCE_MODULE


def _byte_literals(source: str, path: Path) -> dict[str, bytes]:
    """The module-level ``name = b"..."`` assignments of a pyrcc5 module."""
    wanted = {"qt_resource_data", "qt_resource_name", "qt_resource_struct_v1"}
    found: dict[str, bytes] = {}
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as error:
        raise AssetsMissingError(f"{path} is not a readable Python module: {error}") from error
    for statement in tree.body:
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        target, value = statement.targets[0], statement.value
        name = target.id if isinstance(target, ast.Name) else ""
        if name in wanted and isinstance(value, ast.Constant) and isinstance(value.value, bytes):
            found[name] = value.value
    absent = sorted(wanted - found.keys())
    if absent:
        raise AssetsMissingError(
            f"{path} is not a pyrcc5 resource module (no {', '.join(absent)}); "
            "reinstall py-trees-js"
        )
    return found


def decode_resource_tree(struct: bytes, names: bytes, data: bytes) -> dict[str, bytes]:
    """Every file of an rcc resource tree (format version 1) by its path, contents expanded."""
    files: dict[str, bytes] = {}
    pending = [(0, "")]  # (entry index, path of its parent folder)
    while pending:
        index, folder = pending.pop()
        entry = struct[index * _ENTRY_SIZE : (index + 1) * _ENTRY_SIZE]
        if len(entry) != _ENTRY_SIZE:
            raise AssetsMissingError(f"resource tree entry {index} is cut short")
        name_offset = int.from_bytes(entry[0:4], "big")
        flags = int.from_bytes(entry[4:6], "big")
        name = _name_at(names, name_offset) if index else ""
        path = f"{folder}/{name}" if folder else name
        if flags & _DIRECTORY:
            count = int.from_bytes(entry[6:10], "big")
            first = int.from_bytes(entry[10:14], "big")
            pending.extend((first + child, path) for child in range(count))
        else:
            files[path] = _data_at(data, int.from_bytes(entry[10:14], "big"), flags, path)
    return files


def _name_at(names: bytes, offset: int) -> str:
    length = int.from_bytes(names[offset : offset + 2], "big")
    start = offset + 6  # 2 bytes of length, 4 of hash
    return names[start : start + 2 * length].decode("utf-16-be")


def _data_at(data: bytes, offset: int, flags: int, path: str) -> bytes:
    size = int.from_bytes(data[offset : offset + 4], "big")
    blob = data[offset + 4 : offset + 4 + size]
    if flags & _ZSTD:
        raise AssetsMissingError(
            f"resource {path} is zstd-compressed, which the viewer does not read; "
            "reinstall py-trees-js from PyPI"
        )
    if flags & _ZLIB:
        try:
            return zlib.decompress(blob[4:])  # qCompress: 4-byte length, then a zlib stream
        except zlib.error as error:
            raise AssetsMissingError(f"resource {path} is corrupt ({error})") from error
    return blob
