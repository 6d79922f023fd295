"""``cogtree eval scope-similarity``: domain overlap against routing accuracy (JANUS Table 3).

Prints the pairwise similarity of the 11 domains' descriptions (TF-IDF; embeddings too when
``--embedding`` finds an embedding function, else it says they were skipped), five 3-domain
configurations from low to high overlap with their routing accuracy per backend, and writes
the similarity heatmap as a PNG (``--heatmap``). See :mod:`evaluation.janus.scope_similarity`.

``--paper`` runs JANUS's own study instead (:mod:`evaluation.janus.paper_scope`): Table 2's
eleven domains, Table 3's five named triads and ALL on the paper set's labelled requests,
each configuration's mean similarity and accuracy beside the paper's.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from cogtree.evaluation.janus.datasets import DEFAULT_DATA, DatasetError
from cogtree.evaluation.janus.paper_scope import (
    PAPER_REQUESTS,
    PaperRow,
    load_paper_requests,
    paper_profiles,
    paper_rows,
    paper_table,
)
from cogtree.evaluation.janus.profile_scope import PROFILE_SCOPE_FILE, load_profile_scope
from cogtree.evaluation.janus.runner import (
    BACKENDS,
    BackendUnavailable,
    backend_label,
    client_for,
)
from cogtree.evaluation.janus.scope_similarity import (
    ConfigurationResult,
    SimilarityMatrix,
    configuration_table,
    embedding_similarity,
    evaluate_configurations,
    similarity_table,
    spread_configurations,
    tfidf_similarity,
    write_heatmap,
)
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.embedding import RECALL_METHODS, RecallMethod, choose_recall
from cogtree.knowledge.llm.errors import LLMError
from cogtree.knowledge.packs.domain_profile import (
    SHIPPED_PROFILES,
    DomainProfile,
    ProfileError,
    load_profiles,
)
from cogtree.knowledge.packs.domain_registry import DomainRegistry

DEFAULT_BACKENDS = ("none", "scripted")
"""Backends evaluated when no ``--backend`` is given."""

DEFAULT_HEATMAP = Path("scope_similarity.png")
"""Where the heatmap goes unless ``--heatmap`` says otherwise."""


def add_scope_similarity_parser(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``eval scope-similarity`` to the ``eval`` subcommands."""
    parser = kinds.add_parser(
        "scope-similarity",
        help="domain-description similarity and routing accuracy of 3-domain configurations",
        description="Pairwise similarity of the domain profiles' descriptions (TF-IDF, and "
        "embeddings when available), five 3-domain configurations from low to high overlap, "
        "and each one's routing accuracy on the profile scope set (JANUS Table 3, Figure 5).",
    )
    parser.add_argument(
        "--backend",
        action="append",
        choices=BACKENDS,
        help="LLM backend behind the scope matcher (repeatable; default: none and scripted, "
        "an ORACLE answering with the label)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"the scope items (default: {DEFAULT_DATA / PROFILE_SCOPE_FILE}; with --paper, "
        f"{PAPER_REQUESTS})",
    )
    parser.add_argument(
        "--profiles",
        type=Path,
        default=SHIPPED_PROFILES,
        metavar="DIR",
        help="profile files of the domains without a pack (the shipped packs are added)",
    )
    parser.add_argument(
        "--embedding",
        choices=RECALL_METHODS,
        default="auto",
        help="embedding function for a second similarity matrix: auto (Ollama's when it "
        "answers, else skipped), ollama, llama-cpp, or tfidf (skip embeddings)",
    )
    parser.add_argument(
        "--heatmap",
        type=Path,
        default=DEFAULT_HEATMAP,
        metavar="FILE.png",
        help=f"where to write the heatmap (default: {DEFAULT_HEATMAP})",
    )
    parser.add_argument("--no-heatmap", action="store_true", help="write no image")
    parser.add_argument(
        "--paper",
        action="store_true",
        help="JANUS's study: Table 2's eleven domains, Table 3's triads and ALL, on "
        f"{PAPER_REQUESTS.name} (or --data FILE.yaml), beside the paper's figures",
    )
    parser.add_argument("--output", type=Path, metavar="FILE.md", help="write the Markdown here")


def run_scope_similarity(args: argparse.Namespace) -> int:
    """Run the study; the exit code (2: bad data or an embedding asked for that cannot run)."""
    if args.paper:
        return _run_paper(args)
    try:
        profiles = load_profiles(DomainRegistry.discover().packs, args.profiles)
        items = load_profile_scope(args.data or DEFAULT_DATA / PROFILE_SCOPE_FILE, profiles)
    except (ProfileError, DatasetError) as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    notes: list[str] = []
    matrices = _similarities(args, profiles, notes)
    if matrices is None:
        return 2
    embedded = matrices[1] if len(matrices) > 1 else None
    configurations = spread_configurations(matrices[0])
    results: list[ConfigurationResult] = []
    for backend, client in _clients(args, notes):
        print(f"[{backend}] routing {len(configurations)} configurations", file=sys.stderr)
        results += evaluate_configurations(
            profiles,
            items,
            configurations,
            backend=backend,
            llm=client,
            label=backend_label(backend, client),
            embedded=embedded,
        )
    _heatmap(args, matrices, notes)
    _write(_markdown(len(profiles), matrices, results, notes), args.output)
    return 0


def _write(text: str, path: Path | None) -> None:
    if path is None:
        sys.stdout.write(text)
    else:
        path.write_text(text, encoding="utf-8")


def _run_paper(args: argparse.Namespace) -> int:
    """JANUS's study over Table 2's domains and the paper set; the exit code."""
    data = args.data or PAPER_REQUESTS
    try:
        profiles = paper_profiles(DomainRegistry.discover())
        sets = load_paper_requests(data)
    except (ProfileError, DatasetError) as error:
        print(f"cogtree: error: {error}", file=sys.stderr)
        return 2
    notes: list[str] = [f"requests: {data}"]
    matrices = _similarities(args, profiles, notes)
    if matrices is None:
        return 2
    rows: list[PaperRow] = []
    for backend, client in _clients(args, notes):
        print(f"[{backend}] routing {len(sets)} configurations", file=sys.stderr)
        label = backend_label(backend, client)
        rows += paper_rows(profiles, sets, matrices, backend=backend, llm=client, label=label)
    _heatmap(args, matrices, notes)
    parts = [
        "## Similarity of Table 2's domain descriptions",
        "",
        similarity_table(matrices),
        "",
        "## Scope accuracy per configuration, beside JANUS (Tables 3 and 4)",
        "",
        paper_table(rows) if rows else "no backend could run",
        "",
        *(f"- {note}" for note in notes),
    ]
    _write("\n".join(parts) + "\n", args.output)
    return 0


def _similarities(
    args: argparse.Namespace, profiles: list[DomainProfile], notes: list[str]
) -> list[SimilarityMatrix] | None:
    """TF-IDF similarity, then the embedding's when it runs; None (said) when it fails."""
    try:
        embedded = _embedding_matrix(args.embedding, profiles, notes)
    except LLMError as error:
        print(f"cogtree: error: --embedding {args.embedding}: {error}", file=sys.stderr)
        return None
    return [tfidf_similarity(profiles), *([embedded] if embedded is not None else [])]


def _clients(args: argparse.Namespace, notes: list[str]) -> Iterator[tuple[str, LLMClient | None]]:
    """Each backend asked for with its client, closed after use; one that cannot run is noted."""
    for backend in dict.fromkeys(args.backend or DEFAULT_BACKENDS):
        try:
            client = client_for(backend)
        except BackendUnavailable as error:
            notes.append(f"{backend} skipped: {error}")
            continue
        try:
            yield backend, client
        finally:
            if client is not None:
                client.close()


def _heatmap(args: argparse.Namespace, matrices: list[SimilarityMatrix], notes: list[str]) -> None:
    """Write the heat map PNG unless ``--no-heatmap``; note where, or why not."""
    if args.no_heatmap:
        return
    try:
        notes.append(f"heatmap written to {write_heatmap(matrices, args.heatmap)}")
    except ImportError as error:
        notes.append(f"heatmap skipped: {error}")


def _embedding_matrix(
    method: RecallMethod, profiles: list[DomainProfile], notes: list[str]
) -> SimilarityMatrix | None:
    """The embedding similarity matrix, or None with a note saying why it was skipped."""
    if method == "tfidf":
        notes.append("embeddings skipped: --embedding tfidf")
        return None
    choice = choose_recall(method, LLMConfig.load().defaults)
    if choice.embedder is None:
        notes.append(f"embeddings skipped: no embedding function ({choice.detail})")
        return None
    notes.append(f"embeddings: {choice.method}")
    return embedding_similarity(profiles, choice.embedder, choice.method)


def _markdown(
    domains: int,
    matrices: list[SimilarityMatrix],
    results: list[ConfigurationResult],
    notes: list[str],
) -> str:
    parts = [
        f"## Similarity of the {domains} domain descriptions",
        "",
        similarity_table(matrices),
        "",
        "## Routing accuracy by overlap (3 domains + OutOfScope per configuration)",
        "",
        configuration_table(results) if results else "no backend could run",
    ]
    if notes:
        parts += ["", *(f"- {note}" for note in notes)]
    return "\n".join(parts) + "\n"
