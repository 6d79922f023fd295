"""Where a relative clause opens after a thing's noun: "the mug that's on the side".

A relative clause says more about the thing and is no part of its name ("any rubbish that's
lying about", "the mug I left on the table", "the book she was reading"). It opens with one of
the grammar's ``relatives`` (``request_words.yaml``): a subject pronoun opens one on its own
("the mug I left"), and so does a contracted relative ("that's"); a bare relative pronoun
("that", "which", "who") only when a verb's auxiliary, a copula or a subject follows it, since
"give the dog that chocolate" names a second thing with "that" as its determiner.
"""

from __future__ import annotations

from typing import Final

from cogtree.knowledge.language.grammar.words import Words

BARE_RELATIVES: Final = frozenset(["that", "which", "who"])
"""Relative pronouns that are also determiners or question words: they need a clause after."""
AUXILIARIES: Final = frozenset(
    ["has", "had", "have", "will", "would", "can", "could", "should", "might", "must", "may",
     "did", "does", "do", "used"]
)  # fmt: skip
"""Verbs that open a clause after a bare relative pronoun ("the mug that has a chip")."""


def opens_relative(word: str, after: str, lexicon: Words) -> bool:
    """Whether ``word`` (followed by ``after``) opens a relative clause after a noun."""
    if word not in lexicon.relatives:
        return False
    if word not in BARE_RELATIVES:
        return True
    return after in lexicon.copulas or after in AUXILIARIES or after in lexicon.relatives
