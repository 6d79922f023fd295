"""Pronouns: the words that stand for a thing or a person named elsewhere, and what they stand for.

The word sets say which pronoun stands for what kind of referent ("it" a thing, "her" a
person, "them" either). What a pronoun stands for comes from three places, resolved here once:

- the request's own context: :func:`context_referent` reads what a describing clause says
  "it" is ("the mug is dirty, wipe it": the mug), :func:`plural_referent` the one plural
  thing it names, for "them" ("the cat keeps sniffing the candles, move them");
- what was named: :func:`antecedent` picks among the things and people named in the same
  utterance ("take Mr Okafor's pills to him", :mod:`knowledge.understanding.slot_filling`) or
  in an earlier turn (its :class:`TalkedAbout`: "the teapot is by the sink" ... "pour the milk
  into it");
- the people of the belief: :func:`people_meant` says whom "him" / "her" may be ("fetch him
  his cup" with one other person at home: that person), never the speaker.

:func:`knowledge.understanding.frame_tasks.with_referent` fills a task's slots with both, in
that order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.language.grammar.clause import SUBJECT_PRONOUNS, tokens
from cogtree.knowledge.language.grammar.words import request_words
from cogtree.knowledge.language.request_frame import RequestFrame
from cogtree.knowledge.scene.needs import needed_state
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import DETERMINERS, REGION_WORDS, looks_plural, singular_forms

THING_PRONOUNS: Final = frozenset(["it", "them", "that", "this"])
"""Pronouns that stand for a thing said before ("wipe the tray, then set the cup on it")."""

PLURAL_PRONOUNS: Final = frozenset(["them", "these", "those"])
"""Pronouns that stand for every thing said before, not one ("take the cups and wash them")."""

PERSON_PRONOUNS: Final = frozenset(["he", "she", "him", "her"])
"""Pronouns that stand for a person named before ("grandma is tired" ... "help her")."""

OBJECT_OR_PERSON: Final = frozenset(["them", "him", "her"])
"""Pronouns that may stand for a thing or a person named before ("drop him in the bin")."""

PRONOUN_VALUES: Final = THING_PRONOUNS | PLURAL_PRONOUNS | OBJECT_OR_PERSON
"""Slot values that name nothing on their own: a pronoun of a thing or a person."""


class TalkedAbout(BaseModel):
    """What a turn talked about: the words that named things and people, in order of mention.

    ``said`` holds the utterances the words come from, so a slot filled with them in a later
    turn is still grounded in what the user said; ``task``: what the last request was read as;
    ``request``: the parse of the last request, when it asked for an action.
    """

    model_config = ConfigDict(frozen=True)

    said: list[str] = Field(default_factory=list)
    things: list[str] = Field(default_factory=list)
    people: list[str] = Field(default_factory=list)
    task: str | None = None
    request: RequestFrame | None = None


T = TypeVar("T")


def antecedent(
    pronoun: str,
    things: Sequence[T],
    people: Sequence[T],
    *,
    taken: Callable[[T], bool] = lambda _: False,
    topic_first: bool = False,
) -> T | None:
    """What ``pronoun`` stands for among what was named, in order of mention; else None.

    A person pronoun (:data:`PERSON_PRONOUNS`) takes one of ``people``, any other one of
    ``things``; what ``taken`` says another slot holds already is never taken again. With
    ``topic_first`` (what an earlier turn talked about: its first mention is its topic) the
    first candidate left is taken; otherwise (this utterance) only one candidate is an
    answer: two are a real choice ("take Anna's glasses from Dr Weber to her"), for the user.
    """
    named = people if pronoun.lower() in PERSON_PRONOUNS else things
    left = [candidate for candidate in named if not taken(candidate)]
    if topic_first or len(left) == 1:
        return left[0] if left else None
    return None


def people_meant(
    pronoun: str, named: Sequence[str], present: Sequence[str], speaker: str
) -> list[str]:
    """Whom a person pronoun ("him", "her", "them") may stand for among the belief's people.

    The speaker never: "give him one of my tablets" is for someone else. Of the people the
    conversation ``named`` (in order), the one other than the speaker; with nobody named,
    everyone ``present`` but the speaker: one is the answer, several are a choice the robot
    asks about. Empty for a word that is no person pronoun, or when nobody else is there.
    """
    if pronoun.lower() not in PERSON_PRONOUNS | OBJECT_OR_PERSON:
        return []
    others = list(dict.fromkeys(person for person in named if person != speaker))
    return others or list(dict.fromkeys(person for person in present if person != speaker))


_IT = "|".join(sorted(THING_PRONOUNS - PLURAL_PRONOUNS))
_SUBJECT = "|".join(sorted(SUBJECT_PRONOUNS))
_INDEFINITE = "|".join(sorted(request_words().indefinites))
_REGION = rf"(?:(?:{'|'.join(sorted(REGION_WORDS))})\s+of\s+(?:the|that|this|my|our)\s+)?"
CONTEXT_SUBJECT: Final = re.compile(
    rf"^(?:(?:{_IT}|this one|that one)\s+(?:is|was|'s|looks|seems|tastes|smells|has|"
    r"has gone|went|got)\s+"
    r"(?:(?:too|very|so|really|far|way|quite|rather|all|now|already|gone|a bit)\s+)*"
    r"(?P<quality>[a-z-]+)"
    rf"|(?:{_IT}|this one|that one)\s+"
    r"(?P<need>(?:needs|wants)\s+(?:(?:to|be|a|an|some|good)\s+)*(?P<done>[a-z]+))"
    rf"|(?P<subject>(?:the|my|that|this)\s+{_REGION}[a-z'-]+(?:\s+[a-z'-]+){{0,2}}?)"
    r"(?:\s+(?:is|was|looks|seems)|'s(?!(?:\s+[a-z-]+){1,2}\s+(?:is|was|looks|seems)\b))"
    rf"|(?:{_SUBJECT})\s+(?:(?:have|has|had|'ve|already|just)\s+)*(?P<act>ate|eaten|drank|drunk)"
    rf"\s+(?:{_IT})"
    rf"|(?:{_SUBJECT})\b.*\buse\s+(?:{_IT})\s+(?:for|to)\s+(?P<use>[a-z]+)"
    rf"|(?:i|we)\s+(?:need|want)\s+(?:{_INDEFINITE})\s+(?:from|in|inside|out\s+of)"
    r"\s+(?P<holder>(?:the|that|this|my|our)\s+[a-z-]+(?:\s+[a-z-]+){0,2})"
    r"|there(?:\s+is|\s+are|'s)\s+(?:[a-z-]+\s+){1,4}?(?:all\s+over|over|on|in)"
    rf"\s+(?P<spot>(?:the|that|this|my|our)\s+{_REGION}[a-z-]+(?:\s+[a-z-]+){{0,2}})"
    r"|(?P<bare>[a-z-]+)'s\s+(?:[a-z]+ing|gone|got))"  # last: any other reading comes first
    r"\b",
    re.IGNORECASE,
)
"""A clause that says which thing "it" is: by a quality ("it is too sweet" -> sweet), by naming it
("the mug is dirty" -> the mug; "kettle's boiling" -> kettle), by what was done with it ("I
drank it" -> drank: a drink), by what it needs ("it needs washing" -> needs washing: a dirty
thing, :mod:`knowledge.scene.needs`) or by what it is used for ("we use it for dusting" ->
dusting: a thing to dust with; :func:`knowledge.wording.verb_bases` turns the verb into what the
taxonomy says) or by what holds a thing the speaker needs ("I need something from that drawer"
-> that drawer) or where something is spilt or lies ("there is jam all over the table" -> the
table). A region before the thing is read with it ("there's gunk on the bottom of the iron" ->
the bottom of the iron: the iron, :func:`knowledge.wording.whole_named`)."""


def context_referent(frame: RequestFrame) -> str | None:
    """What the frame's context clauses say "it" is, as words the user said; else None.

    "This one tastes far too salty; please bin it." -> "salty" (resolved later like "the salty
    one"); "The mug is dirty. Please wipe it." -> "The mug"; "I drank it." -> "drank" (resolved
    as "drink"). Only a context with one such clause counts: two would leave a real choice.
    """
    found = _describing(frame)
    if len(found) != 1:
        return None
    match = found[0]
    if match.group("bare") is not None and not _lifeless_thing(match.group("bare")):
        return None  # "leo's getting hungry", "what's going on": no thing
    return (
        match.group("quality")
        or match.group("subject")
        or match.group("bare")
        or match.group("act")
        or match.group("need")
        or match.group("use")
        or match.group("holder")
        or match.group("spot")
    )


def plural_referent(frame: RequestFrame) -> str | None:
    """The one plural thing the frame's context names, for "them"; else None.

    "Pickle keeps sniffing the tealights, move them onto the sill" -> "the tealights". Every
    noun phrase of the context opened by a determiner whose head looks plural is a candidate
    (:func:`_plural_phrases`); only one, naming a thing of the household taxonomy that is no
    animal, is the answer. Two ("the kids keep knocking the glasses over"), or one the taxonomy
    does not know ("the babies") or that is alive ("the puppies"), leave it to the user: None.
    """
    found = {phrase for clause in frame.context for phrase in _plural_phrases(clause)}
    if len(found) != 1:
        return None
    (phrase,) = found
    return phrase if _lifeless_thing(phrase) else None


def _lifeless_thing(words: str) -> bool:
    """Whether ``words`` name a type of the household taxonomy that is no animal."""
    taxonomy = household_taxonomy()
    named = taxonomy.type_named(words)
    return named is not None and not taxonomy.alive(named)


def _plural_phrases(clause: str) -> list[str]:
    """The noun phrases of ``clause`` opened by a determiner whose head looks plural.

    The head is the first word of a few after the determiner that looks plural; one after
    another word whose singular is a verb of the request grammar is that verb, not a head
    ("the cat keeps sniffing": no plural phrase).
    """
    lexicon = request_words()
    verbs = {words[0] for words in lexicon.verbs} | lexicon.other_verbs
    words = [word.text for word in tokens(clause) if word.text.isalpha()]
    found = []
    for start, word in enumerate(words):
        if word not in DETERMINERS:
            continue
        phrase = words[start + 1 : start + 1 + _PHRASE_WORDS]
        end = next((at for at, said in enumerate(phrase) if looks_plural(said)), None)
        if end is None or DETERMINERS & set(phrase[:end]):
            continue
        if end and verbs & set(singular_forms(phrase[end])):
            continue
        found.append(" ".join([word, *phrase[: end + 1]]))
    return found


_PHRASE_WORDS: Final = 3
"""The most words a picked-up phrase has after its determiner ("the bay tea lights")."""


def _describing(frame: RequestFrame) -> list[re.Match[str]]:
    matches = (CONTEXT_SUBJECT.match(clause.strip()) for clause in frame.context)
    return [match for match in matches if match and _known_need(match)]


def _known_need(match: re.Match[str]) -> bool:
    """Whether a clause that says what "it" needs names a state by it (else it says nothing)."""
    return match.group("done") is None or needed_state(match.group("done")) is not None
