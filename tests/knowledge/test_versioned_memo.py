"""VersionedMemo: a value is built once per version of its source and per key."""

from __future__ import annotations

import pytest

from cogtree.knowledge.versioned_memo import VersionedMemo


class Source:
    """A counter standing for a changing source; ``builds`` counts what was built."""

    def __init__(self) -> None:
        self.version = 0
        self.builds: list[str] = []

    def build(self, key: str) -> tuple[str, int]:
        self.builds.append(key)
        return (key, self.version)


def test_a_value_is_built_once_per_version_and_key() -> None:
    source = Source()
    memo = VersionedMemo(lambda: source.version)
    first = memo.get("a", lambda: source.build("a"))
    assert memo.get("a", lambda: source.build("a")) is first
    assert memo.get("b", lambda: source.build("b")) == ("b", 0)
    assert source.builds == ["a", "b"]
    source.version += 1
    assert memo.get("a", lambda: source.build("a")) == ("a", 1)
    assert source.builds == ["a", "b", "a"]


def test_a_value_whose_source_changed_while_it_was_built_is_not_kept() -> None:
    source = Source()
    memo = VersionedMemo(lambda: source.version)

    def changing() -> tuple[str, int]:
        value = source.build("a")
        source.version += 1  # a write lands while the value is being built
        return value

    assert memo.get("a", changing) == ("a", 0)
    assert memo.get("a", lambda: source.build("a")) == ("a", 1)
    assert source.builds == ["a", "a"]


def test_a_build_that_raises_keeps_nothing() -> None:
    source = Source()
    memo = VersionedMemo(lambda: source.version)

    def failing() -> tuple[str, int]:
        source.build("a")
        raise ValueError("no robot")

    with pytest.raises(ValueError, match="no robot"):
        memo.get("a", failing)
    assert memo.get("a", lambda: source.build("a")) == ("a", 0)
    assert source.builds == ["a", "a"]


def test_nothing_is_kept_while_a_change_is_under_way() -> None:
    source = Source()
    memo = VersionedMemo(lambda: None if source.version % 2 else source.version)
    source.version = 1  # a write has started
    memo.get("a", lambda: source.build("a"))
    memo.get("a", lambda: source.build("a"))
    assert source.builds == ["a", "a"]
    source.version = 2  # and ended
    first = memo.get("a", lambda: source.build("a"))
    assert memo.get("a", lambda: source.build("a")) is first
    assert source.builds == ["a", "a", "a"]
