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
  and "<person> is not allowed <thing>".

A person is named by their id's words or what the scene calls them ("Mia"), or as "the kids"
or "the children" (every child). :func:`falls_under` tells whether a thing, by its names,
material and types, is what such a phrase names: a word of it ("glass"), a material ("anything
made of glass"), or a type ("knives": every kind of knife).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from typing import Final

from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas

_NOT: Final = r"(?:don'?t|do not|never|please don'?t|please do not)"
_GIVE: Final = r"(?:give|hand|pass|bring|offer|let)"
_HAVE: Final = r"(?:have|touch|use|hold|play with|get)"
_BARRED: Final = (
    r"(?:isn'?t|is not|aren'?t|are not|mustn'?t|must not|shouldn'?t|should not|can'?t|cannot)"
)
_FORMS: Final = (
    re.compile(rf"^{_NOT} {_GIVE} (?P<thing>.+?) to (?P<person>.+)$"),
    re.compile(
        rf"^{_NOT} {_GIVE} (?P<person>the kids|the children|\S+) (?:{_HAVE} )?(?P<thing>.+)$"
    ),
    re.compile(r"^keep (?P<thing>.+?) away from (?P<person>.+)$"),
    re.compile(r"^keep (?P<person>.+?) away from (?P<thing>.+)$"),
    re.compile(
        rf"^(?P<person>.+?) {_BARRED} (?:be )?(?:allowed (?:to {_HAVE} )?|{_HAVE} |be given )"
        r"(?P<thing>.+)$"
    ),
)
"""The clause forms of a prohibition (module docstring), lower case, apostrophes straight."""
_WORD: Final = re.compile(r"[a-z]+")
_CLAUSE_END: Final = re.compile(r"[.!?;,]+|\s+(?:but|because|as|since)\s+|\s[-\u2013\u2014]+\s")
_FILLER: Final = frozenset([
    "a", "an", "the", "any", "anything", "something", "some", "things", "stuff", "made", "of",
    "that", "this", "those", "these", "his", "her", "their", "my", "your", "our", "its", "from",
    "with",
])  # fmt: skip
"""Words of a prohibition's thing phrase that name no thing ("anything made of glass")."""
CHILDREN_WORDS: Final = frozenset({"kids", "children", "the kids", "the children", "kiddies"})
"""What names every child in the house."""


def kept_from(
    utterances: Iterable[str], names: Mapping[str, str], children: Collection[str] = ()
) -> dict[str, tuple[str, ...]]:
    """Person id -> the phrases of what the user said must be kept from them, in order.

    ``names``: each person's id -> what the scene calls them (their label, or the id);
    ``children``: the ids of the children, whom "the kids" names.
    """
    kept: dict[str, list[str]] = {}
    for utterance in utterances:
        text = utterance.lower().replace("\u2019", "'")
        for clause in (c.strip() for c in _CLAUSE_END.split(text) if c.strip()):
            for form in _FORMS:
                match = form.match(clause)
                whom = _people(match.group("person"), names, children) if match else []
                if match and whom:
                    for person in whom:
                        kept.setdefault(person, []).append(match.group("thing").strip())
                    break
    return {person: tuple(dict.fromkeys(phrases)) for person, phrases in kept.items()}


def _people(said: str, names: Mapping[str, str], children: Collection[str]) -> list[str]:
    """The people ``said`` names: by their id's or their name's words, or every child."""
    said = said.strip()
    if said in CHILDREN_WORDS:
        return sorted(children)
    words = said.removeprefix("the ").split()
    return sorted(
        person
        for person, name in names.items()
        if words in ([person.replace("_", " ")], name.lower().split(), name.lower().split()[:1])
    )


def falls_under(
    phrase: str, names: Iterable[str], material: str | None, types: Collection[str]
) -> bool:
    """Whether a thing of ``names``, ``material`` and ``types`` is what ``phrase`` names.

    A content word of the phrase (or its dictionary lemma: "knives", a knife) is a word of one
    of its names or its material, or the phrase names a type the thing is (``types`` hold
    every category above its own: "knives" for a cleaver).
    """
    said = [word for word in _WORD.findall(phrase.lower()) if word not in _FILLER]
    if not said:
        return False
    own = {
        word for name in (*names, material or "") for word in re.findall(r"[a-z]+", name.lower())
    }
    forms = [{word, _lemma(word)} for word in said]
    if any(own & {form for form in word_forms} for word_forms in forms):
        return True
    taxonomy = household_taxonomy()
    heads = {" ".join([*said[:-1], form]) for form in forms[-1]}
    return any(taxonomy.type_named(head) in types for head in heads)


def _lemma(word: str) -> str:
    """The dictionary's noun lemma of ``word`` ("knives": "knife"), else the word."""
    lemmas = shipped_lemmas()
    return (lemmas.lemma_of(word, "noun") if lemmas is not None else None) or word
