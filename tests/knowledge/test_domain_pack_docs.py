"""The example pack of docs/domain_packs.md, extracted from the doc, loads and works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from cogtree.knowledge.packs.domain_pack import DomainPack, load_pack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.understanding.lexicon import build_lexicons
from cogtree.knowledge.understanding.slot_filling import fill_slots

DOC = Path(__file__).resolve().parents[2] / "docs" / "domain_packs.md"
BLOCK = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)


def _blocks() -> list[tuple[str, str]]:
    return [(m.group("info").strip(), m.group("body")) for m in BLOCK.finditer(DOC.read_text())]


@pytest.fixture
def pack_root(tmp_path: Path) -> Path:
    """The doc's example pack written to ``tmp_path`` from its ``file=`` blocks."""
    for info, body in _blocks():
        found = re.search(r"\bfile=(\S+)", info)
        if found:
            target = tmp_path / found.group(1)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
    return tmp_path


@pytest.fixture
def pack(pack_root: Path) -> DomainPack:
    return load_pack(pack_root / "pantry")


def test_the_doc_holds_every_file_of_the_example_pack(pack_root: Path) -> None:
    files = sorted(str(p.relative_to(pack_root)) for p in pack_root.rglob("*") if p.is_file())
    assert files == [
        "pantry/pack.yaml",
        "pantry/pantry.ttl",
        "pantry/queries/foods.rq",
        "pantry/queries/storage_advice.rq",
        "pantry/tasks.py",
    ]


def test_the_example_pack_loads(pack: DomainPack) -> None:
    assert pack.name == "pantry"
    assert [task.name for task in pack.tasks] == ["StorageAdvice", "PutAwayGroceries"]
    assert pack.schema_for("StorageAdvice").model_fields["food"].is_required()
    assert pack.has_own_knowledge


def test_its_query_lexicon_reads_the_pack_graph(pack: DomainPack) -> None:
    lexicons = build_lexicons(pack, scene=None)
    foods = lexicons["foods"]
    assert set(foods.ids) == {"tomato", "milk", "rice", "yoghurt"}
    assert [m.id for m in foods.find("Basmati or yogurt, and some tomatoes")] == [
        "rice",
        "yoghurt",
        "tomato",
    ]
    assert len(lexicons["objects"]) == 0  # no scene graph given


def test_the_slots_of_every_example_utterance(pack: DomainPack) -> None:
    lexicons = build_lexicons(pack, scene=None)
    advice = pack.task("StorageAdvice")
    filled = {u: fill_slots(advice, u, lexicons).slots for u in advice.examples}
    assert filled["how should I store tomatoes"] == {"food": "tomatoes"}
    assert filled["how long does opened milk keep"] == {"food": "milk", "state": "opened"}
    assert filled["how many days does an open yoghurt last"] == {
        "food": "yoghurt",
        "state": "open",
    }
    assert filled["what is the best way to store cheese"] == {}  # not in the graph


def test_the_query_template_answers_with_the_reply_columns(pack: DomainPack) -> None:
    namespace = next(iter(pack.manifest.prefixes.values()))
    text = pack.query("storage_advice").bind(
        food=URIRef(namespace + "milk"), state=Literal("opened")
    )
    with ReadOnlyQueryRunner(pack.knowledge_graph(), pack.manifest.prefixes) as runner:
        rows = runner.run(text).rows
    assert rows == [{"label": "milk", "place": "fridge", "days": "3"}]
    reply = pack.task("StorageAdvice").reply
    assert reply is not None
    assert reply.format(**rows[0]) == "Keep milk in the fridge; it keeps for about 3 days."


def test_the_runnable_snippets_run(pack_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(pack_root)
    snippets = [body for info, body in _blocks() if info.split()[:2] == ["python", "run"]]
    assert snippets
    for snippet in snippets:
        exec(compile(snippet, str(DOC), "exec"), {})


def test_the_registry_loads_it_next_to_the_shipped_packs(pack_root: Path) -> None:
    registry = DomainRegistry.discover(extra=[pack_root], only=["household", "pantry"])
    assert registry.names == ["household", "pantry"]
    registry.switch("pantry")
    assert registry.active.name == "pantry"
