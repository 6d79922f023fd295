"""``Note``: the task schema of a pack's plain memory write ("remember that Mia comes on Sunday").

What the user asks the robot to remember is kept as they said it, as an ``other`` fact with
its own text as key, so a memory question ("when is Mia coming?") can find it later.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from knowledge.memory_model import Claim


class Note(BaseModel):
    """Remember something the user says, as they said it."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    fact: str = Field(
        min_length=1,
        max_length=300,
        description="what to remember, as the user said it (e.g. Mia comes on Sunday)",
    )

    def claims(self) -> list[Claim]:
        """One stated claim: ``The user said: <fact>``."""
        return [Claim(text=f"The user said: {self.fact.rstrip('.')}", source="stated")]
