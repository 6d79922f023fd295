"""Words that may turn a request around: negation and hedging, doubts a fast path leaves alone.

"Don't put the mug in the sink", "put it in the sink, or maybe not": the request a pack's
matcher read may be the opposite of what was meant, so the readiness gate does not decide it
without the model. :func:`reversal_doubts` finds them in what was said, and leaves out the
negations that do not turn the request around: one the pack's lexicon read into a slot ("don't
like" as a relation), one after a reason ("... so I don't forget"), one in a statement beside
the request ("it's not clean, wipe the table"), one that only rules a thing out ("with the blue
cloth, not the dishcloth"), any in a correction the pack reads itself, and
those of a remark that leaves the choice to the robot ("I don't mind which"). In an answer to
a question that offered options a hedge that only gives a view ("the grey one I think") is
no doubt either; to an open question, or one that asked to confirm, it is.
"""

from __future__ import annotations

import re
from typing import Final

from cogtree.knowledge.language.grammar.indifference import (
    HEDGES,
    without_choice_left,
    without_opinion,
)
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.understanding.turn_state import IntentFrame
from cogtree.knowledge.wording import singular
from cogtree.knowledge.wordnet.nouns import shipped_nouns

NEGATION: Final = re.compile(
    r"\b(not|never|no longer|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|won'?t|stop|cancel)\b",
    re.IGNORECASE,
)
"""Words that may turn a request around: the fast path does not Proceed on them."""
ORDER_NEGATION: Final = re.compile(
    r"(not|never|no longer|don'?t|do not|stop|cancel)\b", re.IGNORECASE
)
"""Negations an order opens with ("don't go"); the imperative has no "doesn't matter which"."""

_ASIDE_OPENS: Final = (
    r"(?:(?:straight|just|directly|right)\s+)?(?:(?:on|onto|in|into|to|under|by|with)\s+)?"
)
PLACED: Final = re.compile(f"^{_ASIDE_OPENS}")
"""How a place or a tool set aside opens ("not straight on the walnut"): the phrase follows."""
CONTRAST: Final = re.compile(
    r"(?<!\bis )(?<!\bam )(?<!\bare )(?<!\bwas )(?<!'s )(?<!'m )(?<!'re )(?<!\bdo )(?<!\bdid )"
    rf"not\s+{_ASIDE_OPENS}(?:the|my|your|his|her|our|their|that|this|those|these)\s+\S[^,.;!?]*$",
    re.IGNORECASE,
)
"""A "not" that only sets another thing or place aside, up to its clause's end ("with the blue
cloth, not the dishcloth", "on the coaster, not straight on the walnut"): it says which, and
turns nothing around. Never after "is" ("it's not the one") or "do"."""

QUALIFIED: Final = re.compile(
    r"\s+(?:in|on|with|from|at|by|under|near|that|which|who|whose|of)\b", re.IGNORECASE
)
"""Where a phrase set aside goes on to say which it is ("not the one in the bleach bottle")."""

REASON: Final = re.compile(
    r"\b(so|so that|because|since|as)\s+(i|we|you|it|they|he|she)\b", re.IGNORECASE
)
"""A clause that says why ("... so I don't forget"): a negation after it is about the reason."""


def reversal_doubts(
    said: str, frame: IntentFrame, request: RequestFrame, *, correction: bool, picking: bool
) -> list[str]:
    """The negation and hedging doubts of ``said`` (module docstring), the first of each kind.

    ``frame``: the intent its slots came from; ``request``: the turn's parse (its context
    clauses are the statements beside the request); ``correction``: the frame says the
    request corrects an earlier one, whose negation the pack reads; ``picking``: the turn
    answers a question of the robot's that offered options to pick from.
    """
    text = without_choice_left(said)  # "I don't mind which": no "no"
    text = without_opinion(text) if picking else text  # "the grey one I think"
    doubts = []
    reason = REASON.search(text)
    for pattern, what in ((NEGATION, "negation"), (HEDGES, "hedging")):
        matches = list(pattern.finditer(text))
        if pattern is NEGATION and reason is not None:
            matches = [match for match in matches if match.start() < reason.start()]
        if pattern is NEGATION and request.steps:  # one in a statement beside it
            asides = [c for c in request.context if not ORDER_NEGATION.match(c.strip())]
            spans = [(at, at + len(c)) for c in asides if (at := text.find(c)) >= 0]
            matches = [m for m in matches if not any(a <= m.start() < b for a, b in spans)]
        found = [match.group(0) for match in matches]
        if pattern is NEGATION:
            if correction:
                continue
            found = [
                match.group(0)
                for match in matches
                if not _rules_out(text, match, request)
                and not _inside_a_slot(match.group(0), frame)
            ]
        if found:
            doubts.append(f"{what}: {found[0]!r}")
    return doubts


def _rules_out(text: str, negation: re.Match[str], request: RequestFrame) -> bool:
    """Whether ``negation`` only sets another thing aside at a clause's end (:data:`CONTRAST`).

    Only in a request whose every step the parse read as an action done to something it
    wants: "compost, not the trash" wants nothing. The parse read the thing set aside as ruled
    out; or took it as none of its phrases ("wipe it, not with the dishcloth" took the tool),
    and it is no other of the kind wanted ("the pills, not my heart pills", "the metal one")
    and no time ("put the kettle on, not this morning").
    """
    steps = request.steps
    if not steps or not all((step.action or step.unsupported) and step.wanted for step in steps):
        return False
    ends = (text.find(mark, negation.end()) for mark in ",.;!?")
    end = min((at for at in ends if at >= 0), default=len(text))
    after = bool(text[: negation.start()].strip(" ,"))  # "not the hob, the table" corrects
    if not after or CONTRAST.match(text, negation.start(), end) is None:
        return False
    aside = PLACED.sub("", text[negation.end() : end].lower().strip())  # "straight on the"
    phrases = [phrase for step in steps for phrase in step.phrases()]
    if any(p.text.lower() in aside for p in phrases if p.text and not p.negated):
        return False  # read as wanted: "wipe it, not with the dishcloth" took the dishcloth
    named = QUALIFIED.split(aside)[0].split()  # "the one in the bleach bottle": the one
    head = singular(named[-1]) if named else ""
    nouns = shipped_nouns()
    if not head or nouns is None or nouns.has_sense_in(head, "noun.time") or named != aside.split():
        return False  # "not this morning": not now; "not the one with bleach in it": which?
    if any(p.negated and p.text.lower() == aside for p in phrases):
        return True  # the parse read it, whole, as ruled out ("but not the ginger ones")
    # another of what is wanted ("the pills, not my heart pills", "not the metal one") turns
    # part of the request around
    return head not in {"one", *(singular(p.head.lower()) for s in steps for p in s.wanted)}


def _inside_a_slot(word: str, frame: IntentFrame) -> bool:
    """Whether ``word`` is part of a slot's said value ("don't like" as a relation).

    A negation the pack's lexicon already read into a slot is understood; only a negation
    outside every slot may turn the request around.
    """
    pattern = re.compile(rf"\b{re.escape(word.lower())}\b")
    for value in frame.slots.values():
        items = value if isinstance(value, list) else [value]
        if any(isinstance(item, str) and pattern.search(item.lower()) for item in items):
            return True
    return False
