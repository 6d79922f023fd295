"""Requests said indirectly: "any chance you could bring me a snack" asks to bring a snack.

People often wrap a request in a question about the listener ("is there any chance you
could ...", "do you think you could ...", "would you be able to ...") or in a wish of their
own ("I was wondering if you could ...", "it would be great if you could ..."). Whatever the
wrapping, the request starts at the verb after the listener and a modal ("you could", "you'd",
"you might possibly"), after "able to", or after "for you to"; the words before it are
politeness and carry no action. :func:`wrapped_request` finds where that verb starts and
:func:`unwrap` moves a clause's cursor there when a verb of the grammar is there, so "do
you think you could" alone, or "you could see it was broken" (no verb of the grammar's),
opens nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cogtree.knowledge.language.grammar.clause import Clause, longest

LISTENER: Final = frozenset(["you", "u", "ya"])
"""Words for the person addressed."""
MODALS: Final = frozenset(["can", "could", "would", "will", "might"])
"""Modals that ask something of the listener after "you" ("you could", "you'd")."""
SOFTENERS: Final = frozenset(["possibly", "please", "just", "maybe", "perhaps", "kindly"])
"""Words that may stand between the modal and the verb ("you could possibly ...")."""
LEADS: Final = (("able", "to"), ("for", "you", "to"))
"""Other words right before the verb of a wrapped request ("be able to", "for you to")."""


def wrapped_request(words: Sequence[str]) -> int | None:
    """Where the verb of a request wrapped in ``words`` starts, else None (lower-case words).

    The first place after a listener and a modal, or after a lead (:data:`LEADS`), with any
    softeners skipped; None when the words wrap nothing ("you could" at the end).
    """
    for index in range(len(words)):
        start = _after_wrapper(words, index)
        if start is not None:
            while start < len(words) and words[start] in SOFTENERS:
                start += 1
            if start < len(words):
                return start
    return None


def _after_wrapper(words: Sequence[str], index: int) -> int | None:
    """The index after a wrapper's last word when one starts at ``index``, else None."""
    if words[index] in LISTENER and index + 1 < len(words) and words[index + 1] in MODALS:
        return index + 2
    if words[index].endswith("'d") and words[index][:-2] in LISTENER:
        return index + 1  # "you'd": one token
    for lead in LEADS:
        if tuple(words[index : index + len(lead)]) == lead:
            return index + len(lead)
    return None


def unwrap(clause: Clause) -> None:
    """Move ``clause``'s cursor to the verb of a request said indirectly, if it wraps one.

    Nothing moves when a verb of the grammar is at the cursor already or none is where the
    wrapping ends ("you could see it was broken").
    """
    if clause.match(clause.lexicon.verbs):
        return
    start = wrapped_request([word.text for word in clause.words[clause.at :]])
    if start and longest(clause.words, clause.at + start, clause.lexicon.verbs):
        clause.at += start
