"""Read a BehaviorTree.CPP XML file with the line of every element, its includes inlined.

ElementTree keeps no line numbers, so the file is parsed with expat and every element is
given a :class:`Site` (file, line, tag, name, attributes) for error messages. Top-level
``<include path="..."/>`` (BT.CPP) and ``<Import src=...>``/``<Include file=...>`` (py_trees)
elements are replaced by the ``<BehaviorTree>`` elements of the files they name, the way
py_trees' parser inlines them, so that an error in an included file names that file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import xml.parsers.expat
from dataclasses import dataclass, field
from pathlib import Path

from cogtree.trees.bt_xml.values import did_you_mean
from cogtree.trees.loading import TreeLoadError

TEXT_SOURCE = "<xml text>"
INCLUDE_TAGS = ("include", "import")
INCLUDE_ATTRIBUTES = ("path", "src", "file")
MAX_DEPTH = 100
"""The deepest element nesting a tree file may have (deeper is refused before anything is built)."""


class XmlTreeError(TreeLoadError):
    """An XML tree could not be loaded; the message names file, line, node, port and the fix."""


@dataclass(frozen=True)
class Site:
    """Where an element is written: file, line, and what it says."""

    file: str
    line: int
    tag: str
    attributes: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    @property
    def name(self) -> str | None:
        """The element's ``name`` attribute, if it has one."""
        return self.attributes.get("name")

    def describe(self) -> str:
        """``<Tag ID="..." name="...">`` as written (ID and name only when given)."""
        shown = [
            f'{key}="{self.attributes[key]}"' for key in ("ID", "name") if key in self.attributes
        ]
        return f"<{' '.join([self.tag, *shown])}>"

    def error(self, problem: str, fix: str = "") -> XmlTreeError:
        """An error at this site: ``file:line: <Tag name="...">: problem; fix``."""
        advice = f"; {fix}" if fix else ""
        return XmlTreeError(f"{self.file}:{self.line}: {self.describe()}: {problem}{advice}")


@dataclass
class XmlDocument:
    """One XML tree file with its includes inlined, and the site of every element."""

    root: ET.Element
    sites: dict[ET.Element, Site]
    file: str

    def site(self, element: ET.Element) -> Site:
        """The site of ``element``."""
        return self.sites[element]

    def trees(self) -> dict[str, ET.Element]:
        """Every ``<BehaviorTree>`` by ID (an ID missing or given twice is an error)."""
        found: dict[str, ET.Element] = {}
        for element in self.root.findall("BehaviorTree"):
            site = self.site(element)
            tree_id = element.get("ID")
            if not tree_id:
                raise site.error("a BehaviorTree needs an ID", 'write <BehaviorTree ID="MyTree">')
            if tree_id in found:
                first = self.site(found[tree_id])
                raise site.error(
                    f"BehaviorTree ID {tree_id!r} is already used at {first.file}:{first.line}",
                    "give each tree its own ID",
                )
            found[tree_id] = element
        return found

    def main_tree_id(self, wanted: str | None = None) -> str:
        """The tree to build: ``wanted``, else ``main_tree_to_execute``, else the only tree."""
        trees = self.trees()
        if not trees:
            raise XmlTreeError(
                f"{self.file}: no tree in the file; write the tree in "
                '<BehaviorTree ID="MyTree"> inside <root>'
            )
        chosen = wanted or self.root.get("main_tree_to_execute")
        if chosen is None and len(trees) == 1:
            return next(iter(trees))
        known = sorted(trees)
        if chosen is None:
            raise XmlTreeError(
                f"{self.file}: which tree should be built? It holds {', '.join(known)}: set "
                '<root main_tree_to_execute="ID"> or name one (FILE.xml:ID on the command line)'
            )
        if chosen not in trees:
            raise XmlTreeError(
                f"{self.file}: no BehaviorTree with ID {chosen!r}{did_you_mean(chosen, known)} "
                f"(trees: {', '.join(known) or 'none'})"
            )
        return chosen


def read_document(source: str | Path) -> XmlDocument:
    """Read an XML tree from a file path or from XML text, includes inlined."""
    if isinstance(source, Path) or not source.lstrip().startswith("<"):
        path = Path(source)
        return _read_file(path, visited={path.resolve()})
    return _merge_includes(_parse(source, TEXT_SOURCE), Path.cwd(), visited=set())


def _read_file(path: Path, visited: set[Path]) -> XmlDocument:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise XmlTreeError(f"tree file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise XmlTreeError(f"cannot read tree file {path}: {error}") from error
    return _merge_includes(_parse(text, str(path)), path.parent, visited)


def _parse(text: str, file: str) -> XmlDocument:
    """Parse ``text`` with expat, recording the line of every element."""
    builder = ET.TreeBuilder()
    parser = xml.parsers.expat.ParserCreate()
    sites: dict[ET.Element, Site] = {}
    depth = 0

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        site = Site(file, parser.CurrentLineNumber, tag, dict(attributes))
        if depth > MAX_DEPTH:
            raise site.error(
                f"elements nest more than {MAX_DEPTH} deep",
                "split the tree into <BehaviorTree>s joined by <SubTree ID=...>",
            )
        sites[builder.start(tag, attributes)] = site

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        builder.end(tag)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as error:
        reason = xml.parsers.expat.ErrorString(error.code)
        raise XmlTreeError(
            f"{file}:{error.lineno}:{error.offset + 1}: not well-formed XML: {reason}; "
            "check the tags are closed and attribute values quoted"
        ) from None
    return XmlDocument(root=builder.close(), sites=sites, file=file)


def _merge_includes(document: XmlDocument, base: Path, visited: set[Path]) -> XmlDocument:
    """Replace top-level include elements by the BehaviorTrees of the files they name."""
    for element in list(document.root):
        if element.tag.lower() not in INCLUDE_TAGS:
            continue
        site = document.site(element)
        target = next((element.get(a) for a in INCLUDE_ATTRIBUTES if element.get(a)), None)
        if target is None:
            raise site.error("an include needs the file to read", '<include path="other.xml"/>')
        path = Path(target) if Path(target).is_absolute() else base / target
        document.root.remove(element)
        if path.resolve() in visited:
            continue  # already inlined (or the file including it): its trees are here
        if not path.is_file():
            raise site.error(f"included file {path} does not exist", "fix the path")
        visited.add(path.resolve())
        included = _read_file(path, visited)
        document.sites.update(included.sites)
        for tree in included.root.findall("BehaviorTree"):
            document.root.append(tree)
    return document
