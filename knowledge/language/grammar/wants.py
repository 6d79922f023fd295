"""Words that say the speaker wants a thing: "can I have the X", "I need X", "need an AA".

The grammar's ``wants`` ("i need", "can i have", "get me", "any chance of") open a request
for a thing, which is brought to the speaker. The "i" of "i need" and "i want" is often
dropped in speech; such a verb alone asks for a thing only before a determiner or a count.
Before "to" no want asks for a thing: "i need to put the bins out" says what the speaker
must do.
"""

from __future__ import annotations

import functools

from cogtree.knowledge.language.grammar.clause import Clause
from cogtree.knowledge.language.grammar.words import request_words


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
