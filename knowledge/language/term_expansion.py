"""Synonym and category expansion for TF-IDF recall without a model.

"Is shrimp ok?" shares no word with "The user is allergic to prawns"; TF-IDF alone cannot
match them. A :class:`TermExpander` gives the terms of every synonym group one of a text's
words or phrases belongs to (shrimp -> shrimp, prawn, prawns, shellfish...), so the index and
the query meet on shared terms. Groups come from ``knowledge/language/memory_synonyms.yaml`` and,
when it is present, from the household taxonomy (``knowledge/scene/taxonomy/household.ttl``: a
type's label and ``cog:synonym`` values, with the labels of its ``cog:broaderType`` categories).

Files are read on first use, so opening a memory costs nothing until something is recalled.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections.abc import Iterable
from pathlib import Path

import yaml
from rdflib import RDFS, Namespace

from cogtree.knowledge.language.tfidf import english_stop_words
from cogtree.knowledge.scene.rdf_store import load_turtle, new_graph
from cogtree.knowledge.scene.taxonomy import TAXONOMY_PATH

log = logging.getLogger(__name__)

SYNONYMS_FILE = Path(__file__).with_name("memory_synonyms.yaml")
"""The shipped synonym groups."""

TAXONOMY_FILE = TAXONOMY_PATH
"""The household taxonomy, when this checkout has it."""

COG = Namespace("https://cogtree.dev/ontology#")


def synonym_groups(path: Path = SYNONYMS_FILE) -> list[list[str]]:
    """The groups of a synonyms YAML file (``groups:``, ``people:``); a clear error if bad."""
    return _groups(path, "groups") + _groups(path, "people", required=False)


def person_groups(path: Path = SYNONYMS_FILE) -> list[list[str]]:
    """The file's ``people:`` groups: words for someone by who they are (son, mum, guest)."""
    return _groups(path, "people", required=False)


def _groups(path: Path, key: str, *, required: bool = True) -> list[list[str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    groups = data.get(key) if isinstance(data, dict) else None
    if groups is None and not required:
        return []
    if not isinstance(groups, list) or not all(isinstance(group, list) for group in groups):
        raise ValueError(f"{path}: expected `{key}:` as a list of lists of words")
    return [[str(term) for term in group] for group in groups]


def taxonomy_groups(path: Path = TAXONOMY_FILE) -> list[list[str]]:
    """One group per object type of the taxonomy: its label, synonyms and categories' labels."""
    if not path.is_file():
        return []
    graph = load_turtle(new_graph(), path)

    def names(node: object) -> list[str]:
        return [str(label) for label in graph.objects(node, RDFS.label)] + [  # type: ignore[arg-type]
            str(synonym)
            for synonym in graph.objects(node, COG.synonym)  # type: ignore[arg-type]
        ]

    groups = []
    for node in set(graph.subjects(RDFS.label, None)):
        broader = [
            name for parent in graph.objects(node, COG.broaderType) for name in names(parent)
        ]
        group = names(node) + broader
        if len(group) > 1:
            groups.append(group)
    return groups


class TermExpander:
    """Adds the related terms of a text's words and phrases to it (module docstring)."""

    def __init__(self, groups: Iterable[Iterable[str]] | None = None) -> None:
        self._given = None if groups is None else [list(group) for group in groups]
        self._lock = threading.Lock()
        self._related: dict[str, frozenset[str]] | None = None
        self._pattern: re.Pattern[str] | None = None

    def related(self, text: str) -> list[str]:
        """The terms of every group a word or phrase of ``text`` belongs to, itself included.

        "is shrimp ok" -> shrimp, prawn, prawns, shellfish...: the terms a text and a query
        meet on, kept apart from the text's own words so that a similarity can weigh them
        less (:class:`~knowledge.language.similarity.SimilarityIndex`).
        """
        related, pattern = self._loaded()
        if pattern is None:
            return []
        terms: dict[str, None] = {}
        for match in pattern.finditer(text.casefold()):
            terms[match.group(0)] = None
            terms.update(dict.fromkeys(sorted(related[match.group(0)])))
        return list(terms)

    def _loaded(self) -> tuple[dict[str, frozenset[str]], re.Pattern[str] | None]:
        with self._lock:
            if self._related is None:
                given = self._given
                self._related, self._pattern = _shipped() if given is None else _index(given)
            return self._related, self._pattern


@functools.cache
def _shipped() -> tuple[dict[str, frozenset[str]], re.Pattern[str] | None]:
    """The index of the shipped synonym and taxonomy groups, built once (package data)."""
    groups = synonym_groups() + taxonomy_groups()
    log.debug("term expansion: %d synonym groups", len(groups))
    return _index(groups)


def _index(
    groups: Iterable[Iterable[str]],
) -> tuple[dict[str, frozenset[str]], re.Pattern[str] | None]:
    related: dict[str, set[str]] = {}
    for group in groups:
        terms = {" ".join(term.casefold().split()) for term in group if term.strip()}
        terms -= english_stop_words()  # "can" names a tin, but "can she eat..." asks
        for term in terms:
            related.setdefault(term, set()).update(terms - {term})
    if not related:
        return {}, None
    alternatives = "|".join(re.escape(term) for term in sorted(related, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")
    return {term: frozenset(others) for term, others in related.items()}, pattern
