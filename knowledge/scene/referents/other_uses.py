"""What a thing is for when the taxonomy's list of uses does not say: the dictionary does.

The taxonomy lists what some types are used for (``cog:usedFor``: a broom, "sweep"). A use
the user says that no listed use of a thing in the belief matches ("something to sweep it up
with" where there is a dustpan and no broom; "something to dish it out with") is read two
more ways, in this order, the first that names a thing present winning:

1. by definition (:func:`defined_uses`): the verbs WordNet's definition of the type says it
   is for. "a short-handled receptacle into which dust can be swept": sweep; "a knife used
   to cut bread": cut; "soft material that covers and protects an injured part of the
   body": cover, protect. The definition is that of the label's most frequent
   sense among made things (``noun.artifact``; a type of food or a plant has none read so);
   the verbs are those after "used to" / "used for" / "used in", "for" + a verb in -ing,
   "to", "that" or "which" + a verb in -s or "can" + a verb, "can be" + a participle, and a
   verb joined to one of those by "or" / "and" ("that covers and protects"). The verbs that
   say nothing of a use (be, have, make, use, ...) are left out;
2. in other words (:func:`~knowledge.wordnet.verbs.Verbs.synonyms`): a listed use that shares
   a sense with the verb said ("dish out" and "serve" are one sense: a ladle is used to
   serve), when that verb has at most :data:`MAX_SENSES` senses (its particle kept when
   WordNet knows the verb with it: "get out" has seven, and is not read so).

The use said matches with its particle ("sweep up") or without it ("sweep").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Final

from cogtree.knowledge.scene.scene_index import Vocabulary
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import ARTEFACTS, shipped_nouns
from cogtree.knowledge.wordnet.verbs import shipped_verbs

DEFINED: Final = "defined use"
"""How a thing matched a use its definition names."""

SAID_OTHERWISE: Final = "use said otherwise"
"""How a thing matched a listed use that shares a sense with the one said."""

NO_USE_VERBS: Final = frozenset(
    ["be", "have", "make", "use", "do", "get", "consist", "include", "resemble", "attach", "can"]
)
"""Verbs a definition uses that say nothing of what the thing is for."""

MAX_SENSES: Final = 3
"""The most senses a verb said may have to be read in other words: the synonyms of every sense
of a verb of many ("get out": leave, extract, publish...) say nothing of the use meant."""

_USE: Final = re.compile(
    r"\b(?:(?:used (?:to|for|in)|to|(?:that|which) can|can be) ([a-z]+)"
    r"|for ([a-z]+ing)|(?:that|which) ([a-z]+s)\b)((?:(?:,| or| and) [a-z]+)*)"
)
_JOINED: Final = re.compile(r"(?:,| or| and) ([a-z]+)")
_KINDS_OF_USE: Final = 2048


def other_uses(
    vocabulary: Vocabulary, use: str, present: Callable[[str], bool]
) -> list[tuple[str, str]]:
    """The kinds ``use`` names by definition, else in other words, as (kind, how).

    Only kinds ``present`` says the belief holds count; [] when neither way names one.
    """
    verb, _, particle = use.partition(" ")
    said = [use, verb] if particle else [use]
    defined = [kind for kind in _kinds_defined_for(vocabulary, said) if present(kind)]
    if defined:
        return [(kind, DEFINED) for kind in defined]
    verbs = shipped_verbs()
    known = next((form for form in said if verbs and verbs.senses(form)), None)
    specific = known is not None and verbs is not None and len(verbs.senses(known)) <= MAX_SENSES
    otherwise = verbs.synonyms(known) if specific and verbs and known else ()
    found = {
        kind
        for word in otherwise
        for kind, how in vocabulary.kind_words.get(word, ())
        if how == "use" and present(kind)
    }
    return [(kind, SAID_OTHERWISE) for kind in sorted(found)]


def _kinds_defined_for(vocabulary: Vocabulary, said: Iterable[str]) -> list[str]:
    wanted = set(said)
    return sorted(
        kind
        for kind, labels in vocabulary.type_labels.items()
        if any(wanted & defined_uses(label) for label in labels[:1])
    )


@lru_cache(maxsize=_KINDS_OF_USE)
def defined_uses(label: str) -> frozenset[str]:
    """The verbs (as lemmas) the definition of the made thing ``label`` says it is for."""
    nouns, lemmas = shipped_nouns(), shipped_lemmas()
    if nouns is None or lemmas is None:
        return frozenset()
    sense = next(
        (s for s in map(nouns.synset, nouns.senses(label)) if s.lexname == ARTEFACTS), None
    )
    if sense is None:
        return frozenset()
    definition = sense.gloss.split('"', 1)[0].lower()
    found: set[str] = set()
    for first, doing, told, joined in _USE.findall(definition):
        for word in (first or doing or told, *_JOINED.findall(joined)):
            verb = lemmas.lemma_of(word, "verb")
            if verb is None or verb in NO_USE_VERBS or _article(word):
                break  # "for food or drink": no use, nor what is joined to it
            found.add(verb)
    return frozenset(found)


def _article(word: str) -> bool:
    return word in ("a", "an", "the", "one", "another", "some")
