"""What the user said must be kept from a person: "don't give Mia anything made of glass".

An earlier "keep the scissors away from Tom" holds for the rest of the conversation: a later
"give Tom the scissors" is asked about, never done on its word alone (a later message does not
lower what was said without an explicit yes). :func:`kept_from` reads, per person, the
phrases of what must not reach them, from clauses of these forms:

- "don't / do not / never give, hand, pass, bring or offer <person> <thing>", "don't let
  <person> have, touch, use or hold <thing>";
- "don't give ... <thing> to <person>";
- "keep <thing> away from <person>" and "keep <person> away from <thing>";
- "<person> isn't / mustn't / shouldn't / can't be allowed, have, touch, use or hold <thing>"
  and "<person> is not allowed <thing>";
- and, read apart (:func:`not_to_use`), what the robot itself is told not to use: "don't
  use, touch, move, light, open or switch on <thing>", "don't switch <thing> on", "leave
  <thing> alone" ("don't use the bedside lamp, the plug sparks"): a later request to use that
  very thing is asked about.

A person is named by their id's words or any of their names ("Mia", "Mia and Tom", "the
baby", "the kids": every person one of whose names the plural's singular is). Words after the
thing that say when or ask politely ("the knife yet", "any sweets after dinner", "please") are
not the thing. :func:`falls_under` tells whether a thing, by what it is called and known to
be, is what such a phrase names: its head word ("glass", "anything made of glass", "anything
sharp"), a type ("knives": every kind of knife), or anything at all ("don't give Leo
anything").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from typing import Final

from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

_NOT: Final = (
    r"(?:please |you )?(?:don'?t|do not|never|shouldn'?t|should not|mustn'?t|must not)(?: ever)?"
)
_GIVE: Final = r"(?:give|hand|pass|bring|offer|let)"
_HAVE: Final = r"(?:have|touch|use|hold|play with|get)"
_BARRED: Final = (
    r"(?:'s not| isn'?t| is not| aren'?t| are not| mustn'?t| must not| shouldn'?t| should not|"
    r" can'?t| cannot)"
)
_PEOPLE: Final = r"(?:the )?\S+(?: (?:and|or) (?:the )?\S+)*"
"""One or more people as a prohibition names them ("Mia", "the baby", "Mia and Tom")."""
_FORMS: Final = (
    re.compile(rf"^{_NOT} {_GIVE} (?P<thing>.+?) to (?P<person>.+)$"),
    re.compile(rf"^{_NOT} {_GIVE} (?P<person>{_PEOPLE}) (?:{_HAVE} )?(?P<thing>.+)$"),
    re.compile(r"^keep (?P<thing>.+?) away from (?P<person>.+)$"),
    re.compile(r"^keep (?P<person>.+?) away from (?P<thing>.+)$"),
    re.compile(r"^keep (?P<thing>.+?) out of (?:the )?reach of (?P<person>.+)$"),
    re.compile(r"^keep (?P<thing>.+?) out of (?P<person>.+?)'s reach$"),
    re.compile(
        rf"^(?P<person>.+?){_BARRED} (?:be )?(?:allowed (?:to {_HAVE} )?|{_HAVE} |be given )"
        r"(?P<thing>.+)$"
    ),
)
"""The clause forms of a prohibition (module docstring), lower case, apostrophes straight."""
_USE: Final = r"(?:use|touch|move|light|run|start|open|switch on|turn on|plug in)"
_FORMS_TO_ROBOT: Final = (
    re.compile(rf"^{_NOT} {_USE} (?P<thing>.+)$"),
    re.compile(rf"^{_NOT} (?:switch|turn|plug) (?P<thing>.+?) (?:on|in)$"),
    re.compile(r"^leave (?P<thing>.+?) alone$"),
)
"""The clause forms of what the robot is told not to use ("don't use the bedside lamp",
"don't switch the heater on", "leave the iron alone")."""
_WHERE: Final = re.compile(
    r"\s+(?:(?:by|on|in|at|near|next to|beside|behind|under|over|from)\s+"
    r"(?:the|a|an|my|your|his|her|our|their|this|that)\b.*|(?:upstairs|downstairs|outside))$"
)
"""Where the thing is, after its name ("the lamp by the bed", "the heater upstairs"): not the
thing; "the upstairs heater" and "the on switch" keep their words."""
_POINTING: Final = frozenset({"it", "them", "one", "ones"})
"""Words that stand for a thing named elsewhere: a prohibition of them names none alone."""
_WORD: Final = re.compile(r"[a-z]+")
_CLAUSE_END: Final = re.compile(r"[.!?;,]+|\s+(?:but|because|as|since)\s+|\s[-\u2013\u2014]+\s")
_NOT_THE_THING: Final = re.compile(
    r"\s+(?:please|yet|again|now|today|tonight|ever|anymore|any more|after|before|until|till|"
    r"for now|in it|in them|either|though|thanks)\b.*$"
)
"""Words after a thing or a person that say when, or ask politely: not the thing."""
EVERYTHING: Final = frozenset({"anything", "everything", "any"})
"""Words that name any thing at all when nothing else is said ("don't give Leo anything")."""
_FILLER: Final = frozenset([
    "a", "an", "the", "any", "anything", "something", "some", "things", "stuff", "made", "of",
    "that", "this", "those", "these", "his", "her", "their", "my", "your", "our", "its", "from",
    "with",
])  # fmt: skip
"""Words of a prohibition's thing phrase that name no thing ("anything made of glass")."""


def kept_from(
    utterances: Iterable[str], names: Mapping[str, Collection[str]]
) -> dict[str, tuple[str, ...]]:
    """Person id -> the phrases of what the user said must be kept from them, in order.

    ``names``: each person's id -> what they are called (their label, the dictionary's words
    for their age group: :func:`~knowledge.scene.scene_index.age_group_names`).
    """
    kept: dict[str, list[str]] = {}
    for utterance in utterances:
        text = utterance.lower().replace("\u2019", "'")
        for clause in _clauses(text):
            for form in _FORMS:
                match = form.match(clause)
                whom = _people(_NOT_THE_THING.sub("", match["person"]), names) if match else []
                if match and whom:
                    thing = _NOT_THE_THING.sub("", match["thing"]).strip()
                    for person in whom:
                        kept.setdefault(person, []).append(thing)
                    break
    return {person: tuple(dict.fromkeys(phrases)) for person, phrases in kept.items()}


def not_to_use(utterances: Iterable[str]) -> tuple[str, ...]:
    """The phrases of the things the robot itself was told not to use, in order.

    Of the clauses of :data:`_FORMS_TO_ROBOT` whose thing names one ("the lamp by the bed":
    the lamp; "don't switch it on" names none, so nothing is kept nor acknowledged).
    """
    found = [
        thing
        for utterance in utterances
        for clause in _clauses(utterance.lower().replace("\u2019", "'"))
        if (thing := _told_not_to_use(clause))
    ]
    return tuple(dict.fromkeys(found))


def _told_not_to_use(clause: str) -> str:
    """The thing ``clause`` tells the robot not to use, without where it is; "" for none."""
    told = next(filter(None, (form.match(clause) for form in _FORMS_TO_ROBOT)), None)
    thing = _WHERE.sub("", _NOT_THE_THING.sub("", told["thing"])).strip() if told else ""
    return thing if set(_WORD.findall(thing)) - _FILLER - _POINTING else ""


def _clauses(text: str) -> list[str]:
    return [clause.strip() for clause in _CLAUSE_END.split(text) if clause.strip()]


def only_prohibits(text: str) -> bool:
    """Whether every clause of ``text`` keeps something from someone, and nothing else.

    "Don't give Leo the knife, please": there is nothing to do but keep to it (the robot
    acknowledges it); "don't give Leo the knife, give him the spoon" asks for a step too.
    """
    clauses = _clauses(text.lower().replace("\u2019", "'"))
    clauses = [clause for clause in clauses if _NOT_THE_THING.sub("", f" {clause}").strip()]
    return bool(clauses) and all(
        any(form.match(c) for form in _FORMS) or _told_not_to_use(c) for c in clauses
    )


def _people(said: str, names: Mapping[str, Collection[str]]) -> list[str]:
    """The people ``said`` names ("Mia and Tom", "the kids"), by their id's words or a name.

    A plural names everyone one of whose names is its singular ("the kids": every kid).
    """
    found: set[str] = set()
    for one in re.split(r"\s+(?:and|or)\s+", said.strip()):
        words = one.removeprefix("the ").split()
        singular = [*words[:-1], _lemma(words[-1])] if words else []
        for person, called in names.items():
            forms = [person.replace("_", " ").split()]
            forms += [name.lower().split() for name in called]
            forms += [name.lower().split()[:1] for name in called]
            if words in forms or singular in forms:
                found.add(person)
    return sorted(found)


def falls_under(
    phrase: str, words: Iterable[str], types: Collection[str], *, names: Iterable[str] = ()
) -> bool:
    """Whether a thing is what ``phrase`` names, by its ``words`` or its ``types``.

    ``words``: everything the robot calls it or knows it is (its names, its types' labels,
    its materials and hazard flags: "anything made of glass" is a vase of a glass type,
    "anything sharp" a knife). The phrase's head (its last word that names something, or that
    word's dictionary lemma: "knives", a knife) is one of its words, or the phrase names a
    type the thing is (``types`` hold every category above its own). Only the head: "the blue
    mug" is no blue bowl. ``names``: the thing's own names, for the one thing a phrase means
    ("don't use the reading lamp"): a name whose describing words are none of the phrase's is
    another thing ("the floor lamp"); a bare "lamp" or "grandma's lamp" may be it.
    """
    told = _WORD.findall(phrase.lower())
    said = [word for word in told if word not in _FILLER]
    if not said:
        return bool(EVERYTHING & set(told))  # "anything": whatever it is
    own = {word for name in words for word in _WORD.findall(name.lower())}
    head = {said[-1], _lemma(said[-1])}
    describing = set(said[:-1]) - {"s"} - own  # "grandma's": "s" is no word of the thing
    theirs = {word for name in names for word in _WORD.findall(name.lower())[:-1]} - _FILLER
    if describing and theirs and not theirs & set(said):
        return False
    if own & head:
        return True
    taxonomy = household_taxonomy()
    return any(taxonomy.type_named(" ".join([*said[:-1], form])) in types for form in head)


def _lemma(word: str) -> str:
    """The dictionary's noun lemma of ``word`` ("knives": "knife"), else the word."""
    lemmas = shipped_lemmas()
    return (lemmas.lemma_of(word, "noun") if lemmas is not None else None) or word
