"""Social turns: thanks, greetings, farewells, acknowledgements, declines: answered in kind.

"Thank you", "hello there, how are you doing today?", "Nah, best not. Cheers though." ask the
robot for nothing; read as requests they are out of scope ("Sorry, I can't help with that")
or, while a question is pending, taken for its answer ("hello" as the thing asked about).
:func:`social_acts` reads a turn as a social turn when every clause is a run of the
formulas of the grammar's ``social`` words (the ``social_fillers`` between them left out:
"oh, thanks very much though"). A clause of anything else makes the turn no social one,
whatever it says ("thanks, I'm bleeding", "hello, there's smoke", "thanks, mug" answering a
question): a courtesy never swallows what comes with it. A step read from a social clause
("take care": a "take") is no request, and a yes ("yes please, you're a star") makes the
turn an answer or a want. :func:`answers_no_question` tells the acts that never answer a
question that waits (thanks, greetings, farewells; a dismissal, "never mind", drops it, and so
does a "no" to a question that asked to confirm the request) from those that may ("no" to
"Shall I put it in the fridge?", "ok"). :func:`answer_in_kind` is what the
robot says back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from cogtree.knowledge.language.grammar.spelling import unreduced, unstretched, with_apostrophes
from cogtree.knowledge.language.grammar.words import request_words


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


COURTESIES: Final = frozenset(
    {SocialAct.THANKS, SocialAct.GREETING, SocialAct.ASKED_AFTER, SocialAct.FAREWELL}
)
"""Acts that answer no question: said while one is pending, they leave it pending (but a
question asking to confirm holds only for the turn right after it, whatever is said)."""

_CLAUSE_END: Final = re.compile(r"[,.;:!?]+|\s[-\u2013\u2014]+\s")
_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)*")


def words_of(clause: str) -> list[str]:
    """The words of ``clause`` as the formulas are read: typed spellings put back, lower case."""
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
    said, acts, at = words_of(clause), list[SocialAct](), 0
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


def social_acts(text: str) -> tuple[SocialAct, ...]:
    """The social acts of the turn ``text`` in order; empty when it is no social turn.

    Every clause is social (module docstring): a step read from one ("take care") is no
    request.
    """
    read = [(clause, clause_acts(clause)) for clause in clauses_of(text)]
    social = [acts for clause, acts in read if acts or not _says_nothing(clause)]  # "all right"
    if not social or not all(social):
        return ()
    acts = tuple(act for said in social for act in said)
    return () if SocialAct.ACCEPT in acts else acts


def clauses_of(text: str) -> list[str]:
    """The clauses of ``text``, split at marks and dashes, each stripped, none empty."""
    return [part.strip() for part in _CLAUSE_END.split(text) if part.strip()]


def first_clause(text: str) -> str:
    """The first clause of ``text`` that says anything ("oh yes please" of "Oh yes please, ta")."""
    return next((clause for clause in clauses_of(text) if not _says_nothing(clause)), "")


def _says_nothing(clause: str) -> bool:
    """Whether ``clause`` is only fillers and forms of address ("love", "erm")."""
    words = request_words()
    return all(w in words.social_fillers or w in words.address for w in words_of(clause))


def drops_the_question(acts: Sequence[SocialAct], *, confirming: bool) -> bool:
    """Whether ``acts`` drop a waiting question and its request unanswered.

    A dismissal ("never mind") always does; a decline ("no", "best not") does when the
    question asked to confirm the request ("Shall I still do it?": it is not done).
    """
    return SocialAct.DISMISSAL in acts or (confirming and SocialAct.DECLINE in acts)


def answers_no_question(acts: Sequence[SocialAct], *, confirming: bool = False) -> bool:
    """Whether ``acts`` leave a waiting question unanswered.

    Only courtesies (thanks, greetings, farewells: it still waits), or acts that drop it
    (:func:`drops_the_question`; ``confirming``: the question asked to confirm the request).
    """
    return bool(acts) and (
        set(acts) <= COURTESIES or drops_the_question(acts, confirming=confirming)
    )


def answered_in_kind(
    acts: Sequence[SocialAct], *, asks_a_task: bool, waiting: bool, confirming: bool = False
) -> bool:
    """Whether a turn of ``acts`` is answered in kind rather than read as a request or answer.

    Not when it asks a task of a pack ("thanks, I'm allergic to nuts" is a fact to keep);
    while a question is ``waiting``, only courtesies and acts that drop it
    (:func:`answers_no_question`).
    """
    if not acts or asks_a_task:
        return False
    return not waiting or answers_no_question(acts, confirming=confirming)


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
