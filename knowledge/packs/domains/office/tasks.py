"""Task schemas of the office pack: deliver, print, get a signature, borrow, open errands.

People are part of these tasks (InteractGen): a colleague receives, prints, signs or lends.
Values are what the user said; PostProcess resolves scene values to nodes of the robot's
scene graph, and text values are kept as said.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Deliver(BaseModel):
    """Take an item to a colleague."""

    model_config = ConfigDict(extra="forbid")

    item: str = Field(description="which item to deliver")
    recipient: str = Field(description="who should receive it")


class Print(BaseModel):
    """Have a document printed (by a colleague who can print) and bring the printout."""

    model_config = ConfigDict(extra="forbid")

    document: str = Field(description="which document to print")
    helper: str | None = Field(None, description="who should print it, if the user says")
    destination: str | None = Field(
        None, description="where to put the printout, if the user says (default: bring it back)"
    )


class GetSignature(BaseModel):
    """Take a document to a colleague for signing and bring it back."""

    model_config = ConfigDict(extra="forbid")

    document: str = Field(description="which document needs a signature")
    signer: str = Field(description="who has to sign it")


class Borrow(BaseModel):
    """Borrow an item from a colleague and bring it to the person who asked."""

    model_config = ConfigDict(extra="forbid")

    item: str = Field(description="which item to borrow")
    owner: str | None = Field(None, description="whom to borrow it from, if the user says")


class Assist(BaseModel):
    """An open errand (get a room ready): the planner works out the steps and who does them."""

    model_config = ConfigDict(extra="forbid")

    need: str = Field(description="what should be done, as the person said it")
