"""Fixtures shared by the behaviour tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph


@pytest.fixture
def scene() -> Iterator[SceneGraph]:
    """The example apartment (knowledge/scene/scenes/home.ttl) as a fresh belief for each test."""
    with SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl") as graph:
        yield graph


@pytest.fixture(scope="module")
def shared_home_scene() -> Iterator[SceneGraph]:
    """The example apartment loaded once for the module, for tests that only read it (a test
    that writes to the belief takes ``scene``)."""
    with SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl") as graph:
        yield graph
