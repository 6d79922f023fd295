"""Leakage: pack examples that nearly copy an evaluation request or a scenario request.

A fast path fitted to the very sentences it is measured on overstates how well it
generalises, so no pack example (``examples`` of a pack and of its tasks, and the utterances
of its ``prompt_examples``) may be a near-duplicate of:

- a shipped scenario's request (``sim/scenarios/*.yaml``, ``request.text``);
- an item of the repository's evaluation sets (``tests/data/eval/*.jsonl``: ``utterance``,
  ``question``, and the ``task`` of ask-or-act items);
- an item of the shared development sets when present (``shared/data/clarify/*.jsonl``:
  ``task`` and ``clear_twin``).

Near-duplicate: cosine similarity of TF-IDF word vectors (scikit-learn, fitted on all the
texts together) of at least :data:`THRESHOLD`. :func:`find_leaks` lists every such pair.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

from knowledge.domain_pack import PackManifest

THRESHOLD = 0.8
"""The cosine similarity from which a pack example counts as a copy."""

EVAL_FIELDS = ("utterance", "question", "clear_twin")
"""Fields of an evaluation item that hold what a user says."""

ASK_OR_ACT_FIELD = "task"
"""What the user says in an ask-or-act item (elsewhere ``task`` names a pack task)."""


@dataclass(frozen=True)
class Text:
    """A sentence and where it comes from (``file: where``)."""

    text: str
    origin: str


@dataclass(frozen=True)
class Leak:
    """A pack example too close to an evaluation or scenario request."""

    example: Text
    request: Text
    similarity: float

    def __str__(self) -> str:
        return (
            f"{self.similarity:.2f}  {self.example.origin}: {self.example.text!r}\n"
            f"      ~ {self.request.origin}: {self.request.text!r}"
        )


def pack_examples(pack_files: Iterable[Path]) -> list[Text]:
    """Every example sentence of the given ``pack.yaml`` files."""
    found = []
    for path in pack_files:
        manifest = PackManifest.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        found += [Text(text, f"{path}: examples") for text in manifest.examples]
        for task in manifest.tasks:
            found += [Text(text, f"{path}: task {task.name}") for text in task.examples]
        found += [
            Text(example.utterance, f"{path}: prompt_examples")
            for example in manifest.prompt_examples
        ]
    return found


def scenario_requests(scenario_files: Iterable[Path]) -> list[Text]:
    """The request of each scenario file (``request.text``, or ``request`` when a string)."""
    found = []
    for path in scenario_files:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        request = data.get("request")
        text = request.get("text") if isinstance(request, dict) else request
        if isinstance(text, str) and text.strip():
            found.append(Text(text, f"{path}: request"))
    return found


def evaluation_requests(jsonl_files: Iterable[Path]) -> list[Text]:
    """What the user says in each item of the given JSONL files (see the module docs)."""
    found = []
    for path in jsonl_files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            item = json.loads(line)
            fields = list(EVAL_FIELDS)
            if "scene_objects" in item or "scene" in item or "should_ask" in item:
                fields.append(ASK_OR_ACT_FIELD)
            found += [
                Text(item[name], f"{path}:{number} {name}")
                for name in fields
                if isinstance(item.get(name), str) and item[name].strip()
            ]
    return found


def find_leaks(
    examples: Sequence[Text], requests: Sequence[Text], threshold: float = THRESHOLD
) -> list[Leak]:
    """Every pair whose TF-IDF cosine similarity reaches ``threshold``, most similar first."""
    if not examples or not requests:
        return []
    vectorizer = TfidfVectorizer(lowercase=True, ngram_range=(1, 1))
    vectorizer.fit([t.text for t in (*examples, *requests)])
    similarity = cosine_similarity(
        vectorizer.transform([t.text for t in examples]),
        vectorizer.transform([t.text for t in requests]),
    )
    leaks = [
        Leak(examples[row], requests[column], round(float(similarity[row, column]), 3))
        for row, column in np.argwhere(similarity >= threshold)
    ]
    return sorted(leaks, key=lambda leak: (-leak.similarity, leak.example.origin))
