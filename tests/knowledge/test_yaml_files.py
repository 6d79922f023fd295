"""Reading a hand-written YAML file into a model: every way it can be wrong names the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from cogtree.knowledge.yaml_files import read_yaml_mapping, read_yaml_model


class Shelf(BaseModel):
    name: str
    levels: int


class ShelfError(ValueError):
    pass


def test_a_good_file_is_read_into_the_model(tmp_path: Path) -> None:
    path = tmp_path / "shelf.yaml"
    path.write_text("name: pantry\nlevels: 4\n")
    assert read_yaml_model(path, Shelf, ShelfError, expected="a shelf") == Shelf(
        name="pantry", levels=4
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, r"shelf\.yaml not found"),
        (b"name: \xff", r"shelf\.yaml is not UTF-8 text: .*; save it as UTF-8"),
        (b"name: [unclosed", r"shelf\.yaml is not valid YAML"),
        (b"- a\n- list\n", r"shelf\.yaml: expected a shelf with a name"),
        (b"name: pantry\nlevels: many\n", r"shelf\.yaml: field `levels`"),
    ],
)
def test_a_bad_file_is_one_error_naming_the_file(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "shelf.yaml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ShelfError, match=message):
        read_yaml_model(path, Shelf, ShelfError, expected="a shelf with a name")


def test_a_folder_is_not_readable(tmp_path: Path) -> None:
    with pytest.raises(ShelfError, match="cannot read"):
        read_yaml_mapping(tmp_path, ShelfError, expected="a shelf")
