"""Leakage: pack examples that nearly copy an evaluation request or a scenario request.

A fast path fitted to the very sentences it is measured on overstates how well it
generalises, so no pack example (``examples`` of a pack and of its tasks, and the utterances
of its ``prompt_examples``) may be a near-duplicate of:

- a shipped scenario's request (``sim/scenarios/*.yaml``, ``request.text``);
- an item of the repository's evaluation sets (``tests/data/eval/*.jsonl``: ``utterance``,
  ``question``, and the ``task`` of ask-or-act items);
- an item of the shared development sets when present (``shared/data/clarify/*.jsonl``:
  ``task`` and ``clear_twin``).

Domain profiles' examples (:func:`profile_examples`) are held the same way against those and
against the paper study's labelled requests (:func:`configuration_requests`: the ``text`` of
every item of ``evaluation/janus/paper_sets/*.yaml``).

Near-duplicate: cosine similarity of TF-IDF word vectors
(:class:`~knowledge.language.tfidf.TfidfVectors`, fitted on all the texts together) of at least
:data:`THRESHOLD`. :func:`find_leaks` lists every such pair.

Examples (of packs and profiles) are held more strictly, by :func:`find_example_leaks`: an
example leaks when its cosine reaches :data:`EXAMPLE_THRESHOLD` or when it shares a run of
:data:`SHARED_RUN` or more consecutive words with a request (lower-cased, punctuation
stripped). The cosine alone misses a long shared clause padded with other words, and a shared
run alone misses a reordered copy; an example is a sentence a fast path is fitted on, so
either is enough to overstate how well it generalises.

Everything else the repository ships is held against the development sets sentence by
sentence (:func:`shipped_sentences`, :func:`find_sentence_leaks`): the lexicons and other
YAML data under ``knowledge/``, the scenario requests, ``docs/*.md``, and the string literals
(docstrings included) of the Python code. Sentences have at least :data:`MIN_WORDS` words, so
single words (a taxonomy label, "apple") never count as a copy.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from cogtree.knowledge.language.tfidf import TfidfVectors
from cogtree.knowledge.packs.domain_pack import PackManifest
from cogtree.knowledge.packs.domain_profile import read_profile

THRESHOLD = 0.8
"""The cosine similarity from which a pack example counts as a copy."""

EXAMPLE_THRESHOLD = 0.6
"""The cosine similarity from which a pack or profile example counts as a copy of a request.

Lower than :data:`THRESHOLD` because an example is what the fast path is fitted on: at 0.6 a
request differs from the example in little more than a typo or a word or two.
"""

SHARED_RUN = 5
"""The fewest consecutive words an example may share with a request before it counts as a copy.

Five words make a clause ("my ankle is swollen and"); four are still common phrasing ("what
is the best").
"""

EVAL_FIELDS = ("utterance", "question", "clear_twin")
"""Fields of an evaluation item that hold what a user says."""

ASK_OR_ACT_FIELD = "task"
"""What the user says in an ask-or-act item (elsewhere ``task`` names a pack task)."""

MIN_WORDS = 5
"""The fewest words a sentence needs to be compared sentence by sentence."""

SENTENCE_END = re.compile(r"\n\s*[-*|#]\s*|(?<=[.!?;:])\s+|\n\s*\n")
"""Where a text splits into sentences: after . ! ? ; : and at paragraph, list or table starts."""

WORD = re.compile(r"[A-Za-z']+")


@dataclass(frozen=True)
class Text:
    """A sentence and where it comes from (``file: where``)."""

    text: str
    origin: str


@dataclass(frozen=True)
class Leak:
    """A pack example too close to an evaluation or scenario request.

    ``shared`` is the longest run of consecutive words the two share (lower-cased, without
    punctuation) when that run is what made it a leak, else empty.
    """

    example: Text
    request: Text
    similarity: float
    shared: str = ""

    def __str__(self) -> str:
        run = f"  shares {self.shared!r}" if self.shared else ""
        return (
            f"{self.similarity:.2f}  {self.example.origin}: {self.example.text!r}{run}\n"
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


def profile_examples(profile_files: Iterable[Path]) -> list[Text]:
    """Every example sentence of the given domain profile files (top level and per task)."""
    found = []
    for path in profile_files:
        profile = read_profile(path)
        found += [Text(text, f"{path}: examples") for text in profile.examples]
        for task in profile.tasks:
            found += [Text(text, f"{path}: task {task.name}") for text in task.examples]
    return found


def configuration_requests(yaml_files: Iterable[Path]) -> list[Text]:
    """The ``text`` of every item of every configuration in the given request files."""
    found = []
    for path in yaml_files:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for code, entry in data.items():
            items = entry.get("items", []) if isinstance(entry, dict) else []
            found += [
                Text(item["text"], f"{path}: {code} item {number}")
                for number, item in enumerate(items, start=1)
                if isinstance(item, dict) and isinstance(item.get("text"), str)
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


def _similarities(examples: Sequence[Text], requests: Sequence[Text]) -> np.ndarray:
    """The TF-IDF cosine of every example (rows) with every request (columns)."""
    rows = TfidfVectors().fit_transform([t.text for t in (*examples, *requests)])
    # rows of unit length: their dot product is the cosine
    asked = rows.rows_between(len(examples), rows.shape[0])
    return rows.rows_between(0, len(examples)).times(asked.transposed())


def find_leaks(
    examples: Sequence[Text], requests: Sequence[Text], threshold: float = THRESHOLD
) -> list[Leak]:
    """Every pair whose TF-IDF cosine similarity reaches ``threshold``, most similar first."""
    if not examples or not requests:
        return []
    similarity = _similarities(examples, requests)
    leaks = [
        Leak(examples[row], requests[column], round(float(similarity[row, column]), 3))
        for row, column in np.argwhere(similarity >= threshold)
    ]
    return sorted(leaks, key=lambda leak: (-leak.similarity, leak.example.origin))


def _words(text: str) -> list[str]:
    """The words of ``text``, lower-cased, punctuation stripped."""
    return [word.strip("'") for word in WORD.findall(text.lower())]


def _runs(words: Sequence[str], length: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + length]) for i in range(len(words) - length + 1)}


def shared_run(first: str, second: str) -> str:
    """The longest run of consecutive words two texts share, lower-cased, punctuation stripped."""
    a, b = _words(first), _words(second)
    length = 0
    while _runs(a, length + 1) & _runs(b, length + 1):
        length += 1
    common = sorted(_runs(a, length) & _runs(b, length))
    return " ".join(common[0]) if length else ""


def find_example_leaks(
    examples: Sequence[Text],
    requests: Sequence[Text],
    threshold: float = EXAMPLE_THRESHOLD,
    run: int = SHARED_RUN,
) -> list[Leak]:
    """Every pair at cosine ``threshold`` or more or sharing ``run`` consecutive words.

    Most similar first; a pair flagged for its shared run carries the run in ``shared``.
    """
    if not examples or not requests:
        return []
    similarity = _similarities(examples, requests)
    request_runs = [_runs(_words(request.text), run) for request in requests]
    leaks = []
    for row, example in enumerate(examples):
        runs = _runs(_words(example.text), run)
        for column, request in enumerate(requests):
            cosine = round(float(similarity[row, column]), 3)
            words = shared_run(example.text, request.text) if runs & request_runs[column] else ""
            if cosine >= threshold or words:
                leaks.append(Leak(example, request, cosine, words))
    return sorted(leaks, key=lambda leak: (-leak.similarity, leak.example.origin))


def sentences(text: str, min_words: int = MIN_WORDS) -> list[str]:
    """The sentences of ``text`` with at least ``min_words`` words, whitespace collapsed."""
    found = []
    for part in SENTENCE_END.split(text):
        sentence = " ".join(part.split())
        if len(WORD.findall(sentence)) >= min_words:
            found.append(sentence)
    return found


def _split(texts: Iterable[Text]) -> list[Text]:
    return [Text(sentence, t.origin) for t in texts for sentence in sentences(t.text)]


def yaml_sentences(yaml_files: Iterable[Path]) -> list[Text]:
    """The sentences of every string in the given YAML files (keys and values)."""
    found: list[Text] = []
    for path in yaml_files:
        stack = [yaml.safe_load(path.read_text(encoding="utf-8"))]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                stack += [*value.keys(), *value.values()]
            elif isinstance(value, list):
                stack += value
            elif isinstance(value, str):
                found += _split([Text(value, str(path))])
    return found


def markdown_sentences(markdown_files: Iterable[Path]) -> list[Text]:
    """The sentences of the given Markdown files."""
    return _split(Text(path.read_text(encoding="utf-8"), str(path)) for path in markdown_files)


def code_sentences(python_files: Iterable[Path]) -> list[Text]:
    """The sentences of every string literal (docstrings included) of the given Python files."""
    found: list[Text] = []
    for path in python_files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found += _split(
            Text(node.value, f"{path}:{node.lineno}")
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        )
    return found


def shipped_sentences(root: Path) -> list[Text]:
    """What the repository at ``root`` ships besides pack examples, sentence by sentence.

    The YAML data under ``knowledge/`` (lexicons, word lists, packs), the scenario requests,
    ``docs/*.md`` and the string literals of the Python code (package, benchmarks, scripts
    and tests).
    """
    code_dirs = ("behaviours", "knowledge", "skills", "sim", "trees", "benchmarks", "scripts")
    python_files = [path for name in code_dirs for path in sorted((root / name).rglob("*.py"))]
    python_files += sorted((root / "tests").rglob("*.py"))
    return [
        *yaml_sentences(sorted((root / "knowledge").rglob("*.yaml"))),
        *_split(scenario_requests(sorted((root / "sim" / "scenarios").glob("*.yaml")))),
        *markdown_sentences(sorted((root / "docs").glob("*.md"))),
        *code_sentences(python_files),
    ]


def find_sentence_leaks(
    shipped: Sequence[Text], requests: Sequence[Text], threshold: float = THRESHOLD
) -> list[Leak]:
    """:func:`find_leaks` between sentences: each request is split as the shipped texts are."""
    return find_leaks(shipped, _split(requests), threshold)
