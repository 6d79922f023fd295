"""The names of known things, asked about a text: which names it states and what they name.

A reply check asks the names about the reply, never lists them, so its cost grows with the
reply and not with the world (a home of 100k objects has hundreds of thousands of forms).
:class:`EntityNames` is what a check needs: the names a text states (:meth:`~EntityNames.mentions`),
the ids a name stands for (:meth:`~EntityNames.ids_of`) and whether a word is a known name
(:meth:`~EntityNames.knows`). :class:`FormNames` answers from a small mapping of forms to ids
(a fixed set, a belief's things, a test);
:class:`~knowledge.understanding.faithfulness.LexiconNames` answers from lexicons by walking
their token tries over the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import NamedTuple, Protocol


class Named(NamedTuple):
    """One name a text states: as written, the known form it is, and where it is."""

    written: str
    form: str
    start: int
    end: int


class EntityNames(Protocol):
    """The names of known things (forms, case-folded), asked about a text."""

    def mentions(self, text: str) -> Iterator[Named]:
        """Every name ``text`` states, in text order, the longest at each place."""
        ...

    def ids_of(self, form: str) -> frozenset[str]:
        """The ids ``form`` names (empty when it names none)."""
        ...

    def knows(self, word: str) -> bool:
        """Whether ``word`` is, as a whole, the name of a known thing."""
        ...


class FormNames:
    """Names from a mapping of forms (case-folded) to ids: one pattern of every form.

    A form is found as whole words with an optional plural "s"/"es", longest first (so
    phrases beat their words). Building costs the forms once: for small, fixed sets.
    """

    def __init__(self, forms: Mapping[str, frozenset[str]]) -> None:
        self._ids: dict[str, frozenset[str]] = {}
        for form, ids in forms.items():
            self._ids[form.casefold()] = self._ids.get(form.casefold(), frozenset()) | ids
        usable = sorted((form for form in self._ids if form.strip()), key=len, reverse=True)
        alternatives = "|".join(re.escape(form) for form in usable)
        self._pattern = (
            re.compile(rf"(?<!\w)({alternatives})(?:e?s)?(?!\w)", re.IGNORECASE) if usable else None
        )

    def mentions(self, text: str) -> Iterator[Named]:
        """Every form named in ``text`` (see the class)."""
        if self._pattern is None:
            return
        for match in self._pattern.finditer(text):
            yield Named(match.group(0), match.group(1).casefold(), *match.span())

    def ids_of(self, form: str) -> frozenset[str]:
        """The ids of ``form`` (any case)."""
        return self._ids.get(form.casefold(), frozenset())

    def knows(self, word: str) -> bool:
        """Whether ``word`` (any case) is one of the forms."""
        return word.casefold() in self._ids
