"""What happened, not what is wanted: "the kettle sparked" tells, "the boiled eggs" asks.

A request that is only a thing ("a biscuit please") asks for it; the same words followed by a
finite verb tell what happened to the thing ("the kettle base has packed in", "the beans
boiled over", "the hoover keeps beeping"). :func:`tells_what_happened` finds that verb: a form
of *have* or *keep* after the subject, or a past form that no content word follows (a past
form before a noun only describes it: "the chopped onions").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from cogtree.knowledge.wording import IRREGULAR_VERBS, verb_bases

FINITE_AUXILIARIES: Final = frozenset(["has", "had", "keeps", "kept"])
"""Verbs that, after a thing's name, always tell something of it ("the base has packed in")."""


def tells_what_happened(words: Sequence[str], index: int, content: Callable[[str], bool]) -> bool:
    """Whether the word at ``index`` is a finite verb of a statement after its subject.

    ``content`` says whether a word is a content word (a noun or an adjective the grammar
    does not list).
    """
    word, after = words[index], words[index + 1] if index + 1 < len(words) else ""
    if word in FINITE_AUXILIARIES:
        return True
    past = word in IRREGULAR_VERBS or (word.endswith("ed") and bool(verb_bases(word)))
    return past and not content(after)
