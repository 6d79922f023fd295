"""Fixtures shared by the knowledge tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rdflib import Graph

from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner

QUERY_PREFIXES = {"cog": "https://cogtree.dev/ontology#", "home": "https://cogtree.dev/home/"}
"""The namespaces the query-runner tests allow."""


@pytest.fixture
def make_runner() -> Iterator[Callable[..., ReadOnlyQueryRunner]]:
    """Factory of read-only query runners over ``cog:`` and ``home:``, closed after the test."""
    made: list[ReadOnlyQueryRunner] = []

    def make(graph: Graph, **options: Any) -> ReadOnlyQueryRunner:
        runner = ReadOnlyQueryRunner(graph, QUERY_PREFIXES, **options)
        made.append(runner)
        return runner

    yield make
    for runner in made:
        runner.close()
