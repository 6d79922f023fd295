"""Scope detection without a model: which domain an utterance belongs to, or none of them.

:class:`ScopeMatcher` is a k-nearest-neighbour classifier over TF-IDF vectors
(:class:`NearestExamples`). Each domain is represented by example texts (for a domain pack:
its description, its scope examples and the examples of its tasks); an utterance scores, per
domain, the mean cosine similarity of its ``neighbours`` most similar examples of that
domain. Vectors join word unigrams and bigrams with character n-grams (2 to 5, inside word
boundaries), weighted 1 : 1.5: on CLINC150's development splits that beat words alone by 2
points of domain accuracy (0.934 against 0.911) and 0.14 of out-of-scope AUC (0.93 against
0.79), because short utterances share few whole words with the examples but many word pieces
("recipe" / "recipes", typos).

The decision has three zones (:class:`Thresholds`):

- sure in scope: the best score clears ``accept`` and beats the runner-up by ``margin``;
- sure out of scope: the best score is below ``reject``;
- anything else is not confident, and a model should decide; the guess is then the best
  domain when its score is at least halfway from ``reject`` to ``accept``, else out of scope
  (on CLINC150 the midpoint is within 0.01 of the best single threshold).

The default thresholds were calibrated on CLINC150 (train split as examples, 10 domains of
1,500; thresholds chosen on held-out train utterances and ``oos_train`` so that at most 2% of
the decisions the fast path takes alone are wrong). Example sets much smaller than CLINC150's
give lower scores for in-scope utterances: :meth:`ScopeMatcher.from_registry` uses
:data:`PACK_THRESHOLDS`, chosen for the size of domain packs.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np

from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.request_frame import RequestFrame, Step, parse_request
from cogtree.knowledge.language.tfidf import SparseRows, TfidfVectors, side_by_side, unit_rows
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.understanding.frame_tasks import known_phrases, pack_actions
from cogtree.knowledge.understanding.lexicon import Lexicon

if TYPE_CHECKING:
    from cogtree.knowledge.packs.domain_registry import DomainRegistry

log = logging.getLogger(__name__)

OUT_OF_SCOPE: Final = "OutOfScope"
"""The guess for an utterance no domain serves (the same value as the tree's constant)."""

MAX_CHARS: Final = 1000
"""Texts are cut to this many characters before matching (a long text only costs time)."""

MAX_PROMPT_CHARS: Final = 600
"""Utterances longer than this are cut for the model (the rationale says so)."""


def fast_path_text(utterance: str, notes: list[str]) -> str:
    """The part of ``utterance`` the deterministic paths read, noting a cut in ``notes``.

    That is its first :data:`MAX_CHARS` characters: the slot filler takes time that grows
    faster than the text.
    """
    if len(utterance) <= MAX_CHARS:
        return utterance
    notes.append(f"fast path read the first {MAX_CHARS} of {len(utterance)} characters")
    return utterance[:MAX_CHARS]


def cut_for_prompt(utterance: str, notes: list[str]) -> str:
    """``utterance`` cut to :data:`MAX_PROMPT_CHARS`, noting the cut in ``notes``."""
    if len(utterance) <= MAX_PROMPT_CHARS:
        return utterance
    notes.append(f"utterance cut from {len(utterance)} to {MAX_PROMPT_CHARS} characters")
    return utterance[:MAX_PROMPT_CHARS]


DEFAULT_ACCEPT: Final = 0.35
DEFAULT_REJECT: Final = 0.22
DEFAULT_MARGIN: Final = 0.10
DEFAULT_NEIGHBOURS: Final = 5
"""Defaults calibrated on CLINC150 (1,500 examples a domain)."""

PACK_THRESHOLDS: Final = MappingProxyType(
    {"accept": 0.30, "reject": 0.18, "margin": 0.10, "neighbours": 3}
)
"""Defaults of :meth:`ScopeMatcher.from_registry`: domain packs hold some 30 to 40 texts each,
which gives in-scope utterances lower scores than CLINC150's 1,500 (chosen on the shipped
packs' texts, left out one at a time, and 30 out-of-scope requests)."""

_CHAR_WEIGHT: Final = 1.5
_BATCH: Final = 256


Zone = Literal["sure", "close_call", "weak", "unlikely", "none"]
"""Where a best score falls: ``sure`` of the best label; unsure of it because the runner-up is
too close (``close_call``) or the score is below ``accept`` (``weak``); unsure of any label
(``unlikely``: below the midpoint); ``none`` (below ``reject``)."""


@dataclass(frozen=True)
class Judgement:
    """A best score judged against :class:`Thresholds`."""

    zone: Zone
    confident: bool
    confidence: float

    @property
    def keeps_label(self) -> bool:
        """The guess is the best label (rather than none)."""
        return self.zone in ("sure", "close_call", "weak")


@dataclass(frozen=True)
class Thresholds:
    """Where a best score and its lead over the runner-up make a classifier sure.

    Sure of the best label: ``best >= accept`` and ``best - runner_up >= margin``. Sure that
    no label fits: ``best < reject``. Anything else is a guess a model should check: the best
    label from the midpoint of ``reject`` and ``accept`` up, none below it.
    """

    accept: float
    reject: float
    margin: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.reject <= self.accept <= 1.0:
            raise ValueError(
                f"thresholds must satisfy 0 <= reject <= accept <= 1; got reject={self.reject}, "
                f"accept={self.accept}"
            )
        if self.margin < 0.0:
            raise ValueError(f"margin must be >= 0; got {self.margin}")

    @property
    def midpoint(self) -> float:
        """Halfway between ``reject`` and ``accept``: where an unsure guess flips."""
        return (self.reject + self.accept) / 2

    def judge(self, best: float, runner_up: float, *, none_is_sure: bool = True) -> Judgement:
        """Which zone the best score and its lead fall in, and how sure that makes the guess.

        ``confidence`` says how far the guess is from flipping, 0 to 1: sure guesses go from
        0.5 at their threshold to 1.0 a full threshold width past it; unsure ones from 0 at
        the midpoint up to 0.5 at ``accept`` or ``reject``. With ``none_is_sure`` False a best
        score below ``reject`` is an unsure "none" too (confidence 0 at ``reject`` to 0.45 at
        a score of 0).
        """
        gap = best - runner_up
        if best < self.reject:
            clearance = _fraction(self.reject - best, self.reject)
            if none_is_sure:
                return Judgement("none", True, _confidence(clearance))
            return Judgement("none", False, round(0.45 * clearance, 4))
        if best >= self.accept and gap >= self.margin:
            above = _fraction(best - self.accept, self.accept - self.reject)
            clear = _fraction(gap - self.margin, self.margin)
            return Judgement("sure", True, _confidence(min(above, clear)))
        if best < self.midpoint:
            flip = _fraction(self.midpoint - best, self.midpoint - self.reject)
            return Judgement("unlikely", False, round(0.5 * flip, 4))
        above = _fraction(best - self.midpoint, self.accept - self.midpoint)
        zone: Zone = "weak" if best < self.accept else "close_call"
        return Judgement(zone, False, round(0.5 * min(above, _fraction(gap, self.margin)), 4))


class NearestExamples:
    """Example texts by label; scores a text against each label by its nearest examples.

    A label's score is the mean cosine similarity (0 to 1) of its ``neighbours`` examples
    most similar to the text (all of them when it has fewer), over weighted word and
    character TF-IDF (see the module docstring).

    Args:
        examples: label -> example texts (empty texts are ignored; every label needs one).
        neighbours: how many nearest examples a label's score averages.

    """

    def __init__(
        self, examples: Mapping[str, Sequence[str]], *, neighbours: int = DEFAULT_NEIGHBOURS
    ) -> None:
        if neighbours < 1:
            raise ValueError(f"neighbours must be >= 1; got {neighbours}")
        self.neighbours = neighbours
        texts, spans = _collect(examples)
        self.labels: list[str] = list(spans)
        self._spans: list[tuple[int, int]] = list(spans.values())
        self._vectorizers, self._postings = _fitted_index(tuple(texts))

    @property
    def size(self) -> int:
        """How many example texts the index holds."""
        return int(self._postings.shape[1])

    @property
    def features(self) -> int:
        """How many word and character n-grams the vectors have."""
        return int(self._postings.shape[0])

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """Rows: ``texts`` (cut to :data:`MAX_CHARS`); columns: :attr:`labels`; 0 to 1."""
        cut = [str(text)[:MAX_CHARS] for text in texts]
        result = np.zeros((len(cut), len(self.labels)), dtype=np.float64)
        for start in range(0, len(cut), _BATCH):
            batch = cut[start : start + _BATCH]
            queries = _joined(
                [(vectorizer.transform(batch), weight) for vectorizer, weight in self._vectorizers]
            )
            similarity = queries.times(self._postings)
            for column, (first, end) in enumerate(self._spans):
                k = min(self.neighbours, end - first)
                nearest = -np.partition(-similarity[:, first:end], k - 1, axis=1)[:, :k]
                result[start : start + len(batch), column] = nearest.mean(axis=1)
        clipped: np.ndarray = np.clip(result, 0.0, 1.0)
        return clipped

    def score(self, text: str) -> dict[str, float]:
        """Label -> score for one text."""
        row = self.scores([text])[0]
        return {label: float(value) for label, value in zip(self.labels, row, strict=True)}


@dataclass(frozen=True)
class ScopeGuess:
    """The fast path's answer for one utterance.

    ``domain`` is a domain name or :data:`OUT_OF_SCOPE`; ``confident`` says whether the guess
    may decide without a model; ``confidence`` (0 to 1, see :meth:`Thresholds.judge`) is 0.5
    or more for confident guesses and 0.5 or less for the others. ``scores`` holds every
    domain's score (mean cosine of its nearest examples) and ``reason`` says why in one
    sentence.
    """

    domain: str
    confidence: float
    scores: Mapping[str, float]
    confident: bool
    reason: str

    @property
    def in_scope(self) -> bool:
        """The guess names a domain."""
        return self.domain != OUT_OF_SCOPE

    def ranked(self) -> list[tuple[str, float]]:
        """``(domain, score)`` pairs, best first."""
        return sorted(self.scores.items(), key=lambda item: (-item[1], item[0]))


class ScopeMatcher:
    """k-nearest-neighbour scope detection with an out-of-scope threshold.

    Args:
        examples: domain name -> its example texts (every domain needs a non-empty one).
        accept: the best score must reach this for a sure in-scope guess.
        reject: a best score below this is a sure out-of-scope guess.
        margin: for a sure in-scope guess, the best score must beat the runner-up by this.
        neighbours: how many of a domain's most similar examples its score averages.

    """

    def __init__(
        self,
        examples: Mapping[str, Sequence[str]],
        *,
        accept: float = DEFAULT_ACCEPT,
        reject: float = DEFAULT_REJECT,
        margin: float = DEFAULT_MARGIN,
        neighbours: int = DEFAULT_NEIGHBOURS,
    ) -> None:
        self.thresholds = Thresholds(accept=accept, reject=reject, margin=margin)
        self.index = NearestExamples(examples, neighbours=neighbours)
        log.debug(
            "scope matcher: %d domains, %d examples, %d features",
            len(self.domains),
            self.index.size,
            self.index.features,
        )

    @classmethod
    def from_registry(cls, registry: DomainRegistry, **thresholds: Any) -> ScopeMatcher:
        """A matcher over every loaded pack: description, scope examples, task examples.

        ``thresholds`` (the constructor's keywords) override :data:`PACK_THRESHOLDS`.
        """
        return cls.sized_like_packs(domain_examples(registry), **thresholds)

    @classmethod
    def sized_like_packs(
        cls, examples: Mapping[str, Sequence[str]], **thresholds: Any
    ) -> ScopeMatcher:
        """A matcher over example sets the size of a pack's (domain profiles too).

        ``thresholds`` (the constructor's keywords) override :data:`PACK_THRESHOLDS`.
        """
        return cls(examples, **{**PACK_THRESHOLDS, **thresholds})

    @property
    def domains(self) -> list[str]:
        """The domains the matcher knows, in the order the examples gave them."""
        return list(self.index.labels)

    def match(self, utterance: str) -> ScopeGuess:
        """The scope guess for one utterance (empty or wordless input is out of scope)."""
        return self.match_many([utterance])[0]

    def match_many(self, utterances: Iterable[str]) -> list[ScopeGuess]:
        """:meth:`match` for many utterances, vectorised in batches."""
        texts = [str(text) for text in utterances]
        rows = self.index.scores(texts)
        return [self._guess(text, row) for text, row in zip(texts, rows, strict=True)]

    def _guess(self, text: str, row: np.ndarray) -> ScopeGuess:
        scores = {
            domain: round(float(score), 4) for domain, score in zip(self.domains, row, strict=True)
        }
        if not text.strip():
            return ScopeGuess(OUT_OF_SCOPE, 1.0, scores, True, "nothing was said")
        (best_domain, best), (second, runner_up) = _top_two(self.domains, row)
        limits = self.thresholds
        judged = limits.judge(best, runner_up)
        reasons = {
            "sure": f"closest to {best_domain} ({best:.2f}), ahead by {best - runner_up:.2f}",
            "close_call": f"{best_domain} ({best:.2f}) and {second} ({runner_up:.2f}) are "
            "too close",
            "weak": f"{best_domain} is closest but weak ({best:.2f} < accept {limits.accept})",
            "unlikely": f"probably out of scope: best {best_domain} {best:.2f} is below "
            f"{limits.midpoint:.2f}",
            "none": f"no domain is close: best {best_domain} {best:.2f} < reject {limits.reject}",
        }
        domain = best_domain if judged.keeps_label else OUT_OF_SCOPE
        return ScopeGuess(domain, judged.confidence, scores, judged.confident, reasons[judged.zone])


@dataclass(frozen=True)
class FrameSignal:
    """What a request's frame says about scope, besides similarity to examples.

    ``domains``: the packs the frame connects to, by a clear action one of their tasks serves
    (:attr:`~knowledge.language.request_frame.RequestFrame.clear_actions`) or a thing their scene
    lexicons know (an object, place or person the belief holds);
    ``missing_skills``: skills the request asks for that the robot lacks ("cut things"; the
    physical packs are then the ones that answer, by naming the skill); ``reason``: one
    sentence.
    """

    domains: tuple[str, ...] = ()
    missing_skills: tuple[str, ...] = ()
    reason: str = ""


def asks_of_no_kind(step: Step) -> bool:
    """Whether ``step`` counts or asks after what is no kind of thing ("how many calories").

    Such a question is not about the scene, whatever its verb.
    """
    taxonomy = household_taxonomy()
    return step.action in ("count", "have") and not all(
        taxonomy.type_named(phrase.text) for phrase in step.objects
    )


def frame_signal(
    frame: RequestFrame,
    packs: Iterable[DomainPack],
    lexicons: Mapping[str, Mapping[str, Lexicon]],
    robot_actions: frozenset[str] = frozenset(),
) -> FrameSignal:
    """Which physical packs ``frame`` connects to (see :class:`FrameSignal`).

    Only packs with a physical task count: a knowledge pack's scope is its examples'. An
    action connects when a task of the pack serves it or the robot's skill library covers
    it (``robot_actions``, :meth:`~knowledge.language.grammar.words.Words.actions_with`); a
    thing the belief holds connects only through a pack's scene-built lexicons.
    """
    if frame.missing_skills:  # about the robot's physical work: the physical packs answer
        skills = tuple(frame.missing_skills)
        physical = tuple(pack.name for pack in packs if _physical(pack))
        return FrameSignal(
            physical, skills, f"asks for what the robot cannot do: {', '.join(skills)}"
        )
    domains: list[str] = []
    reasons: list[str] = []
    not_scene = {step.action for step in frame.steps if asks_of_no_kind(step)}
    for pack in packs:
        if not _physical(pack):
            continue
        clear = set(frame.clear_actions) - not_scene
        served = sorted(clear & (pack_actions(pack) | robot_actions))
        scene = {
            name: lexicon
            for name, lexicon in lexicons.get(pack.name, {}).items()
            if name in pack.manifest.lexicons and pack.manifest.lexicons[name].scene
        }
        known = known_phrases(frame, scene)
        if served or known:
            domains.append(pack.name)
            what = [f"action {', '.join(served)}"] if served else []
            what += [f"names {', '.join(repr(k) for k in known[:3])}"] if known else []
            reasons.append(f"{pack.name}: {'; '.join(what)}")
    return FrameSignal(tuple(domains), (), "; ".join(reasons))


@dataclass(frozen=True)
class Offered:
    """What the loaded packs ask with: their examples' verbs and their tasks' cue phrases.

    A verb of many senses ("set", "take": ``request_words().weak_verbs``) is left out of
    ``verbs``: "set an alarm" shares it with "set the table".
    """

    verbs: frozenset[str]
    cues: tuple[re.Pattern[str], ...]

    @classmethod
    def of(cls, packs: Iterable[DomainPack]) -> Offered:
        """The verbs and cues of ``packs``."""
        packs = list(packs)
        weak = {" ".join(words) for words in request_words().weak_verbs}
        texts = [
            text
            for pack in packs
            for text in (
                *pack.manifest.examples,
                *(e for task in pack.tasks for e in task.examples),
            )
        ]
        verbs = {step.verb for text in texts for step in parse_request(text).steps if step.verb}
        cues = {cue.lower() for pack in packs for task in pack.tasks for cue in task.cues}
        return cls(
            frozenset(verbs - weak),
            tuple(re.compile(rf"\b{re.escape(cue)}\b") for cue in sorted(cues) if cue.strip()),
        )

    def cued(self, text: str) -> bool:
        """Whether ``text`` holds a cue phrase of some task."""
        lowered = text.lower()
        return any(cue.search(lowered) for cue in self.cues)


def offers_nothing(
    text: str,
    frame: RequestFrame,
    offered: Callable[[], Offered],
    lexicons: Mapping[str, Mapping[str, Lexicon]],
) -> str:
    """Why the request asks for a service no pack offers ("hail me a cab"), or "".

    Only for an instruction (the frame has steps) that names no skill the robot lacks, no
    clear action of the robot's, no verb any pack's examples ask with, no cue of any task
    (:class:`Offered`), nothing any pack's lexicon knows (the belief's things, places and
    people, a knowledge pack's dishes) and no kind of household thing in any of its noun
    phrases or their words (the taxonomy: "start the dishwasher", "defrost the salmon fillet"
    are about the robot's world even where it has seen none). A question or a
    statement is never judged here, and ``offered`` (the packs' examples parsed, once: a call
    that may parse them all) is asked for only when an instruction is.
    """
    if not frame.steps or frame.missing_skills or frame.clear_actions:
        return ""
    known = offered()
    if any(step.verb in known.verbs for step in frame.steps) or known.cued(text):
        return ""
    phrases = [phrase for phrase in frame.phrases() if not phrase.pronoun]
    taxonomy = household_taxonomy()
    words = [word for phrase in phrases for word in (phrase.text, *phrase.text.split())]
    if any(taxonomy.type_named(word) for word in words):
        return ""
    every = {
        f"{pack}.{name}": lexicon
        for pack, named in lexicons.items()
        for name, lexicon in named.items()
    }
    if known_phrases(frame, every):
        return ""
    verbs = ", ".join(repr(step.verb) for step in frame.steps if step.verb)
    what = verbs or "the request"
    return f"a service the robot does not offer: {what} names no skill, task or thing it knows"


def _physical(pack: DomainPack) -> bool:
    return any(task.grounding == "physical" for task in pack.tasks)


def domain_examples(registry: DomainRegistry) -> dict[str, list[str]]:
    """Each pack's scope texts: its description, scope examples and task examples."""
    return {
        pack.name: [
            pack.manifest.description,
            *pack.manifest.examples,
            *(example for task in pack.tasks for example in task.examples),
        ]
        for pack in registry.packs
    }


def _top_two(labels: Sequence[str], row: np.ndarray) -> tuple[tuple[str, float], tuple[str, float]]:
    """The best label and the runner-up with their scores (runner-up score 0 when alone)."""
    order = np.argsort(-row, kind="stable")
    best = (labels[int(order[0])], float(row[order[0]]))
    if len(order) < 2:
        return best, ("", 0.0)
    return best, (labels[int(order[1])], float(row[order[1]]))


def _collect(examples: Mapping[str, Sequence[str]]) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """All texts in label order, and each label's ``[start, end)`` rows."""
    if not examples:
        raise ValueError("a nearest-examples index needs at least one label with example texts")
    texts: list[str] = []
    spans: dict[str, tuple[int, int]] = {}
    for label, label_texts in examples.items():
        if isinstance(label_texts, str):
            raise ValueError(f"{label!r}: give a list of example texts, not one string")
        kept = [text.strip() for text in label_texts if isinstance(text, str) and text.strip()]
        if not kept:
            raise ValueError(
                f"{label!r} has no non-empty example text; give it a description or examples"
            )
        spans[str(label)] = (len(texts), len(texts) + len(kept))
        texts.extend(kept)
    return texts, spans


@functools.lru_cache(maxsize=16)
def _fitted_index(
    texts: tuple[str, ...],
) -> tuple[tuple[tuple[TfidfVectors, float], ...], SparseRows]:
    """The vectorizers fitted on ``texts``, and the features x examples matrix.

    The matrix is an inverted index: a text's few features select few rows. Both are kept for
    the last few sets of texts, as neither changes after fitting: every tree set up on the
    same packs (each session of a test run, each domain of a chat) would fit them again.
    """
    vectorizers, blocks = _fitted_vectorizers(texts)
    return tuple(vectorizers), _joined(blocks).transposed()


def _fitted_vectorizers(
    texts: Sequence[str],
) -> tuple[list[tuple[TfidfVectors, float]], list[tuple[SparseRows, float]]]:
    """Word (1-2 grams) and character (2-5 grams) TF-IDF fitted on ``texts``, with weights.

    Returns the vectorizers that found a vocabulary and the texts' matrix of each.
    """
    candidates = [
        (TfidfVectors("word", ngram_range=(1, 2), sublinear_tf=True, dtype=np.float32), 1.0),
        (
            TfidfVectors("char_wb", ngram_range=(2, 5), sublinear_tf=True, dtype=np.float32),
            _CHAR_WEIGHT,
        ),
    ]
    fitted, blocks = [], []
    for vectorizer, weight in candidates:
        try:
            blocks.append((vectorizer.fit_transform(texts), weight))
        except ValueError:  # e.g. no word of two letters in any example: skip this block
            continue
        fitted.append((vectorizer, weight))
    if not fitted:
        raise ValueError("the example texts hold nothing to match on (no word, no character)")
    return fitted, blocks


def _joined(blocks: Sequence[tuple[SparseRows, float]]) -> SparseRows:
    """Weighted, row-normalised TF-IDF blocks side by side, rows normalised again."""
    weighted = [unit_rows(matrix).scaled(weight) for matrix, weight in blocks]
    return unit_rows(side_by_side(weighted))


def _fraction(value: float, width: float) -> float:
    if width <= 0.0:
        return 1.0
    return min(1.0, max(0.0, value / width))


def _confidence(clearance: float) -> float:
    """0.5 at a threshold, 1.0 a full threshold width past it."""
    return round(0.5 + 0.5 * min(1.0, max(0.0, clearance)), 4)
