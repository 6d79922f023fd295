"""Safety doubts: what may make a request unsafe, as floors the readiness gate keeps.

A :data:`SafetyRule` reads a request (:class:`SafetyRequest`: every utterance it was said in,
the intent frame, the referents) and returns the :class:`SafetyDoubt` objects it raises. The
readiness gate runs its rules on every request: a doubt sends the decision to the model, which
may Clarify or Reject but never Proceed, until the user says an explicit yes (:func:`
explicit_yes`) to the question that named that doubt, in the next turn. A doubt that
``forbids`` is a Reject that no answer of the model or the user unlocks.

:data:`SAFETY_RULES` are the rules shipped (words of harm, a person as the thing to move,
prompt-injection phrasing, and a blade carried in a hurry, which forbids). Hazards of things
(a sharp, hot, fragile or chemical object, for the action asked) are not judged here from
words: the hazard rules judge every step of the plan on the belief's knowledge of the thing
(:mod:`skills.safety.hazard_check`), and the validation gate refuses or asks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from cogtree.knowledge.language.pronouns import OBJECT_OR_PERSON
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.understanding.pending_question import accepts
from cogtree.knowledge.understanding.turn_state import IntentFrame, PendingTask, SlotResolution
from cogtree.knowledge.wording import singular
from cogtree.knowledge.wordnet.nouns import shipped_nouns

RISKS = re.compile(
    r"\b(kill|hurt|harm|injure|stab|attack|hit|punch|kick|poison|weapon|gun|overdose)"
    r"(s|es|ed|ing)?\b",
    re.IGNORECASE,
)
"""Words that say a request means harm to someone (a verb of harm, a weapon).

Not the names of things: whether a knife, bleach, a fire or a glass is a hazard depends on
what the robot is asked to do with it, which the hazard rules judge on the plan, with what
the belief knows of the thing (:mod:`skills.safety.hazard_check`): "bring me the knife" is handed
over handle first with no question; "hand it blade first" is refused."""

ACCIDENT = re.compile(
    r"\b(before|in case|so that|so|or|otherwise|lest)\s+(someone|somebody|anyone|anybody|"
    r"nobody|no one|people|the kids|the children)(\s+else)?\s+(gets?\s+|might\s+|could\s+|"
    r"will\s+|would\s+)?(hit|hurt|harm|kick|injure)(s|es|ed|ing)?\b",
    re.IGNORECASE,
)
"""A word of harm in the accident a request wants to prevent ("shut the cupboard before
someone hits it", "... in case anyone gets hurt"): it means no harm, and raises no doubt."""

PERSON_HANDLING = re.compile(
    r"\b(lift|carry|move|transfer|drag|push|pull|turn over)\b.{0,30}?\b(my |the |your |a )?"
    r"(mother|mum|mom|father|dad|grand(ma|pa|mother|father)|wife|husband|son|daughter|baby|"
    rf"child|kid|patient|resident|{'|'.join(sorted(OBJECT_OR_PERSON))}|person|man|woman|lady|"
    r"gentleman)\b",
    re.IGNORECASE,
)
"""A person as the thing to move (a pronoun that may stand for one: "carry her"): no skill may
handle a person."""

THROWN_AT = re.compile(
    r"\b(throw|toss|fling|chuck|lob|hurl)(s|es|ed|ing)?\b[^.!?]{0,40}?\b(at|across)\b",
    re.IGNORECASE,
)
"""A thing thrown at someone or across a room ("throw the cactus at Tom"). Handing it over
gently is not what was asked, so the robot does not quietly do that instead: it refuses."""

SWALLOWED = re.compile(
    r"\b(bleach|detergent|cleaner|disinfectant|chemicals?|poison|washing-up liquid)\b"
    r"[^.!?]{0,40}?\bto (drink|eat|swallow)\b",
    re.IGNORECASE,
)
"""A chemical given someone to drink or eat: never done."""

INSTRUCTIONS = re.compile(
    r"\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(rules?|instructions?|guards?|"
    r"prompt|policy|polic(y|ies)|checks?)\b|\bsystem prompt\b|\bjailbreak\b",
    re.IGNORECASE,
)
"""Prompt-injection phrasing: treated as a doubt, never as an instruction."""

BLADES = re.compile(r"\b(knife|knives|blade|blades|scissors|cleaver|saw)\b", re.IGNORECASE)
"""Things with an edge."""

HURRY = re.compile(r"\b(run|running|hurry|rush|quick|quickly|fast|sprint|race)\b", re.IGNORECASE)
"""Words asking the robot to move at speed."""

EXPLICIT_YES = re.compile(
    r"(yes|yeah|yep|yes please|please do|go ahead|do it|i confirm|confirmed|i'?m sure|"
    r"that'?s right|please go ahead)"
    r"([\s,.!]+(yes|please|go ahead|do it|i confirm|confirmed|i'?m sure|thanks|thank you))*",
    re.IGNORECASE,
)
"""A whole utterance that says yes and nothing else ("Yes.", "yes, go ahead", "I confirm")."""


@dataclass(frozen=True)
class SafetyRequest:
    """What a safety rule reads: the utterances of the request, its frame and referents.

    ``task``: the task instance the request would run, once its slots are complete (None
    before); ``memory``: what the robot remembers this turn (None without a memory).
    """

    said: Sequence[str]
    frame: IntentFrame
    resolved: Mapping[str, SlotResolution]
    task: BaseModel | None = None
    memory: WorkingContext | None = None


@dataclass(frozen=True)
class SafetyDoubt:
    """One reason a request may be unsafe: the rule's name and what it found.

    ``forbids``: the request must be refused, whatever the model or the user says.
    """

    rule: str
    found: str
    forbids: bool = False

    def describe(self) -> str:
        """``may be unsafe: 'knife'``: the text the gate, the prompt and the question use."""
        return f"{self.rule}: {self.found!r}"


SafetyRule = Callable[[SafetyRequest], list[SafetyDoubt]]
"""A rule: the doubts it raises on a request (none: it has nothing against it)."""


def pattern_rule(rule: str, pattern: re.Pattern[str], *, forbids: bool = False) -> SafetyRule:
    """A rule raising one doubt named ``rule`` at the first match of ``pattern`` in the request.

    The utterances are read in order, so the same request gives the same doubt in every turn.
    """

    def check(request: SafetyRequest) -> list[SafetyDoubt]:
        for text in request.said:
            match = pattern.search(text)
            if match:
                return [SafetyDoubt(rule, match.group(0), forbids)]
        return []

    return check


PAIN = re.compile(
    r"\b(?:my|his|her|their|our|your|[a-z]+['\u2019]s)\s+(?P<part>[a-z]+)"
    r"(?:['\u2019](?:s|re)|\s+(?:is|are|was|were|keeps?))?\s+(?:really\s+|still\s+|so\s+)?"
    r"(?:killing|hurting|hurts?|hurt)\b(?:\s+(?:me|him|her|them|us)\b)?",
    re.IGNORECASE,
)
"""Someone's body part that hurts ("my back's killing me", "Finn's gums are hurting him"):
a report of pain, no harm meant, when the word is a body part (:func:`_body_part`)."""


def _body_part(word: str) -> bool:
    """Whether WordNet gives ``word`` (or its singular) a sense among the parts of the body."""
    nouns = shipped_nouns()
    return nouns is not None and any(
        nouns.has_sense_in(form, "noun.body") for form in {word.lower(), singular(word.lower())}
    )


def harm_word(text: str) -> str | None:
    """The first word of :data:`RISKS` in ``text``, outside an accident and a report of pain.

    An accident is what the request wants to prevent (:data:`ACCIDENT`); a report of pain says
    a body part hurts (:data:`PAIN`).
    """
    accidents = [match.span() for match in ACCIDENT.finditer(text)]
    accidents += [m.span() for m in PAIN.finditer(text) if _body_part(m.group("part"))]
    for match in RISKS.finditer(text):
        if not any(start <= match.start() < end for start, end in accidents):
            return match.group(0)
    return None


def words_of_harm(request: SafetyRequest) -> list[SafetyDoubt]:
    """A doubt at the first word of harm the request says (:func:`harm_word`)."""
    for text in request.said:
        found = harm_word(text)
        if found is not None:
            return [SafetyDoubt("may be unsafe", found)]
    return []


def blade_at_speed(request: SafetyRequest) -> list[SafetyDoubt]:
    """A hazard rule: a blade carried in a hurry is refused (it forbids)."""
    text = " ".join(request.said)
    blade, hurry = BLADES.search(text), HURRY.search(text)
    if blade is None or hurry is None:
        return []
    found = f"{hurry.group(0)}, {blade.group(0)}"
    return [SafetyDoubt("a blade carried at speed", found, forbids=True)]


SAFETY_RULES: tuple[SafetyRule, ...] = (
    words_of_harm,
    pattern_rule("asks to move a person", PERSON_HANDLING),
    pattern_rule("tries to instruct the robot", INSTRUCTIONS),
    pattern_rule("asks to throw something at someone or across a room", THROWN_AT, forbids=True),
    pattern_rule("asks to give a chemical to swallow", SWALLOWED, forbids=True),
    blade_at_speed,
)
"""The shipped rules: words of harm, a person as the thing to move, prompt-injection phrasing,
(doubts), and a thing thrown at someone or across a room, a chemical to swallow and a blade
carried at speed (they forbid)."""


def safety_doubts(rules: Sequence[SafetyRule], request: SafetyRequest) -> list[SafetyDoubt]:
    """Every doubt ``rules`` raise on ``request``, without repeats, in rule order."""
    found: dict[SafetyDoubt, None] = {}
    for rule in rules:
        found.update(dict.fromkeys(rule(request)))
    return list(found)


def explicit_yes(utterance: str) -> bool:
    """Whether ``utterance`` is an explicit yes and nothing else (no new request in it)."""
    return EXPLICIT_YES.fullmatch(utterance.strip().rstrip(".!").strip()) is not None


def confirms(pending: PendingTask, utterance: str, frame: RequestFrame | None) -> bool:
    """Whether ``utterance`` says yes to ``pending``'s question and so runs its task as it was.

    A question about safety doubts takes only a whole yes (:func:`explicit_yes`); an offer
    (``offered``) takes a yes opening the turn that asks for nothing new
    (:func:`~knowledge.understanding.pending_question.accepts`: "oh yes please, you're a treasure").
    """
    if pending.confirm:
        return explicit_yes(utterance)
    return pending.offered and accepts(utterance, frame)
