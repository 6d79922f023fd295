"""Deterministic slot filling: the values an utterance gives a task's slots, when they are sure.

:func:`fill_slots` reads one utterance against a task's
:class:`~knowledge.packs.domain_pack.SlotSpec` entries and the pack's lexicons
(:mod:`knowledge.understanding.lexicon`). It only fills what it is sure of and leaves the rest to
the model or to a clarification question:

1. Every lexicon mention is read in context: its noun phrase (determiners, possessives and
   adjectives before it: "my reading glasses", "the blue bottle"), the cue right before that
   phrase ("to the kitchen", "without any nuts") and whether it is negated ("not the red one",
   "no nuts"). A mention that is only a modifier of the next one ("meeting room" in "the
   meeting room table") is part of that one's phrase, not a mention of its own.
2. Cued slots go first: a slot with ``cues`` takes the mentions of its lexicon that follow one
   of them; a single-valued slot takes the last such mention ("go to the table ..., place it on
   the shelf" puts it on the shelf; "the table in the bedroom" is one place, the table),
   unless a cue after it in the same clause names no thing ("the bottle on the table to me"),
   which leaves the slot open.
3. Uncued slots take the remaining mentions of their lexicon in text order (``many`` slots
   every one, others the first).
4. ``pattern`` slots (and lexicon slots with a pattern, when no mention was found) take the
   regular expression's group.

Pronouns and vague words ("it", "that one", "something") never fill a slot; a negated mention
fills a slot only through a negative cue ("without", "no", "not"). Values are what the user
said: for ``scene`` slots the whole noun phrase, with a place phrase after it when that names
a known place no other slot took ("the bottle on the kitchen table"), so referent resolution
sees every word; for ``kg``, ``value`` and ``text`` slots the mention's own words.

:func:`is_grounded` is the check the readiness gates hold a model's slot values to: a value
must name, in whole words, something the user said.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from cogtree.knowledge.language.closing_tags import as_read
from cogtree.knowledge.language.grammar.clause import SUBJECT_PRONOUNS
from cogtree.knowledge.language.grammar.spelling import unreduced
from cogtree.knowledge.language.grammar.words import PARTICLES, request_words
from cogtree.knowledge.language.pronouns import PERSON_PRONOUNS, TalkedAbout, antecedent
from cogtree.knowledge.packs.domain_pack import DomainPack, SlotSpec, TaskSpec
from cogtree.knowledge.scene.referents.description import PLACE_PREPOSITIONS
from cogtree.knowledge.understanding.lexicon import Lexicon, Mention, Token, tokenize
from cogtree.knowledge.wording import singular

log = logging.getLogger(__name__)

SlotValue = str | float | bool | list[str] | None
"""A slot value as the user said it (the same alias as
``knowledge.understanding.turn_state.SlotValue``)."""

_WORDS = request_words()

VAGUE_WORDS = _WORDS.pronouns | _WORDS.vague_places | frozenset(["thing", "things", "there"])
"""Words that name nothing on their own: the grammar's pronouns ("it", "that one",
"something") and vague places ("somewhere"), and "thing", "there"; a slot value made only of
them is not grounded."""

PRONOUNS = _WORDS.speaker | _WORDS.people_pronouns | SUBJECT_PRONOUNS | frozenset(["here"])
"""Personal pronouns and deictic words: they never fill a slot (PostProcess knows the speaker)."""

NEGATIONS = frozenset(words[0] for words in _WORDS.negations if len(words) == 1)
"""Words that, right before a noun phrase, say it is *not* what the user wants (the grammar's
one-word negations)."""

DETERMINERS = _WORDS.determiners | frozenset(["no"])
"""Words that open a noun phrase (the grammar's articles, demonstratives, quantifiers and
possessives), and "no" ("no nuts": a negated phrase)."""

ARTICLES = frozenset(["a", "an", "the"])
"""Articles: after a cue they still leave the thing to name ("to the ...")."""

BOUNDARY_WORDS = frozenset(
    [
        # prepositions and particles
        "to",
        "from",
        "in",
        "into",
        "on",
        "onto",
        "at",
        "inside",
        "with",
        "without",
        "for",
        "of",
        "by",
        "near",
        "under",
        "over",
        "next",
        "up",
        "down",
        "away",
        "back",
        "out",
        "off",
        # conjunctions and question words
        "and",
        "or",
        "but",
        "then",
        "so",
        "where",
        "what",
        "which",
        "who",
        "whose",
        "how",
        # verbs a request opens with
        "is",
        "are",
        "was",
        "were",
        "be",
        "have",
        "has",
        "can",
        "could",
        "would",
        "will",
        "please",
        "bring",
        "fetch",
        "get",
        "grab",
        "take",
        "put",
        "place",
        "give",
        "hand",
        "pass",
        "carry",
        "find",
        "show",
        "tidy",
        "clean",
        "print",
        "sign",
        "borrow",
        "deliver",
        "ask",
        "mean",
    ]
)
"""Words that end a noun phrase on its left: nothing before them describes the thing."""

CLAUSE_WORDS = frozenset(["and", "but", "then", "or", "so"])
"""Conjunctions that start a new clause (negation and noun phrases never cross them)."""

ONE_AS_A_COUNT = (("by", "one"), ("at", "a"), ("more",), ("after",), ("of",))
"""Words after "one" that make it a count or a manner, not a thing described ("one by one",
"one at a time", "one more time", "one after another", "one of them"); "the reading one by
the lamp" still describes. "ones" always describes."""

MAX_MODIFIERS = 4
"""How many words before a mention may belong to its noun phrase."""

_PUNCTUATION = re.compile(r"[,.;:!?]")


class SlotFill(BaseModel):
    """The slots an utterance fills for sure, and the mentions each value comes from."""

    slots: dict[str, SlotValue] = Field(
        default_factory=dict, description="slot -> value as said; slots not said are absent"
    )
    mentions: dict[str, list[Mention]] = Field(
        default_factory=dict, description="slot -> the lexicon mentions its value comes from"
    )


@dataclass(frozen=True)
class _Reading:
    """A mention read in its sentence: word positions, its noun phrase, negation."""

    mention: Mention
    first: int
    last: int
    phrase_start: int
    negated: bool

    def overlaps(self, other: _Reading) -> bool:
        return self.first <= other.last and other.first <= self.last


class _Sentence:
    """The utterance's words, clauses and lexicon mentions, read once per :func:`fill_slots`."""

    def __init__(self, text: str, lexicons: Mapping[str, Lexicon]) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.clauses = _clauses(text, self.tokens)
        self.words = [token.text.replace("'", "") for token in self.tokens]
        self._lexicons = lexicons
        self._readings: dict[str, list[_Reading]] = {}

    def readings(self, lexicon: str) -> list[_Reading]:
        """The mentions of ``lexicon`` that are things of their own (not modifiers), read.

        A mention right before "one" / "ones" describes the one meant ("the reading ones",
        "the kitchen one"): it is no thing of its own either (:meth:`_describes_one`).
        """
        if lexicon not in self._readings:
            found = self._lexicons[lexicon].find(self.text) if lexicon in self._lexicons else []
            readings = [self._read(mention) for mention in found]
            self._readings[lexicon] = [
                reading
                for index, reading in enumerate(readings)
                if not any(later.phrase_start <= reading.first for later in readings[index + 1 :])
                and not self._describes_one(reading)
            ]
        return self._readings[lexicon]

    def _describes_one(self, reading: _Reading) -> bool:
        """Whether "one" / "ones" follows the mention, in its phrase, as the thing it describes.

        Not across punctuation ("the mug, one with a handle"), nor when "one" counts or says
        how (:data:`ONE_AS_A_COUNT`: "the mugs one by one", "the bottle one more time").
        """
        after = reading.last + 1
        if self.words[after : after + 1] not in (["one"], ["ones"]):
            return False
        between = self.text[self.tokens[reading.last].end : self.tokens[after].start]
        counted = self.words[after] == "one" and any(
            tuple(self.words[after + 1 : after + 1 + len(idiom)]) == idiom
            for idiom in ONE_AS_A_COUNT
        )
        return not _PUNCTUATION.search(between) and not counted

    def all_readings(self) -> list[_Reading]:
        """The mentions of every lexicon, in text order."""
        every = [reading for name in self._lexicons for reading in self.readings(name)]
        return sorted(every, key=lambda reading: (reading.first, -reading.last))

    def _read(self, mention: Mention) -> _Reading:
        first = next(i for i, token in enumerate(self.tokens) if token.end > mention.start)
        last = max(i for i, token in enumerate(self.tokens) if token.start < mention.end)
        start = self._phrase_start(first)
        before = start - 1
        negated = self.words[start] == "no" or (
            before >= 0
            and self.clauses[before] == self.clauses[start]
            and self.words[before] in NEGATIONS
        )
        return _Reading(mention, first, last, start, negated)

    def _phrase_start(self, first: int) -> int:
        """Where the noun phrase of the mention starting at word ``first`` starts.

        Adjectives count only when a determiner or a possessive opens the phrase before them
        ("the big red mug", "Dr Weber's desk"), so a verb the tokenizer cannot tell from an
        adjective stays out.
        """
        start = first
        owner = False
        index = first - 1
        while index >= 0 and first - index <= MAX_MODIFIERS:
            word = self.tokens[index].text
            if self.clauses[index] != self.clauses[first]:
                break
            if word in DETERMINERS:
                return index
            if word in BOUNDARY_WORDS or word in NEGATIONS or _is_vague([word]):
                break
            if word.endswith("'s") and len(word) > 2:
                owner = True
            if owner:
                start = index
            index -= 1
        return start

    def cue_before(self, reading: _Reading, cues: Sequence[tuple[str, ...]]) -> int | None:
        """The index of the cue right before the reading's noun phrase, or opening it.

        "to the kitchen" and "without any nuts" end right before the phrase; "no nuts" opens it.
        """
        for index, cue in enumerate(cues):
            for end in range(reading.phrase_start, reading.first + 1):
                start = end - len(cue)
                if cue and start >= 0 and tuple(self.words[start:end]) == cue:
                    return index
        return None

    def vague_cue_positions(self, cues: Sequence[tuple[str, ...]]) -> list[int]:
        """Where a cue is followed by a pronoun or a vague word ("to me", "on it")."""
        found = []
        for cue in cues:
            for start in range(len(self.words) - len(cue)):
                if tuple(self.words[start : start + len(cue)]) != cue:
                    continue
                after = start + len(cue)
                if after < len(self.words) and self.words[after] in ARTICLES:
                    after += 1
                if after < len(self.words) and self._names_nothing(after):
                    found.append(start)
        return found

    def _names_nothing(self, index: int) -> bool:
        """Whether the word at ``index`` names nothing: a pronoun or vague word.

        A determiner of a noun after it does name something: "to her" names nothing, "for her
        signature" does.
        """
        word = self.words[index]
        if not _is_vague([word]):
            return False
        following = index + 1
        return not (
            word in DETERMINERS
            and following < len(self.words)
            and self.clauses[following] == self.clauses[index]
            and self.words[following] not in BOUNDARY_WORDS
        )

    def place_phrase_after(self, reading: _Reading, taken: Iterable[_Reading]) -> int | None:
        """The end offset of "on the kitchen table ..." right after ``reading``, if any."""
        end: int | None = None
        current = reading
        taken = list(taken)
        while True:
            preposition = current.last + 1
            if (
                preposition >= len(self.words)
                or self.words[preposition] not in PLACE_PREPOSITIONS
                or self.clauses[preposition] != self.clauses[current.last]
            ):
                return end
            place = next(
                (
                    other
                    for other in self.all_readings()
                    if other.phrase_start == preposition + 1
                    and not other.negated
                    and not any(other.overlaps(used) for used in taken)
                ),
                None,
            )
            if place is None:
                return end
            end, current = place.mention.end, place


def fill_slots(task: TaskSpec, utterance: str, lexicons: Mapping[str, Lexicon]) -> SlotFill:
    """Fill the slots of ``task`` that ``utterance`` gives for sure (see the module docstring).

    A slot whose lexicon is not in ``lexicons`` is left open. Never raises for any text.
    """
    sentence = _Sentence(utterance, lexicons)
    chosen: dict[str, list[_Reading]] = {}
    cued = [(name, spec) for name, spec in task.slots.items() if spec.lexicon and spec.cues]
    uncued = [(name, spec) for name, spec in task.slots.items() if spec.lexicon and not spec.cues]
    for name, spec in cued:
        picked = _cued(sentence, spec, _taken(chosen))
        if picked:
            chosen[name] = picked
    for name, spec in cued:
        if name not in chosen:
            person = _pointed_back(sentence, spec, _taken(chosen))
            if person is not None:
                chosen[name] = [person]
    for name, spec in uncued:
        assert spec.lexicon is not None
        free = [
            reading
            for reading in sentence.readings(spec.lexicon)
            if not reading.negated
            and not _is_vague(_words(reading.mention.text))
            and not any(reading.overlaps(used) for used in _taken(chosen))
        ]
        if free:
            chosen[name] = free if spec.many else free[:1]
    fill = SlotFill()
    for name, spec in task.slots.items():
        if name in chosen:
            others = [r for slot, rs in chosen.items() if slot != name for r in rs]
            values = [_value(sentence, spec, reading, others) for reading in chosen[name]]
            fill.slots[name] = values if spec.many else values[0]
            fill.mentions[name] = [reading.mention for reading in chosen[name]]
        elif spec.pattern is not None:
            matched = _pattern_values(spec.pattern, as_read(utterance))  # "..., d'you know?"
            if matched:
                fill.slots[name] = matched if spec.many else matched[0]
    log.debug("slots of %s in %r: %s", task.name, utterance, fill.slots)
    return fill


def _pointed_back(sentence: _Sentence, spec: SlotSpec, taken: list[_Reading]) -> _Reading | None:
    """The one person a cued "him"/"her" points back at, in this utterance.

    "take Mr Okafor's pill organiser to him": the recipient is Mr Okafor
    (:func:`~knowledge.language.pronouns.antecedent` decides). Two candidates, or none, leave
    the slot open (the robot asks). A thing pronoun after a cue ("on it") is the
    frame's to resolve (:mod:`knowledge.understanding.frame_tasks`).
    """
    assert spec.lexicon is not None
    cues = "|".join(re.escape(cue) for cue in spec.cues)
    pronouns = "|".join(sorted(PERSON_PRONOUNS))
    said = re.search(rf"\b(?:{cues})\s+({pronouns})\b", sentence.text, re.I) if cues else None
    if said is None:
        return None
    people = [reading for reading in sentence.readings(spec.lexicon) if not reading.negated]
    return antecedent(
        said.group(1),
        things=(),
        people=people,
        taken=lambda reading: any(reading.overlaps(used) for used in taken),
    )


def _cued(sentence: _Sentence, spec: SlotSpec, taken: list[_Reading]) -> list[_Reading]:
    """The readings a cued slot takes (see the module docstring)."""
    assert spec.lexicon is not None
    cues = [tuple(token.text.replace("'", "") for token in tokenize(cue)) for cue in spec.cues]
    found: list[_Reading] = []
    for reading in sentence.readings(spec.lexicon):
        cue = sentence.cue_before(reading, cues)
        if cue is None or _is_vague(_words(reading.mention.text)):
            continue
        if reading.negated and not NEGATIONS.intersection(cues[cue]):
            continue
        if any(reading.overlaps(used) for used in taken):
            continue
        if found and _attached(sentence, found[-1], reading, cues[cue]):
            continue
        found.append(reading)
    if spec.many or not found:
        return found
    last = found[-1]
    clause = sentence.clauses[last.last]
    if any(
        position > last.last and sentence.clauses[position] == clause
        for position in sentence.vague_cue_positions(cues)
    ):
        return []
    return [last]


def _attached(sentence: _Sentence, head: _Reading, reading: _Reading, cue: Sequence[str]) -> bool:
    """Whether ``reading`` only says where ``head`` is ("the table *in the bedroom*")."""
    return (
        len(cue) == 1
        and cue[0] in PLACE_PREPOSITIONS
        and reading.phrase_start - 1 == head.last + 1
        and sentence.clauses[head.last] == sentence.clauses[reading.first]
    )


def _taken(chosen: Mapping[str, list[_Reading]]) -> list[_Reading]:
    return [reading for readings in chosen.values() for reading in readings]


def _value(sentence: _Sentence, spec: SlotSpec, reading: _Reading, others: list[_Reading]) -> str:
    """The slot value of one reading: a noun phrase for scene slots, else the mention's words."""
    if spec.resolve != "scene":
        return reading.mention.text
    start = sentence.tokens[reading.phrase_start].start
    end = sentence.place_phrase_after(reading, others) or reading.mention.end
    return " ".join(sentence.text[start:end].split())


def _pattern_values(pattern: str, utterance: str) -> list[str]:
    """The pattern's group in every match, trimmed, without empty or vague values.

    ``SlotSpec`` compiled the pattern with these flags when the pack was read, so ``re``'s
    cache of compiled patterns holds it and no turn compiles it on the tick.
    """
    values = []
    for match in re.finditer(pattern, utterance, flags=re.IGNORECASE):
        value = " ".join((match.group(1) or "").split()).strip(" ,.;:!?\"'")
        if value and not _is_vague(_words(value)):
            values.append(value)
    return values


def _clauses(text: str, tokens: list[Token]) -> list[int]:
    """The clause number of every word: punctuation and conjunctions start a new clause."""
    clauses = []
    clause, previous_end = 0, 0
    for token in tokens:
        if _PUNCTUATION.search(text, previous_end, token.start) or token.text in CLAUSE_WORDS:
            clause += 1
        clauses.append(clause)
        previous_end = token.end
    return clauses


def _words(text: str) -> list[str]:
    return [token.text for token in tokenize(text)]


def _is_vague(words: Sequence[str]) -> bool:
    """True when ``words`` name nothing: empty, or only pronouns, vague words, determiners."""
    return all(word in VAGUE_WORDS or word in PRONOUNS or word in DETERMINERS for word in words)


def is_grounded(value: Any, utterance: str) -> bool:
    """True when ``value`` names something the user said, as whole words, and is not vague.

    ``"water bottle"`` is grounded in "bring the water bottle"; ``"beer"`` is not; ``"it"``
    and ``"a"`` never are, even though the user said them. Plural and singular forms match
    (``"peanut"`` in "I am allergic to peanuts"), and a whole number matches its digits
    ("2000" in "2,000 kcal", "250" in "250g"). A phrasal verb's particle may stand inside the
    value's words: "the lamp in the study" is said in "switch the lamp on in the study".
    """
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    words = _said_words(str(value))
    while words and words[0] in ("a", "an", "the", "my", "some"):
        words = words[1:]
    if not words or all(word in VAGUE_WORDS for word in words):
        return False
    named = tuple(singular(word) for word in words)
    said = _said_singulars(utterance)
    return any(_said_from(named, said, start) for start in range(len(said)))


def _particle_before_place(said: tuple[str, ...], at: int, word: str) -> bool:
    """Whether ``said[at]`` is a verb's particle before the place ``word`` opens ("on", "in")."""
    return at < len(said) and said[at] in PARTICLES and word in PLACE_PREPOSITIONS


def _said_from(named: tuple[str, ...], said: tuple[str, ...], start: int) -> bool:
    """Whether ``named`` is said from ``start`` on, a particle before its place skipped.

    Only before a place with words after it: "on" alone may be the state asked about.
    """
    at = start
    for index, word in enumerate(named):
        place = index + 1 < len(named) and _particle_before_place(said, at, word)
        if index and said[at : at + 1] != (word,) and place:
            at += 1
        if at >= len(said) or said[at] != word:
            return False
        at += 1
    return True


def grounded_in(value: Any, said: Sequence[str]) -> bool:
    """True when every item of ``value`` (a list's items, or the value) is grounded in a text.

    Each item must be :func:`is_grounded` in one of the ``said`` utterances; an empty value or
    list never is.
    """
    values = value if isinstance(value, list | tuple) else [value]
    items = [item for item in values if item is not None and str(item).strip()]
    return bool(items) and all(any(is_grounded(item, text) for text in said) for item in items)


@functools.lru_cache(maxsize=64)
def _said_singulars(utterance: str) -> tuple[str, ...]:
    """The words of ``utterance`` as :func:`is_grounded` matches them, singular, in full.

    Kept for the last utterances: a turn grounds every slot value in the same few texts, and
    reading a long one again for each value cost seconds (380,000 characters: 52 readings).
    """
    return tuple(singular(word) for word in _said_words(unreduced(utterance)))


def _said_words(text: str) -> list[str]:
    """Lower-case words; a possessive counts as its owner ("okafor's" -> "okafor")."""
    words = []
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.lower())  # "2,000": the number 2000
    text = re.sub(r"(?<=\d)(?=[a-z])", " ", text)  # "250g": 250 and its unit
    for word in re.findall(r"[\w']+", text):
        stripped = word.strip("'")
        words.append(stripped[:-2] if stripped.endswith("'s") else stripped)
    return [word for word in words if word]


def talked_about(utterance: str, pack: DomainPack, lexicons: Mapping[str, Lexicon]) -> TalkedAbout:
    """The things and people ``utterance`` names, through the pack's scene lexicons."""
    people_lexicons = [
        lexicons[name]
        for name, spec in pack.manifest.lexicons.items()
        if spec.scene == ["people"] and name in lexicons
    ]  # asked about each mention: listing their ids costs the size of the household
    scene = {
        name for name, spec in pack.manifest.lexicons.items() if spec.scene and name in lexicons
    }
    mentions = sorted(
        (mention for name in sorted(scene) for mention in lexicons[name].find(utterance)),
        key=lambda mention: (mention.start, -mention.end),
    )
    things: dict[str, str] = {}
    people: dict[str, str] = {}
    for mention in mentions:
        found = people if any(mention.id in known for known in people_lexicons) else things
        if mention.id not in things and mention.id not in people:
            found[mention.id] = mention.text
    return TalkedAbout(said=[utterance], things=list(things.values()), people=list(people.values()))
