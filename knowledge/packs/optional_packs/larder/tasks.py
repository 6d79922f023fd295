"""Task schemas of the larder pack (grounded on SQLite): stock levels and what to use first."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class StockLevel(BaseModel):
    """How much of a food is left, where it is and until when it keeps."""

    model_config = ConfigDict(extra="forbid")

    item: str = Field(description="which food to look up in the larder")


class UseFirst(BaseModel):
    """The foods that go off first, in one place or anywhere."""

    model_config = ConfigDict(extra="forbid")

    place: str | None = Field(None, description="where to look: fridge, freezer, cupboard, shelf")
