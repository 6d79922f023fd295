"""Fixtures shared by the behaviour tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph


@pytest.fixture
def domains(shipped_domains: DomainRegistry) -> DomainRegistry:
    """The shipped packs, loaded once for the run, with the first pack active for each test
    (whatever pack a tree switched to)."""
    return shipped_domains


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
