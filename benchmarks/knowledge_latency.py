"""The knowledge benchmark of issue 3, in one run: perception queries, then memory retrieval.

- perception queries on scene graphs of about 1k, 10k and 50k triples, Oxigraph store side
  by side with rdflib's default store (target: <= 2 ms p50 at 50k on Oxigraph);
- memory retrieval at 100, 1k and 10k archived items (target: <= 5 ms p50 at 10k).

Prints tables; asserts nothing. About a minute and a half on two cores.

    python benchmarks/knowledge_latency.py
"""

from __future__ import annotations

import memory_latency
import scene_graph_latency


def main() -> None:
    """Run both benchmarks and print their tables."""
    print("== perception queries (ms)")
    print(scene_graph_latency.format_table(scene_graph_latency.run()))
    print()
    print("== memory retrieval (ms)")
    print(memory_latency.format_table(memory_latency.run()))


if __name__ == "__main__":
    main()
