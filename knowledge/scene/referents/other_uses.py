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
without "with" nor an object of its own ("something to eat", "something to drink") names
what the thing is, not a tool, and is never read so; one with its own object is a tool's
("something to scoop it up": :mod:`.description`).

A tool's use that no listed use nor definition names may be what the thing is called by:
its label's last word is the use's verb or the doer of it (:func:`named_for`: "a coat
hanger" for "something to hang this shirt on", "a garden kneeler" for "... to kneel on") -
words of the label a type need not know. Such a match is a guess the robot proposes ("Do you
mean the coat hanger?"): a label says little of harm ("mandoline slicer").

When no use verb of a definition matches either, the whole purpose of a tool ("... with") or
of a verb that says little alone, with what follows it ("keep me warm"), is held against the
definitions (:func:`described_uses`; never "something to drink now": what the thing is).
"something to water the toms with" shares "water" with a watering can's ("... used to
sprinkle water over plants"), "something to keep these pages together" shares "together"
with a stapler's, "something to keep me warm" "warm" with a blanket's. Of the made things
the belief holds (the same limits as above), those whose definition shares the most words of
the purpose (as lemmas; :data:`NO_USE_VERBS` and words that name nothing,
:data:`SAYS_NOTHING`, not counted), when one word at least.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Final

from cogtree.knowledge.scene.fit_for_use import WHICH_MATTERS
from cogtree.knowledge.scene.scene_index import Vocabulary
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import ARTEFACTS, LIVING, Synset, shipped_nouns

DEFINED: Final = "defined use"
"""How a thing matched a use its definition names."""

NO_USE_VERBS: Final = frozenset(
    ["be", "have", "make", "use", "do", "get", "consist", "include", "resemble", "attach",
     "can", "hold", "keep", "take", "provide", "produce", "form", "serve", "fit", "move",
     "contain", "carry", "support"]
)  # fmt: skip
"""Verbs a definition uses that say too little of what the thing is for ("used to hold")."""

_USE: Final = re.compile(
    r"\b(?:(?:used (?:to|for)|to|can be) ([a-z]+)|for ([a-z]+ing))((?:(?:,| or| and) [a-z]+)*)"
)
_JOINED: Final = re.compile(r"(?:,| or| and) ([a-z]+)")
_TYPES_CACHED: Final = 2048


def says_little(term: str, purpose: tuple[str, ...]) -> bool:
    """Whether ``term`` is the verb of ``purpose`` and says little alone ("keep me warm")."""
    return purpose[:1] == (term,) and term in NO_USE_VERBS


def kinds_for(
    vocabulary: Vocabulary,
    term: str,
    use: str | None,
    purpose: tuple[str, ...],
    present: Callable[[str], bool],
) -> list[tuple[str, str]]:
    """What a tool's ``use`` or a thing's ``purpose`` names when no listed use matched ``term``.

    By a definition's use verbs (:func:`other_uses`, for a tool's use whose verb says enough),
    else by a definition's words (:func:`described_uses`). As (kind, how).
    """
    told = term == use and not says_little(term, purpose)
    return (other_uses(vocabulary, term, present) if told else []) or described_uses(
        vocabulary, purpose, present
    )


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


NAMED_FOR: Final = "named use"
"""How a thing matched a tool's use its own name says ("coat hanger": to hang)."""


def named_for(use: str) -> frozenset[str]:
    """The nouns that name a tool by its ``use``'s verb: the verb itself, or the doer of it.

    "file" (a nail file), "hanger", "kneeler", "scraper", "cutter", "stopper": as the
    dictionary knows them as nouns. None for a verb that says little (:data:`NO_USE_VERBS`).
    """
    verb = use.split()[0]
    lemmas = shipped_lemmas()
    if lemmas is None or verb in NO_USE_VERBS or not verb.isalpha():
        return frozenset()
    doers = {verb, f"{verb}er", f"{verb}{verb[-1]}er", f"{verb}r" if verb.endswith("e") else ""}
    return frozenset(noun for noun in doers if noun and lemmas.lemma_of(noun, "noun") == noun)


DESCRIBED: Final = "described use"
"""How a thing matched a purpose whose words its definition shares."""

SAYS_NOTHING: Final = frozenset(
    ["a", "an", "the", "and", "or", "of", "to", "for", "with", "in", "on", "into", "onto",
     "over", "up", "out", "off", "down", "back", "away", "it", "them", "me", "us", "him",
     "her", "this", "that", "these", "those", "my", "your", "his", "their", "our", "all",
     "some", "any", "thing", "things", "bit", "one", "can", "could", "i", "we", "you",
     "from", "at", "when", "another", "etc", "usually", "often", "frequently", "is", "are"]
)  # fmt: skip
"""Words of a purpose that say nothing a definition could share ("to put it in")."""

DESCRIBING: Final = frozenset(["be", "have", "consist", "include", "resemble"])
"""Verbs by which a definition says what a thing is, not what it does ("that has bristles")."""

_GLOSS_WORD: Final = re.compile(r"[a-z]+(?:-[a-z]+)*")
_FOR: Final = re.compile(r"\b(?:used (?:to|for)|that|which|for|to)\b")
"""What opens the part of a definition that says what the thing does or is for ("a machine
that inserts staples", "...; used to sprinkle water"), up to a semicolon: only its words
count, not those of what the thing is like ("a shallow bowl-shaped container")."""


def described_uses(
    vocabulary: Vocabulary, purpose: tuple[str, ...], present: Callable[[str], bool]
) -> list[tuple[str, str]]:
    """The kinds ``present`` says the belief holds whose definition best shares ``purpose``.

    As (kind, how); [] when no definition shares a word of it (module docstring).
    """
    content = [word for word in purpose if word not in SAYS_NOTHING]
    tool = purpose[-1:] == ("with",)  # "something to water the toms with"
    if not content or not (tool or (content[0] in NO_USE_VERBS and len(content) > 1)):
        return []  # "something to drink (now)": what the thing is, no tool's use or a result
    verb, rest = _lemmas(content[0]), _lemmas_of(content[1:])
    taxonomy = household_taxonomy()
    shared = {}
    for kind, labels in sorted(vocabulary.type_labels.items()):
        if labels and present(kind) and not taxonomy.properties(kind).flags & WHICH_MATTERS:
            does, of_what = _defined_words(labels[0])
            shared[kind] = len(verb & (does | of_what)) + len(rest & of_what)
    best = max(shared.values(), default=0)
    found = [kind for kind, count in shared.items() if best and count == best]
    return [(kind, DESCRIBED) for kind in found]


@lru_cache(maxsize=_TYPES_CACHED)
def _defined_words(label: str) -> tuple[frozenset[str], frozenset[str]]:
    """What the definition of the made thing ``label`` says it does, and the words after.

    As lemmas: its verbs ("used to stir or serve": stir, serve) and the rest ("food"). Only the
    verbs of a purpose match the verbs ("the cut" is no "for cutting"), its other words the rest.
    """
    sense, lemmas = _made_sense(label), shipped_lemmas()
    if sense is None or lemmas is None:
        return frozenset(), frozenset()
    definition = sense.gloss.split('"', 1)[0].lower()
    words: list[str] = []
    for opened in _FOR.finditer(definition):  # not "that has hairs", "that is open": what it is
        words = _GLOSS_WORD.findall(definition[opened.end() :].split(";", 1)[0])
        verb = lemmas.lemma_of(words[0], "verb") if words else None
        if verb is not None and verb not in DESCRIBING:
            break
        words = []
    verbs = words[:1]
    while len(words) > len(verbs) * 2 and words[len(verbs) * 2 - 1] in ("or", "and"):
        verbs.append(words[len(verbs) * 2])  # "stir or serve or take"
    return _lemmas_of(verbs), _lemmas_of(words[len(verbs) * 2 - 1 :] if verbs else [])


def _lemmas_of(words: Iterable[str]) -> frozenset[str]:
    """The lemmas (:func:`_lemmas`) of ``words`` that say something."""
    return frozenset().union(*(_lemmas(word) for word in words if word not in SAYS_NOTHING))


def _lemmas(word: str) -> frozenset[str]:
    """``word`` and its lemmas as a verb, a noun and an adjective ("covers": cover)."""
    lemmas = shipped_lemmas()
    if lemmas is None or word in NO_USE_VERBS:
        return frozenset()
    forms = {word, *(lemmas.lemma_of(word, pos) for pos in ("verb", "noun", "adj"))} - {None}
    return frozenset() if forms & NO_USE_VERBS else frozenset(form for form in forms if form)


@lru_cache(maxsize=_TYPES_CACHED)
def defined_uses(label: str) -> frozenset[str]:
    """The verbs (as lemmas) the definition of the made thing ``label`` says it is for."""
    sense, lemmas = _made_sense(label), shipped_lemmas()
    if sense is None or lemmas is None:
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


def _made_sense(label: str) -> Synset | None:
    """The most frequent sense of ``label`` among made things; None for a living being first.

    A "dog" is first an animal: never the catch it also names.
    """
    nouns = shipped_nouns()
    senses = nouns.senses(label) if nouns is not None else ()
    if nouns is None or not senses or nouns.first_in(label, LIVING):
        return None
    return next((s for s in map(nouns.synset, senses) if s.lexname == ARTEFACTS), None)
