"""The material hierarchy: a free-text material read by its longest known phrases; bad files."""

from __future__ import annotations

import pytest

from cogtree.knowledge.safety.materials import MaterialFileError, load_materials, shipped_materials


@pytest.mark.parametrize(
    ("text", "classes"),
    [
        ("aluminium foil", {"aluminium foil", "foil", "aluminium", "metal"}),
        ("18/10 stainless_steel", {"stainless steel", "steel", "metal"}),
        ("polypropylene plastic", {"polypropylene", "plastic", "meltable"}),
        ("cotton", {"cotton", "fabric", "flammable", "absorbent"}),
        ("ceramic glass", {"glass ceramic", "ceramic", "breakable", "heat resistant"}),
    ],
)
def test_a_material_is_read_with_every_broader_class(text: str, classes: set[str]) -> None:
    assert shipped_materials().read(text) == classes


def test_each_material_named_is_a_part_of_its_own() -> None:
    parts = shipped_materials().parts("foil-lined plastic")
    assert parts == [frozenset({"foil", "aluminium", "metal"}), frozenset({"plastic", "meltable"})]
    assert len(shipped_materials().parts("cardboard carton")) == 1  # one material, named twice
    assert shipped_materials().parts(None) == []


def test_a_text_naming_no_material_is_unknown_not_safe() -> None:
    assert shipped_materials().read("unobtainium") == frozenset()
    assert shipped_materials().read(None) == frozenset()


HEAD = (
    "@prefix mat: <https://cogtree.dev/material#> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("mat:a a mat:Material ; rdfs:label 'a' mat:b .", "bad.ttl line"),
        ("mat:a a mat:Material ; rdfs:label 'a' ; mat:broader mat:b .", "not a mat:Material"),
        (
            "mat:a a mat:Material ; rdfs:label 'a' ; mat:broader mat:b .\n"
            "mat:b a mat:Material ; rdfs:label 'b' ; mat:broader mat:a .",
            "circle",
        ),
        ("mat:a a mat:Material .", "exactly one rdfs:label"),
    ],
)
def test_a_bad_material_file_is_refused_naming_the_file_and_the_fix(body: str, says: str) -> None:
    with pytest.raises(MaterialFileError, match=says):
        load_materials("bad.ttl", text=HEAD + body)
