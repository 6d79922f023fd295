"""The kitchen belief every capability test plans on (tests/skills/test_kitchen_skills.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.belief import Belief
from tests.skills.test_kitchen_skills import KITCHEN


@pytest.fixture(scope="module")
def kitchen() -> Iterator[Belief]:
    with SceneGraph.from_turtle_text(KITCHEN) as scene:
        yield Belief.from_scene(scene, "robot1")
