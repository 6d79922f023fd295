"""Scenes written in Turtle for the referent tests, and what a description resolves to."""

from __future__ import annotations

from collections.abc import Iterator

from cogtree.knowledge.scene.scene_graph import SceneGraph

SCENE_PREFIXES = """@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
"""
"""The prefixes a test scene's Turtle is written with (``cog:``, the scene's ``:``, ``rdfs:``)."""


def open_scene(turtle: str, source: str) -> Iterator[SceneGraph]:
    """The scene graph of ``turtle``, closed when the fixture that yields from it ends."""
    scene = SceneGraph.from_turtle_text(turtle, source=source)
    yield scene
    scene.close()


def ids(scene: SceneGraph, description: str) -> list[str]:
    """The ids of the candidates ``description`` resolves to in ``scene``, sorted by id."""
    return [candidate.id for candidate in scene.resolve_referent(description)]
