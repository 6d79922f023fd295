"""Words that say the speaker wants a thing: "can I have the X", "I need X", "need an AA".

The grammar's ``wants`` ("i need", "can i have", "get me", "any chance of") open a request
for a thing, which is brought to the speaker. The "i" of "i need" and "i want" is often
dropped in speech; such a verb alone asks for a thing only before a determiner or a count.
Before "to" no want asks for a thing: "i need to put the bins out" says what the speaker
must do; nor does a want of something unnamed ("I need something") or of how a thing should
be ("I need the dressing table clear": :func:`names_no_thing`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from cogtree.knowledge.language.grammar.clause import Clause
from cogtree.knowledge.language.grammar.object_phrase import ObjectPhrase
from cogtree.knowledge.language.grammar.words import Words, request_words
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas


def wants_at(clause: Clause) -> int:
    """How many words at the cursor say the speaker wants a thing ("i need", "need" alone).

    A want of the lexicon, or its verb with the "i" dropped before a determiner ("need an
    AA"; not "need you to ...", "need someone"); none before "to" ("i need to put the bins
    out": what the speaker must do, not a thing asked for).
    """
    lexicon = clause.lexicon
    said = clause.match(lexicon.wants)
    if not said and clause.word() in _dropped_subject_wants():
        said = int(clause.word(1) in lexicon.determiners or clause.word(1) in lexicon.quantities)
    return said if said and clause.word(said) != "to" else 0


@functools.cache
def _dropped_subject_wants() -> frozenset[str]:
    """The wants said without their "i" ("need an AA", "want the blue one")."""
    return frozenset(want[1] for want in request_words().wants if want[:1] == ("i",))


def names_no_thing(objects: Sequence[ObjectPhrase], lexicon: Words) -> bool:
    """Whether what is wanted names no thing to bring: only indefinites, or how a thing is.

    "I need something" wants nothing named yet. "I need the dressing table clear", "I want my
    tea hot": the one phrase ends with a word the dictionary knows as an adjective, the words
    before it name a type and the whole phrase names none, and the speaker wants the thing
    so, not brought (:func:`~knowledge.scene.taxonomy.Taxonomy.type_named`; "the red mug"
    ends with its noun, "the table salt" and "the bath mat" name types whole).
    """
    if all(phrase.head in lexicon.indefinites for phrase in objects):
        return True
    lemmas = shipped_lemmas()
    if len(objects) != 1 or not objects[0].modifiers or lemmas is None:
        return False
    phrase, taxonomy = objects[0], household_taxonomy()
    thing = taxonomy.type_named(" ".join(phrase.modifiers))
    whole = taxonomy.type_named(" ".join((*phrase.modifiers, phrase.head)))
    return bool(lemmas.lemma_of(phrase.head, "adj")) and thing is not None and whole is None
