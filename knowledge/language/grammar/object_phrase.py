"""A noun phrase as the request grammar reads it, and the person who speaks.

:mod:`~knowledge.language.request_frame` reads each step's things, places, recipients and
tools as :class:`ObjectPhrase`; the readers of a frame (slot filling, purposes, contents,
missing steps) take them apart by their fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SPEAKER: Final = "speaker"
"""The ``person`` of a recipient phrase that is the one speaking ("me", "us")."""


@dataclass(frozen=True)
class ObjectPhrase:
    """A noun phrase as the user said it.

    ``text`` is the whole phrase ("the small red mug", "a glass of water"), ``head`` the word that
    names the thing ("mug"), ``modifiers`` the words before it ("small", "red"), ``determiner``
    ("the", "my", "that"), ``quantity`` ("two", "a glass of"). ``negated``: the user does not want
    it ("not chips"); ``alternative``: joined to the previous phrase by "or"; ``pronoun``: it names
    nothing on its own ("it", "that one"); ``person``: :data:`SPEAKER` for me/us, the name for a
    named person, else empty. ``where``: a place phrase that only says where the thing is ("on the
    kitchen table"); ``preposition``: the words before the phrase as said ("next to", "out of"),
    when it followed one; ``relative``: a relative clause after it, as said ("I could eat").
    """

    text: str
    head: str
    modifiers: tuple[str, ...] = ()
    determiner: str = ""
    quantity: str = ""
    negated: bool = False
    alternative: bool = False
    pronoun: bool = False
    person: str = ""
    where: str = ""
    preposition: str = ""
    relative: str = ""

    @property
    def described(self) -> str:
        """The phrase with the place it is said to be in ("the bottle on the table")."""
        return f"{self.text} {self.where}".strip()
