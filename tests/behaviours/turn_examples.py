"""Turn states several behaviour tests start from."""

from __future__ import annotations

from cogtree.knowledge.understanding.turn_state import PendingTask

ALLERGY_QUESTION = PendingTask(
    domain="advisor",
    task="AddToDatabase",
    slots={"relation": "allergy"},
    missing=["targets"],
    said=["please add to my allergies"],
    question="Which foods are you allergic to?",
)
"""The robot asked which foods the user is allergic to, and waits for the answer."""
