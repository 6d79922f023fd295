"""JANUS's own scope study: Table 2's eleven domains, Table 3's five triads and ALL.

The domains are the advisor pack (the paper's Advisor) and the ten profiles of
``knowledge/packs/janus_profiles`` (:func:`paper_profiles`), in Table 2's order. The labelled
requests are ``evaluation/janus/paper_sets/scope_requests.yaml`` (:func:`load_paper_requests`):
one entry per configuration (``all`` and the five triads), each with its candidate domains and
its items (``text``, ``domain`` as Table 2 spells it or OutOfScope, ``task``, ``note``).

Each configuration is routed among its candidates + OutOfScope by the same cascade as the
11-domain scope row (:func:`~evaluation.janus.profile_scope.score_profile_scope`: the TF-IDF
matcher over the candidates' descriptions and examples, then the backend's model for what it
doubts). :func:`paper_rows` sets each configuration's accuracy and mean pairwise similarity
beside the paper's (Tables 3 and 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogtree.evaluation.janus.datasets import DatasetError
from cogtree.evaluation.janus.profile_scope import ProfileScopeItem, score_profile_scope
from cogtree.evaluation.janus.scope_similarity import SimilarityMatrix
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.packs.domain_profile import (
    JANUS_PACKS,
    JANUS_PROFILES,
    DomainProfile,
    load_profiles,
)
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE
from cogtree.knowledge.validation_errors import first_problem

PAPER_REQUESTS = Path(__file__).with_name("paper_sets") / "scope_requests.yaml"
"""The labelled requests of the paper study (written apart from the profiles)."""

TABLE_2 = {
    "Movies": "movies",
    "Advisor": "advisor",
    "Travel": "travel",
    "JobHunt": "job_hunt",
    "TechSupport": "tech_support",
    "Education": "education",
    "HealthSymptoms": "health_symptoms",
    "Shopping": "shopping",
    "Events": "events",
    "Restaurants": "restaurants",
    "Fitness": "fitness",
}
"""Table 2's domains in the paper's order: the paper's name -> cogtree's profile name."""

ALL = "ALL"
"""The configuration of all eleven domains."""


@dataclass(frozen=True)
class PaperConfiguration:
    """A candidate set of the paper and what the paper reports for it (Tables 3 and 4)."""

    code: str
    domains: tuple[str, ...]
    similarity: float | None
    accuracy: float


PAPER_CONFIGURATIONS = (
    PaperConfiguration("MHS", ("Movies", "HealthSymptoms", "Shopping"), 0.461, 1.0),
    PaperConfiguration("HSR", ("HealthSymptoms", "Shopping", "Restaurants"), 0.557, 0.958),
    PaperConfiguration("ATT", ("Advisor", "Travel", "TechSupport"), 0.587, 1.0),
    PaperConfiguration("TEF", ("TechSupport", "Education", "Fitness"), 0.623, 1.0),
    PaperConfiguration("TER", ("Travel", "Events", "Restaurants"), 0.715, 1.0),
    PaperConfiguration(ALL, tuple(TABLE_2), None, 0.985),
)
"""The five triads (lowest overlap first) and ALL, with the paper's mean pairwise cosine
similarity (sentence-transformer embeddings of its descriptions) and its accuracy."""


def paper_profiles(registry: DomainRegistry) -> list[DomainProfile]:
    """Table 2's eleven domains in the paper's order (the advisor from its pack)."""
    loaded = load_profiles([registry.get(name) for name in JANUS_PACKS], JANUS_PROFILES)
    by_name = {profile.name: profile for profile in loaded}
    missing = sorted(set(TABLE_2.values()) - set(by_name))
    if missing:
        raise DatasetError(f"{JANUS_PROFILES}: no profile for {', '.join(missing)}")
    return [by_name[name] for name in TABLE_2.values()]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=1)
    domain: str
    task: str | None = None
    note: str | None = None


class _Configuration(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    domains: list[str]
    items: list[_Request] = Field(min_length=1)


def load_paper_requests(path: Path = PAPER_REQUESTS) -> dict[str, list[ProfileScopeItem]]:
    """Each configuration's items (key: its code), labels as profile names or OutOfScope.

    :class:`DatasetError` names the file, the configuration and the field when the file does
    not fit, or when a configuration's candidates or an item's domain are not Table 2's.
    """
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise DatasetError(f"cannot read {path}: {error}") from error
    if not isinstance(raw, dict):
        raise DatasetError(f"{path}: expected a mapping of configuration codes to their sets")
    known = {paper.code: paper for paper in PAPER_CONFIGURATIONS}
    sets: dict[str, list[ProfileScopeItem]] = {}
    for key, value in raw.items():
        code = str(key).upper()
        where = f"{path}: {key}"
        if code not in known:
            raise DatasetError(f"{where}: no configuration of Table 3; use {', '.join(known)}")
        try:
            entry = _Configuration.model_validate(value)
        except ValidationError as error:
            raise DatasetError(f"{where}: {first_problem(error)}") from None
        candidates = set(known[code].domains) | {OUT_OF_SCOPE}
        if set(entry.domains) != candidates:
            raise DatasetError(
                f"{where}: field `domains` should be {', '.join(sorted(candidates))}"
            )
        for number, item in enumerate(entry.items, start=1):
            if item.domain not in candidates:
                raise DatasetError(
                    f"{where} item {number}: field `domain` {item.domain!r} is not a candidate"
                )
        sets[code] = [
            ProfileScopeItem(
                utterance=item.text,
                domain=TABLE_2.get(item.domain, OUT_OF_SCOPE),
                tag=item.task or "none",
            )
            for item in entry.items
        ]
    return sets


@dataclass(frozen=True)
class PaperRow:
    """One configuration on one backend, beside the paper."""

    paper: PaperConfiguration
    backend: str
    items: int
    accuracy: float | None
    fast_path: float | None
    model_calls: int
    similarity: dict[str, float]


def paper_rows(
    profiles: Sequence[DomainProfile],
    sets: dict[str, list[ProfileScopeItem]],
    matrices: Sequence[SimilarityMatrix],
    *,
    backend: str,
    llm: LLMClient | None,
    label: str = "",
) -> list[PaperRow]:
    """Route each configuration's items among its candidates; the mean similarities too."""
    by_name = {profile.name: profile for profile in profiles}
    rows = []
    for paper in PAPER_CONFIGURATIONS:
        if paper.code not in sets:
            continue
        names = [TABLE_2[domain] for domain in paper.domains]
        score = score_profile_scope(
            [by_name[name] for name in names], sets[paper.code], backend=backend, llm=llm
        )
        rows.append(
            PaperRow(
                paper,
                label or backend,
                len(score.items),
                score.accuracy,
                score.share("fast_path"),
                len(score.calls),
                {matrix.method: round(matrix.mean(names), 3) for matrix in matrices},
            )
        )
    return rows


def paper_table(rows: Sequence[PaperRow]) -> str:
    """Tables 3 and 4 side by side: one Markdown row per configuration and backend."""
    methods = list(dict.fromkeys(method for row in rows for method in row.similarity))
    columns = ["config", "domains", "paper similarity"]
    columns += [f"similarity ({method})" for method in methods]
    columns += ["backend", "items", "accuracy", "paper accuracy", "fast path", "model calls"]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        cells = [
            row.paper.code,
            "all eleven" if row.paper.code == ALL else ", ".join(row.paper.domains),
            _shown(row.paper.similarity, 3),
            *(_shown(row.similarity.get(method), 3) for method in methods),
            row.backend,
            str(row.items),
            _shown(row.accuracy, 3),
            _shown(row.paper.accuracy, 3),
            _shown(row.fast_path, 2),
            str(row.model_calls),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _shown(value: float | None, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"
