"""Loading domain packs: the shipped ones, and broken ones that say what to fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtree.knowledge.packs.domain_pack import PackError, SlotSpec, load_pack
from cogtree.knowledge.packs.domain_registry import SHIPPED_PACKS

MANIFEST = """\
name: {name}
title: A test pack
description: helps with tests
examples: [help me test]
lexicons:
  things: {{terms: {{widget: [widget, gizmo]}}}}
tasks:
  - name: Find
    schema: Find
    grounding: knowledge_query
    description: find a thing
    examples: [find the widget]
    slots:
      thing: {{lexicon: things, resolve: kg}}
    query: find
"""
SCHEMAS = """\
from pydantic import BaseModel, Field


class Find(BaseModel):
    thing: str = Field(description="which thing to find")
"""
QUERY = "SELECT ?label WHERE { VALUES ?thing { UNDEF } ?thing <urn:label> ?label }\n"


def write_pack(folder: Path, name: str = "testing", *, manifest: str | None = None) -> Path:
    """A valid pack in ``folder`` (its manifest text may be replaced)."""
    (folder / "queries").mkdir(parents=True)
    (folder / "pack.yaml").write_text(manifest or MANIFEST.format(name=name))
    (folder / "tasks.py").write_text(SCHEMAS)
    (folder / "queries" / "find.rq").write_text(QUERY)
    return folder


def test_a_valid_pack_loads(tmp_path: Path) -> None:
    pack = load_pack(write_pack(tmp_path / "testing"))
    assert pack.name == "testing"
    assert pack.task("Find").slots["thing"] == SlotSpec(lexicon="things", resolve="kg")
    assert pack.schema_for("Find").__name__ == "Find"
    assert set(pack.query("find").parameters) == {"thing"}
    assert not pack.has_own_knowledge
    with pytest.raises(KeyError, match="its tasks are Find"):
        pack.task("Lose")
    with pytest.raises(PackError, match="no knowledge graph"):
        pack.knowledge_graph()


@pytest.mark.parametrize("name", ["household", "office"])
def test_the_shipped_packs_load(name: str) -> None:
    pack = load_pack(SHIPPED_PACKS / name)
    assert pack.name == name
    assert pack.manifest.prefixes["cog"] == "https://cogtree.dev/ontology#"


def broken(tmp_path: Path, old: str, new: str) -> Path:
    text = MANIFEST.format(name="testing")
    assert old in text
    return write_pack(tmp_path / "testing", manifest=text.replace(old, new))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("title: A test pack", "title: [unclosed", r"pack\.yaml is not valid YAML"),
        (
            "schema: Find",
            "schema: Finder",
            r"task Find names schema 'Finder', which is not a pydantic",
        ),
        (
            "      thing: {lexicon",
            "      item: {lexicon",
            r"task Find: slot 'item' is not a field of Find \(fields: thing\)",
        ),
        ("lexicon: things", "lexicon: stuff", r"slot thing uses unknown lexicon 'stuff'"),
        (
            "query: find\n",
            "query: lookup\n",
            r"task Find: query template 'lookup' is not in queries/",
        ),
        ("    query: find\n", "", r"a knowledge_query task needs a `query` template"),
        ("name: testing", "name: Testing!", r"field `name`: .*not a pack name"),
        ("grounding: knowledge_query", "grounding: magic", r"field `tasks\.0\.grounding`"),
        (
            "{terms: {widget: [widget, gizmo]}}",
            "{query: things}",
            r"lexicon things: query 'things' is not in queries/",
        ),
        (
            "{terms: {widget: [widget, gizmo]}}",
            "{}",
            r"lexicon things: a lexicon takes exactly one of",
        ),
        (
            "examples: [find the widget]",
            "examples: [find the widget]\n    cues: [on, off]",
            r"cues\.0`: Input should be a valid string \(got True\)",
        ),
    ],
)
def test_broken_manifests_name_the_file_the_entry_and_the_fix(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    folder = broken(tmp_path, old, new)
    with pytest.raises(PackError, match=message) as raised:
        load_pack(folder)
    assert str(folder) in str(raised.value)


def test_a_query_lexicon_needs_the_packs_own_knowledge(tmp_path: Path) -> None:
    folder = broken(tmp_path, "{terms: {widget: [widget, gizmo]}}", "{query: find}")
    with pytest.raises(PackError, match="list its Turtle files under `knowledge:`"):
        load_pack(folder)


def test_repeated_task_names(tmp_path: Path) -> None:
    text = MANIFEST.format(name="testing")
    task = text[text.index("  - name: Find") :]
    folder = write_pack(tmp_path / "testing", manifest=text + task)
    with pytest.raises(PackError, match="task names repeat: Find, Find"):
        load_pack(folder)


def test_a_schema_file_that_raises_on_import(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "testing")
    (folder / "tasks.py").write_text("import no_such_module_anywhere\n")
    with pytest.raises(PackError, match=r"tasks\.py failed to import: ModuleNotFoundError"):
        load_pack(folder)


def test_a_schema_file_that_exits_is_a_pack_error_not_the_end(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "testing")
    (folder / "tasks.py").write_text("import sys\nsys.exit(3)\n")
    with pytest.raises(PackError, match=r"tasks\.py failed to import: SystemExit: 3.*must not"):
        load_pack(folder)


def test_a_missing_schema_file_and_knowledge_file(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "testing")
    (folder / "tasks.py").unlink()
    with pytest.raises(PackError, match=r"schema file .*tasks\.py not found"):
        load_pack(folder)
    (folder / "tasks.py").write_text(SCHEMAS)
    (folder / "pack.yaml").write_text(MANIFEST.format(name="testing") + "knowledge: [kg.ttl]\n")
    with pytest.raises(PackError, match="knowledge file kg.ttl not found"):
        load_pack(folder)


def test_a_plan_over_an_unknown_slot(tmp_path: Path) -> None:
    folder = broken(
        tmp_path,
        "grounding: knowledge_query",
        "grounding: physical\n    plan: {task: fetch, args: {object: gadget}}",
    )
    with pytest.raises(PackError, match=r"plan uses unknown slot\(s\) \['gadget'\]"):
        load_pack(folder)


def test_not_a_pack(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="a domain pack is a directory with a pack.yaml"):
        load_pack(tmp_path)
    (tmp_path / "pack.yaml").write_bytes(b"name: \xff\xfe")
    with pytest.raises(PackError, match="not UTF-8 text"):
        load_pack(tmp_path)
    (tmp_path / "pack.yaml").write_text("- just\n- a list\n")
    with pytest.raises(PackError, match="expected a mapping"):
        load_pack(tmp_path)


def test_a_bad_slot_pattern(tmp_path: Path) -> None:
    folder = broken(tmp_path, "resolve: kg}", "resolve: kg, pattern: 'no group'}")
    with pytest.raises(PackError, match="needs exactly one \\(group\\)"):
        load_pack(folder)


def test_a_select_over_the_packs_graph_is_asked_once_per_query_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pack = load_pack(SHIPPED_PACKS / "advisor")
    graph = pack.knowledge_graph()
    asked: list[str] = []
    query = graph.query

    def counted(text: str) -> object:
        asked.append(text)
        return query(text)

    monkeypatch.setattr(graph, "query", counted)
    text = "SELECT ?s ?o WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?o } LIMIT 3"
    first = pack.select(text)
    assert len(first) == 3 and all({"s", "o"} <= set(row) for row in first)
    assert pack.select(text) == first
    assert asked == [text]
