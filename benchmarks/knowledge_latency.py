"""The knowledge benchmark of issue 3, in one run: perception queries, then memory retrieval.

- perception queries on scene graphs of about 1k, 10k and 50k triples, Oxigraph store side
  by side with rdflib's default store (target: <= 2 ms p50 at 50k on Oxigraph);
- memory retrieval at 100, 1k and 10k archived items (target: <= 5 ms p50 at 10k).

Prints tables; asserts nothing. About a minute and a half on two cores (``--quick``: the
smallest sizes, a few seconds, for CI).

    python benchmarks/knowledge_latency.py [--quick]
"""

from __future__ import annotations

import argparse

import memory_latency
import scene_graph_latency


def main() -> None:
    """Run both benchmarks and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smallest sizes, for CI")
    quick = parser.parse_args().quick
    print("== perception queries (ms)")
    if quick:
        rows = scene_graph_latency.run(
            [scene_graph_latency.QUICK_SIZE],
            repetitions=5,
            slow_budget_s=scene_graph_latency.QUICK_SLOW_BUDGET_S,
        )
    else:
        rows = scene_graph_latency.run()
    print(scene_graph_latency.format_table(rows))
    print()
    print("== memory retrieval (ms)")
    memory = memory_latency.run([100], queries=20, writes=20) if quick else memory_latency.run()
    print(memory_latency.format_table(memory))


if __name__ == "__main__":
    main()
