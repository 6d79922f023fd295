"""What a tool is for when the taxonomy's list of uses does not say: its definition does.

The taxonomy lists what some types are used for (``cog:usedFor``: a broom, "sweep"). A tool
asked for by a use said with "with" ("something to sweep it up with") that no listed use of a
thing in the belief matches in any way is read by definition (:func:`defined_uses`): the
verbs WordNet's definition of the type says it is for. "a short-handled receptacle into
which dust can be swept": sweep (the dustpan, where there is no broom); "a knife used to cut
bread": cut. Only

- the most frequent sense of the type's label among made things (``noun.artifact``), unless
  the label's most frequent sense of all is a living being (a "dog" is first an animal, and
  its definition as a catch is never read);
- the verbs after "used to" / "used for", "for" + a verb in -ing, "to", "can be" + a
  participle, and a verb joined to one of those by "or" / "and"; "for food or drink" names
  no use, nor do the verbs that say nothing of one (be, have, make, use, hold, keep, ...);
- no type whose things the hazard rules tell apart one by one (:data:`WHICH_MATTERS`:
  medicines, chemicals, blades, heat sources, appliances): a definition is a guess, and
  there a guess harms.

The use said matches with its particle ("sweep up") or without it ("sweep"). A use said
without "with" ("something to eat", "something to drink") names what the thing is, not a
tool, and is never read so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from cogtree.knowledge.scene.fit_for_use import WHICH_MATTERS
from cogtree.knowledge.scene.scene_index import Vocabulary
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import ARTEFACTS, shipped_nouns

DEFINED: Final = "defined use"
"""How a thing matched a use its definition names."""

NO_USE_VERBS: Final = frozenset(
    ["be", "have", "make", "use", "do", "get", "consist", "include", "resemble", "attach",
     "can", "hold", "keep", "take", "provide", "produce", "form", "serve", "fit", "move",
     "contain", "carry", "support"]
)  # fmt: skip
"""Verbs a definition uses that say too little of what the thing is for ("used to hold")."""

LIVING: Final = frozenset(["noun.animal", "noun.person", "noun.plant"])
"""Lexicographer files of living beings: a word first one of them is read as no made thing."""

_USE: Final = re.compile(
    r"\b(?:(?:used (?:to|for)|to|can be) ([a-z]+)|for ([a-z]+ing))((?:(?:,| or| and) [a-z]+)*)"
)
_JOINED: Final = re.compile(r"(?:,| or| and) ([a-z]+)")
_TYPES_CACHED: Final = 2048


def other_uses(
    vocabulary: Vocabulary, use: str, present: Callable[[str], bool]
) -> list[tuple[str, str]]:
    """The kinds ``present`` says the belief holds whose definition names the tool's ``use``.

    As (kind, how); [] when none does.
    """
    verb, _, particle = use.partition(" ")
    said = {use, verb} if particle else {use}
    taxonomy = household_taxonomy()
    found = [
        kind
        for kind, labels in sorted(vocabulary.type_labels.items())
        if labels
        and present(kind)
        and said & defined_uses(labels[0])
        and not taxonomy.properties(kind).flags & WHICH_MATTERS
    ]
    return [(kind, DEFINED) for broad in found for kind in _inheriting(vocabulary, broad, present)]


def _inheriting(vocabulary: Vocabulary, kind: str, present: Callable[[str], bool]) -> list[str]:
    """``kind`` and the kinds under it the belief holds whose own definition names no use.

    Each is matched alone (the resolver does not widen a defined use to the kinds under it).

    A definition says what its own kind is for, and a kind under it with none of its own is
    read by it (a "leaf rake" by "rake"); one with its own is not: "cutlery" is "a cutting
    implement", but a spoon is "used to stir or serve or take up food", and cuts no string.
    """
    under = sorted(vocabulary.narrower.get(kind, {kind}) - {kind})
    own = [
        narrower
        for narrower in under
        if present(narrower) and not defined_uses((vocabulary.type_labels.get(narrower) or [""])[0])
    ]
    return [kind, *own]


@lru_cache(maxsize=_TYPES_CACHED)
def defined_uses(label: str) -> frozenset[str]:
    """The verbs (as lemmas) the definition of the made thing ``label`` says it is for."""
    nouns, lemmas = shipped_nouns(), shipped_lemmas()
    senses = nouns.senses(label) if nouns is not None else ()
    if nouns is None or lemmas is None or not senses:
        return frozenset()
    if nouns.synset(senses[0]).lexname in LIVING:
        return frozenset()  # a "dog" is first an animal: never the catch it also names
    sense = next((s for s in map(nouns.synset, senses) if s.lexname == ARTEFACTS), None)
    if sense is None:
        return frozenset()
    definition = sense.gloss.split('"', 1)[0].lower()
    found: set[str] = set()
    for first, doing, joined in _USE.findall(definition):
        for word in (first or doing, *_JOINED.findall(joined)):
            verb = lemmas.lemma_of(word, "verb")
            if verb is None or verb in NO_USE_VERBS or word in ("a", "an", "the", "one"):
                break  # "for food or drink": no use, nor what is joined to it
            found.add(verb)
    return frozenset(found)
