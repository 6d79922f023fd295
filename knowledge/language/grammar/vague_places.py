"""Vague places: "put it somewhere nice", "find a place for the vase".

A vague place ("somewhere", the grammar's ``vague_places``) names no thing: an adjective after
it says what place (:func:`says_what_place`: "somewhere nice" is no thing called nice). Asked
to find a place for a thing ("find somewhere for the vase", "find a spot for the plant"), the
robot is asked to put the thing in a place not yet said (:func:`a_place_for`), and asks where.
"Put it where it goes" names the thing's own place (:func:`where_it_goes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cogtree.knowledge.language.grammar.clause import Clause, longest
from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.grammar.words import Words, request_words
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wording import POSSESSIVES
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import ANIMALS, ARTEFACTS, BEINGS, shipped_nouns

LOCATION: Final = "noun.location"
"""The English dictionary's file of places: a noun first in it names a place ("a spot")."""
THINGS: Final = frozenset([ARTEFACTS, "noun.food", "noun.plant", "noun.object", "noun.substance"])
"""The dictionary's files of things that can be put somewhere (made things, food, plants)."""


def place_follows(clause: Clause) -> bool:
    """Whether a preposition of place follows the vague place at the cursor.

    "somewhere near the bowl" is near the bowl; "somewhere for the vase" (whom or what for) is
    no place (:func:`a_place_for`).
    """
    size = longest(clause.words, clause.at + 1, clause.lexicon.prepositions)
    said = tuple(clause.word(offset) for offset in range(1, size + 1))
    return bool(size) and clause.lexicon.prepositions[said][0] != "recipient"


def names_no_place(clause: Clause, action: str, objects: Sequence[ObjectPhrase]) -> bool:
    """Whether the word at the cursor is a vague place that is no place of the step's, read past.

    When a place follows it (:func:`place_follows`), or when the step only looks and has its
    ``objects`` (the grammar's :meth:`~knowledge.language.grammar.words.Words.only_looks`):
    "have you seen my keys anywhere" looks everywhere, and names no landmark ("find
    somewhere for the vase" is read by :func:`a_place_for`).
    """
    if clause.word() not in clause.lexicon.vague_places:
        return False
    return place_follows(clause) or (bool(objects) and clause.lexicon.only_looks(action))


def says_what_place(clause: Clause) -> bool:
    """Whether the word after the vague place at the cursor is an adjective ending the phrase.

    "put them somewhere nice", "somewhere dry for the towels": it says what place, names no
    thing (the English dictionary knows it as an adjective).
    """
    lemmas = shipped_lemmas()
    word = clause.word(1)
    return lemmas is not None and lemmas.lemma_of(word, "adj") is not None and clause.closes(2)


def a_place_for(
    action: str,
    objects: Sequence[ObjectPhrase],
    landmark: ObjectPhrase | None,
    for_thing: ObjectPhrase | None,
) -> ObjectPhrase | None:
    """The thing of "find a place / somewhere for X": X is to be put in a place not yet said.

    ``action``, ``objects``, ``landmark``: the step's so far; ``for_thing``: a thing after
    "for" once it had its object. A find whose object is a vague place ("somewhere") or a
    noun whose first sense in the English dictionary is a location ("a place", "a spot", "a
    home"), said with no place of its own, with a thing after "for" (:func:`_portable`). None
    for any other step: "find the remote for me", "find a seat for grandma", "find a home for
    the kitten", "find a place on the counter for the kettle" (a place is said: the find is
    left as it was).
    """
    if action != "find" or len(objects) != 1:
        return None
    [found] = objects
    vague = landmark is not None and landmark.head in request_words().vague_places
    if vague and found.preposition == "for":
        return found if _portable(found) else None
    nouns = shipped_nouns()
    files = nouns.files(found.head) if nouns is not None and not found.pronoun else ()
    located = files[:1] == (LOCATION,)
    if not located or found.where or for_thing is None:
        return None
    return for_thing if _portable(for_thing) else None


def _portable(phrase: ObjectPhrase) -> bool:
    """Whether a phrase names a thing that can be put somewhere: no person, animal or event.

    A household type the taxonomy knows that is no animal ("the oven cleaner", "the doll"),
    but for one the speaker owns that may be an animal ("my fish"); else a noun that may not
    name a person or an animal in its two most frequent senses ("my mum" is first a flower,
    then a mother) and whose first sense in the English dictionary is a made thing, a food, a
    plant, a natural object or a substance ("the sunflowers"; not "the party").
    """
    if phrase.person or phrase.pronoun:
        return False
    taxonomy, nouns, lemmas = household_taxonomy(), shipped_nouns(), shipped_lemmas()
    named = " ".join([*phrase.modifiers, phrase.head])
    if phrase.modifiers and (kind := taxonomy.type_named(named)) is not None:
        return not taxonomy.alive(kind)
    if nouns is None or lemmas is None:
        return False
    head = lemmas.lemma_of(phrase.head, "noun") or phrase.head  # "knives": knife
    frequent = nouns.files(head)[:2]
    owned = phrase.determiner in POSSESSIVES and ANIMALS in frequent
    if (kind := taxonomy.type_named(head)) is not None and not owned:
        return not taxonomy.alive(kind)
    return bool(frequent) and frequent[0] in THINGS and not BEINGS.intersection(frequent)


def where_it_goes(objects: Sequence[ObjectPhrase], lexicon: Words) -> str:
    """The action of "put X where it goes": "put away"'s, or "throw away"'s for rubbish."""
    said = {word for phrase in objects for word in phrase.modifiers}
    return lexicon.verbs["throw" if said & lexicon.waste_words else "put", "away"][1]
