"""The node catalogue is generated from the registry, and the checked-in copies are current."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cogtree.trees.bt_xml.node_catalogue import (
    BTCPP_BUILTINS,
    groot_models,
    markdown_catalogue,
    render_catalogue,
)
from cogtree.trees.bt_xml.node_registry import default_registry
from cogtree.trees.cli.catalogue_command import CHECKED_IN
from cogtree.trees.cli.main import main


@pytest.mark.parametrize("kind", sorted(CHECKED_IN))
def test_the_checked_in_catalogue_is_current(kind: str) -> None:
    """Fails when a behaviour changed: run `cogtree catalogue --update` and commit."""
    path = CHECKED_IN[kind]  # type: ignore[index]
    generated = render_catalogue(default_registry(), kind)  # type: ignore[arg-type]
    assert path.read_text(encoding="utf-8") == generated, (
        f"{path} is stale: run `cogtree catalogue --update`"
    )


def test_the_groot_models_declare_every_node_type_and_port() -> None:
    registry = default_registry()
    model = ET.fromstring(groot_models(registry)).find("TreeNodesModel")
    assert model is not None
    declared = {element.get("ID"): element for element in model}
    assert set(declared) == {t.tag for t in registry}
    assert BTCPP_BUILTINS - {"SubTree"} <= set(declared)  # the BT.CPP built-ins are listed
    for tag, element in declared.items():
        node_type = registry[tag]  # type: ignore[index]
        assert element.tag == node_type.category
        ports = [(port.tag, port.get("name")) for port in element]
        expected = [("input_port", p.name) for p in node_type.parameters]
        expected += [(f"{p.direction}_port", p.name) for p in node_type.ports]
        assert ports == expected, tag
    expected_port = declared["ControlIs"].find("input_port[@name='expected']")
    assert expected_port is not None and expected_port.get("default") is None  # required
    plan = declared["PlanTask"].find("output_port[@name='plan']")
    assert plan is not None and plan.get("default") == "/plan/current"


def test_the_markdown_has_a_section_per_node_type_with_its_handles() -> None:
    registry = default_registry()
    page = markdown_catalogue(registry)
    for node_type in registry:
        assert f"\n### {node_type.tag}\n" in page
    section = page.split("\n### DetectScope\n", 1)[1].split("\n### ", 1)[0]
    assert "needs handles: `domains`, `llm`, `lexicons` (optional), `scene_graph`" in section
    assert "| `utterance` | input | `str` | `/turn/utterance` |" in section
    assert "| `module` | parameter | `str \\| None` | (empty) |" in section
    assert "## Not available in XML" in page and "ReflectedStep" in page


def test_the_command_prints_writes_and_checks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["catalogue", "--format", "groot"]) == 0
    assert capsys.readouterr().out == groot_models(default_registry())
    target = tmp_path / "nodes.md"
    assert main(["catalogue", "--output", str(target)]) == 0
    assert target.read_text() == markdown_catalogue(default_registry())
    capsys.readouterr()
    assert main(["catalogue", "--check", "--output", str(target)]) == 0
    assert "up to date" in capsys.readouterr().out
    target.write_text(target.read_text().replace("### Say\n", "### Shout\n"))
    assert main(["catalogue", "--check", "--output", str(target)]) == 1
    printed = capsys.readouterr().out
    assert f"{target} is stale; regenerate it: cogtree catalogue --format markdown" in printed
    assert "-### Shout\n+### Say\n" in printed
    missing = tmp_path / "nodes.xml"
    assert main(["catalogue", "--check", "--output", str(missing)]) == 1
    assert "does not exist" in capsys.readouterr().out
    assert main(["catalogue", "--check", "--update"]) == 2
