"""The Advisor domain (JANUS's nutrition advisor): dishes, ingredients, allergens, people.

Ingredients contain other ingredients to any depth and carry nutrition values per 100 g; the 14
allergens are those of EU Regulation 1169/2011; people have daily targets and constraints.

:class:`AdvisorKG` answers questions over the shipped Turtle graph; the answers are the pydantic
models of :mod:`knowledge.packs.domains.advisor.models`.
"""

from cogtree.knowledge.packs.domains.advisor.knowledge_graph import (
    ADV,
    AdvisorDataError,
    AdvisorKG,
    UnknownEntityError,
    load_advisor_graph,
)
from cogtree.knowledge.packs.domains.advisor.models import (
    Compatibility,
    DailyTargets,
    Dish,
    IngredientOccurrence,
    Nutrition,
    Person,
    Reason,
    RecipeLine,
    Term,
    Trace,
)

__all__ = [
    "ADV",
    "AdvisorDataError",
    "AdvisorKG",
    "Compatibility",
    "DailyTargets",
    "Dish",
    "IngredientOccurrence",
    "Nutrition",
    "Person",
    "Reason",
    "RecipeLine",
    "Term",
    "Trace",
    "UnknownEntityError",
    "load_advisor_graph",
]
