"""Fixtures shared by the knowledge tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rdflib import Graph

from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons
from tests.knowledge.advisor_queries import advisor_runner

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


@pytest.fixture(scope="session")
def advisor_pack(shipped_packs: DomainRegistry) -> DomainPack:
    """The shipped advisor pack, loaded once per run (nothing writes to a pack)."""
    return shipped_packs.get("advisor")


@pytest.fixture(scope="session")
def advisor_lexicons(advisor_pack: DomainPack) -> dict[str, Lexicon]:
    """The advisor pack's lexicons, built once per run (the tests only read them)."""
    return build_lexicons(advisor_pack, None)


@pytest.fixture(scope="module")
def advisor_query_runner(advisor_pack: DomainPack) -> Iterator[ReadOnlyQueryRunner]:
    """A runner on the advisor graph for the templates (:func:`advisor_runner`), per module."""
    with advisor_runner(advisor_pack) as running:
        yield running
