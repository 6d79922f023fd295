r"""Ask before acting: the smallest complete cogtree tree, written to be read and copied.

What it shows a tree author:

- a leaf that waits for input (``AwaitUtterance``) without blocking the tick;
- an LLM-backed gate (``ReadinessGate``, :mod:`trees.examples.readiness_gate`) over a
  pydantic task schema, with the cascade: a deterministic fast path (the slot extractor
  below fills every required slot -> Proceed, no model call), a schema-constrained model
  call otherwise, and the COMP guard that never lets the model Proceed while a slot is
  missing;
- a Selector that branches on the gate's decision: act, ask for what is missing, or decline.

Run it::

    cogtree tick cogtree.trees.examples.ask_before_acting:create_root \\
        --say "bring the water bottle to the kitchen" --show-ticks

Tree::

    AskBeforeActing (Sequence)
    ├── AwaitUtterance
    └── Respond (Selector)
        ├── Act (Sequence): ReadinessGate -> Say what it will do
        ├── Ask (Sequence): ControlIs(Clarify) -> Say what is missing
        └── Decline: Say why not
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import py_trees
from pydantic import BaseModel, Field

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance, ControlIs, Say
from cogtree.knowledge.wording import capitalised, joined
from cogtree.trees.examples.readiness_gate import ReadinessGate

ITEMS = ("water bottle", "glass of water", "cup", "mug", "book", "phone", "apple", "remote")
PLACES = ("kitchen", "bedroom", "living room", "bathroom", "hallway", "office")
TO_THE_USER = ("me", "here", "to me")


class FetchTask(BaseModel):
    """Bring an object to a place or to the user."""

    item: str = Field(description="the object to bring, e.g. 'water bottle'")
    destination: str = Field(description="where to bring it: a room, or 'you' for the user")
    recipient: str | None = Field(None, description="who it is for, if the user said")


def extract_fetch_slots(utterance: str) -> dict[str, Any]:
    """Fill the FetchTask slots that a keyword match is sure of; leave the rest out."""
    text = utterance.lower()
    slots: dict[str, Any] = {}
    item = next((name for name in ITEMS if re.search(rf"\b{name}\b", text)), None)
    if item:
        slots["item"] = item
    place = next((name for name in PLACES if re.search(rf"\b{name}\b", text)), None)
    if place:
        slots["destination"] = place
    elif re.search(r"\b(bring|get|fetch|give)\s+me\b|\bto me\b|\bhere\b", text):
        slots["destination"] = "you"
    return slots


def _confirm(values: Mapping[str, Any]) -> str:
    task = values["task"]
    where = "to you" if task.destination == "you" else f"to the {task.destination}"
    return f"I will bring the {task.item} {where}."


def _ask(values: Mapping[str, Any]) -> str:
    questions = {"item": "what should I bring", "destination": "where should I bring it"}
    asked = [questions.get(slot, f"what is the {slot}") for slot in values["missing"]]
    return capitalised(joined(asked) or "what exactly do you need") + "?"


def _decline(values: Mapping[str, Any]) -> str:
    return "Sorry, I can't do that."


def create_root() -> py_trees.behaviour.Behaviour:
    """Build the ask-before-acting tree (a pure factory: no I/O, handles come in setup)."""
    gate = ReadinessGate("ReadinessGate", FetchTask, extract_fetch_slots)
    act = py_trees.composites.Sequence("Act", memory=True)
    act.add_children([gate, Say("SayPlan", _confirm, reads={"task": keys.TASK})])
    ask = py_trees.composites.Sequence("Ask", memory=True)
    ask.add_children(
        [ControlIs("Clarify"), Say("AskMissing", _ask, reads={"missing": keys.MISSING})]
    )
    respond = py_trees.composites.Selector("Respond", memory=False)
    respond.add_children([act, ask, Say("Decline", _decline)])
    root = py_trees.composites.Sequence("AskBeforeActing", memory=True)
    root.add_children([AwaitUtterance(), respond])
    return root
