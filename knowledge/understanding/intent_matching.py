"""Intent recognition without a model: which task of a domain pack an utterance asks for.

:class:`IntentMatcher` scores every task of one pack from three kinds of evidence:

- similarity (weight 0.5): the mean cosine similarity of the utterance to the task's nearest
  examples and description (:class:`~knowledge.understanding.scope_matching.NearestExamples`, word
  and character TF-IDF);
- cue phrases (weight 0.3): the utterance holds one of the task's ``cues``. Overlapping cues
  of different tasks are read longest first, so "put away" signals PutAway and not the "put"
  of Bring, and "bring me" signals Fetch and not the "bring" of Bring;
- lexicon mentions (weight 0.2): the share of the things the utterance mentions (through
  the pack's lexicons) that the task has a slot for. A dish mention favours the advisor's
  DishInfo and SubstituteDish over AddToDatabase; a person mention in the office favours the
  tasks with a person slot.

A question naming a thing of a task's ``asked_about`` lexicon is that task's, unless the
scores are sure of another (:func:`asked_task`: "does pad thai contain peanuts?" is a
DishInfo, by what it is, whatever its words). Otherwise the best task is sure when its score
clears ``accept`` and beats the runner-up by ``margin``
(:class:`~knowledge.understanding.scope_matching.Thresholds`). Anything else is unsure and a model
should decide; the guess is then the best task from the midpoint of ``reject`` and ``accept`` up,
and no task (None) below it.

:func:`continuation` says whether an utterance answers a clarification question about a
pending task, for the scope and intent nodes of the turn tree.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from cogtree.knowledge.language.closing_tags import as_read
from cogtree.knowledge.language.grammar.social_acts import answers_no_question
from cogtree.knowledge.language.question_form import asks_the_robot, asks_whether
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.packs.domain_pack import DomainPack, TaskSpec
from cogtree.knowledge.understanding.answer_kinds import (
    answer_kind,
    answer_text,
    asks_another_task,
    correction,
    expected_kind,
    fits,
    leaves_a_guess,
    noted_place,
    picked_option,
    proposal_declined,
    proposal_taken,
    read_answer,
    slot_answered,
)
from cogtree.knowledge.understanding.lexicon import Lexicon, tokenize
from cogtree.knowledge.understanding.pending_question import turn_acts
from cogtree.knowledge.understanding.scope_matching import MAX_CHARS, NearestExamples, Thresholds
from cogtree.knowledge.understanding.slot_filling import NEGATIONS, SlotFill, SlotValue, fill_slots
from cogtree.knowledge.understanding.turn_state import PendingTask

log = logging.getLogger(__name__)

SIMILARITY_WEIGHT: Final = 0.5
CUE_WEIGHT: Final = 0.3
MENTION_WEIGHT: Final = 0.2

DEFAULT_ACCEPT: Final = 0.35
DEFAULT_REJECT: Final = 0.15
DEFAULT_MARGIN: Final = 0.15
DEFAULT_NEIGHBOURS: Final = 3

CUE_GAP: Final = 3
"""How many words may sit between two words of a cue phrase ("put the red mug away")."""

SHORT_ANSWER_WORDS: Final = 6
"""An utterance of at most this many words may be a short answer to a question."""

Evidence = tuple[int, int]
"""How much of a request a task's slots take: things said, then other words read."""

ASKED_CONFIDENCE: Final = 0.8
"""How sure a guess is that takes a question about a thing to the task asked about it."""

DISMISSALS: Final = frozenset(
    ["cancel", "never mind", "nevermind", "forget it", "stop", "nothing", "no thanks"]
)
"""Answers that drop a question rather than answer it."""


@dataclass(frozen=True)
class IntentGuess:
    """The fast path's answer: a task of the pack (or None), how sure, and why.

    ``scores`` holds every task's combined score (0 to 1), ``cued`` the tasks whose cue
    phrases the utterance holds, ``confidence`` is 0.5 at a threshold and 1.0 a full
    threshold width past it, and ``confident`` says the guess may decide without a model.
    """

    task: str | None
    confidence: float
    scores: Mapping[str, float]
    confident: bool
    cued: tuple[str, ...]
    reason: str

    def ranked(self) -> list[tuple[str, float]]:
        """``(task, score)`` pairs, best first."""
        return sorted(self.scores.items(), key=lambda item: (-item[1], item[0]))


class IntentMatcher:
    """Scores the tasks of one pack for an utterance (see the module docstring).

    Args:
        tasks: the pack's tasks (names, descriptions, examples, cues, slots).
        lexicons: the pack's lexicons by name
        (:func:`knowledge.understanding.lexicon.build_lexicons`);
            slots whose lexicon is missing simply contribute no mentions.
        accept, reject, margin: the decision thresholds.
        neighbours: how many of a task's nearest examples its similarity averages.

    """

    def __init__(
        self,
        tasks: Sequence[TaskSpec],
        lexicons: Mapping[str, Lexicon],
        *,
        accept: float = DEFAULT_ACCEPT,
        reject: float = DEFAULT_REJECT,
        margin: float = DEFAULT_MARGIN,
        neighbours: int = DEFAULT_NEIGHBOURS,
    ) -> None:
        if not tasks:
            raise ValueError("an intent matcher needs at least one task")
        self.thresholds = Thresholds(accept=accept, reject=reject, margin=margin)
        self._tasks = {task.name: task for task in tasks}
        self.index = NearestExamples(
            {task.name: [task.description, *task.examples] for task in tasks},
            neighbours=neighbours,
        )
        self._cues = [
            (task.name, cue_words)
            for task in tasks
            for cue in task.cues
            if (cue_words := tuple(token.text for token in tokenize(cue)))
        ]
        self._slot_lexicons = {
            task.name: frozenset(spec.lexicon for spec in task.slots.values() if spec.lexicon)
            for task in tasks
        }
        self._pack_lexicons = lexicons
        self._used: frozenset[str] = frozenset().union(*self._slot_lexicons.values())

    @functools.cached_property
    def _lexicons(self) -> dict[str, Lexicon]:
        """The lexicons of the slots, taken on first use (a pack's may be built on first need)."""
        return {
            name: lexicon for name, lexicon in self._pack_lexicons.items() if name in self._used
        }

    @classmethod
    def from_pack(
        cls, pack: DomainPack, lexicons: Mapping[str, Lexicon], **thresholds: Any
    ) -> IntentMatcher:
        """The matcher of ``pack``'s tasks; ``thresholds`` are the constructor's keywords."""
        return cls(pack.tasks, lexicons, **thresholds)

    @property
    def tasks(self) -> list[str]:
        """The task names, in the pack's order."""
        return list(self._tasks)

    def match(self, utterance: str) -> IntentGuess:
        """The intent guess for ``utterance`` (empty input: no task, confidently).

        Only the first :data:`~knowledge.understanding.scope_matching.MAX_CHARS` characters are
        read, without the tags that close a request ("..., would you?": closing_tags).
        """
        text = as_read(str(utterance)[:MAX_CHARS])
        if not text.strip():
            empty = dict.fromkeys(self._tasks, 0.0)
            return IntentGuess(None, 1.0, empty, True, (), "nothing was said")
        similarity = self.index.score(text)
        cued = self.cued_tasks(text)
        coverage = self.mention_coverage(text)
        scores = {
            name: round(
                SIMILARITY_WEIGHT * similarity[name]
                + CUE_WEIGHT * (name in cued)
                + MENTION_WEIGHT * coverage[name],
                4,
            )
            for name in self._tasks
        }
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
        (best_task, best) = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        limits = self.thresholds
        judged = limits.judge(best, runner_up, none_is_sure=False)
        asked = asked_task(list(self._tasks.values()), text, self._lexicons)
        if asked is not None and (
            judged.zone != "sure"
            or best_task == asked.name
            or asked.perception
            or not _takes(
                self._tasks[best_task], asked.asked_about
            )  # "I'm allergic to X. Is Y OK?"
        ):
            reason = f"{asked.name}: a question about a thing it answers ({asked.asked_about})"
            return IntentGuess(asked.name, ASKED_CONFIDENCE, scores, True, tuple(cued), reason)
        cue_named = cued_task(list(self._tasks.values()), text, self._lexicons)
        if cue_named is not None:  # a cue and the things its slots take outweigh likeness
            reason = f"{cue_named.name}: its cue phrase, and things it has slots for"
            return IntentGuess(cue_named.name, ASKED_CONFIDENCE, scores, True, tuple(cued), reason)
        if judged.zone == "sure":
            evidence = _evidence(best_task, similarity[best_task], cued, coverage[best_task])
            reason = f"{best_task} ({best:.2f}, ahead by {best - runner_up:.2f}): {evidence}"
        elif judged.keeps_label:
            reason = f"{best_task} is only a guess ({best:.2f}; runner-up {runner_up:.2f})"
        else:
            reason = f"no task fits: best {best_task} {best:.2f} < {limits.midpoint:.2f}"
        task = best_task if judged.keeps_label else None
        return IntentGuess(task, judged.confidence, scores, judged.confident, tuple(cued), reason)

    def cued_tasks(self, utterance: str) -> list[str]:
        """Tasks whose cue phrases ``utterance`` holds (see :func:`cue_spans`).

        Where cues of different tasks overlap, the one with more words wins ("put the milk
        away" is PutAway's "put away", not Bring's "put").
        """
        words = [token.text for token in tokenize(utterance)]
        spans: dict[tuple[int, int], set[str]] = {}
        sizes: dict[tuple[int, int], int] = {}
        for task, cue in self._cues:
            for span in cue_spans(words, cue):
                spans.setdefault(span, set()).add(task)
                sizes[span] = max(sizes.get(span, 0), len(cue))
        kept: list[tuple[int, int]] = []
        for first, last in sorted(spans, key=lambda s: (-sizes[s], s[1] - s[0], s[0])):
            if all(last < other_first or first > other_last for other_first, other_last in kept):
                kept.append((first, last))
        found = {task for span in kept for task in spans[span]}
        return [name for name in self._tasks if name in found]

    def mention_coverage(self, utterance: str) -> dict[str, float]:
        """Task -> the share of the things ``utterance`` mentions that it has a slot for."""
        groups: list[tuple[int, int, set[str]]] = []
        mentions = [m for lexicon in self._lexicons.values() for m in lexicon.find(utterance)]
        for mention in sorted(mentions, key=lambda m: (m.start, -m.end)):
            if groups and mention.start < groups[-1][1]:
                start, end, names = groups[-1]
                groups[-1] = (start, max(end, mention.end), names | {mention.lexicon})
            else:
                groups.append((mention.start, mention.end, {mention.lexicon}))
        if not groups:
            return dict.fromkeys(self._tasks, 0.0)
        return {
            name: sum(bool(names & lexicons) for _, _, names in groups) / len(groups)
            for name, lexicons in self._slot_lexicons.items()
        }


@dataclass(frozen=True)
class Continuation:
    """How an utterance answers the question about a pending task.

    ``task`` is the task the answer goes on with: the pending one, or the pack's note when the
    answer tells where the thing asked about is (:func:`continuation`). ``slots`` are the
    values it gives (fill_slots, or the whole short answer for the one missing slot);
    ``answered`` the missing slots it fills; ``how`` says which reading held; ``picked``: an
    option offered is named ("Tom" to "Lucy or Tom?").
    """

    task: str
    slots: dict[str, SlotValue]
    answered: list[str]
    how: str
    picked: bool = False


def continuation(
    pack: DomainPack,
    pending: PendingTask,
    utterance: str,
    lexicons: Mapping[str, Lexicon],
    frame: RequestFrame | None,
) -> Continuation | None:
    """Whether ``utterance`` answers ``pending``'s question about a task of ``pack``; else None.

    A question to the robot (:func:`~knowledge.language.question_form.asks_the_robot`: "where is the
    magazine?", "what's my name?") never does: it is a new request, whatever slot it fills.
    Nor do thanks, a greeting, a farewell, a dismissal ("hello", "not now") or a "no" to a
    question asking to confirm (:func:`~.pending_question.turn_acts`). An answer of the place kind
    (:mod:`~knowledge.understanding.answer_kinds`, from the turn's parse ``frame``) to a question
    where a thing the robot has never seen is tells where it is: it is noted
    (:func:`~knowledge.understanding.answer_kinds.noted_place`), never read as the thing. Otherwise
    it does when it fills a missing slot (:func:`~knowledge.understanding.slot_filling.fill_slots`
    with the pack's lexicons), or when it is a short answer (at most :data:`SHORT_ANSWER_WORDS`
    words, not a dismissal, none of the cue phrases of the domain's other tasks, and of a kind that
    fits the question's), which then fills the missing slot its kind fits
    (:func:`~knowledge.understanding.answer_kinds.slot_answered`) with its words (its first clause
    when more follows: :func:`~knowledge.understanding.answer_kinds.answer_text`). An option offered
    is picked by the first clause, or by what follows it when the answer corrects itself
    (:func:`~knowledge.understanding.answer_kinds.correction`), which must then pick one: else the
    utterance is no answer. An utterance that parses as a request of the same task and fills no slot
    still answers when it picks one option ("the weather's turning, so the raincoat I suppose"). A
    request of its own that no step of ``pending``'s task holds never does either
    (:func:`~knowledge.understanding.answer_kinds.asks_another_task`). Never raises for any text.
    """
    task = pack.task(pending.task)
    missing = pending.missing
    words = [token.text for token in tokenize(utterance)]
    if not words or asks_the_robot(utterance):
        return None
    acts = turn_acts(frame) if frame is not None else ()
    if answers_no_question(acts, confirming=pending.asks_to_confirm):
        return None
    expected = expected_kind(pending)
    given = answer_kind(frame) if frame is not None else expected
    noted = noted_place(pack, pending, utterance) if given == "place" else None
    if noted is not None:
        return Continuation(*noted, [], "tells where the thing asked about is: noted")
    if given == "request" and frame is not None and asks_another_task(frame, pack, pending):
        return None  # "give the plant a drench": a request of its own, not the thing asked for
    taken = proposal_taken(utterance, pending)
    if taken or proposal_declined(utterance, pending):  # a no leaves the slot to ask open
        return Continuation(
            task.name, {**taken}, list(taken), f"{'yes' if taken else 'no'} to the proposal"
        )
    said = answer_text(frame) if frame is not None else utterance
    answers = given not in ("yes_no", "request")
    corrected = correction(said, utterance) if answers else None  # "Dad. Stan, I mean"
    picked = picked_option(corrected or said, pending) if answers else None
    if corrected is not None and picked is None:
        return None  # "Tom. No wait, Stan": no one option picked, nor the first clause's
    if picked is None and answers and leaves_a_guess(said, pending):  # "either": asked again
        return Continuation(task.name, {}, [], "leaves a choice among guesses: asked again")
    if picked is not None and picked[0] in missing:
        return _picked(task, picked)
    fill: SlotFill = fill_slots(task, utterance, lexicons)
    answered = [slot for slot in missing if fill.slots.get(slot) not in (None, "", [])]
    if answered:
        filled = {
            name: read_answer(value, pending)
            if name in answered and isinstance(value, str)
            else value
            for name, value in fill.slots.items()
        }
        return Continuation(task.name, filled, answered, f"fills {', '.join(answered)}")
    picked = picked_option(utterance, pending) if given == "request" else None
    if picked is not None and picked[0] in missing:  # "..., so the raincoat I suppose"
        return replace(_picked(task, picked), picked=False)  # a request naming it, no answer
    words = [token.text for token in tokenize(said)]
    text = " ".join(words)
    if not words or len(words) > SHORT_ANSWER_WORDS or _dismissal(text):
        return None
    if not fits(expected, given) or _holds_cue(words, other_cues(pack, task.name)):
        return None
    slot = slot_answered(missing, given)
    if slot is None or all(word in NEGATIONS for word in words):
        return None
    answer = read_answer(" ".join(said.split()).strip(" ,.;:!?"), pending)
    spec = task.slots.get(slot)
    value: SlotValue = [answer] if spec is not None and spec.many else answer
    how = f"short answer for {slot} ({given})"
    given_slots = {name: v for name, v in fill.slots.items() if v not in (None, "", [])}
    return Continuation(task.name, {**given_slots, slot: value}, [slot], how)


def _picked(task: TaskSpec, picked: tuple[str, str]) -> Continuation:
    """The continuation that fills the slot an answer picked among the options offered."""
    (chosen, label), spec = picked, task.slots.get(picked[0])
    slots: dict[str, SlotValue] = {chosen: [label] if spec is not None and spec.many else label}
    return Continuation(task.name, slots, [chosen], f"picks {label!r} for {chosen}", picked=True)


def asked_task(
    tasks: Sequence[TaskSpec], utterance: str, lexicons: Mapping[str, Lexicon]
) -> TaskSpec | None:
    """The task a question about a thing asks for, by what the question is, or None.

    ``utterance`` must be a question (:func:`~knowledge.language.question_form.asks_whether`)
    naming a thing of a task's ``asked_about`` lexicon ("does pad thai contain peanuts?",
    "is the risotto fine for me?": a dish), and hold no cue phrase of another task with a slot
    of that lexicon (a question asking for a swap of the dish is that other task's). None when
    no task, or more than one, is asked about.
    """
    if not asks_whether(utterance):
        return None
    words = [token.text for token in tokenize(utterance)]
    asked = []
    for task in tasks:
        lexicon = lexicons.get(task.asked_about) if task.asked_about else None
        if lexicon is None or not lexicon.find(utterance):
            continue
        rivals = [
            other
            for other in tasks
            if other.name != task.name
            and any(spec.lexicon == task.asked_about for spec in other.slots.values())
        ]
        if not any(_holds_cue(words, other.cues) for other in rivals):
            asked.append(task)
    return asked[0] if len(asked) == 1 else _patterned_question(tasks, utterance, lexicons)


def _patterned_question(
    tasks: Sequence[TaskSpec], utterance: str, lexicons: Mapping[str, Lexicon]
) -> TaskSpec | None:
    """The one question about the scene whose slots are patterns the question fills whole.

    A task answered by perceiving the scene (``perception``) whose every slot is a pattern:
    "is the fan still on?" fills the thing-and-state pattern of a question about a state, so
    it asks that, not for a task whose cue its words hold ("still on": switch it off).
    """
    found = [
        task
        for task in tasks
        if task.perception
        and task.slots
        and all(spec.pattern and not spec.lexicon for spec in task.slots.values())
        and all(value not in (None, "", []) for value in _filled(task, utterance, lexicons))
    ]
    return found[0] if len(found) == 1 else None


def _filled(task: TaskSpec, utterance: str, lexicons: Mapping[str, Lexicon]) -> list[Any]:
    slots = fill_slots(task, utterance, lexicons).slots
    return [slots.get(slot) for slot in task.slots]


def cued_task(
    tasks: Sequence[TaskSpec], utterance: str, lexicons: Mapping[str, Lexicon]
) -> TaskSpec | None:
    """The task a request asks for by its cue phrase and what it names, or None.

    See :func:`cue_evidence`; None when no task qualifies or the best two tie.
    """
    return _best(cue_evidence(tasks, utterance, lexicons))


def cue_evidence(
    tasks: Sequence[TaskSpec], utterance: str, lexicons: Mapping[str, Lexicon]
) -> list[tuple[Evidence, TaskSpec]]:
    """The tasks a request may ask for by a cue phrase and what it names, with their evidence.

    Only tasks that answer or remember (not physical ones: their frames decide). A task
    qualifies when ``utterance`` holds one of its cue phrases ("instead of", "set me up") and
    names a thing of a lexicon its slots look up in the domain's knowledge (``resolve: kg``: a
    dish, an ingredient) or fills a slot no other task has (a daily target: "2,000 kcal"), or
    when it fills two pattern slots no other task has, cue or not (daily targets, said as
    numbers with their units). Of several, the one whose slots take the most things said wins
    (mentions of the domain's things, and values read by pattern), then the most other words
    its slots read: "instead of the burger, I'm allergic to sesame" names the dish and the
    ingredient the swap takes.
    """
    words = [token.text for token in tokenize(utterance)]
    known = {
        spec.lexicon
        for task in tasks
        for spec in task.slots.values()
        if spec.resolve == "kg" and spec.lexicon in lexicons
    }
    found = {name: lexicons[name].find(utterance) for name in known if name is not None}
    named = {name for name, mentions in found.items() if mentions}
    things = [(m.start, m.end) for mentions in found.values() for m in mentions]
    owners: dict[str, int] = {}
    for task in tasks:
        for slot in task.slots:
            owners[slot] = owners.get(slot, 0) + 1
    scored: list[tuple[Evidence, TaskSpec]] = []
    for task in tasks:
        if task.grounding == "physical":
            continue
        own = {spec.lexicon for spec in task.slots.values() if spec.resolve == "kg"} & named
        fill = fill_slots(task, utterance, lexicons)
        filled = fill.slots
        unique = [
            slot
            for slot, spec in task.slots.items()
            if owners[slot] == 1 and filled.get(slot) not in (None, "", [])
        ]
        numbers = [slot for slot in unique if task.slots[slot].lexicon is None]
        if (_holds_cue(words, task.cues) and (own or unique)) or len(numbers) >= 2:
            things_taken = {
                (m.start, m.end)
                for slot, taken in fill.mentions.items()
                if task.slots[slot].resolve == "kg"
                for m in taken
                if not _inside_another(m.start, m.end, things)  # "chicken" of "chicken satay"
            }
            words_taken = sum(
                1 for slot in fill.mentions if task.slots[slot].resolve != "kg"
            )  # "allergic", "set me up": how it is said, counted after the things
            said = [slot for slot in filled if slot not in fill.mentions]
            scored.append(((len(things_taken) + len(said), words_taken), task))
    return scored


def cued_pack(
    packs: Sequence[DomainPack], utterance: str, lexicons: Mapping[str, Mapping[str, Lexicon]]
) -> str | None:
    """The pack of the task with the most cue evidence (:func:`cue_evidence`); None on a tie."""
    scored = [
        (score, pack.name)
        for pack in packs
        for score, _ in cue_evidence(pack.tasks, utterance, lexicons.get(pack.name, {}))
    ]
    best = max((score for score, _ in scored), default=(0, 0))
    leaders = {name for score, name in scored if score == best}
    return leaders.pop() if scored and len(leaders) == 1 else None


def _takes(task: TaskSpec, lexicon: str | None) -> bool:
    """Whether one of ``task``'s slots takes a thing of ``lexicon``."""
    return any(spec.lexicon == lexicon for spec in task.slots.values())


def _inside_another(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``start:end`` lies inside a longer span of ``spans``."""
    return any(a <= start and end <= b and b - a > end - start for a, b in spans)


def _best(scored: Sequence[tuple[Evidence, TaskSpec]]) -> TaskSpec | None:
    """The task of the highest score; None when there is none or the best two tie."""
    ranked = sorted(scored, key=lambda pair: pair[0], reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
        return None
    return ranked[0][1]


def other_cues(pack: DomainPack, task: str) -> list[str]:
    """The cue phrases of ``pack``'s tasks other than ``task`` (signs of a new request)."""
    return [cue for other in pack.tasks if other.name != task for cue in other.cues]


def cue_spans(words: Sequence[str], cue: Sequence[str]) -> list[tuple[int, int]]:
    """Where the words of ``cue`` occur in ``words``: ``(first, last)`` word positions.

    The cue's words must come in order; up to :data:`CUE_GAP` other words may sit between
    two of them, so a phrasal verb matches around its object ("put the milk away").
    """
    found = []
    for first, word in enumerate(words):
        if word != cue[0]:
            continue
        position, matched = first, True
        for part in cue[1:]:
            window = words[position + 1 : position + 2 + CUE_GAP]
            if part not in window:
                matched = False
                break
            position += 1 + window.index(part)
        if matched:
            found.append((first, position))
    return found


def _dismissal(text: str) -> bool:
    return any(text == phrase or text.startswith(f"{phrase} ") for phrase in DISMISSALS)


def _holds_cue(words: Sequence[str], cues: Sequence[str]) -> bool:
    for cue in cues:
        cue_words = [token.text for token in tokenize(cue)]
        if cue_words and cue_spans(words, cue_words):
            return True
    return False


def _evidence(task: str, similarity: float, cued: Sequence[str], coverage: float) -> str:
    parts = [f"similarity {similarity:.2f}"]
    if task in cued:
        parts.append("cue phrase")
    if coverage:
        parts.append(f"mentions covered {coverage:.0%}")
    return ", ".join(parts)


def crowded_slot(
    pack: DomainPack, task: str | None, utterance: str, lexicons: Mapping[str, Lexicon]
) -> str | None:
    """A single-valued scene slot of ``task`` for which ``utterance`` names several things.

    "put the milk and the juice into the fridge" is not one Bring: such a compound request
    goes to the pack's open-ended task, whose plan can hold several steps. None when no slot
    is so crowded, or there is no task.
    """
    if task is None:
        return None
    for name, spec in pack.task(task).slots.items():
        lexicon = lexicons.get(spec.lexicon) if spec.lexicon and not spec.many else None
        if lexicon is None or spec.resolve != "scene" or spec.cues:
            continue
        if len({mention.id for mention in lexicon.find(utterance)}) > 1:
            return name
    return None
