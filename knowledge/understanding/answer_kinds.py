"""What kind of answer the robot's question expects, and what kind of answer the user gave.

When the robot has asked something (``/session/pending``), the next utterance is read as the
answer only when its kind fits the question's; otherwise it is a new request. The two kinds
come from two places:

- the question's (:func:`expected_kind`): from how the robot put it. A question asking to
  confirm expects a yes or a no; "where" expects a place, "who" (or the speaker asked for) a
  person, "how many" / "how much" an amount, "what would you like me to do" a request; any
  other question ("Which mug do you mean?", "Which bottle: the blue one or the green one?")
  a thing, one of those it names;
- the answer's (:func:`answer_kind`): from the turn's one parse (``/turn/frame``). A bare yes
  or no; words with no step that hold a preposition of place ("on the kitchen counter", "I
  think it's in the fridge") a place; a noun phrase with no verb of its own (the parse reads
  a bare noun phrase as a wish for the thing) a thing, or a place when it names furniture or
  a large appliance ("the table, I reckon", "freezer"), or a person when it names one; a
  number an amount; a clause with a verb of its own a request.

:func:`fits` holds one against the other. A place or a thing fits a question about a place
or a thing (the kitchen is a place, "the one on the table" picks a thing by where it is); a
yes or a no fits only a yes/no question, and a yes/no question takes nothing else as its
answer; a request fits only a question that asks what to do.

:func:`noted_place` is what a place answer to "where is it?" becomes when the question was
about a thing the robot has not seen: the pack's note of where the user says it is.

:func:`particle_answered` completes the request a bare particle answers ("on" to "Should I
switch the kettle on or off?"); :func:`asks_another_task` tells a request of its own, said
first, from an answer ("give the plant a drench" asked where the plant is).

:func:`read_answer` is what a short answer names: a bare yes to a question that proposed a
value ("Where should I put it: in the fridge?" - "yeah, cheers") is that value
(:func:`proposal_taken`; a bare no, :func:`proposal_declined`, leaves the slot to ask open);
an answer naming one of the things the question offered by a word of its label or of its
type ("telly" for "the tv remote") is that thing (:func:`picked_option`); else "one" stands
for the noun asked about (:func:`with_asked_noun`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Final, Literal

from cogtree.knowledge.language.closing_tags import without_tags
from cogtree.knowledge.language.grammar.indifference import (
    how_to_choose,
    indifferent_words,
    phrases_in,
    without_opinion,
)
from cogtree.knowledge.language.grammar.words import request_words, says_no
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.language.tfidf import english_stop_words
from cogtree.knowledge.memory.note import Note
from cogtree.knowledge.memory.polarity import is_bare_answer
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.slot_roles import DESTINATION_SLOTS, RECIPIENT_SLOTS
from cogtree.knowledge.packs.task_schema import required_slots
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.understanding.frame_tasks import step_task
from cogtree.knowledge.understanding.lexicon import Lexicon
from cogtree.knowledge.understanding.pending_question import accepts
from cogtree.knowledge.understanding.slot_filling import fill_slots
from cogtree.knowledge.understanding.turn_state import SPEAKER_SLOT, PendingTask, SlotValue
from cogtree.knowledge.wording import singular

AnswerKind = Literal["yes_no", "place", "person", "thing", "amount", "request"]
"""What an answer gives: a yes or a no, a place, a person, a thing, a number, or a request."""

FITTING: Final[dict[AnswerKind, frozenset[AnswerKind]]] = {
    "yes_no": frozenset(["yes_no"]),
    "place": frozenset(["place", "thing", "person"]),
    "thing": frozenset(["thing", "place", "amount", "person"]),
    "person": frozenset(["person", "thing"]),
    "amount": frozenset(["amount", "thing"]),
    "request": frozenset(["request", "thing", "place", "person", "amount"]),
}
"""The answer kinds that fit each question kind (a person may be where a thing goes, or the
one meant); a yes or a no fits only a yes/no question, a request only a question what to do."""

_QUESTION_WORDS: Final[tuple[tuple[re.Pattern[str], AnswerKind], ...]] = (
    (re.compile(r"\bwhere\b", re.IGNORECASE), "place"),
    (re.compile(r"\bwho(m|se)?\b", re.IGNORECASE), "person"),
    (re.compile(r"\bhow (many|much)\b", re.IGNORECASE), "amount"),
    (re.compile(r"\bwhat would you like me to do\b", re.IGNORECASE), "request"),
    (re.compile(r"\b(which|what)\b", re.IGNORECASE), "thing"),
)
"""The question word that says what the question asks for, first match wins."""

_NUMBER: Final = re.compile(r"^\s*\d+(\.\d+)?\s*$")


def expected_kind(pending: PendingTask) -> AnswerKind:
    """The kind of answer ``pending``'s question asks for (module docstring)."""
    if pending.confirm:
        return "yes_no"
    if SPEAKER_SLOT in pending.missing[:1]:
        return "person"
    question = _the_question(pending.question)
    for pattern, kind in _QUESTION_WORDS:
        if pattern.search(question):
            return kind
    return "thing"


def answer_text(frame: RequestFrame) -> str:
    """The words of ``frame`` that answer: its first clause when it has no step and several.

    "Tom. My husband" answers "Tom", "the bedroom one, I'm still reading" "the bedroom one":
    what follows the answer tells more about it and asks for nothing (it would be a step).
    With no step the parse's first clause is the answer without its closing words ("yeah,
    cheers" answers "yeah"). An interjection or address before a comma ("Oh, the windowsill")
    and a hedge that only gives a view ("the windowsill I think") are no part of it.
    """
    said = [clause for clause in frame.context if not _only_asides(clause)]
    text = _without_opener(said[0] if not frame.steps and said else frame.text)
    return " ".join(without_opinion(text).split()).strip(" ,")


def _only_asides(clause: str) -> bool:
    """Whether ``clause`` is only interjections or forms of address ("Oh", "oh, love")."""
    return set(re.findall(r"[\w']+", clause.lower())) <= request_words().asides


def _without_opener(text: str) -> str:
    """``text`` without a word a request opens with, or an address, before a comma ("Oh, ...")."""
    opened = re.match(r"\s*([\w']+)\s*,\s*(\S.*)$", text, re.DOTALL)
    return opened.group(2) if opened and opened.group(1).lower() in request_words().asides else text


def answer_kind(frame: RequestFrame) -> AnswerKind:
    """The kind of answer the turn's parse ``frame`` gives (module docstring)."""
    text = answer_text(frame).strip()
    if is_bare_answer(text):
        return "yes_no"
    if not frame.steps:
        if _holds_a_place(text) or _names_furniture(text):
            return "place"
        if _NUMBER.match(text):
            return "amount"
        return "person" if _capitalised(text) else "thing"
    step = frame.steps[0]
    if len(frame.steps) > 1 or step.statement or _verb_said(text):
        return "request"
    wanted = step.wanted
    if len(wanted) == 1 and wanted[0].person:
        return "person"
    if step.bare and len(wanted) == 1 and _names_furniture(wanted[0].text):
        return "place"  # "the windowsill": a place to put things, as "freezer" is
    if all(phrase.quantity and phrase.head == phrase.quantity for phrase in wanted) and wanted:
        return "amount"
    return "thing"


def fits(expected: AnswerKind, given: AnswerKind) -> bool:
    """Whether an answer of kind ``given`` answers a question expecting ``expected``."""
    return given in FITTING[expected]


_ASKED_NOUN: Final = re.compile(r"\bwhich\s+([a-z]+)\b", re.IGNORECASE)
_ONE: Final = re.compile(r"\b(ones?)\b", re.IGNORECASE)
_NO_NOUN: Final = frozenset(["one", "ones", "of", "object", "thing", "things"])
"""Words after "which" that name no kind of thing ("which one", "which of them")."""


def with_asked_noun(answer: str, question: str) -> str:
    """``answer`` with "one" standing for the noun ``question`` asked about.

    "Which mug do you mean?" - "the blue one": the blue mug. An answer without "one", or a
    question that names no kind ("Which one?"), is returned as it is.
    """
    asked = _ASKED_NOUN.search(question)
    if asked is None or asked.group(1).lower() in _NO_NOUN:
        return answer
    return _ONE.sub(asked.group(1).lower(), answer, 1)


def picked_option(answer: str, pending: PendingTask) -> tuple[str, str] | None:
    """The slot and the offered thing's label ``answer`` picks among ``pending``'s options.

    The answer picks an option when one of its words, or the type the taxonomy names by it,
    is among the option's own and the other options' lack it: "telly" picks "tv remote" over
    "air con remote" (both words name a television), "the blue one" picks "blue mug". Words
    every option shares ("remote") tell none apart. None unless exactly one option is picked,
    or when the answer names a kind no option is ("the red wine" picks no "red mug"), or when
    it says no to something or rules one out ("not the big one", "avoid the bleach": which is
    left open), but for a bare no before "the <words> one" that nothing after takes back
    (:data:`_CONTRAST`: "No, the phone one", which picks by that). An answer that leaves the
    choice to the robot (the grammar's ``indifferent`` words: "either", "I don't mind"), picks
    no option and says nothing more (:func:`~knowledge.language.grammar.indifference.
    how_to_choose`) takes the first option of the only slot asked, unless the options are
    only guesses. An ordinal after "the" picks the option at that place
    in the question's list ("the second one", "the last one": :func:`_placed_option`).
    """
    words, covered = indifferent_words(answer)
    rest = [word for at, word in enumerate(words) if at not in covered]  # "I don't mind": no no
    if says_no(" ".join(rest)):
        contrast = _CONTRAST.match(answer)  # "No, the phone one": a no, then which it is
        if contrast is None or says_no(contrast["one"]) or _takes_back(contrast["tail"]):
            return None  # "not the bleach", "avoid the bleach": asked again, never guessed
        answer = contrast["one"]
    picked = _named_option(answer, pending) or _placed_option(answer, pending)
    left = _choice_left(answer, pending) if picked is None else None
    if left is not None and left not in pending.guessed and pending.options[left]:
        return left, pending.options[left][0]
    return picked


_CONTRAST: Final = re.compile(
    r"^\s*(?:no|nope|nah)\s*[,.;:!\u2013\u2014-]+\s*"
    r"(?P<one>(?:the|that|this|my|your|his|her|their)\s+(?:[\w'-]+\s+){0,2}ones?)\s*"
    r"(?P<tail>$|[-,.;:!?\u2013\u2014].*)",
    re.IGNORECASE | re.DOTALL,
)
"""A bare no, then the option meant as "the <words> one", ended by a mark: "No, the phone one
- white, by the bed". Only a noun phrase so shaped is read ("no, the ibuprofen stays" and "no,
the telly's for him" pick nothing), and never when what follows takes it back
(:func:`_takes_back`)."""


_HEDGES: Final = re.compile(r"\?|\b(?:or|wait|hang on|hold on|scratch that|maybe|unless|ones?)\b")
"""What makes the one named less than sure: a question, another choice ("or"), a pause, a
hedge, or another one named ("- the white one")."""


def _takes_back(tail: str) -> bool:
    """Whether what follows the one named says no, corrects it, hedges or names another."""
    _, repaired = phrases_in(tail, request_words().repairs)
    return says_no(tail) or bool(repaired) or bool(_HEDGES.search(tail.lower()))


def leaves_a_guess(answer: str, pending: PendingTask) -> bool:
    """Whether ``answer`` leaves the robot a choice ("either") among options that are guesses.

    None of them is the robot's to take: the question is asked again.
    """
    return _choice_left(answer, pending) in pending.guessed


def _choice_left(answer: str, pending: PendingTask) -> str | None:
    """The only slot asked about when ``answer`` leaves its choice to the robot, else None.

    "either", "I don't mind", and nothing more
    (:func:`~knowledge.language.grammar.indifference.how_to_choose`).
    """
    words, covered = indifferent_words(answer)
    rest = [word for at, word in enumerate(words) if at not in covered]
    if not covered or len(pending.options) != 1 or not how_to_choose(rest):
        return None
    return next(iter(pending.options))


def correction(first: str, answer: str) -> str | None:
    """What follows ``answer``'s ``first`` clause when the answer corrects itself, else None.

    "Dad. Stan, I mean" -> "Stan, I mean"; "Tom. Sorry, Stan" -> "Sorry, Stan" (the grammar's
    ``repairs``). Without a correction what follows only tells more ("Dunno. Stan might
    know"), and the first clause is the answer.
    """
    at = answer.lower().find(first.lower()) if first.strip() else -1
    rest = answer[at + len(first) :] if at >= 0 else ""
    _, covered = phrases_in(rest, request_words().repairs)
    return rest if covered else None


def _placed_option(answer: str, pending: PendingTask) -> tuple[str, str] | None:
    """The option an ordinal after "the" picks by its place, when one slot was asked about."""
    ordinals = request_words().ordinals
    said = _words(answer)
    places = [ordinals.index(b) for a, b in pairwise(said) if a == "the" and b in ordinals]
    if len(places) != 1 or len(pending.options) != 1:
        return None  # "wait a second" says no place; two ordinals, no one place
    slot, labels = next(iter(pending.options.items()))
    at = -1 if ordinals[places[0]] == "last" else places[0]
    return (slot, labels[at]) if -len(labels) <= at < len(labels) else None


def _named_option(answer: str, pending: PendingTask) -> tuple[str, str] | None:
    said = _senses(answer)
    for slot, labels in pending.options.items():
        senses = [_senses(label) for label in labels]
        shared = frozenset.intersection(*senses) if senses else frozenset()
        if _types(answer) - frozenset().union(*senses):
            continue
        picked = [label for label, own in zip(labels, senses, strict=True) if said & (own - shared)]
        if len(set(picked)) == 1:
            return slot, picked[0]
    return None


def proposal_taken(answer: str, pending: PendingTask) -> dict[str, str]:
    """The values ``pending``'s question proposed, when ``answer`` is a bare yes; else none.

    "Where should I put it: in the fridge?" - "yeah": the fridge. A no, or anything more than
    a yes, takes nothing (the proposal's slot stays open); an offer is taken by a yes that
    opens the answer (:func:`~knowledge.understanding.pending_question.accepts`).
    """
    offer_taken = pending.offered and accepts(answer)  # "oh yes please, you're a star"
    return dict(pending.proposed) if offer_taken or _says_to_proposal(answer, pending) else {}


def proposal_declined(answer: str, pending: PendingTask) -> bool:
    """Whether ``answer`` is a bare no to ``pending``'s proposal: the question is asked open."""
    return _says_to_proposal(answer, pending) is False


_POINTING_AT: Final = re.compile(r"[\s,.;:!-]*\b(?:that|this)\s+one\b")
"""Words after a yes that point at the one proposed ("yes, that one"): no more than the yes."""
_POINTING_AWAY: Final = re.compile(r"[\s,.;:!-]*\b(?:not\s+(?:that|this)|the\s+other)\s+one\b")
"""Words after a no that point away from it ("no, not that one", "no, the other one")."""


def _says_to_proposal(answer: str, pending: PendingTask) -> bool | None:
    """Yes (True) or no (False) to ``pending``'s proposal, when that is all ``answer`` says.

    A yes with "not" or "other" in it ("yes, the other one") is neither.
    """
    said = without_tags(answer).lower()  # "yeah, cheers" says yes
    away = _POINTING_AWAY.sub("", said)
    if away != said:  # only a bare no may point away from the one proposed
        return False if pending.proposed and is_bare_answer(away) and says_no(away) else None
    said = _POINTING_AT.sub("", said)
    if not pending.proposed or not is_bare_answer(said):
        return None
    return not says_no(said)


def read_answer(answer: str, pending: PendingTask) -> str:
    """``answer`` as what it names: the proposal it takes, the option it picks, or as said.

    A yes to a proposal is the value proposed (:func:`proposal_taken`); then
    :func:`picked_option` ("telly" to "the air con remote or the tv remote?" is "tv remote"),
    then :func:`with_asked_noun` ("the white one" to "Which mug?" is "the white mug").
    """
    taken = proposal_taken(answer, pending)
    if len(taken) == 1:
        return next(iter(taken.values()))
    picked = picked_option(answer, pending)
    return picked[1] if picked is not None else with_asked_noun(answer, pending.question)


def particle_answered(pending: PendingTask | None, answer: str) -> str:
    """The request a bare particle answers, or ``answer`` as it is.

    "Should I switch the kettle on or off?" - "on, please": "switch on the kettle", the
    request the question offered for that way (``pending.ways``).
    """
    said = [word for word in _words(answer) if word not in ("please", "thanks")]
    if pending is None or len(said) != 1:
        return answer
    return pending.ways.get(said[0], answer)


def said_before(pending: PendingTask | None, domain: str, answer: str) -> list[str]:
    """What the user said that ``answer`` continues: ``pending``'s utterances, oldest first.

    Only when ``pending`` belongs to ``domain`` (else none). When the question asked about a
    kind and ``answer`` says "one", the answer read with that kind comes last
    (:func:`read_answer`: "the white one" to "Which mug do you mean?" says "the white mug",
    "telly" to "the air con remote or the tv remote?" the tv remote), so a value taken from it
    was said.
    """
    if pending is None or pending.domain != domain:
        return []
    read = read_answer(answer, pending)
    return [*pending.said, *([read] if read != answer else [])]


def slot_answered(missing: list[str], given: AnswerKind) -> str | None:
    """The missing slot an answer of kind ``given`` fills: the only one, or the first it fits.

    Of several missing slots ("Which paper? Where should I take it?"), a person fills the
    first recipient or destination slot, a place the first destination slot, a thing or an
    amount the first slot that is neither. None when no missing slot takes it.
    """
    if len(missing) == 1:
        return missing[0]
    roles: dict[AnswerKind, frozenset[str]] = {
        "person": RECIPIENT_SLOTS | DESTINATION_SLOTS,
        "place": DESTINATION_SLOTS,
    }
    placed = RECIPIENT_SLOTS | DESTINATION_SLOTS
    for slot in missing:
        if given in roles and slot in roles[given]:
            return slot
        if given in ("thing", "amount") and slot not in placed:
            return slot
    return None


def noted_place(
    pack: DomainPack, pending: PendingTask, answer: str
) -> tuple[str, dict[str, SlotValue]] | None:
    """The pack's note task and its slots for ``answer``, where ``pending``'s unseen thing is.

    The note keeps the answer as said and the thing as the user named it before ("the
    honey"): both are the user's own words. None when the question was not where a thing the
    robot has never seen is (``pending.unseen``), or the pack has no note task
    (:class:`~knowledge.memory.note.Note`).
    """
    note = next((task for task in pack.tasks if pack.schema_for(task.name) is Note), None)
    if note is None or not pending.unseen.strip():
        return None
    said = " ".join(answer.split()).strip(" ,.;:!?")
    return note.name, {"fact": said, "about": pending.unseen}


def _the_question(text: str) -> str:
    """The sentence of ``text`` that asks (the last one ending with "?"), else ""."""
    asked = [part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part.endswith("?")]
    return asked[-1] if asked else ""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _content_words(text: str) -> frozenset[str]:
    return frozenset(singular(word) for word in _words(text) if word not in english_stop_words())


def _types(text: str) -> frozenset[str]:
    """The types the taxonomy names by the content words of ``text``."""
    taxonomy = household_taxonomy()
    named = (taxonomy.type_named(word) for word in _content_words(text))
    return frozenset(kind for kind in named if kind is not None)


def _senses(text: str) -> frozenset[str]:
    """The content words of ``text`` (in the singular) and the types the taxonomy names by them."""
    return _content_words(text) | _types(text)


def _place_prepositions() -> frozenset[tuple[str, ...]]:
    return frozenset(
        phrase
        for phrase, (role, _relation) in request_words().prepositions.items()
        if role in ("landmark", "destination")
    )


def _holds_a_place(text: str) -> bool:
    """Whether ``text`` holds a preposition of place with words after it ("it's on the shelf")."""
    words = tuple(_words(text))
    for phrase in _place_prepositions():
        size = len(phrase)
        if any(words[at : at + size] == phrase for at in range(len(words) - size)):
            return True
    return False


PLACES_TO_PUT: Final = ("FurniturePiece", "LargeAppliance")
"""The taxonomy's kinds of thing that things are put on or in: a table, a shelf, a freezer."""


def _names_furniture(text: str) -> bool:
    """Whether the last word of ``text`` names a kind of furniture or large appliance ("table")."""
    words, taxonomy = _words(text), household_taxonomy()
    kind = taxonomy.type_named(singular(words[-1])) if words else None
    return kind is not None and any(taxonomy.is_a(kind, place) for place in PLACES_TO_PUT)


def _capitalised(text: str) -> bool:
    """Whether every word of ``text`` is capitalised: a name as said ("Anna", "Mr Okafor")."""
    words = re.findall(r"[A-Za-z][\w']*", text)
    return bool(words) and all(word[0].isupper() for word in words)


def _verb_said(text: str) -> bool:
    """Whether a verb of the grammar is among the words said (a bare noun phrase has none)."""
    verbs = {words[0] for words in request_words().verbs}
    return any(word in verbs for word in _words(text))


def asks_another_task(frame: RequestFrame, pack: DomainPack, pending: PendingTask) -> bool:
    """Whether the request of ``frame`` asks for an action ``pending``'s task is not.

    Its first step opens the utterance and says a verb that names no capability ("give it a
    drench") or one whose task is another ("switch the hob off" while the robot asks which mug
    to bring). A step after other words follows an answer ("by the bed, ta - leave the other
    one": the answer is "by the bed").
    """
    step = frame.steps[0]
    said, asked = _words(frame.text), _words(step.text)
    if step.statement or not step.verb or said[: len(asked)] != asked:
        return False
    found = step_task(step, pack, frame.text)
    return found is None or found.task != pending.task


def asks_cued_task(
    task: str | None,
    pack: DomainPack,
    lexicons: Mapping[str, Lexicon],
    pending: PendingTask,
    utterance: str,
) -> bool:
    """Whether ``utterance`` asks for ``task`` (the guess is sure of it, cue and all), not answers.

    Only when ``task`` is not ``pending``'s and the utterance fills its required slots: "230 g
    of carbs" answers a question about targets; it is no DishInfo request, which needs a dish.
    """
    if task is None or task == pending.task:
        return False
    filled = dict(fill_slots(pack.task(task), utterance, lexicons).slots)
    required = required_slots(pack.schema_for(task), filled)
    return all(filled.get(slot) not in (None, "", []) for slot in required)
