"""Memory retrieval latency (JANUS store) at 100, 1k and 10k archived facts, in one run.

For each size a fresh SQLite store is filled through ``MemoryStore.write`` (turns carrying
many stated facts, a small core budget so they flow into the archive), then reopened with
the default configuration and measured:

- open: load H, C and A from the file and rebuild the archive's similarity index;
- archive top-k: ``search_archive(query, 5)`` alone;
- read() steady: ``read(query)`` (C, H, top-3 archive, reconciliation, rendering), no writes;
- write(): one turn with one stated fact, in the realistic loop "write a turn, then read";
- read() after write: the ``read(query)`` that follows each of those writes.

Target (issue 3): retrieval <= 5 ms p50 at 10k archived items. Asserts nothing. ``--quick``
(CI): 100 items, 20 queries and 20 writes (each write refits the archive's index).

    python benchmarks/memory_latency.py [--sizes 100 1000 10000] [--queries 200] [--writes 200]
                                        [--quick]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from cogtree.knowledge.memory.model import Claim, FactKind, TurnTrace
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore

KINDS: tuple[FactKind, ...] = ("identifier", "hard_constraint", "preference", "other")
SYLLABLES = ("ka", "lo", "mi", "nu", "ra", "se", "ti", "vo", "ze", "pa", "qu", "do", "fi", "ge")
TOPICS = (
    "tea",
    "coffee",
    "milk",
    "sugar",
    "breakfast",
    "lunch",
    "dinner",
    "snack",
    "peanut",
    "gluten",
    "lactose",
    "allergy",
    "kitchen",
    "bedroom",
    "garden",
    "sofa",
    "table",
    "shelf",
    "window",
    "door",
    "mug",
    "glasses",
    "keys",
    "phone",
    "tablet",
    "daughter",
    "son",
    "neighbour",
    "doctor",
    "nurse",
    "walk",
    "music",
    "radio",
    "news",
    "football",
    "morning",
    "evening",
)


@dataclass(frozen=True)
class Row:
    """One measured operation at one archive size (milliseconds)."""

    archived: int
    operation: str
    samples: int
    p50_ms: float
    p95_ms: float
    max_ms: float


class _Text:
    """Seeded generator of fact texts and requests over a fixed vocabulary."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.words = sorted(
            {
                "".join(self.random.choice(SYLLABLES) for _ in range(self.random.randint(2, 4)))
                for _ in range(3000)
            }
        )

    def fact(self, number: int) -> str:
        picks = self.random.sample(TOPICS, 2) + self.random.sample(self.words, 5)
        return f"Fact {number}: " + " ".join(picks) + "."

    def request(self) -> str:
        return " ".join(self.random.sample(TOPICS, 2) + self.random.sample(self.words, 2))


def _fill(path: Path, size: int, text: _Text) -> None:
    """Archive ``size`` facts (about: C keeps a few) through ordinary writes."""
    chunk = max(10, size // 20)
    config = MemoryConfig(history_capacity=1, core_budget_chars=300)
    with MemoryStore(path, config=config) as store:
        written = 0
        pending = 0
        while len(store.archive) < size:
            count = max(0, min(chunk, size - len(store.archive) - pending))
            claims = tuple(
                Claim(
                    text=text.fact(written + n),
                    kind=text.random.choice(KINDS),
                    source="stated",
                )
                for n in range(count)
            )
            store.write(TurnTrace(user="(benchmark turn)", claims=claims))
            written += count
            pending = count


def _once(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000.0


def _row(archived: int, operation: str, samples: Sequence[float]) -> Row:
    ordered = sorted(samples)
    middle = len(ordered) // 2
    p50 = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return Row(archived, operation, len(ordered), p50, p95, ordered[-1])


def measure(size: int, *, queries: int = 200, writes: int = 200, seed: int = 0) -> list[Row]:
    """All rows for one archive size."""
    text = _Text(seed)
    requests = [text.request() for _ in range(queries)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.sqlite3"
        _fill(path, size, text)
        opening = [_once(lambda: MemoryStore(path).close()) for _ in range(3)]
        with MemoryStore(path) as store:
            archived = len(store.archive)
            top_k = [_once(partial(store.search_archive, request, 5)) for request in requests]
            steady = [_once(partial(store.read, request)) for request in requests]
            write_ms: list[float] = []
            read_ms: list[float] = []
            for number in range(writes):
                fact = Claim(text=text.fact(size + number), kind="preference", source="stated")
                trace = TurnTrace(user="(benchmark turn)", robot="ok", claims=(fact,))
                write_ms.append(_once(partial(store.write, trace)))
                read_ms.append(_once(partial(store.read, requests[number % queries])))
    return [
        _row(archived, "open (load + index rebuild)", opening),
        _row(archived, "archive top-k (k=5)", top_k),
        _row(archived, "read() steady", steady),
        _row(archived, "write() one turn", write_ms),
        _row(archived, "read() after write", read_ms),
    ]


def run(
    sizes: Sequence[int] = (100, 1_000, 10_000), *, queries: int = 200, writes: int = 200
) -> list[Row]:
    """Measure every size in ``sizes``; rows in size order."""
    return [row for size in sizes for row in measure(size, queries=queries, writes=writes)]


def main() -> None:
    """Run every size and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000, 10_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="CI: 100 items, 20 queries, 20 writes")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.queries, args.writes = [100], 20, 20
    print(format_table(run(args.sizes, queries=args.queries, writes=args.writes)))


def format_table(rows: Sequence[Row]) -> str:
    """The rows as a fixed-width table."""
    lines = [
        f"{'archived':>8}  {'operation':<28} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
    ]
    lines += [
        f"{row.archived:>8}  {row.operation:<28} {row.samples:>4} "
        f"{row.p50_ms:8.2f} {row.p95_ms:8.2f} {row.max_ms:8.2f}"
        for row in rows
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
