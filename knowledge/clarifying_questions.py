"""The robot's clarifying questions, put into words: pure functions of what is missing.

:func:`slot_question` asks for a slot (its field description addressed to the user, the
candidates of an ambiguous referent, or the value that matched nothing), :func:`task_question`
for the task ("What would you like me to do with the plum?"; "Should I switch the kettle on or
off?" when only the way of switching is missing), :func:`unseen_question` where a thing is that
the robot has never seen, :func:`confirmation_question` for a yes before acting. The
``AskClarification`` node (``behaviours/actions/dialogue/clarify.py``) picks one and holds it
to the faithfulness check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel

from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.language.unknown_verbs import which_switching
from cogtree.knowledge.scene.referents.description import PRONOUN_NOUNS
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.understanding.turn_state import (
    SPEAKER_SLOT,
    SlotResolution,
)
from cogtree.knowledge.wording import (
    capitalised,
    id_words,
    joined,
    looks_plural,
    lower_first,
    said_back,
    singular,
    with_the,
)

SPEAKER_QUESTION = "Who is speaking, please?"
"""The question when the robot must know who "my" and "me" are before it acts."""

WH_WORDS = ("which", "what", "who", "whom", "whose", "where", "when", "how")
"""A field description starting with one of these is already the heart of a question."""

_NOUN_END = re.compile(
    r"\s(?:to|for|that|which|who|whose|from|with|in|on|at|of|by)\s|[,;:(.]", re.IGNORECASE
)
_ARTICLE = re.compile(
    r"^(?:the|a|an|some|one or more|one|my|your|his|her|its|our|their|this|that|these|those)\s+",
    re.I,
)
"""Words before a noun a question drops ("Which bottle do you mean", not "Which her bottle")."""


def _clause(text: str) -> str:
    """``text`` ready to sit inside a sentence: first letter lowered, end punctuation dropped."""
    return lower_first(text.strip().rstrip(".!?"))


def noun_for(slot: str, description: str | None) -> str:
    """What a slot is called in a question: the head of its description, else its name.

    ``"the dish to look up"`` and ``"which dish to look up"`` -> ``dish``; a long head keeps
    its first word (``"ingredients the suggestion must not contain"`` -> ``ingredients``); no
    head (``"where to take it"``, no description) -> the slot name in words.
    """
    text = re.sub(r"^(?:which|what)\s+", "", (description or "").strip(), flags=re.IGNORECASE)
    if text.lower().startswith(WH_WORDS):
        return id_words(slot)
    head = _ARTICLE.sub("", _NOUN_END.split(text, maxsplit=1)[0].strip()).lower()
    if len(head.split()) > 3:
        head = head.split()[0]
    return head or id_words(slot)


def _addressed(description: str) -> str:
    """A field description turned to the user: defaults and conditions cut, "you" for them.

    ``"whom to borrow it from, if the user says"`` -> ``"whom should I borrow it from"``;
    ``"which object to bring to the person speaking"`` -> ``"which object should I bring to
    you"``; ``"which cup, glass, jug or pot to fill"`` -> ``"which cup, glass, jug or pot
    should I fill"``.
    """
    text = re.split(r";|\s\(default|,\s*if\s", description, maxsplit=1)[0].strip()
    text = re.sub(r"\bthe user's\b", "your", text, flags=re.IGNORECASE)
    text = re.sub(r"\bthe user (has|does|is|\w+s)\b", _you_verb, text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:the user|the person speaking)\b", "you", text, flags=re.IGNORECASE)
    return re.sub(
        r"^((?:which|what)(?:\s+\w+(?:(?:,\s*|\s+or\s+)\w+)*)?|who|whom|where|when|how)\s+to\s+",
        r"\1 should I ",
        text,
        flags=re.IGNORECASE,
    )


def _you_verb(found: re.Match[str]) -> str:
    """``the user talks`` -> ``you talk``; ``the user has`` -> ``you have``."""
    verb = found.group(1).lower()
    irregular = {"has": "have", "does": "do", "is": "are"}
    return f"you {irregular.get(verb, verb[:-1])}"


def field_question(slot: str, schema: type[BaseModel] | None) -> str:
    """The question that asks for ``slot``, from its field description.

    A description that is a question is used as it is; one that starts with a wh-word
    becomes that question, addressed to the user ("which object to take" -> "Which object
    should I take?"); otherwise "Which <noun> do you mean?" with the head of the description
    or the slot name.
    """
    info = schema.model_fields.get(slot) if schema is not None else None
    description = (info.description or "").strip() if info is not None else ""
    if description.endswith("?"):
        return capitalised(description)
    if description.lower().startswith(WH_WORDS):
        return f"{capitalised(_clause(_addressed(description)))}?"
    return f"Which {noun_for(slot, description)} do you mean?"


def said_text(said: str | list[str]) -> str:
    """What the user said of a slot, one text (a list joined: "the cup and the plate")."""
    return joined(said) if isinstance(said, list) else said.strip()


LISTED_CANDIDATES = 4
"""The most candidates a question names: a person cannot take in hundreds of options, so a
referent matching more is asked about by how many there are and a few of them."""


def listed(resolution: SlotResolution) -> list[str]:
    """The candidates of an ambiguous referent a question names (the first few)."""
    return resolution.ids[:LISTED_CANDIDATES] if resolution.ambiguous else []


def how_many(resolution: SlotResolution, candidates: Sequence[Candidate]) -> int:
    """How many things the referent matched: its ids, or more when resolution stopped short.

    A resolution stopped at a limit gives candidates that say how many matched in all.
    """
    among = (c.among or 0 for c in candidates if c.id in resolution.ids)
    return max(len(resolution.ids), max(among, default=0))


def candidate_options(
    resolution: SlotResolution, candidates: list[Candidate], described: dict[str, str]
) -> list[str]:
    """How to name each thing an ambiguous referent may mean, for the user to pick from.

    Its description from the scene index (:func:`~knowledge.scene.scene_questions.describe`) when
    there is one, else the candidate's label (``/turn/candidates``) or the id in words, with
    an article.
    """
    labels = {candidate.id: candidate.label for candidate in candidates}
    return [
        described.get(found) or with_the(labels.get(found) or id_words(found))
        for found in listed(resolution)
    ]


def slot_question(
    slot: str,
    schema: type[BaseModel] | None,
    resolution: SlotResolution | None,
    candidates: list[Candidate],
    described: dict[str, str],
) -> str:
    """The question for one slot: pick among candidates, name an unknown value, or ask."""
    if slot == SPEAKER_SLOT:
        return SPEAKER_QUESTION
    ask = field_question(slot, schema)
    if resolution is None:
        return ask
    said = _ARTICLE.sub("", said_text(resolution.said))
    info = schema.model_fields.get(slot) if schema is not None else None
    noun = noun_for(slot, info.description if info is not None else None)
    if resolution.ambiguous:
        options = candidate_options(resolution, candidates, described)
        if resolution.guess is not None:  # "the big pot": only a guess
            return f"Do you mean {options[0]}?"
        as_noun = _ARTICLE.match(said_text(resolution.said))  # "the light": a noun, kept
        which = f"Which {(said if as_noun else _kind_word(said, resolution)) or noun} do you mean"
        count = how_many(resolution, candidates)
        if count <= LISTED_CANDIDATES:
            return f"{which}: {joined(options, 'or')}?"
        return (
            f"{which}? I know of {count}, such as {joined(options, 'or')}. "
            "Can you tell me where it is?"
        )
    if resolution.unresolved and said and resolution.kind == "scene":
        return unseen_question(said_text(resolution.said))
    if resolution.unresolved and said:
        one = " ".join(singular(word) for word in noun.split())
        article = "an" if one[:1] in "aeiou" else "a"
        return f"I don't know {article} {one} called '{said}'. {ask}"
    return ask


_DESCRIBED_BY = (" is typically ", " can be ", " is used to ")
"""How a reason says a word matched by what a thing is like, can become or is for."""


def _kind_word(said: str, resolution: SlotResolution) -> str:
    """``said`` when it names a kind of thing; "one" for a lone word that only describes.

    "Which drink do you mean" but "Which one" for "something to drink" or "it is too sweet" or
    "I drank it" (drank, matched as drink): a lone word that no candidate matched by its
    type or name (without reasons to tell, ``said`` stays).
    """
    words = said.split()
    if len(words) != 1:
        return "one" if {*words[:1]} & PRONOUN_NOUNS else said
    prefix = f"'{words[0].lower()}': "
    parts = [part for reason in resolution.reasons for part in reason.split("; ")]
    named = [part for part in parts if prefix in part]
    if not parts or any(not any(how in part for how in _DESCRIBED_BY) for part in named):
        return said
    return "one"


def unseen_question(said: str) -> str:
    """Ask where a thing is that the robot has never seen ("the scissors"), as said to it."""
    pronoun = "they are" if looks_plural(said) else "it is"
    thing = said_back(said)  # "my glasses": your glasses
    return f"I have not seen {thing} anywhere I have looked. Can you tell me where {pronoun}?"


def task_question(frame: RequestFrame | None = None) -> str:
    """Ask which task the user wants, in one short sentence naming what was understood.

    The things the request's frame names ("the apple and the pear"), as said: "What would you
    like me to do with the apple and the pear?". Nothing named: "What would you like me to
    do?". A verb said without the particle that makes it a capability asks which: "Should I
    switch the kettle on or off?". Never a list of every task: one short question is easier
    to answer.
    """
    ways = switching_asked(frame)
    if ways and frame is not None:  # "switch the kettle": on or off
        step = frame.steps[0]
        switched = said_back(joined([phrase.text for phrase in step.wanted]))
        return f"Should I {step.verb} {switched} {joined(list(ways), 'or')}?"
    things = [] if frame is None else _named_things(frame)
    if not things:
        return "What would you like me to do?"
    return f"What would you like me to do with {joined(things)}?"


def switching_asked(frame: RequestFrame | None) -> dict[str, str]:
    """The ways :func:`task_question` asks between for ``frame``, each with its request.

    A request of one step that switches an electrical thing without saying how ("switch the
    kettle": {"on": "switch on the kettle", "off": "switch off the kettle"};
    :func:`~knowledge.language.unknown_verbs.which_switching`). Empty when it asks no way.
    """
    steps = frame.steps if frame is not None else ()
    if len(steps) != 1:
        return {}
    verb = re.compile(rf"\b({re.escape(steps[0].verb)})\b", re.IGNORECASE)
    return {
        way: verb.sub(rf"\1 {way}", steps[0].text, count=1) for way in which_switching(steps[0])
    }


def _named_things(frame: RequestFrame) -> list[str]:
    """The things a frame's steps name, as said, each once (no pronoun, no person)."""
    named = (
        phrase.text
        for step in frame.steps
        for phrase in step.phrases()
        if not phrase.pronoun and not phrase.person and not phrase.negated
    )
    return list(dict.fromkeys(named))


def confirmation_question(utterance: str, safety: Sequence[str] = ()) -> str:
    """Nothing is missing but the robot is unsure: ask the user to confirm the request.

    ``safety`` names the safety doubts the question asks about (the gate's ``/turn/safety``).
    """
    if not utterance.strip():
        return "Sorry, I did not get that. Could you say it another way?"
    careful = f" I want to be careful ({'; '.join(safety)})." if safety else ""
    return (
        f'Just to be sure: should I go ahead with "{utterance.strip()}"?{careful} '
        "Please say yes, or say it another way."
    )
