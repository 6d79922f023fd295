"""Social turns: thanks, greetings, farewells, acknowledgements, declines: answered in kind.

"Thank you", "hello there, how are you doing today?", "Nah, best not - early start tomorrow.
Cheers though." ask the robot for nothing; read as requests they are out of scope ("Sorry, I
can't help with that") or, while a question is pending, taken for its answer ("hello" as the
thing asked about). :func:`social_acts` reads a turn's parse as a social turn: at least one
clause is a run of the formulas of the grammar's ``social`` words (the ``social_fillers``
between them left out: "oh, thanks very much though"), and every other clause asks nothing
(no step of the parse was read from it, it is no question, and it names nothing: no
determiner, "early start tomorrow" but not "the blue one"). A step read from a social clause
("take care": a "take") does not count, and a yes ("yes please, you're a star") makes the turn
an answer or a want, never a social turn. :func:`courtesy_only` tells the acts that can
never answer a question (thanks, greetings, farewells) from those that may ("no", "ok"); a
dismissal ("never mind", "no thanks") drops a question that waits. :func:`answer_in_kind` is
what the robot says back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Final, Protocol

from cogtree.knowledge.language.grammar.spelling import unreduced, unstretched, with_apostrophes
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.question_form import asks_whether


class Said(Protocol):
    """A part of a parse that was read from a clause (a step of the request frame)."""

    @property
    def text(self) -> str:
        """The clause it was read from."""


class Parse(Protocol):
    """What a social turn is read from: the request frame (the grammar sits below it)."""

    @property
    def text(self) -> str:
        """The utterance parsed."""

    @property
    def steps(self) -> Sequence[Said]:
        """The steps read from it."""


class SocialAct(StrEnum):
    """What a social clause does (the keys of the grammar's ``social`` words)."""

    THANKS = "thanks"
    GREETING = "greeting"
    ASKED_AFTER = "asked_after"
    FAREWELL = "farewell"
    ACKNOWLEDGEMENT = "acknowledgement"
    ACCEPT = "accept"
    DECLINE = "decline"
    DISMISSAL = "dismissal"


COURTESIES: Final = frozenset({SocialAct.THANKS, SocialAct.GREETING, SocialAct.ASKED_AFTER})
"""Acts that answer no question: said while one is pending, they leave it pending."""

_CLAUSE_END: Final = re.compile(r"[,.;:!?]+|\s[-\u2013\u2014]+\s")
_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)*")


def _words(clause: str) -> list[str]:
    said = with_apostrophes(unreduced(unstretched(clause))).lower().replace("\u2019", "'")
    return _WORD.findall(said)


def clause_acts(clause: str) -> tuple[SocialAct, ...]:
    """The acts ``clause`` is a run of, in order; empty when any word is neither act nor filler.

    Longest formula first at each word ("good morning" before "good"), fillers skipped.
    """
    words = request_words()
    formulas = sorted(
        ((formula, SocialAct(act)) for act, said in words.social.items() for formula in said),
        key=lambda item: -len(item[0]),
    )
    said, acts, at = _words(clause), list[SocialAct](), 0
    while at < len(said):
        found = next(((f, act) for f, act in formulas if tuple(said[at : at + len(f)]) == f), None)
        if found is not None:
            acts.append(found[1])
            at += len(found[0])
        elif said[at] in words.social_fillers or said[at] in words.address:
            at += 1
        else:
            return ()
    return tuple(acts)


def social_acts(frame: Parse) -> tuple[SocialAct, ...]:
    """The social acts of the turn of ``frame`` in order; empty when it is no social turn.

    A social turn has a social clause, no other clause that asks (a step, a question), and no
    step read from outside its social clauses (module docstring).
    """
    clauses = [part.strip() for part in _CLAUSE_END.split(frame.text) if part.strip()]
    social = {clause: clause_acts(clause) for clause in clauses}
    if not any(social.values()):
        return ()
    acts = tuple(act for acts in social.values() for act in acts)
    plain = [clause for clause, acts in social.items() if not acts]
    if any(_opens_with_yes(clause) for clause in plain):  # "yeah, that'll do"
        return ()
    determiners = request_words().determiners
    names = any(word in determiners for clause in plain for word in _words(clause))
    if SocialAct.ACCEPT in acts or names or any(asks_whether(clause) for clause in plain):
        return ()
    said = {" ".join(_words(clause)) for clause, acts in social.items() if acts}
    if any(" ".join(_words(step.text)) not in said for step in frame.steps):
        return ()
    return acts


def _opens_with_yes(clause: str) -> bool:
    """Whether ``clause`` opens with a yes (after fillers): "yeah that'll do"."""
    said = [word for word in _words(clause) if word not in request_words().social_fillers]
    accepts = request_words().social[SocialAct.ACCEPT]
    return any(tuple(said[: len(formula)]) == formula for formula in accepts)


def courtesy_only(acts: Sequence[SocialAct]) -> bool:
    """Whether ``acts`` are only courtesies (:data:`COURTESIES` and farewells): no answer."""
    return bool(acts) and all(act in COURTESIES or act == SocialAct.FAREWELL for act in acts)


def answered_in_kind(acts: Sequence[SocialAct], *, asks_a_task: bool, question_waits: bool) -> bool:
    """Whether a turn of ``acts`` is answered in kind rather than read as a request or answer.

    Not when it asks a task of a pack ("thanks, I'm allergic to nuts" is a fact to keep);
    while a question waits, only courtesies and a dismissal ("never mind") are.
    """
    if not acts or asks_a_task:
        return False
    return not question_waits or courtesy_only(acts) or SocialAct.DISMISSAL in acts


def answer_in_kind(acts: Sequence[SocialAct]) -> str:
    """What the robot says back to a social turn of ``acts`` (one sentence or two).

    An acknowledgement, a decline or a dismissal is taken as said ("All right."), whatever
    thanks come with it; otherwise thanks are welcomed and a greeting returned with an offer
    of help, unless the turn says goodbye.
    """
    if not acts:
        raise ValueError("answer_in_kind needs at least one social act")
    leaving = SocialAct.FAREWELL in acts
    if {SocialAct.ACKNOWLEDGEMENT, SocialAct.DECLINE, SocialAct.DISMISSAL} & set(acts):
        return "All right. Goodbye!" if leaving else "All right."
    said = [
        sentence
        for act, sentence in (
            (SocialAct.GREETING, "Hello!"),
            (SocialAct.ASKED_AFTER, "I'm well, thank you."),
            (SocialAct.THANKS, "You're welcome."),
            (SocialAct.FAREWELL, "Goodbye!"),
        )
        if act in acts
    ]
    if not leaving and (SocialAct.GREETING in acts or SocialAct.ASKED_AFTER in acts):
        said.append("What can I do for you?")
    return " ".join(said)
