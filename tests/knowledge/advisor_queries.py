"""Running the advisor pack's templates as GenerateQuery binds them, for the knowledge tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.scene.named_queries import Binding
from cogtree.knowledge.scene.readonly_query import TEMPLATE_LENGTH_FACTOR, ReadOnlyQueryRunner


@contextmanager
def advisor_runner(pack: DomainPack) -> Iterator[ReadOnlyQueryRunner]:
    """A runner on the pack's graph: a generous time limit (the tests check answers, not
    speed), and room for every dish."""
    with ReadOnlyQueryRunner(
        pack.knowledge_graph(), pack.manifest.prefixes, timeout_s=10.0, max_rows=1000
    ) as running:
        yield running


def run(
    pack: DomainPack, runner: ReadOnlyQueryRunner, template: str, **given: Binding
) -> list[dict[str, str | None]]:
    """The rows of ``template`` with ``given`` bound (every other parameter unbound)."""
    query = pack.query(template)
    text = query.bind(**{**dict.fromkeys(query.parameters), **given})
    assert len(text) <= runner.max_chars * TEMPLATE_LENGTH_FACTOR
    return runner.run(text, template=True).rows
