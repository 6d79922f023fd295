"""Task schemas of plain memory writes that any pack may offer.

- :class:`Note`: "remember that Mia comes on Sunday": kept as the user said it, an ``other``
  fact with its own text as key, so a memory question ("when is Mia coming?") finds it later;
- :class:`Introduction`: "my name is Sam": the user's name, an identifier on ``user.name``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogtree.knowledge.memory.model import Claim
from cogtree.knowledge.memory.polarity import is_bare_answer


class Note(BaseModel):
    """Remember something the user says, as they said it."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    fact: str = Field(
        min_length=1,
        max_length=300,
        description="what to remember, as the user said it (e.g. the bins go out every week)",
    )
    about: str | None = Field(
        None,
        max_length=120,
        description="the thing the fact is about when the user said it apart, as said: "
        "the answer 'on the counter' to the robot's question where the honey is",
    )

    def claims(self) -> list[Claim]:
        """One stated claim: ``The user said: [<about>] <fact>``."""
        said = f"{self.about} {self.fact}" if self.about else self.fact
        return [Claim(text=f"The user said: {said.rstrip('.')}", source="stated")]


class Introduction(BaseModel):
    """The user says who they are: remember their name."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str = Field(
        min_length=1, max_length=80, description="the user's name, as they say it (e.g. Sam)"
    )

    @field_validator("name")
    @classmethod
    def _not_an_answer_word(cls, name: str) -> str:
        """Refuse a name that only answers the robot ("yes", "ok"), whoever filled the slot."""
        if is_bare_answer(name):
            raise ValueError(f"{name!r} answers a question; it is not a name")
        return name

    def claims(self) -> list[Claim]:
        """One stated identifier on ``user.name``: ``The user's name is <name>``."""
        return [
            Claim(
                text=f"The user's name is {self.name}",
                kind="identifier",
                slot="user.name",
                source="stated",
            )
        ]
