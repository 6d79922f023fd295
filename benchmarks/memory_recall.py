"""Memory recall quality: recall@3 of the archive's retrieval, per method, on the recall set.

The archive holds every fact of ``benchmarks/data/recall_set.yaml`` at once (the others are the
distractors of each question); a question counts as answered when its fact is among the 3
facts retrieved (recall@3; recall@1 is printed too). Methods:

- ``tf-idf``: TF-IDF alone (word unigrams and bigrams), what recall was before synonyms;
- ``tf-idf + synonyms``: the robot's default without a model
(knowledge/language/memory_synonyms.yaml);
- ``tf-idf + synonyms + taxonomy``: the same with the household taxonomy, when it is there
  (knowledge/scene/taxonomy/household.ttl, or ``--taxonomy FILE``);
- ``llama-cpp embeddings``: SmolLM2-135M's pooled embeddings (the ``local`` extra), a causal
  chat model standing in for an embedding model: integration only;
- ``ollama embeddings``: an embedding model served by Ollama (``--embed-model``), when a
  server has it.

Methods that cannot run here are listed as skipped, with the reason. Asserts nothing.

    python benchmarks/memory_recall.py [--quick] [--taxonomy FILE] [--embed-model NAME]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from cogtree.knowledge.language.term_expansion import (
    TAXONOMY_FILE,
    TermExpander,
    synonym_groups,
    taxonomy_groups,
)
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.embedding import DEFAULT_EMBED_MODEL, choose_recall
from cogtree.knowledge.llm.errors import LLMError
from cogtree.knowledge.memory.archive import ArchiveIndex

RECALL_SET = Path(__file__).parent / "data" / "recall_set.yaml"
QUICK_FACTS = 12


@dataclass(frozen=True)
class Pair:
    fact: int
    question: str


def load_set(quick: bool) -> tuple[list[str], list[Pair]]:
    """The facts, and every (fact, question) pair."""
    facts = yaml.safe_load(RECALL_SET.read_text(encoding="utf-8"))["facts"]
    if quick:
        facts = facts[:QUICK_FACTS]
    texts = [entry["text"] for entry in facts]
    pairs = [Pair(i, question) for i, entry in enumerate(facts) for question in entry["questions"]]
    return texts, pairs


def measure(index: ArchiveIndex, pairs: list[Pair]) -> tuple[float, float, float]:
    """recall@3, recall@1 and the mean query time in ms."""
    hits3 = hits1 = 0
    clock = time.perf_counter()
    for pair in pairs:
        found = [fact_id for fact_id, _ in index.top_k(pair.question, 3)]
        hits3 += pair.fact in found
        hits1 += found[:1] == [pair.fact]
    elapsed_ms = (time.perf_counter() - clock) * 1000 / max(1, len(pairs))
    return hits3 / len(pairs), hits1 / len(pairs), elapsed_ms


def methods(args: argparse.Namespace) -> dict[str, Callable[[], ArchiveIndex]]:
    """Each method's name and how to build its (empty) archive index."""
    synonyms = synonym_groups()
    taxonomy_file = Path(args.taxonomy) if args.taxonomy else TAXONOMY_FILE
    built: dict[str, Callable[[], ArchiveIndex]] = {
        "tf-idf": lambda: ArchiveIndex(expander=TermExpander([])),
        "tf-idf + synonyms": lambda: ArchiveIndex(expander=TermExpander(synonyms)),
    }
    if taxonomy_file.is_file():
        groups = synonyms + taxonomy_groups(taxonomy_file)
        built["tf-idf + synonyms + taxonomy"] = lambda: ArchiveIndex(expander=TermExpander(groups))
    else:
        print(f"skipped tf-idf + synonyms + taxonomy: no {taxonomy_file}")
    settings = LLMConfig.load().defaults
    for method in ("llama-cpp", "ollama"):
        if args.quick:
            print(f"skipped {method} embeddings: --quick")
            continue
        try:
            choice = choose_recall(method, settings, embed_model=args.embed_model)  # type: ignore[arg-type]
        except LLMError as error:
            print(f"skipped {method} embeddings: {error}")
            continue
        embedder = choice.embedder
        built[choice.method] = lambda embedder=embedder: ArchiveIndex(embedder)  # type: ignore[misc]
    return built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few facts, no embeddings (CI)")
    parser.add_argument("--taxonomy", metavar="FILE", help="household taxonomy Turtle file")
    parser.add_argument("--embed-model", default=DEFAULT_EMBED_MODEL, help="Ollama embed model")
    args = parser.parse_args()
    texts, pairs = load_set(args.quick)
    print(f"recall set: {len(texts)} facts, {len(pairs)} questions")
    print(f"{'method':<42} {'recall@3':>9} {'recall@1':>9} {'ms/query':>9}")
    for name, build in methods(args).items():
        index = build()
        try:
            index.add(list(enumerate(texts)))
            recall3, recall1, per_query = measure(index, pairs)
        except Exception as error:  # a model may fail in any way: report it, go on
            print(f"{name:<42} failed: {type(error).__name__}: {error}")
            continue
        print(f"{name:<42} {recall3:>9.3f} {recall1:>9.3f} {per_query:>9.2f}")


if __name__ == "__main__":
    main()
